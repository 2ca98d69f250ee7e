#!/usr/bin/env python3
"""Detection models end to end: graph breaks, host fallback, every family.

torchvision's SSDlite (ssdlite320_mobilenet_v3_large) and Faster R-CNN
(fasterrcnn_mobilenet_v3_large_320_fpn), with seeded random weights
(nothing is downloaded), exported by torch.onnx's TorchScript exporter at
opset 17. Their post-processing breaks the graph: per-class NonZero of the
score threshold, NonMaxSuppression, TopK to a count known only at run time,
RoiAlign on the proposals. For each model:

  - `dfa-compile --check` lists the breaks;
  - `dfa-run` runs it in segments on the CPU reference and through one
    target of each family (gpu-h100, tpu-v5e, wse-2, groq-tsp, spyre);
  - the detections (boxes, scores, labels) must match torch's as a set:
    every torch detection has one of dfa's with its label, its box within
    BOX_TOL pixels and its score within SCORE_TOL (detections whose scores
    are equal to rounding may come in another order).

Each row gives the breaks, the segments and host steps, the simulated
time split into device, host link and host, and the worst box and score
errors. --table writes the rows as markdown (docs/validation.md). A
bounded run (`--max-dim`, BOUNDED) must give the unbounded run's outputs
byte for byte and report each bounded segment's padding.

usage: test_detection.py BUILD_DIR WORK_DIR [--models ssdlite,frcnn]
                         [--targets t1,t2] [--table FILE.md]
"""
import argparse
import json
import os
import subprocess
import sys
import time
import warnings

import numpy as np
import torch
import torchvision

# Known limits, each checked to fail as it does today (an unexpected pass
# fails the run, so that this list is kept true): model, target -> the
# exit code and why.
EXPECTED_FAILURES = {}
# Bounded runs (--max-dim, XLA's bounded dynamic shapes): model -> target
# and the bounds. The values must be the unbounded run's, byte for byte;
# each bounded segment reports its padding.
BOUNDED = {
    "frcnn": ("gpu-h100", ["/model/rpn/NonZero=1000", "/model/roi_heads/NonZero=16000"]),
}
BOX_TOL = 0.05     # pixels, in a 320 x 320 image
SCORE_TOL = 1e-4
TARGETS = ["gpu-h100", "tpu-v5e", "wse-2", "groq-tsp", "spyre"]


