#!/usr/bin/env python3
"""The outputs of make_model.py's `segments` and `segments_loop` models,
computed with numpy alone (in float64, then stored as float32), for dfa-run
--expect.

usage: segments_expect.py X.npy OUTDIR [loop]
"""
import os
import sys

import numpy as np


def main():
    x = np.load(sys.argv[1]).astype(np.float64)
    out = sys.argv[2]
    w = (np.arange(36, dtype=np.float64).reshape(6, 6) % 5 - 2) / 4
    s = x @ w
    m = np.maximum(s, 0)
    idx = np.stack(np.nonzero(m))        # NonZero: [rank, count]
    it = idx.T
    g = m[it[:, 0], it[:, 1]]            # GatherND
    y = g * 2 if g.sum() > 0 else -g     # If
    rows = int((m.max(axis=1) > 0).sum())
    r = s.reshape(rows, -1)              # Reshape to a shape from data
    outs = [np.ascontiguousarray(o) for o in
            (y.astype(np.float32), it.astype(np.int64), r.astype(np.float32))]
    if len(sys.argv) > 3:
        v = outs[0].copy()
        for _ in range(20):              # Loop: halve while the sum exceeds 1
            v = v * np.float32(0.5)
            if not v.sum() > 1:
                break
        outs.append(v)
    os.makedirs(out, exist_ok=True)
    for i, o in enumerate(outs):
        np.save(os.path.join(out, "output_%d.npy" % i), o)


if __name__ == "__main__":
    main()
