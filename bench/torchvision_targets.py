#!/usr/bin/env python3
"""Every torchvision classification model, compiled for every target.

Exports each of torchvision.models.list_models(module=torchvision.models)
(random weights, batch 1, 224x224, inception_v3 299x299) to ONNX with the
TorchScript exporter at opset 17, then `dfa-compile MODEL --no-weights
--target all --json` and prints one row per model with each target's
outcome: ok, or the exit code and the first line of its error. Exports
are cached in WORK_DIR (they are large: about 10 GB for all 80).

usage: torchvision_targets.py BIN_DIR WORK_DIR [--models a,b,...] [--json OUT]
Needs the project's Python environment (scripts/pyenv.sh: torch, torchvision).
"""
import json
import os
import subprocess
import sys
import time

import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test", "models"))
from torch_models import LEGACY_ONNX_EXPORT  # noqa: E402

SIZE = {"inception_v3": 299}


def export(name, path):
    if os.path.exists(path):
        return None
    torch.manual_seed(0)
    kwargs = {"aux_logits": False, "init_weights": False} if name in ("inception_v3",
                                                                        "googlenet") else {}
    m = torchvision.models.get_model(name, weights=None, **kwargs).eval()
    s = SIZE.get(name, 224)
    x = torch.randn(1, 3, s, s)
    tmp = path + ".tmp"
    # nn.MultiheadAttention's eval fast path is one fused ATen op that the
    # TorchScript exporter cannot write.
    torch.backends.mha.set_fastpath_enabled(False)
    try:
        with torch.no_grad():
            torch.onnx.export(m, (x,), tmp, opset_version=17, input_names=["x"],
                              output_names=["logits"], **LEGACY_ONNX_EXPORT)
    except Exception as e:  # noqa: BLE001 - reported per model
        return "export failed: %s" % str(e).splitlines()[0][:120]
    os.replace(tmp, path)
    return None


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    names = torchvision.models.list_models(module=torchvision.models)
    if "--models" in sys.argv:
        names = sys.argv[sys.argv.index("--models") + 1].split(",")
    rows, targets = [], None
    for name in names:
        path = os.path.join(work, name + ".onnx")
        t0 = time.perf_counter()
        err = export(name, path)
        if err:
            rows.append({"model": name, "error": err})
            print("%-20s %s" % (name, err), flush=True)
            continue
        out = os.path.join(work, name + ".out")
        p = subprocess.run([os.path.join(bin_dir, "dfa-compile"), path, "--no-weights",
                            "--target", "all", "-o", out + "/", "--json"],
                           capture_output=True, text=True)
        outcome = {}
        errors = p.stderr.splitlines()
        try:
            doc = json.loads(p.stdout)
            for r in doc["targets"]:
                if r["exit_code"] == 0:
                    outcome[r["target"]] = "ok"
                    continue
                # The target's first error line (they name the target).
                line = next((e for e in errors if r["target"] in e), errors[0] if errors else "")
                outcome[r["target"]] = "exit %d: %s" % (
                    r["exit_code"], line.split("error: ", 1)[-1][:100])
        except (ValueError, KeyError):
            outcome["all"] = "exit %d: %s" % (p.returncode, p.stderr.strip()[:200])
        targets = targets or sorted(outcome)
        bad = {t: o for t, o in outcome.items() if o != "ok"}
        rows.append({"model": name, "targets": outcome,
                     "seconds": time.perf_counter() - t0})
        print("%-20s %s" % (name, "ok on all %d targets" % len(outcome) if not bad else
                            "; ".join("%s %s" % kv for kv in sorted(bad.items()))), flush=True)
    ok = sum(1 for r in rows if "targets" in r and all(o == "ok" for o in r["targets"].values()))
    print("%d of %d models compile for every target" % (ok, len(rows)))
    if "--json" in sys.argv:
        with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
            json.dump(rows, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
