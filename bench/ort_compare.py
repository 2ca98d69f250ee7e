#!/usr/bin/env python3
"""dfa's CPU reference beside onnxruntime, on the same ONNX files, in one run.

For each model (torchvision classifiers with random weights, exported with
torch.onnx.export(..., dynamo=True) at opset 18; nothing is downloaded)
this runs

  - onnxruntime's CPU provider on one thread and on all threads
    (intra_op_num_threads 1 and 0), the best of --runs runs each, after
    one warm-up;
  - dfa-run --target cpu on the same input and the same thread counts
    (--threads 1 and all cores): the best "evaluated in" figure (the
    evaluation alone, as onnxruntime's run) of one process evaluating
    --runs + 1 times (--repeat), and the median wall time of three fresh
    processes (import, weights and one evaluation);
  - --rounds times, alternating the two, each side's best over the rounds
    (this machine is shared: a spell of another tenant's load otherwise
    falls on one side);

and prints the times, dfa's slowdown against onnxruntime at each count, and
the largest difference between the two outputs (absolute, and relative to
max |onnxruntime output|). onnxruntime is the peer users compare a CPU
reference against; the gap is issue 'The CPU reference at library speed'.

usage: ort_compare.py BUILD_BIN WORK [--models a,b] [--runs N] [--markdown]
Needs the project's environment (scripts/pyenv.sh: torch, torchvision,
onnxruntime).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

MODELS = ["resnet18", "resnext50_32x4d", "convnext_tiny", "vit_b_32", "efficientnet_b0",
          "inception_v3", "mobilenet_v3_small"]


def export(name, path):
    import torch
    import torchvision
    torch.manual_seed(0)
    m = torchvision.models.get_model(name, weights=None).eval()
    with torch.no_grad():
        for p in m.parameters():  # a zero head would make the diff vacuous
            if p.dim() > 1 and not p.any():
                p.normal_(0, 0.02)
    size = 299 if name == "inception_v3" else 224
    x = torch.randn(1, 3, size, size)
    if not os.path.exists(path):
        with torch.no_grad():
            torch.onnx.export(m, (x,), path, opset_version=18, dynamo=True, verbose=False)
    return x.numpy()


def ort_time(path, x, threads, runs):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    out = sess.run(None, {name: x})[0]  # warm-up
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        sess.run(None, {name: x})
        best = min(best, time.perf_counter() - t0)
    return best * 1e3, out


def dfa_time(bin_dir, path, x_path, out_dir, runs, threads):
    """The best "evaluated in" of one process evaluating runs + 1 times
    (--repeat: warm, as onnxruntime's session after its warm-up), and the
    median wall time of three fresh processes (import, weights, one
    evaluation)."""
    def run(repeat):
        t0 = time.perf_counter()
        p = subprocess.run([os.path.join(bin_dir, "dfa-run"), path, "--inputs", x_path,
                            "--outputs", out_dir, "--threads", str(threads),
                            "--repeat", str(repeat)],
                           capture_output=True, text=True)
        wall = (time.perf_counter() - t0) * 1e3
        if p.returncode != 0:
            raise RuntimeError("dfa-run exit %d: %s" % (p.returncode, p.stderr.strip()[-300:]))
        m = re.search(r"evaluated in ([0-9.]+) ms", p.stdout + p.stderr)
        return (float(m.group(1)) if m else float("nan")), wall
    best, _ = run(runs + 1)
    walls = [run(1)[1] for _ in range(3)]
    out = np.load(os.path.join(out_dir, "output_0.npy"))
    return best, statistics.median(walls), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("work")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3,
                    help="alternating rounds of both sides (best of all)")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    import onnxruntime
    ncpu = os.cpu_count()
    print("onnxruntime %s, CPU provider; %d cores; best of %d rounds of %d runs each"
          % (onnxruntime.__version__, ncpu, args.rounds, args.runs))
    rows = []
    for name in args.models.split(","):
        path = os.path.join(args.work, name + ".onnx")
        try:
            x = export(name, path)
        except Exception as e:  # the exporter's failure, not dfa's
            print("%s: torch.onnx.export failed: %s" % (name, str(e).splitlines()[0][:200]))
            continue
        x_path = os.path.join(args.work, name + ".in.npy")
        np.save(x_path, x)
        # Rounds alternate the two, so that a spell of load from another
        # tenant of the machine does not fall on one side only; each side
        # keeps its best over the rounds.
        t1 = tn = e1 = en = wall = float("inf")
        try:
            for _ in range(args.rounds):
                a, ref = ort_time(path, x, 1, args.runs)
                b, _ = ort_time(path, x, 0, args.runs)
                out_dir = os.path.join(args.work, name + ".out")
                c, w, got = dfa_time(args.bin_dir, path, x_path, out_dir, args.runs, 1)
                d, _, got_n = dfa_time(args.bin_dir, path, x_path, out_dir, args.runs, ncpu)
                t1, tn, e1, en, wall = min(t1, a), min(tn, b), min(e1, c), min(en, d), min(wall, w)
        except RuntimeError as e:
            print("%s: %s" % (name, e))
            continue
        if not np.array_equal(got, got_n):
            print("%s: dfa's outputs differ between 1 and %d threads" % (name, ncpu))
        diff = float(np.max(np.abs(got - ref)))
        rows.append((name, e1, en, wall, t1, tn, diff,
                     diff / (float(np.max(np.abs(ref))) or 1)))
        print("%-20s 1 thread: dfa %7.1f ms, onnxruntime %7.1f ms (%4.2fx)  %d threads: dfa "
              "%7.1f ms, onnxruntime %7.1f ms (%4.2fx)  dfa wall %6.0f ms  max diff %.2g "
              "(%.1e rel)" % (name, e1, t1, e1 / t1, ncpu, en, tn, en / tn, wall, diff,
                              rows[-1][7]), flush=True)
    if args.markdown and rows:
        print()
        print("| model | dfa, 1 thread (ms) | onnxruntime, 1 thread (ms) | ratio | dfa, %d "
              "threads (ms) | onnxruntime, %d threads (ms) | ratio | max diff / max\\|out\\| |"
              % (ncpu, ncpu))
        print("|---|---|---|---|---|---|---|---|")
        for name, e1, en, wall, t1, tn, diff, rel in rows:
            print("| %s | %.1f | %.1f | %.2fx | %.1f | %.1f | %.2fx | %.1e |"
                  % (name, e1, t1, e1 / t1, en, tn, en / tn, rel))
    return 0


if __name__ == "__main__":
    sys.exit(main())
