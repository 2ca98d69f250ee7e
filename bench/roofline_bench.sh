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
# LLM mode: the KV-cache form of the same decoder, prefill and decode at
# batches 1, 8, 32 and contexts 512, 4096 on every accelerator (96 steps,
# each compiled, simulated and profiled; steps that do not fit are rows).
/usr/bin/python3 "$root/bench/make_transformer.py" "$work/kv.onnx" --kv-cache "${llama[@]}" >/dev/null
times=() ; rss=0
for i in $(seq "$runs"); do
  start=$(date +%s.%N)
  /usr/bin/time -o "$work/rss" -f "%M" "$bin/dfa-roofline" "$work/kv.onnx" --llm prefill,decode \
    --batch 1,8,32 --context 512,4096 --json > "$work/llm.json" 2> "$work/err" \
    || { cat "$work/err"; exit 1; }
  times+=("$(awk "BEGIN{printf \"%.3f\", $(date +%s.%N) - $start}")")
  r=$(cat "$work/rss") ; [ "$r" -gt "$rss" ] && rss=$r
done
ran=$(/usr/bin/python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['llm']['targets']; p=[x for y in t for x in y['points']]; print('%d of %d steps ran' % (sum('error' not in x for x in p), len(p)))" "$work/llm.json")
echo "Llama-7B-shaped LLM sweep (prefill+decode, batch 1,8,32, context 512,4096, 8 targets): median of ${runs}: $(median "${times[@]}") s, $ran, peak RSS $((rss / 1024)) MB"
