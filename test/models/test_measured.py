#!/usr/bin/env python3
"""Measured traces: each model runs under torch.profiler on the CPU (after
a warm-up), its Chrome trace is written, and dfa-roofline --measured reads
it against the same model exported to ONNX: at least 90% of the trace's ops
that did work must map to dfa's nodes, the rows come with a prediction and
a cause, and the totals are the trace's and the report's. Both exporters:
TorchScript (opset 14, node names with module paths) and, where torch has
it, dynamo.

usage: test_measured.py BUILD_DIR WORK_DIR [model ...]
Prints one line per case and a closing 'N passed, N failed' line.
"""
import json
import os
import subprocess
import sys

import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_models  # noqa: E402
from test_torch_exports import report  # noqa: E402


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 64),
                                 nn.LayerNorm(64))

    def forward(self, x):
        return self.net(x) + x


def build(name):
    if name == "mlp":
        torch.manual_seed(0)
        return MLP().eval(), torch.randn(4, 64)
    return torch_models.build(name)


def check(name, dynamo, bin_dir, work):
    m, x = build(name)
    tag = name + (".dynamo" if dynamo else "")
    onnx_path = os.path.join(work, tag + ".onnx")
    trace = os.path.join(work, tag + ".trace.json")
    with torch.no_grad():
        kw = {"dynamo": True} if dynamo else dict(torch_models.LEGACY_ONNX_EXPORT, opset_version=14)
        torch.onnx.export(m, (x,), onnx_path, input_names=["x"], output_names=["y"], **kw)
        for _ in range(3):
            m(x)
        with profile(activities=[ProfilerActivity.CPU], record_shapes=True, with_stack=True) as p:
            m(x)
    p.export_chrome_trace(trace)
    r = subprocess.run([os.path.join(bin_dir, "dfa-roofline"), onnx_path, "--target",
                        "gpu-h100", "--measured", trace, "--json"],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return False, "dfa-roofline exit %d: %s" % (r.returncode, r.stderr.strip()[-300:])
    rep = json.loads(r.stdout)["targets"][0]
    ms = rep["measured"]
    frac = ms["matched_fraction"]
    ok = frac >= 0.9 and ms["clock"] == "host" and ms["predicted_seconds"] == rep["seconds"]
    ok = ok and all(row["predicted_seconds"] >= 0 and row["cause"] for row in ms["rows"])
    gaps = [abs(__import__("math").log(row["gap"])) for row in ms["rows"] if row["gap"]]
    ok = ok and gaps == sorted(gaps, reverse=True)
    unmatched = ", ".join(u["op"] for u in ms["unmatched"]) or "none"
    return ok, "%d of %d ops matched (%.0f%%); unmatched: %s" % (
        ms["matched"], ms["ops"], 100 * frac, unmatched)


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or ["gpt_block", "mlp"]
    os.makedirs(work, exist_ok=True)
    cases = []
    for n in names:
        cases.append((n + " (TorchScript export)", lambda n=n: check(n, False, bin_dir, work)))
        if int(torch.__version__.split(".")[0]) >= 2:
            cases.append((n + " (dynamo export)", lambda n=n: check(n, True, bin_dir, work)))
    return report(cases, "measured traces")


if __name__ == "__main__":
    sys.exit(main())
