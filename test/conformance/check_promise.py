#!/usr/bin/env python3
"""`dfa-compile --check` is a promise: whatever it accepts imports, runs on
the CPU reference and compiles; whatever it refuses does not compile.

For every model of Debian's ONNX 1.12 test data (and every .onnx/.fx.json
under the --models folders: the torch exports), runs
  dfa-compile MODEL --check --json --target T1,...   (the promise)
  dfa-compile MODEL --target T1,... -o DIR           (the compile)
  dfa-run MODEL --test-data D | --seed 0              (the CPU reference)
and asserts they agree, step by step: compile exits as --check's import
and compile steps say (the first failing one's code, else 0, and the
coverage's 3 when an op type is unsupported), and the CPU reference runs
when its step passed (values aside: exit 0 or 1) and does not when it
failed.
Prints the disagreements and a closing 'N agree, N disagree' line; exit 1
on any disagreement.

usage: check_promise.py --dfa-bin BUILD/bin [--models DIR]... [--targets T,..]
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile

DATA = "/usr/share/libonnx-testdata/data"
CATEGORIES = ["node", "pytorch-converted", "pytorch-operator", "simple"]


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "timeout after %ss" % timeout


def one(bin_dir, model, test_data, targets, timeout):
    """(model, problem or None, check exit)."""
    rc, out, err = run([os.path.join(bin_dir, "dfa-compile"), model, "--check",
                        "--json", "--target", targets], timeout)
    if rc not in (0, 3, 4, 9):
        return model, "--check exit %d: %s" % (rc, (err or out).strip()[-300:]), rc
    try:
        doc = json.loads(out)
    except ValueError:
        return model, "--check printed no dfa.check/1 document", rc
    if doc.get("ok") != (rc == 0):
        return model, "--check exit %d but ok=%s" % (rc, doc.get("ok")), rc
    steps = doc.get("steps", [])
    imp = next((st for st in steps if st["step"] == "import"), None)
    ref = next((st for st in steps if st["step"] == "reference"), None)
    compiles = [st for st in steps if st["step"] == "compile"]
    # What compile must do: refuse as the op coverage or the import did,
    # else fail as the first failing compile step, else succeed.
    if not steps:
        want = rc
    elif imp and not imp["ok"]:
        want = imp["exit"]
    else:
        want = next((st["exit"] for st in compiles if not st["ok"]), 0)
    with tempfile.TemporaryDirectory() as tmp:
        crc, cout, cerr = run([os.path.join(bin_dir, "dfa-compile"), model,
                               "--target", targets, "-o", tmp], timeout)
    if crc != want:
        return model, "--check says compile exits %d, it exits %d: %s" % (
            want, crc, cerr.strip()[-300:]), rc
    if ref is not None:
        run_cmd = [os.path.join(bin_dir, "dfa-run"), model]
        run_cmd += ["--test-data", test_data] if test_data else ["--seed", "0"]
        rrc, rout, rerr = run(run_cmd, timeout)
        # 1: values off (the conformance suite's business); 6: test data
        # that does not match the model's declared inputs (ONNX's castlike
        # tests); 14: over --max-memory.
        if ref["ok"] and rrc not in (0, 1, 6, 14):
            return model, "--check passes the CPU reference, which exits %d: %s" % (
                rrc, rerr.strip()[-300:]), rc
        if not ref["ok"] and rrc == 0:
            return model, "--check refuses the CPU reference, which runs", rc
    return model, None, rc


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dfa-bin", required=True)
    ap.add_argument("--models", action="append", default=[],
                    help="also every .onnx and .fx.json under this folder")
    ap.add_argument("--no-conformance", action="store_true",
                    help="only the --models folders")
    ap.add_argument("--targets", default="gpu-h100,tpu-v4,wse-2,groq-tsp,spyre")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()

    work = []
    if not args.no_conformance:
        for cat in CATEGORIES:
            root = os.path.join(DATA, cat)
            if not os.path.isdir(root):
                sys.exit("check_promise: %s is missing (install libonnx-testdata)" % root)
            for name in sorted(os.listdir(root)):
                d = os.path.join(root, name, "test_data_set_0")
                work.append((os.path.join(root, name, "model.onnx"),
                             d if os.path.isdir(d) else None))
    for folder in args.models:
        for pattern in ("*.onnx", "*.fx.json"):
            for m in sorted(glob.glob(os.path.join(folder, "**", pattern),
                                      recursive=True)):
                work.append((m, None))
    if not work:
        sys.exit("check_promise: no models")

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda w: one(args.dfa_bin, w[0], w[1],
                                              args.targets, args.timeout), work))
    bad = [(m, p) for m, p, _ in results if p]
    accepted = sum(1 for _, p, rc in results if rc == 0 and not p)
    for m, p in bad:
        print("DISAGREE %s: %s" % (m, p))
    print("check promise: %d agree (%d accepted, %d refused), %d disagree" % (
        len(results) - len(bad), accepted, len(results) - len(bad) - accepted,
        len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
