#!/usr/bin/env bash
# The test command: sets up (installs missing Debian packages), builds, and
# runs every test: the lit suite, the Catch2 unit tests, the ONNX
# conformance suite against its expected-pass list (on the CPU reference and
# through the schedules of one target per family), and the real-model
# exports from torch (on the project's Python environment, which it creates,
# and on Debian's torch), and a sweep through a real single-node Slurm.
# Ends with one 'N passed, N failed' line.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${DFA_BUILD_DIR:-$root/build}"
cd "$root"

start=$(date +%s)
last=$start
# Starts a section, after a line with the time the previous one took.
section() {
  local now
  now=$(date +%s)
  echo "   (that took $((now - last)) s)"
  last=$now
  echo "== $1"
}
"$root/scripts/build.sh" || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
"$root/scripts/build.sh" dfa-unit-tests >/dev/null || exit 1

results="$build/test-results"
rm -rf "$results" && mkdir -p "$results"
status=0

# The project's Python environment (scripts/pyenv.sh): dfa-export-fx, the
# torch tests and the benchmarks run with it, whatever python3 PATH finds.
venv_python="$("$root/scripts/pyenv.sh")" || { echo "pyenv failed"; status=1; venv_python=""; }
# Without it, dfa-export-fx falls back to Debian's torch, not to whichever
# python3 is first on PATH.
export DFA_PYTHON="${DFA_PYTHON:-/usr/bin/python3}"

section "lit"
/usr/bin/python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv "$build/test" \
  -o "$results/lit.json" || status=1

section "unit"
"$build/bin/dfa-unit-tests" -r junit -o "$results/unit.xml" || status=1
"$build/bin/dfa-unit-tests" -r compact 2>&1 | tail -1

section "conformance (ONNX 1.12 test data)"
/usr/bin/python3 "$root/test/conformance/run_conformance.py" \
  --dfa-run "$build/bin/dfa-run" --report "$results/conformance.json" \
  --expected "$root/test/conformance/expected_pass.txt" | tee "$results/conformance.txt" || status=1

# The node tests of the current onnx package (opsets to the newest it
# defines), written from the project's environment, with their own list.
section "conformance (node tests of the project's onnx package)"
if [ -n "$venv_python" ] &&
   "$venv_python" "$root/test/conformance/make_onnx_node_data.py" "$build/onnx-node-tests"; then
  /usr/bin/python3 "$root/test/conformance/run_conformance.py" \
    --dfa-run "$build/bin/dfa-run" --data "$build/onnx-node-tests" \
    --report "$results/conformance-onnx-current.json" \
    --expected "$root/test/conformance/expected_pass_current.txt" \
    | tee "$results/conformance-onnx-current.txt" || status=1
else
  status=1
fi

section "install and package (cmake --install, cpack -G DEB, dpkg -x)"
"$root/scripts/install_check.sh" "$build" | tee "$results/install.txt" || status=1

# The same tests through compiled schedules on the simulator, one target of
# each family (its sibling shares every code path): see docs/validation.md
# for all nine.
for t in ${DFA_CONFORMANCE_TARGETS:-gpu-h100 tpu-v4 wse-2 groq-tsp spyre}; do
  section "conformance through the $t schedule"
  /usr/bin/python3 "$root/test/conformance/run_conformance.py" \
    --dfa-run "$build/bin/dfa-run" --target "$t" \
    --report "$results/conformance.$t.json" | tee "$results/conformance.$t.txt" || status=1
done

