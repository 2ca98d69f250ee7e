#!/usr/bin/env bash
# A real single-node Slurm: starts munged, slurmctld and slurmd on localhost
# (Debian's slurm-wlm and munge, a config of its own in a temporary folder,
# its own ports and state), runs the 1,000-point sweep of the GPT block
# (examples/gpt_block_sweep.yaml) through it as a job array of four tasks
# (dfa-sweep --slurm, sbatch --wait), merges the shards and compares the
# merged results and CSV byte for byte with the same sweep run locally; then
# stops the daemons. Prints 'slurm sweep: ok', or 'slurm sweep: skipped:'
# and why when this machine cannot run the daemons (no slurm-wlm, a daemon
# that does not start, a node that does not come up: the machine's, not
# dfa's), or what went wrong (exit 1).
#   test/slurm/slurm_sweep.sh BIN_DIR
set -uo pipefail
bin="$(cd "${1:?usage: slurm_sweep.sh BIN_DIR}" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
spec="$here/../../examples/gpt_block_sweep.yaml"
for t in munged slurmctld slurmd sbatch; do
  command -v "$t" > /dev/null || [ -x "/usr/sbin/$t" ] || { echo "slurm sweep: skipped: $t not found (scripts/setup.sh installs slurm-wlm and munge)"; exit 0; }
done
export PATH="/usr/sbin:$PATH"
work="$(mktemp -d /tmp/dfa-slurm.XXXXXX)"
chmod 755 "$work"
pids=()
cleanup() {
  for f in slurmd slurmctld munged; do
    [ -f "$work/$f.pid" ] && kill "$(cat "$work/$f.pid")" 2> /dev/null
  done
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
  sleep 0.5
  [ -n "${DFA_SLURM_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
logs() {
  for log in munged.log slurmctld.log slurmd.log; do
    [ -f "$work/$log" ] && { echo "--- $log"; tail -n 15 "$work/$log"; }
  done
}
skip() { echo "slurm sweep: skipped: $*"; logs; exit 0; }
fail() { echo "slurm sweep: $*"; logs; exit 1; }
port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# munge: a key of its own, a socket of its own.
mkdir -p "$work/munge" "$work/state" "$work/spool"
dd if=/dev/urandom bs=1 count=1024 of="$work/munge/munge.key" 2> /dev/null
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" \
  --seed-file="$work/munge/seed" || skip "munged did not start"

cpus=$(nproc)
cat > "$work/slurm.conf" <<CONF
ClusterName=dfatest
SlurmctldHost=localhost
SlurmUser=$(id -un)
SlurmdUser=root
SlurmctldPort=$(port)
SlurmdPort=$(port)
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=localhost CPUs=$cpus State=UNKNOWN
PartitionName=dfa Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -c || skip "slurmctld did not start"
slurmd -N localhost || skip "slurmd did not start"
for i in $(seq 60); do
  state=$(sinfo -h -N -o '%T' 2> /dev/null | head -1)
  case "$state" in idle*|mix*|alloc*) break ;; esac
  sleep 0.5
done
case "$state" in idle*|mix*|alloc*) ;; *) skip "the node did not come up (state '$state')" ;; esac

# The sweep: locally, and as a job array of three shards.
cd "$work"
"$bin/dfa-sweep" "$spec" -j 2 -o "$work/local.jsonl" --quiet || fail "the local sweep failed"
timeout 180 "$bin/dfa-sweep" "$spec" --slurm --slurm-tasks 4 -j 1 --slurm-arg --wait \
  -o "$work/cluster.jsonl" > "$work/submit.txt" 2>&1 || { cat "$work/submit.txt"; fail "the Slurm sweep failed"; }
ls "$work"/cluster.jsonl.shard*.jsonl > /dev/null 2>&1 || fail "no shard files ($(cat "$work"/cluster.jsonl.*.log 2> /dev/null | tail -5))"
"$bin/dfa-sweep" merge "$work"/cluster.jsonl.shard*.jsonl -o "$work/merged.jsonl" --quiet || fail "merge failed"
cmp "$work/local.jsonl" "$work/merged.jsonl" || fail "the merged results differ from the local run"
cmp "$work/local.csv" "$work/merged.csv" || fail "the merged CSV differs from the local run"
echo "slurm sweep: ok ($(wc -l < "$work/merged.jsonl") points, 4 array tasks, merged results equal the local run)"
