#!/usr/bin/env bash
# dfa-roofline speed (medians of several runs): the landscape report
# (table, JSON and HTML) for a Llama-7B-shaped decoder (32 layers, f16,
# shapes only), one decode step, on every shipped accelerator target:
# compile, simulate and profile all of them in one run (target: < 5 s), and
# the same with --analytic; peak RSS.
source "$(dirname "$0")/common.sh"
llama=(--layers 32 --d-model 4096 --heads 32 --ffn 11008 --swiglu --dtype f16 --no-data)
/usr/bin/python3 "$root/bench/make_transformer.py" "$work/decode.onnx" --seq 1 "${llama[@]}" >/dev/null
for mode in simulated analytic; do
  flag=() ; [ "$mode" = analytic ] && flag=(--analytic)
  times=() ; rss=0
  for i in $(seq "$runs"); do
    start=$(date +%s.%N)
    /usr/bin/time -o "$work/rss" -f "%M" "$bin/dfa-roofline" "$work/decode.onnx" \
      "${flag[@]}" --json --html "$work/report.html" > "$work/report.json" 2> "$work/err" \
      || { cat "$work/err"; exit 1; }
    times+=("$(awk "BEGIN{printf \"%.3f\", $(date +%s.%N) - $start}")")
    r=$(cat "$work/rss") ; [ "$r" -gt "$rss" ] && rss=$r
  done
  m=$(median "${times[@]}")
  echo "Llama-7B-shaped decode, landscape report on every accelerator target ($mode): median of ${runs}: $m s (target < 5 s, ratio $(awk "BEGIN{printf \"%.2f\", $m/5}")), peak RSS $((rss / 1024)) MB, report $(($(stat -c %s "$work/report.html") / 1024)) KB"
done