class Detections(torch.nn.Module):
    """The model on one image, its detections as three tensors."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        out = self.model([x[0]])[0]
        return out["boxes"], out["scores"], out["labels"]


def build(name):
    torch.manual_seed(0)
    det = torchvision.models.detection
    if name == "ssdlite":
        model = det.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None)
        gain = 1.0
    else:
        # A low score threshold, so that random weights still detect.
        model = det.fasterrcnn_mobilenet_v3_large_320_fpn(
            weights=None, weights_backbone=None, box_score_thresh=0.01)
        gain = 0.7
    # He-normal weights (scaled by `gain`) and small biases: scores that
    # differ, activations that neither vanish nor overflow.
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear)):
                std = (2.0 / m.weight[0].numel()) ** 0.5 * gain
                torch.nn.init.normal_(m.weight, 0.0, std)
                if m.bias is not None:
                    torch.nn.init.uniform_(m.bias, -0.1, 0.1)
    return Detections(model.eval()), torch.rand(1, 3, 320, 320)


def export(name, work):
    model, x = build(name)
    with torch.no_grad():
        want = [t.numpy() for t in model(x)]
    path = os.path.join(work, name + ".onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (x,), path, opset_version=17, dynamo=False,
                          input_names=["x"], output_names=["boxes", "scores", "labels"])
    np.save(os.path.join(work, name + "-x.npy"), x.numpy())
    return path, want


def match(got, want):
    """Worst box and score errors of a one-to-one matching of want's
    detections to got's by label; None when a detection has no partner."""
    boxes, scores, labels = got
    if len(labels) != len(want[2]) or len(labels) == 0:
        return None  # a count that differs, or nothing to compare
    if not (np.isfinite(boxes).all() and np.isfinite(scores).all()):
        return None
    used = np.zeros(len(labels), bool)
    worst_box = worst_score = 0.0
    for b, s, l in zip(*want):
        cand = np.where((labels == l) & ~used)[0]
        if len(cand) == 0:
            return None
        db = np.abs(boxes[cand].astype(np.float64) - b).max(axis=1)
        ds = np.abs(scores[cand].astype(np.float64) - s)
        k = int(np.argmin(db / BOX_TOL + ds / SCORE_TOL))
        if not (db[k] <= BOX_TOL and ds[k] <= SCORE_TOL):
            return None  # no partner within the tolerances
        used[cand[k]] = True
        worst_box, worst_score = max(worst_box, db[k]), max(worst_score, ds[k])
    return worst_box, worst_score


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("work")
    ap.add_argument("--models", default="ssdlite,frcnn")
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--table")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    dfa_run = os.path.join(args.build, "dfa-run")
    dfa_compile = os.path.join(args.build, "dfa-compile")
    passed = failed = 0
    rows = []
    for name in args.models.split(","):
        try:
            path, want = export(name, args.work)
        except Exception as e:  # an exporter failure is this row's failure
            print("FAIL %-8s export: %s" % (name, e))
            failed += 1
            continue
        x = os.path.join(args.work, name + "-x.npy")
        check = subprocess.run([dfa_compile, "--check", "--json", path],
                               capture_output=True, text=True)
        breaks = len(json.loads(check.stdout)["breaks"]) if check.stdout else -1
        for target in ["cpu"] + args.targets.split(","):
            out = os.path.join(args.work, "%s-%s" % (name, target))
            start = time.time()
            run = subprocess.run([dfa_run, path, "--target", target, "--inputs", x,
                                  "--outputs", out, "--json"],
                                 capture_output=True, text=True)
            wall = time.time() - start
            expected = EXPECTED_FAILURES.get((name, target))
            if expected:
                code, why = expected
                ok = run.returncode == code
                print("%s %-8s %-9s expected to fail (exit %d: %s): exit %d" % (
                    "ok  " if ok else "FAIL", name, target, code, why, run.returncode))
                rows.append({"model": name, "target": target, "expected": why})
                passed, failed = passed + ok, failed + (not ok)
                continue
            if run.returncode != 0:
                print("FAIL %-8s %-9s exit %d: %s" % (name, target, run.returncode,
                                                     run.stderr.strip()[-400:]))
                failed += 1
                continue
            report = json.loads(run.stdout)
            seg = report.get("segments", {})
            steps = seg.get("steps", [])
            got = [np.load(os.path.join(out, "output_%d.npy" % i)) for i in range(3)]
            errors = match(got, want)
            ok = errors is not None and errors[0] <= BOX_TOL and errors[1] <= SCORE_TOL
            row = {
                "model": name, "target": target, "ok": ok,
                "detections": len(want[2]), "breaks": len(seg.get("breaks", [])),
                "check_breaks": breaks,
                "device_segments": sum(s["kind"] == "device" for s in steps),
                "host_steps": sum(s["kind"] == "host" for s in steps),
                "transfers": sum(s["kind"] in ("to-host", "to-device") for s in steps),
                "link_bytes": seg.get("link_bytes", 0),
                "seconds": seg.get("seconds"), "device": seg.get("device_seconds"),
                "link": seg.get("link_seconds"), "host": seg.get("host_seconds"),
                "box": errors[0] if errors else None, "score": errors[1] if errors else None,
                "wall": wall,
            }
            rows.append(row)
            timing = ("%.3g ms = device %.3g + link %.3g + host %.3g" % (
                row["seconds"] * 1e3, row["device"] * 1e3, row["link"] * 1e3,
                row["host"] * 1e3)) if row["seconds"] is not None else "no clock"
            print("%s %-8s %-9s %d detections, %d breaks (--check: %d), %d segments, "
                  "%d host steps, %d transfers; %s; box %s px, score %s; %.1f s" % (
                      "ok  " if ok else "FAIL", name, target, row["detections"],
                      row["breaks"], breaks, row["device_segments"], row["host_steps"],
                      row["transfers"], timing,
                      "%.2g" % row["box"] if errors else "-",
                      "%.2g" % row["score"] if errors else "-", wall))
            if ok:
                passed += 1
            else:
                failed += 1
            if BOUNDED.get(name, ("",))[0] == target and ok:
                bounds = BOUNDED[name][1]
                bout = out + "-bounded"
                flags = sum([["--max-dim", b] for b in bounds], [])
                brun = subprocess.run([dfa_run, path, "--target", target, "--inputs", x,
                                       "--outputs", bout, "--json"] + flags,
                                      capture_output=True, text=True)
                pads = []
                same = brun.returncode == 0
                if same:
                    pads = [st["padding"] for st in json.loads(brun.stdout)["segments"]["steps"]
                            if "padding" in st]
                    same = all(np.array_equal(np.load(os.path.join(out, "output_%d.npy" % i)),
                                              np.load(os.path.join(bout, "output_%d.npy" % i)))
                               for i in range(3))
                bok = (same and len(pads) == len(bounds) and
                       all(p["flops"] > p["exact_flops"] and
                           all(b["count"] <= b["bound"] for b in p["bounds"]) for p in pads))
                print("%s %-8s %-9s bounded (%s): outputs %s; padding waste %s" % (
                    "ok  " if bok else "FAIL", name, target, " ".join(bounds),
                    "identical" if same else "differ (exit %d)" % brun.returncode,
                    ", ".join("%.0f%% of FLOPs (%s)" % (
                        100 * p["waste_flops"],
                        ", ".join("%d of %d" % (b["count"], b["bound"]) for b in p["bounds"]))
                              for p in pads)))
                passed, failed = passed + bok, failed + (not bok)
    if args.table:
        with open(args.table, "w") as f:
            f.write("| model | target | breaks | device segments | host steps | transfers "
                    "(bytes) | simulated time | device | host link | host | worst box "
                    "error (px) | worst score error |\n")
            f.write("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
            for r in rows:
                if "expected" in r:
                    f.write("| %s | %s | fails: %s |\n" % (r["model"], r["target"], r["expected"]))
                    continue
                ms = (lambda v: "%.3g ms" % (v * 1e3) if v is not None else "-")
                f.write("| %s | %s | %d | %d | %d | %d (%d) | %s | %s | %s | %s | %.2g | %.2g |\n" % (
                    r["model"], r["target"], r["breaks"], r["device_segments"],
                    r["host_steps"], r["transfers"], r["link_bytes"], ms(r["seconds"]),
                    ms(r["device"]), ms(r["link"]), ms(r["host"]),
                    r["box"] if r["box"] is not None else float("nan"),
                    r["score"] if r["score"] is not None else float("nan")))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
