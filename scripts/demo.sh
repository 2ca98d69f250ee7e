#!/usr/bin/env bash
# The main job: sets up, builds, and runs dfa on the bundled example model
# (examples/gpt_block.onnx, or the model given as the first argument):
# checks op coverage, imports it to the graph dialect, compiles it for every
# target and prints the side-by-side summary, runs it on the cpu target with
# seeded inputs, then simulates every target's schedule (values checked
# against the cpu run, time per target, a Perfetto trace each), and writes
# the roofline landscape report of every target (out/demo/landscape.html),
# and the graph drawn for a GPU and the wafer with their critical paths
# (out/demo/graph.svg).
# Outputs go to out/demo/ ($DFA_DEMO_OUT). With $DFA_BIN it runs the tools
# found there (an installed prefix's bin, as scripts/install_check.sh
# does) instead of building them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${DFA_BUILD_DIR:-$root/build}"
model="${1:-$root/examples/gpt_block.onnx}"
out="${DFA_DEMO_OUT:-$root/out/demo}"

if [ -z "${DFA_BIN:-}" ]; then
  "$root/scripts/build.sh" dfa-compile dfa-run dfa-roofline >/dev/null
fi
mkdir -p "$out"
bin="${DFA_BIN:-$build/bin}"
name="$(basename "$model" .onnx)"

echo "== op coverage"
"$bin/dfa-compile" --check "$model"
echo
echo "== import to the graph dialect"
"$bin/dfa-compile" "$model" -o "$out/$name.graph.mlir"
ops=$(grep -c ' = graph\.' "$out/$name.graph.mlir" || true)
echo "$out/$name.graph.mlir: $ops graph ops"
grep -o 'graph\.[a-z_]*' "$out/$name.graph.mlir" | sort | uniq -c | sort -rn | head -8
echo
echo "== compile for every target (schedules and dfa.compile/1 summary in $out/sched)"
"$bin/dfa-compile" "$model" --target all -o "$out/sched"
echo
echo "== run on the cpu target (seeded random inputs)"
"$bin/dfa-run" "$model" --target cpu --seed 0 --outputs "$out"
echo
echo "== simulate every target (values against the cpu run; Perfetto traces in $out/traces)"
mkdir -p "$out/traces"
for t in $("$bin/dfa-compile" --list-targets --json | /usr/bin/python3 -c \
    'import json, sys; print(" ".join(t["name"] for t in json.load(sys.stdin)["targets"] if t["name"] != "cpu"))'); do
  log=$("$bin/dfa-run" "$model" --target "$t" --seed 0 --expect "$out/output_0.npy" \
    --trace "$out/traces/$name.$t.json" 2>&1)
  time=$(printf '%s\n' "$log" | sed -n "s/^dfa-run: $t: \([^,]*\),.*/\1/p")
  values=$(printf '%s\n' "$log" | sed -n 's/^output 0 .*  \(ok\|MISMATCH\)\(.*\)/\1\2/p' | head -1)
  printf '%-10s %-28s values %s\n' "$t" "$time" "$values"
done
echo
echo "== rooflines of every target (the largest kernels of each; the landscape report in $out/landscape.html)"
"$bin/dfa-roofline" "$model" --top 3 --html "$out/landscape.html"
echo
echo "== the graph on a GPU and on the wafer, side by side, and their critical paths ($out/graph.svg)"
"$bin/dfa-roofline" "$model" --target gpu-h100,wse-2 --top 3 --critical-path --graph "$out/graph.svg" \
  | sed -n '/critical path:/,/^$/p'
