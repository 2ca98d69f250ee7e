#!/usr/bin/env python3
"""FX round trips: each model is exported with dfa-export-fx's Python API
(torch.fx.symbolic_trace; scripts/test.sh runs it on torch 2.x and on
Debian's torch 1.13), imported by dfa, run on
the CPU reference and compared with torch eager (max |dfa - torch| <=
1e-4 * max |torch|). For the models that also export to ONNX, the FX and
ONNX imports must agree with each other, and their op counts are reported.
Exporter errors must name the module and the reason.

usage: test_fx_exports.py BUILD_DIR WORK_DIR
"""
import os
import re
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import torch_models  # noqa: E402

bin_dir, work = sys.argv[1], sys.argv[2]
sys.path.insert(0, bin_dir)
import dfa_fx  # noqa: E402

os.makedirs(work, exist_ok=True)
passed = failed = 0


def report(ok, what, detail):
    global passed, failed
    print("%s %s: %s" % ("PASS" if ok else "FAIL", what, detail), flush=True)
    passed += ok
    failed += not ok


def run(model, x_path, out):
    p = subprocess.run([os.path.join(bin_dir, "dfa-run"), model, "--inputs", x_path,
                        "--outputs", out], capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()[-500:]
    return np.load(os.path.join(out, "output_0.npy")), None


def op_count(model):
    p = subprocess.run([os.path.join(bin_dir, "dfa-compile"), model], capture_output=True,
                       text=True)
    return len(re.findall(r"= graph\.(?!weight|constant)", p.stdout))


# torch.export (method "export") needs torch >= 2.1; Debian's 1.13 traces only.
METHODS = ["symbolic_trace"] + (["export"] if dfa_fx._torch_version() >= (2, 1) else [])
# PT2E's quantize/dequantize operators exist from torch 2.x.
PT2E = ["pt2e"] if torch_models.has_pt2e_ops() else []
CASES = [(n, m) for n in ["mlp", "resnet18", "mobilenet_v2", "gpt_block", "mha",
                          "activations", "indexing"] + PT2E for m in METHODS]
for name, method in CASES:
    m, x = torch_models.build_extra(name)
    tag = name if method == "symbolic_trace" else name + "-export"
    prefix = os.path.join(work, tag)
    try:
        path = dfa_fx.export(m, (x,), prefix, compress=(name == "mlp"), method=method)
    except dfa_fx.ExportError as e:
        report(False, tag, "export failed: %s" % e)
        continue
    np.save(prefix + ".x.npy", x.numpy())
    with torch.no_grad():
        ref = m(x)
        ref = (ref[0] if isinstance(ref, tuple) else ref).numpy()
    got, err = run(path, prefix + ".x.npy", prefix + ".fx.out")
    if got is None:
        report(False, name, err)
        continue
    e = float(np.max(np.abs(got - ref)))
    s = float(np.max(np.abs(ref)))
    ok = got.shape == ref.shape and e <= 1e-4 * s
    detail = "max abs error %.3g (%.2g x max|output|)" % (e, e / s)
    if name in ("mlp", "resnet18", "mobilenet_v2", "gpt_block") and method == "symbolic_trace":
        onnx_path = prefix + ".onnx"
        with torch.no_grad():
            torch.onnx.export(m, x, onnx_path, opset_version=14,
                              **torch_models.LEGACY_ONNX_EXPORT)
        got_onnx, err = run(onnx_path, prefix + ".x.npy", prefix + ".onnx.out")
        if got_onnx is None:
            ok = False
            detail += "; ONNX run failed: " + err
        else:
            d = float(np.max(np.abs(got - got_onnx)))
            ok = ok and d <= 1e-4 * s
            detail += "; FX vs ONNX %.3g; ops FX %d, ONNX %d" % (
                d, op_count(path), op_count(onnx_path))
    report(ok, "%s (fx, %s)" % (name, method), detail)


# Exporter errors name the module and the reason.
class Branchy(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x


class Complex(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("w", torch.zeros(2, dtype=torch.complex32))

    def forward(self, x):
        return x * torch.view_as_real(self.w).float().sum()


cases = [
    ("data-dependent control flow", Branchy(), torch.randn(2),
     r"module 'Branchy' \(Branchy\) cannot be traced: .*control flow"),
    ("unsupported dtype", Complex(), torch.randn(2),
     r"parameter 'w' has unsupported dtype torch.complex32"),
    ("wrong input rank", torch_models.build("resnet18")[0], torch.randn(3, 224, 224),
     r"module '\w+' \(\w+\) failed on the example inputs: expected 4D input \(got 3D input\)$"),
]
for what, mod, x, pattern in cases:
    try:
        dfa_fx.export(mod, (x,), os.path.join(work, "bad"))
        report(False, "exporter error: " + what, "no error raised")
    except dfa_fx.ExportError as e:
        report(re.search(pattern, str(e)) is not None, "exporter error: " + what, str(e))

print("fx exports: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
