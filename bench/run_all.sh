#!/usr/bin/env bash
# Runs every benchmark and prints its figures (medians of several runs).
# Not part of the test command: timings on a shared machine are noisy, so
# speed and memory targets are checked here, by a person, not by tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/scripts/build.sh" dfa-compile dfa-run dfa-roofline dfa-bisect dfa-sweep dfa-bench-gemm >/dev/null
echo "== GEMM (CPU reference) vs OpenBLAS called directly, float32, 1 thread and all"
"${DFA_BUILD_DIR:-$root/build}/bin/dfa-bench-gemm"
echo "== ResNet-18 inference on the CPU reference"
"$root/bench/resnet_bench.sh" "$work"
echo "== import of a 24-layer transformer with external weights"
"$root/bench/import_bench.sh" "$work"
echo "== compile of a Llama-7B-shaped decoder for all nine targets, 1 to 32 layers"
"$root/bench/compile_bench.sh" "$work"
echo "== simulator: a Llama-7B-shaped decode step on every target; event-loop throughput"
"$root/bench/sim_bench.sh" "$work"
echo "== dfa-roofline: the landscape report of a Llama-7B-shaped decode step"
"$root/bench/roofline_bench.sh" "$work"
echo "== dfa-sweep: the GPT-style block over 1,000 what-if machines, 1 and 2 workers"
"$root/bench/sweep_bench.sh" "$work"
echo "== dfa-bisect: a full bisect of the GPT-style block"
"$root/bench/bisect_bench.sh" "$work"
if "$root/scripts/pyenv.sh" >/dev/null 2>&1; then
  echo "== a full-size Llama-7B-shaped decoder layer: dfa-run cpu, spyre, dfa-bisect with a NaN"
  "$root/bench/llama_layer_bench.sh" "$work"
  echo "== a 3-D ResNet-18 simulated through every target's schedule: peak RSS against its weights"
  "$("$root/scripts/pyenv.sh")" "$root/bench/r3d_sim_bench.py" "${DFA_BUILD_DIR:-$root/build}/bin" "$work/r3d"
fi
echo "== timing validation against published references (docs/validation.md)"
/usr/bin/python3 "$root/bench/validate.py" "${DFA_BUILD_DIR:-$root/build}/bin" "$work/validate"
echo "== export and import of a GPT-2-small-sized model through FX"
"$root/bench/fx_gpt2_bench.sh" "$work"
echo "== the CPU reference beside onnxruntime (1 thread and all threads), same ONNX files"
if py="$("$root/scripts/pyenv.sh" 2>/dev/null)"; then
  "$py" "$root/bench/ort_compare.py" "${DFA_BUILD_DIR:-$root/build}/bin" "$work/ort"
fi
