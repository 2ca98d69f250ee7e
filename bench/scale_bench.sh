#!/usr/bin/env bash
# Compile time and peak memory from 1k to 100k graph ops, for every target:
# generated transformer chains (d_model 64, 4 heads, 16 tokens, shapes
# only), `dfa-compile MODEL --no-weights --target T`, median CPU time
# (user + system: the compile is single-threaded, and CPU time does not move
# with other load on a shared machine the way wall time does) and peak RSS
# over $RUNS runs (default 3; $SIZES overrides the layer counts).
# Linear growth shows as a flat marginal cost: the time and memory each op
# past the smallest graph adds, at the second size and at the largest.
#   bench/scale_bench.sh [WORK_DIR]
source "$(dirname "$0")/common.sh"
runs="${RUNS:-3}"
# ~28 graph ops per layer: 36 layers ~ 1k ops, 3600 ~ 100k.
sizes="${SIZES:-36 360 1080 3600}"
targets="${TARGETS:-cpu gpu-h100 gpu-h200 tpu-v4 tpu-v5e wse-2 wse-3 groq-tsp spyre}"
declare -A ops
for n in $sizes; do
  model="$work/chain$n.onnx"
  [ -f "$model" ] || /usr/bin/python3 "$root/bench/make_transformer.py" "$model" \
    --layers "$n" --d-model 64 --heads 4 --seq 16 --no-data >/dev/null
  ops[$n]=$("$bin/dfa-compile" "$model" --no-weights -o - 2>/dev/null | grep -c ' = graph\.' || true)
done
printf '%-9s' target
for n in $sizes; do printf ' %16s' "${ops[$n]} ops"; done
printf '   %s\n' "CPU s and peak MB per size; marginal us/op and kB/op from the smallest: at the second size, at the largest (ratio)"
for t in $targets; do
  printf '%-9s' "$t"
  tt=(); mm=(); nn=()
  for n in $sizes; do
    times=(); rss=()
    for i in $(seq "$runs"); do
      out=$( { /usr/bin/time -f "%U %S %M" "$bin/dfa-compile" "$work/chain$n.onnx" \
                 --no-weights --target "$t" -o "$work/out.mlir" >/dev/null; } 2>&1 | tail -1)
      read -r u sy m <<< "$out"
      times+=("$(awk "BEGIN{print $u + $sy}")"); rss+=("$m")
    done
    tm=$(median "${times[@]}"); m=$(median "${rss[@]}")
    printf ' %7ss %6sMB' "$tm" "$((m / 1024))"
    tt+=("$tm"); mm+=("$m"); nn+=("${ops[$n]}")
  done
  # Linear growth: the cost of each op past the smallest graph is the same
  # at the second size and at the largest (ratio near 1).
  last=$(( ${#tt[@]} - 1 ))
  awk -v t0="${tt[0]}" -v t1="${tt[1]}" -v tl="${tt[$last]}" \
      -v m0="${mm[0]}" -v m1="${mm[1]}" -v ml="${mm[$last]}" \
      -v n0="${nn[0]}" -v n1="${nn[1]}" -v nl="${nn[$last]}" 'BEGIN {
    a = (t1 - t0) / (n1 - n0) * 1e6; b = (tl - t0) / (nl - n0) * 1e6
    c = (m1 - m0) / (n1 - n0); d = (ml - m0) / (nl - n0)
    printf "   %.0f %.0f us/op (x%.2f)  %.1f %.1f kB/op (x%.2f)\n", a, b, b / a, c, d, d / c }'
done
