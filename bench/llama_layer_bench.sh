#!/usr/bin/env bash
# One full-size Llama-7B-shaped decoder layer (d_model 4096, 32 heads,
# SwiGLU MLP of 11008, 128 tokens, random float32 weights: 0.8 GB) end to
# end, medians of several runs with peak RSS:
#   - dfa-run --target cpu (the CPU reference);
#   - dfa-run --target spyre (its schedule simulated: values and time);
#   - dfa-bisect --target spyre with a NaN planted in the softmax
#     (target: < 60 s and < 8 GB).
# Needs the project's environment (scripts/pyenv.sh) to write the model.
source "$(dirname "$0")/common.sh"
py="$("$root/scripts/pyenv.sh")"
model="$work/llama_layer.onnx"
[ -f "$model" ] || "$py" "$root/bench/make_transformer.py" "$model" --layers 1 \
  --d-model 4096 --heads 32 --ffn 11008 --swiglu --seq 128 --random-weights 0
softmax=$("$py" -c "import onnx, sys; m = onnx.load(sys.argv[1], load_external_data=False); \
print(next(n.name for n in m.graph.node if n.op_type == 'Softmax'))" "$model")
measure() { # label, expected exit code, target seconds or -, command...
  local label=$1 want=$2 target=$3 ; shift 3
  local times=() rss=0 code r
  for i in $(seq "$runs"); do
    start=$(date +%s.%N) ; code=0
    /usr/bin/time -o "$work/rss" -f "%M" "$@" > "$work/out" 2> "$work/err" || code=$?
    [ "$code" -eq "$want" ] || { tail -5 "$work/err"; echo "$label: exit $code, expected $want"; exit 1; }
    times+=("$(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $start}")")
    r=$(tail -1 "$work/rss") ; [ "$r" -gt "$rss" ] && rss=$r
  done
  m=$(median "${times[@]}")
  line="$label: median of $runs: $m s, peak RSS $((rss / 1024)) MB"
  [ "$target" != - ] && line="$line (target < $target s and < 8192 MB: ratios $(awk "BEGIN{printf \"%.3f, %.3f\", $m/$target, $rss/1024/8192}"))"
  echo "$line"
}
measure "Llama-7B layer, dfa-run --target cpu" 0 - "$bin/dfa-run" "$model" --seed 7
grep -h "evaluated in" "$work/err" "$work/out" || true
measure "Llama-7B layer, dfa-run --target spyre" 0 - "$bin/dfa-run" "$model" --target spyre --seed 7
measure "Llama-7B layer, dfa-bisect --target spyre, NaN at $softmax" 10 60 \
  "$bin/dfa-bisect" "$model" --target spyre --seed 7 --inject "nan@$softmax" --json