# The torch tests run twice: on the project's own environment (torch 2.x,
# made before lit, whose FX tests run dfa-export-fx with it) and on
# Debian's torch 1.13, the older baseline.
for env in venv debian; do
  if [ "$env" = venv ]; then py="$venv_python"; label="torch 2.x, .venv"; else py=/usr/bin/python3; label="Debian's torch 1.13"; fi
  if [ -z "$py" ]; then
    echo "0 passed, 1 failed" > "$results/models.$env.txt"
    echo "0 passed, 1 failed" > "$results/fx.$env.txt"
    continue
  fi
  section "real models exported from torch ($label)"
  "$py" "$root/test/models/test_torch_exports.py" "$build/bin" \
    "$results/models.$env" 2>&1 | grep -v -i warning | tee "$results/models.$env.txt" || status=1
  grep -q " 0 failed" "$results/models.$env.txt" || status=1

  if [ "$env" = venv ]; then
    section "Hugging Face architectures (dynamo exporter, opsets 18 and 23)"
    "$py" "$root/test/models/test_hf_exports.py" "$build/bin" "$results/hf.venv" 2>&1 |
      grep -v -i warning | grep -v '^\[torch.onnx\]' | tee "$results/hf.venv.txt" || status=1
    grep -q " 0 failed" "$results/hf.venv.txt" || status=1
    section "a sweep of Hugging Face architectures as users call them (dfa-export-fx and the dynamo exporter)"
    "$py" "$root/test/models/test_hf_architectures.py" "$build/bin" "$results/hf-arch.venv" 2>&1 |
      grep -v -i warning | grep -v '^\[torch.onnx\]\|^\[transformers\]' | tee "$results/hf-arch.venv.txt" || status=1
    grep -q " 0 failed" "$results/hf-arch.venv.txt" || status=1
    section "every export path (symbolic_trace, torch.export, dynamo ONNX) on torchvision, Hugging Face and timm models"
    "$py" "$root/test/models/test_export_paths.py" "$build/bin" "$results/paths.venv" 2>&1 |
      grep -v -i warning | grep -v '^\[torch.onnx\]\|^\[transformers\]' | tee "$results/paths.venv.txt" || status=1
    grep -q " 0 failed" "$results/paths.venv.txt" || status=1
    section "detection models in segments (graph breaks, host fallback) through every family"
    "$py" "$root/test/models/test_detection.py" "$build/bin" "$results/detection.venv" 2>&1 |
      grep -v -i warning | tee "$results/detection.venv.txt" || status=1
    grep -q " 0 failed" "$results/detection.venv.txt" || status=1
    section "models rewritten by onnxruntime's tools (transformer optimizer, saved optimized graphs, quantizers, GenAI model builder)"
    "$py" "$root/test/models/test_ort_tools.py" "$build/bin" "$results/ort-tools.venv" 2>&1 |
      grep -v -i warning | grep -v '^\[torch.onnx\]\|^\[transformers\]' | tee "$results/ort-tools.venv.txt" || status=1
    grep -q " 0 failed" "$results/ort-tools.venv.txt" || status=1
    section "measured traces: torch.profiler on the CPU against dfa-roofline --measured"
    "$py" "$root/test/models/test_measured.py" "$build/bin" "$results/measured.venv" 2>&1 |
      grep -v -i warning | grep -v '^\[torch.onnx\]' | tee "$results/measured.venv.txt" || status=1
    grep -q " 0 failed" "$results/measured.venv.txt" || status=1
  fi

  section "FX round trips (dfa-export-fx; $label)"
  "$py" "$root/test/models/test_fx_exports.py" "$build/bin" \
    "$results/fx.$env" 2>&1 | grep -v -i warning | tee "$results/fx.$env.txt" || status=1
  grep -q " 0 failed" "$results/fx.$env.txt" || status=1
done

# dfa-sweep --slurm through a real single-node Slurm (munged, slurmctld and
# slurmd started and stopped by the script): its merged results must equal
# the local run's bytes.
section "Slurm: a sweep as a job array, merged, against the local run"
timeout 300 "$root/test/slurm/slurm_sweep.sh" "$build/bin" 2>&1 | tee "$results/slurm.txt" || status=1
grep -q "slurm sweep: \(ok\|skipped\)" "$results/slurm.txt" || status=1

# --check is a promise: what it accepts imports, runs on the CPU reference
# and compiles; what it refuses does not compile. Every conformance model
# and every torch export made above.
section "--check agrees with import, compile and the CPU reference"
promise_models=()
for d in "$results"/models.* "$results"/fx.* "$results"/hf.* "$results"/paths.*; do
  [ -d "$d" ] && promise_models+=(--models "$d")
done
/usr/bin/python3 "$root/test/conformance/check_promise.py" --dfa-bin "$build/bin" \
  "${promise_models[@]}" | tee "$results/check_promise.txt" || status=1

/usr/bin/python3 "$root/scripts/summarize_tests.py" "$results" || status=1
section "done"
echo "test.sh: $(( $(date +%s) - start )) s"
exit $status
