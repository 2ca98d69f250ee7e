#!/usr/bin/env python3
"""Real exports: each model is exported with torch.onnx.export at opset 14,
imported by dfa, run on the CPU reference and compared with torch eager:
max |dfa - torch| must be <= 1e-4 * max |torch|. Each model must then
compile for every shipped target, every schedule passing the verifier, and
its schedule on one target of each family, simulated by dfa-run (values on
the target's memories, layouts and storage formats), must match torch by
the same criterion.

usage: test_torch_exports.py BUILD_DIR WORK_DIR [model ...]
Prints one line per model and a closing 'N passed, N failed' line.
"""
import json
import os
import subprocess
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_models  # noqa: E402

MODELS = ["resnet18", "mobilenet_v2", "gpt_block"]

TARGETS = os.environ.get("DFA_MODEL_TARGETS",
                         "gpu-h100 tpu-v4 wse-2 groq-tsp spyre").split()


def check(name, bin_dir, work):
    m, x = torch_models.build(name)
    path = os.path.join(work, name + ".onnx")
    with torch.no_grad():
        ref = m(x).numpy()
        torch.onnx.export(m, x, path, opset_version=14, input_names=["input"],
                          output_names=["output"], do_constant_folding=True,
                          **torch_models.LEGACY_ONNX_EXPORT)
    np.save(os.path.join(work, name + ".in.npy"), x.numpy())
    ok, scale, detail = run_cpu(path, bin_dir, work, name, name + ".in.npy", ref)
    if scale is None:
        return False, detail
    compiled, why = compile_all(path, bin_dir, os.path.join(work, name + ".sched"))
    simulated, how = simulate_all(path, bin_dir, work, name, ref, scale)
    return ok and compiled and simulated, detail + "; " + why + "; " + how


def run_cpu(path, bin_dir, work, tag, inputs, ref):
    """dfa-run on the CPU reference against torch's `ref`: (within
    1e-4 x max|ref|, max|ref| or None when it did not run, a line)."""
    out = os.path.join(work, tag + ".out")
    t0 = time.time()
    p = subprocess.run([os.path.join(bin_dir, "dfa-run"), path, "--inputs",
                        os.path.join(work, inputs), "--outputs", out],
                       capture_output=True, text=True)
    secs = time.time() - t0
    if p.returncode != 0:
        return False, None, "dfa-run exit %d: %s" % (p.returncode, p.stderr.strip()[-400:])
    got = np.load(os.path.join(out, "output_0.npy"))
    if got.shape != ref.shape:
        return False, None, "shape %s, torch gives %s" % (got.shape, ref.shape)
    err = float(np.max(np.abs(got - ref)))
    scale = float(np.max(np.abs(ref)))
    return err <= 1e-4 * scale, scale, "max abs error %.3g (%.2g x max|output| %.3g), dfa-run %.1f s" % (
        err, err / scale, scale, secs)


def simulate_all(path, bin_dir, work, name, ref, scale):
    """dfa-run --target T: the schedule's values must match torch too."""
    worst, t0 = 0.0, time.time()
    for target in TARGETS:
        out = os.path.join(work, "%s.%s.out" % (name, target))
        p = subprocess.run([os.path.join(bin_dir, "dfa-run"), path, "--target", target,
                            "--inputs", os.path.join(work, name + ".in.npy"),
                            "--outputs", out], capture_output=True, text=True)
        if p.returncode != 0:
            return False, "dfa-run --target %s exit %d: %s" % (
                target, p.returncode, p.stderr.strip()[-300:])
        err = float(np.max(np.abs(np.load(os.path.join(out, "output_0.npy")) - ref)))
        if not err <= 1e-4 * scale:
            return False, "%s: max abs error %.3g" % (target, err)
        worst = max(worst, err)
    return True, "simulated on %s: max abs error %.3g (%.1f s)" % (
        ", ".join(TARGETS), worst, time.time() - t0)


def compile_all(path, bin_dir, out):
    """dfa-compile --target all: every target must give a verified schedule."""
    t0 = time.time()
    p = subprocess.run([os.path.join(bin_dir, "dfa-compile"), path, "--target", "all",
                        "-o", out, "--json"], capture_output=True, text=True)
    secs = time.time() - t0
    try:
        targets = json.loads(p.stdout)["targets"]
    except (ValueError, KeyError):
        return False, "dfa-compile exit %d: %s" % (p.returncode, p.stderr.strip()[-400:])
    bad = ["%s (exit %d)" % (t["target"], t["exit_code"]) for t in targets if t["exit_code"]]
    if p.returncode or bad or len(targets) < 9:
        return False, "compile failed for %s: %s" % (", ".join(bad) or "?",
                                                     p.stderr.strip()[-400:])
    return True, "compiled for %d targets in %.2f s" % (len(targets), secs)


def report(cases, title):
    """Runs (label, check) pairs, printing PASS/FAIL per label and 'TITLE: N
    passed, N failed'; returns the exit status."""
    passed = failed = 0
    for label, run in cases:
        ok, detail = run()
        print("%s %s: %s" % ("PASS" if ok else "FAIL", label, detail), flush=True)
        passed += ok
        failed += not ok
    print("%s: %d passed, %d failed" % (title, passed, failed))
    return 1 if failed else 0


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or MODELS
    os.makedirs(work, exist_ok=True)
    return report([(n, lambda n=n: check(n, bin_dir, work)) for n in names],
                  "torch exports")


if __name__ == "__main__":
    sys.exit(main())
