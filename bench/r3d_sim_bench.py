#!/usr/bin/env python3
"""The functional simulation's memory on a 3-D ResNet, every target.

torchvision's r3d_18 (random weights, one 8 x 112 x 112 clip, TorchScript
export at opset 17) is run once on the CPU reference, then simulated
through each target's schedule (values and time) with --expect against
the reference's output. For each run it prints the median wall time of
--runs runs, the peak RSS, and the ratio of that RSS to three times the
model's weights plus its largest activation (issue 'The CPU reference at
library speed': below 1 on tpu-v5e; every target within the default
--max-memory).

usage: r3d_sim_bench.py BUILD_BIN WORK [--runs N] [--targets a,b]
Needs the project's environment (scripts/pyenv.sh: torch, torchvision, onnx).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test", "models"))

TARGETS = ["tpu-v5e", "tpu-v4", "gpu-h100", "gpu-h200", "wse-2", "wse-3", "groq-tsp", "spyre"]


def export(path, x_path):
    import torch
    import torchvision
    from torch_models import LEGACY_ONNX_EXPORT
    torch.manual_seed(0)
    m = torchvision.models.video.r3d_18(weights=None).eval()
    x = torch.randn(1, 3, 8, 112, 112)
    np.save(x_path, x.numpy())
    if not os.path.exists(path):
        with torch.no_grad():
            torch.onnx.export(m, (x,), path + ".tmp", opset_version=17, input_names=["x"],
                              output_names=["logits"], **LEGACY_ONNX_EXPORT)
        os.replace(path + ".tmp", path)


def sizes(path):
    """(bytes of the initializers, bytes of the largest activation)."""
    import onnx
    m = onnx.shape_inference.infer_shapes(onnx.load(path))
    weights = sum(int(np.prod(t.dims)) * 4 for t in m.graph.initializer)
    largest = 0
    for v in list(m.graph.value_info) + list(m.graph.output) + list(m.graph.input):
        dims = [d.dim_value for d in v.type.tensor_type.shape.dim]
        if dims and all(d > 0 for d in dims):
            largest = max(largest, int(np.prod(dims)) * 4)
    return weights, largest


def measure(cmd, runs, work):
    walls, rss = [], 0
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-o", os.path.join(work, "rss"), "-f", "%M"] + cmd,
                           capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        if p.returncode != 0:
            sys.exit("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
        with open(os.path.join(work, "rss")) as f:
            rss = max(rss, int(f.read().split()[-1]) * 1024)
    return statistics.median(walls), rss, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("work")
    ap.add_argument("--runs", type=int, default=int(os.environ.get("RUNS", "3")))
    ap.add_argument("--targets", default=",".join(TARGETS))
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    model, x = os.path.join(a.work, "r3d_18.onnx"), os.path.join(a.work, "r3d_x.npy")
    export(model, x)
    weights, largest = sizes(model)
    bound = 3 * (weights + largest)
    print("r3d_18, 1x3x8x112x112: weights %.1f MB, largest activation %.1f MB, "
          "3x their sum %.1f MB" % (weights / 1e6, largest / 1e6, bound / 1e6))
    ref = os.path.join(a.work, "r3d_ref")
    dfa_run = os.path.join(a.bin, "dfa-run")
    wall, rss, _ = measure([dfa_run, model, "--inputs", x, "--outputs", ref], a.runs, a.work)
    print("%-9s %6.2f s  peak RSS %6.1f MB  ratio %.2f" % ("cpu", wall, rss / 1e6, rss / bound))
    for t in a.targets.split(","):
        wall, rss, out = measure([dfa_run, model, "--target", t, "--inputs", x, "--expect",
                                  os.path.join(ref, "output_0.npy")], a.runs, a.work)
        verdict = "ok" if " ok (" in out else "?"
        print("%-9s %6.2f s  peak RSS %6.1f MB  ratio %.2f  output %s" %
              (t, wall, rss / 1e6, rss / bound, verdict))


if __name__ == "__main__":
    main()
