#!/usr/bin/env bash
# Writes every schedule a build produces for a fixed corpus, so that a
# refactoring can be checked byte for byte: `scripts/snapshot.sh BIN OUT`,
# once with the old tools and once with the new, then `diff -r OLD NEW`.
#
# The corpus: every ONNX conformance model on the expected-pass list, the
# models in examples/ and any extra .onnx files under $SNAPSHOT_EXTRA (for
# example build/test-results/models after scripts/test.sh), each compiled
# for every shipped target (`--target all`), plus the stage dumps of the
# GPT block and its timed simulation and roofline on every target.
# Stderr and exit codes are kept too: a changed error is a change.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(cd "${1:?usage: snapshot.sh BIN_DIR OUT_DIR}" && pwd)"
out="${2:?usage: snapshot.sh BIN_DIR OUT_DIR}"
data=/usr/share/libonnx-testdata/data
mkdir -p "$out"
out="$(cd "$out" && pwd)"

compile_one() { # model name
  local model="$1" name="$2" dir="$out/compile/$2"
  mkdir -p "$dir"
  (cd "$dir" && "$bin/dfa-compile" "$model" --no-weights --target all -o sched \
      >stdout.txt 2>stderr.txt; echo "exit $?" >>stdout.txt)
}
export -f compile_one
export bin out

{
  grep -v '^#' "$root/test/conformance/expected_pass.txt" | while read -r t; do
    [ -n "$t" ] && echo "$data/$t/model.onnx ${t//\//_}"
  done
  for m in "$root"/examples/*.onnx; do echo "$m example_$(basename "$m" .onnx)"; done
  if [ -n "${SNAPSHOT_EXTRA:-}" ]; then
    find "$SNAPSHOT_EXTRA" -name '*.onnx' | sort | while read -r m; do
      echo "$m extra_$(basename "$m" .onnx)"
    done
  fi
} | xargs -P "${JOBS:-2}" -n 2 bash -c 'compile_one "$0" "$1"'

gpt="$root/examples/gpt_block.onnx"
mkdir -p "$out/gpt"
(cd "$out/gpt" && "$bin/dfa-compile" "$gpt" --target all --dump-dir dumps -o sched >/dev/null 2>&1)
for t in cpu gpu-h100 gpu-h200 tpu-v4 tpu-v5e wse-2 wse-3 groq-tsp spyre; do
  (cd "$out/gpt" && "$bin/dfa-run" "$gpt" --target "$t" --seed 1 --json >"run.$t.json" 2>&1)
done
(cd "$out/gpt" && "$bin/dfa-roofline" "$gpt" --target all --json >roofline.json 2>&1)
# Wall-clock figures are not part of a schedule.
sed -i -E 's/"(evaluated_in|[a-z_]*seconds_wall|wall[a-z_]*|[a-z_]*_ms_wall)": [0-9.e+-]+/"\1": 0/g' \
  "$out"/gpt/*.json
echo "snapshot: $(find "$out" -type f | wc -l) files in $out"
