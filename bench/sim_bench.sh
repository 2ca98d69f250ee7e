#!/usr/bin/env bash
# Simulator speed (medians of several runs):
#  1. a Llama-7B-shaped decode step (32 layers, one token, f16, shapes
#     only) compiled and simulated for every shipped accelerator target: the
#     wall time of the eight `dfa-run --target T --no-weights` runs in total
#     (target: < 2 s) and the peak RSS of the largest;
#  2. events per second of the discrete-event simulation on the largest
#     schedule (the same model prefilling 128 tokens on the TPU v4, with its
#     chunked kernels and double-buffered DMAs): target >= 5 M/s on one core.
source "$(dirname "$0")/common.sh"
llama=(--layers 32 --d-model 4096 --heads 32 --ffn 11008 --swiglu --dtype f16 --no-data)
/usr/bin/python3 "$root/bench/make_transformer.py" "$work/decode.onnx" --seq 1 "${llama[@]}" >/dev/null
/usr/bin/python3 "$root/bench/make_transformer.py" "$work/prefill.onnx" --seq 128 "${llama[@]}" >/dev/null
targets=$("$bin/dfa-compile" --list-targets --json | /usr/bin/python3 -c \
  'import json, sys; print(" ".join(t["name"] for t in json.load(sys.stdin)["targets"]))')

totals=() ; peak=0
for i in $(seq "$runs"); do
  start=$(date +%s.%N)
  for t in $targets; do
    [ "$t" = cpu ] && continue # the CPU reference runs graphs, not schedules
    /usr/bin/time -o "$work/rss" -f "%M" "$bin/dfa-run" "$work/decode.onnx" \
      --target "$t" --no-weights > /dev/null 2> "$work/err" || { cat "$work/err"; exit 1; }
    rss=$(cat "$work/rss")
    [ "$rss" -gt "$peak" ] && peak=$rss
  done
  totals+=("$(awk "BEGIN{printf \"%.3f\", $(date +%s.%N) - $start}")")
done
echo "Llama-7B-shaped decode step, compiled and simulated on the eight accelerator targets:"
echo "  median of ${runs}: $(median "${totals[@]}") s in total (target < 2 s), peak RSS $((peak / 1024)) MB"

rates=() ; whole=() ; events=0
for i in $(seq "$runs"); do
  line=$("$bin/dfa-run" "$work/prefill.onnx" --target tpu-v4 --no-weights 2>&1 >/dev/null | grep 'simulated in')
  events=$(echo "$line" | sed -n 's/.*, \([0-9]*\) events, .*/\1/p')
  ms=$(echo "$line" | sed -n 's/.*simulated in \([0-9.]*\) ms.*/\1/p')
  rates+=("$(echo "$line" | sed -n 's/.*event loop \([0-9.]*\) M events.*/\1/p')")
  whole+=("$(awk "BEGIN{printf \"%.2f\", $events / ($ms / 1000) / 1e6}")")
done
r=$(median "${rates[@]}")
echo "DES on the TPU v4 prefill schedule ($events events): event loop median $r M events/s (target >= 5 M/s, ratio $(awk "BEGIN{printf \"%.2f\", $r/5}")); with building the tasks from the IR and recording the results: $(median "${whole[@]}") M events/s"
