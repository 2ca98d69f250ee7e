#!/usr/bin/env bash
# Runs one libFuzzer harness for SECONDS (default 600) and prints its
# executions per second and coverage.
#   scripts/fuzz.sh NAME [SECONDS] [extra libFuzzer flags...]
# NAME: onnx-import | fx-import | target | sched-run | topology-import |
# scalesim-config | requests | trace | overrides | sweep-spec | all.
# Builds the instrumented tree (clang-19, ASan + UBSan + fuzzer coverage)
# in ${DFA_SAN_BUILD_DIR:-build-san} (shared with scripts/sanitize.sh) and
# the seed corpus from the test models on first use. The corpus grows in
# build-san/fuzz/NAME/corpus; crashes land in build-san/fuzz/NAME/ and
# fail the script (exit 1). Each crash fixed becomes a regression input in
# test/fuzz/regressions/NAME/, replayed by the lit test
# test/fuzz/regressions.test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
name="${1:?usage: fuzz.sh NAME [SECONDS]}"
seconds="${2:-600}"
shift $(( $# > 1 ? 2 : 1 ))
build="${DFA_SAN_BUILD_DIR:-$root/build-san}"

if [ "$name" = all ]; then
  for n in onnx-import fx-import target sched-run topology-import scalesim-config requests trace overrides sweep-spec; do
    "$0" "$n" "$seconds" "$@"
  done
  exit 0
fi
case "$name" in
  onnx-import|fx-import|target|sched-run|topology-import|scalesim-config|requests|trace|overrides|sweep-spec) ;;
  *) echo "fuzz.sh: unknown fuzzer '$name' (onnx-import, fx-import, target, sched-run, topology-import, scalesim-config, requests, trace, overrides, sweep-spec, all)" >&2
     exit 2 ;;
esac

mkdir -p "$build"
# Fuzzers run side by side (one per core); one of them builds at a time.
flock "$build/.fuzz-build.lock" "$root/scripts/sanitize.sh" --build-only dfa-fuzzers
dir="$build/fuzz/$name"
mkdir -p "$dir/corpus" "$dir/seeds"
if [ -z "$(ls -A "$dir/seeds")" ]; then
  /usr/bin/python3 "$root/fuzz/make_seeds.py" "$name" "$dir/seeds" "$root/build"
fi
cd "$dir"
log="$dir/fuzz.log"
set +e
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons slabs from the
# inline code compiled into dfa but not from Debian's uninstrumented
# libMLIR, which then trips over its own allocations (false positives).
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0}" \
"$build/bin/fuzz/$name-fuzzer" -max_total_time="$seconds" -timeout=30 \
  -rss_limit_mb=4096 -max_len=1048576 -close_fd_mask=3 -print_final_stats=1 \
  -artifact_prefix="$dir/" "$@" "$dir/corpus" "$dir/seeds" > "$log" 2>&1
rc=$?
set -e
grep -E "^(#[0-9]+ +DONE|stat::)" "$log" | tail -12 || true
cov=$(grep -Eo "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
echo "fuzz.sh: $name: ${seconds} s, ${execs:-?} runs, ${eps:-?} exec/s, $cov, corpus $(ls "$dir/corpus" | wc -l) inputs, exit $rc"
if [ $rc -ne 0 ]; then
  echo "fuzz.sh: $name found a failure; see $log and the crash-*/leak-*/timeout-*/oom-* files in $dir" >&2
  exit 1
fi
