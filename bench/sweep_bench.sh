#!/usr/bin/env bash
# dfa-sweep: the GPT-style block over 1,000 what-if tpu-v5e machines
# (examples/gpt_block_sweep.yaml: 10 HBM bandwidths x 10 MXU widths x 10
# VMEM sizes), each compiled and simulated: points per second on one worker and
# on two (medians of $RUNS whole sweeps, wall time of the process), the
# scaling, and a check that both leave the same bytes.
source "$(dirname "$0")/common.sh"
spec="$root/examples/gpt_block_sweep.yaml"
declare -A rate
for jobs in 1 2; do
  secs=()
  for i in $(seq "$runs"); do
    rm -f "$work/r$jobs.jsonl" "$work/r$jobs.csv"
    t0=$(date +%s.%N)
    "$bin/dfa-sweep" "$spec" -j "$jobs" -o "$work/r$jobs.jsonl" --quiet
    t1=$(date +%s.%N)
    secs+=("$(awk "BEGIN{print $t1 - $t0}")")
  done
  s=$(median "${secs[@]}")
  rate[$jobs]=$(awk "BEGIN{printf \"%.0f\", 1000 / $s}")
  echo "dfa-sweep, 1000 points of the GPT block, $jobs worker(s): median of ${runs}: ${s} s, ${rate[$jobs]} points/s"
done
cmp -s "$work/r1.jsonl" "$work/r2.jsonl" && same="the same bytes" || same="DIFFERENT results"
echo "scaling 1 -> 2 workers: $(awk "BEGIN{printf \"%.2f\", ${rate[2]} / ${rate[1]}}")x; results of 1 and 2 workers: $same"
