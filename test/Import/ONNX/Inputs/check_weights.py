#!/usr/bin/env python3
"""Runs the 'weights' model through dfa-run and checks the result against
numpy, which proves that the weight offsets point at the right bytes."""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

model_path, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
m = onnx.load(model_path)
inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
x = np.random.default_rng(3).standard_normal((4, 64)).astype(np.float32)
np.save(os.path.join(work, "x.npy"), x)
np.save(os.path.join(work, "y.npy"), x @ inits["fc.weight"] + inits["fc.bias"])
subprocess.run(["dfa-run", model_path, "--inputs", os.path.join(work, "x.npy"),
                "--expect", os.path.join(work, "y.npy"), "--rtol", "1e-5",
                "--atol", "1e-5"], check=True)
# Without weights there is nothing to evaluate: a clear runtime error.
p = subprocess.run(["dfa-compile", model_path, "--no-weights", "-o",
                    os.path.join(work, "now.mlir")], check=True)
p = subprocess.run(["dfa-run", os.path.join(work, "now.mlir"), "--inputs",
                    os.path.join(work, "x.npy")], capture_output=True, text=True)
assert p.returncode == 7, p
assert "has no data (the model was imported without weights)" in p.stderr, p.stderr
print("weights ok")
