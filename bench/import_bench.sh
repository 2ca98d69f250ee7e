#!/usr/bin/env bash
# Import of a generated 24-layer transformer (d_model 1024, 1.2 GB of
# external weights): median wall time and peak RSS of `dfa-compile` over
# several runs. Targets: < 5 s and < 300 MB with weights by reference.
source "$(dirname "$0")/common.sh"
/usr/bin/python3 "$root/bench/make_transformer.py" "$work/t24.onnx" --layers 24 --d-model 1024
times=() ; rss=()
for i in $(seq "$runs"); do
  out=$( { /usr/bin/time -f "%e %M" "$bin/dfa-compile" "$work/t24.onnx" -o "$work/t24.mlir"; } 2>&1 | tail -1)
  times+=("${out% *}") ; rss+=("${out#* }")
done
t=$(median "${times[@]}") ; m=$(median "${rss[@]}")
ops=$(grep -c ' = graph\.' "$work/t24.mlir")
echo "import 24-layer transformer (1.2 GB weights by reference): ${ops} graph ops"
echo "  median of ${runs}: ${t} s (target < 5 s, ratio $(awk "BEGIN{printf \"%.2f\", $t/5}")), peak RSS $((m / 1024)) MB (target < 300 MB, ratio $(awk "BEGIN{printf \"%.2f\", $m/1024/300}"))"
echo "  IR size: $(stat -c %s "$work/t24.mlir") bytes"
