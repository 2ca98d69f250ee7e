#!/usr/bin/env bash
# dfa-bisect speed (medians of several runs): a full bisect of the GPT-style
# block on one target — references, schedule, stage ladder, prefix
# bisection, the isolated rerun, probes — with a NaN planted in its softmax,
# then the same with --reduce (target: < 30 s); peak RSS.
source "$(dirname "$0")/common.sh"
model="$root/examples/gpt_block.onnx"
for mode in bisect reduce; do
  flag=() ; [ "$mode" = reduce ] && flag=(--reduce "$work/repro")
  times=() ; rss=0
  for i in $(seq "$runs"); do
    rm -rf "$work/repro"
    start=$(date +%s.%N)
    code=0
    /usr/bin/time -o "$work/rss" -f "%M" "$bin/dfa-bisect" "$model" --target spyre --seed 7 \
      --inject nan@/attn/Softmax --json "${flag[@]}" > "$work/bisect.json" 2> "$work/err" || code=$?
    [ "$code" -eq 10 ] || { cat "$work/err"; echo "unexpected exit $code"; exit 1; }
    times+=("$(awk "BEGIN{printf \"%.3f\", $(date +%s.%N) - $start}")")
    r=$(tail -1 "$work/rss") ; [ "$r" -gt "$rss" ] && rss=$r
  done
  m=$(median "${times[@]}")
  echo "GPT-style block, dfa-bisect on spyre ($mode): median of ${runs}: $m s (target < 30 s, ratio $(awk "BEGIN{printf \"%.3f\", $m/30}")), peak RSS $((rss / 1024)) MB"
done
