#!/usr/bin/env bash
# Compile a Llama-7B-shaped decoder (d_model 4096, 32 heads, SwiGLU 11008,
# f16, 128 tokens, shapes only: no weight is materialized) for all nine
# shipped targets, at 1, 2, 4, 8, 16 and 32 layers: median wall time and
# peak RSS of `dfa-compile --target all` over several runs, and the time per
# added layer over the 1-layer run, which should stay flat (linear growth;
# the 1-layer time is mostly start-up and the nine descriptions). Target at
# 32 layers:
# < 10 s and < 1 GB peak RSS.
source "$(dirname "$0")/common.sh"
layers="${LAYERS:-1 2 4 8 16 32}"
printf '%-7s %6s %10s %16s %12s\n' layers ops "time (s)" "s / added layer" "peak RSS"
for n in $layers; do
  model="$work/llama$n.onnx"
  /usr/bin/python3 "$root/bench/make_transformer.py" "$model" --layers "$n" \
    --d-model 4096 --heads 32 --ffn 11008 --swiglu --seq 128 --dtype f16 --no-data >/dev/null
  times=() ; rss=()
  for i in $(seq "$runs"); do
    rm -rf "$work/out$n"
    out=$( { /usr/bin/time -f "%e %M" "$bin/dfa-compile" "$model" --no-weights \
               --target all -o "$work/out$n" >/dev/null; } 2>&1 | tail -1)
    times+=("${out% *}") ; rss+=("${out#* }")
  done
  t=$(median "${times[@]}") ; m=$(median "${rss[@]}")
  ops=$("$bin/dfa-compile" "$model" --no-weights --emit=graph -o - 2>/dev/null | grep -c ' = graph\.' || true)
  [ -n "${first_t:-}" ] || { first_t=$t ; first_n=$n ; }
  slope=-
  [ "$n" = "$first_n" ] || slope=$(awk "BEGIN{printf \"%.4f\", ($t-$first_t)/($n-$first_n)}")
  printf '%-7s %6s %10s %16s %9s MB\n' "$n" "$ops" "$t" "$slope" "$((m / 1024))"
  last_t=$t ; last_m=$m
done
echo "all nine targets at the largest size: ${last_t} s (target < 10 s, ratio $(awk "BEGIN{printf \"%.2f\", $last_t/10}")), peak RSS $((last_m / 1024)) MB (target < 1024 MB, ratio $(awk "BEGIN{printf \"%.2f\", $last_m/1024/1024}"))"
