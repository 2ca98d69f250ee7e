"""Writes a request stream (JSONL) for make_transformer.py --kv-cache
--d-model D at an empty cache (run with --dim past=0): COUNT requests over
DISTINCT sequence lengths drawn from [5, MAX], each length at least once,
the rest drawn at random (seeded: the same file every run).

usage: make_stream.py OUT.jsonl [--count 200] [--distinct 40] [--max 500]
                      [--d-model 256] [--seed 7]
"""
import argparse
import json
import random

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--count", type=int, default=200)
ap.add_argument("--distinct", type=int, default=40)
ap.add_argument("--max", type=int, default=500)
ap.add_argument("--d-model", type=int, default=256)
ap.add_argument("--seed", type=int, default=7)
a = ap.parse_args()
r = random.Random(a.seed)
lengths = sorted(r.sample(range(5, a.max + 1), a.distinct))
order = lengths + [r.choice(lengths) for _ in range(a.count - a.distinct)]
with open(a.out, "w") as f:
    for n in order:
        f.write(json.dumps({"shapes": {"tokens": [1, n, a.d_model],
                                       "attn_mask": [1, 1, n, n]}}) + "\n")
