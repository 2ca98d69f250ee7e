#!/usr/bin/env python3
"""Inputs, expected outputs and an ONNX test-data folder for run.test."""
import os
import sys

import numpy as np
from onnx import numpy_helper

out = sys.argv[1]
a = np.array([[1, 2, 3], [4, 5, 6]], np.float32) / 4
b = np.array([0.5, -1, 1], np.float32)
c = a + b
wrong = c.copy()
wrong[1, 2] += 1
for name, v in dict(a=a, b=b, c=c, wrong=wrong).items():
    np.save(os.path.join(out, name + ".npy"), v)
with open(os.path.join(out, "junk.npy"), "wb") as f:
    f.write(b"this is not numpy")
td = os.path.join(out, "td")
os.makedirs(td, exist_ok=True)
for i, (name, v) in enumerate([("a", a), ("b", b)]):
    with open(os.path.join(td, "input_%d.pb" % i), "wb") as f:
        f.write(numpy_helper.from_array(v, name).SerializeToString())
with open(os.path.join(td, "output_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(c, "c").SerializeToString())
