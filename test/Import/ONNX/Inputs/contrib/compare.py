#!/usr/bin/env python3
"""Compares contrib.test's dfa outputs (OUT/<model>-<target>/output_N.npy)
with onnxruntime's (ort_<model>_N.npy) for every model and target: floats
to 2e-5 relative; the 8-bit outputs of the quantized ops (q_*) to one step,
since onnxruntime's float32 formulas (QLinearAdd's folded scale ratios,
its average pools' sums) round a value near a tie one way or the other;
float16 results on Spyre to its device fp16 (9 mantissa bits). Where
unspec_<model>_N.npy exists, its true entries are what the operator leaves
unspecified (GroupQueryAttention's padding rows) and are not compared.
usage: compare.py OUT COUNT TARGET..."""
import os
import glob
import sys

import numpy as np

out, count, targets = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
names = sorted(f[4:-6] for f in glob.glob("ort_*_0.npy"))
assert len(names) == count, (len(names), names)
for m in names:
    for i in range(len(glob.glob("ort_%s_[0-9]*.npy" % m))):
        ref = np.load("ort_%s_%d.npy" % (m, i))
        unspec = "unspec_%s_%d.npy" % (m, i)
        skip = np.load(unspec) if os.path.exists(unspec) else None
        if skip is not None:
            ref = np.where(skip, 0, ref)
        for t in targets:
            got = np.load("%s/%s-%s/output_%d.npy" % (out, m, t, i))
            if skip is not None:
                got = np.where(skip, 0, got)
            if m.startswith("q_") and np.issubdtype(ref.dtype, np.integer):
                step = np.abs(got.astype(np.int64) - ref.astype(np.int64)).max()
                assert step <= 1, "%s %s %d: %d steps" % (m, t, i, step)
            elif t == "spyre" and ref.dtype == np.float16:
                # Spyre's device fp16 keeps 9 mantissa bits (targets/spyre.json
                # dtypes.f16): a float16 result rounds to half its ulp, 2^-10.
                np.testing.assert_allclose(got, ref, rtol=2.0**-10, atol=2e-6,
                                           err_msg="%s %s %d" % (m, t, i))
            else:
                np.testing.assert_allclose(got, ref, rtol=2e-5, atol=2e-6,
                                           err_msg="%s %s %d" % (m, t, i))
print("%d models agree on %d targets" % (len(names), len(targets)))
