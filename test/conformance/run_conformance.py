#!/usr/bin/env python3
"""ONNX conformance runner for dfa.

Runs every test of Debian's libonnx-testdata (ONNX 1.12: node,
pytorch-converted, pytorch-operator, simple) through `dfa-run --test-data`
on the CPU reference, prints pass / fail / unsupported counts per category,
and writes a JSON report. With --expected FILE it fails (exit 1) on any
regression (an expected pass that no longer passes) and on any new pass not
yet recorded, so the list stays exact; --update rewrites the list.

With --data DIR it runs another suite in the same layout instead: the
node tests of the current onnx package, written by make_onnx_node_data.py
(DIR/node/<test>; DIR/VERSION names the onnx version), with their own
expected-pass list (expected_pass_current.txt).

With --target T, the tests that pass on the CPU reference (the expected
list) are compiled for T and run through T's schedule in the simulator
(`dfa-run --target T`), judged by dfa-run's op-aware budget (op class,
reduction length, T's storage format, carried rounding); outcomes are
pass, fail (wrong values), nofit (exit 9: does not fit the target) and
crash. Every one is expected to pass except the lines for T in
target_exceptions.txt ("TARGET CATEGORY/TEST reason"), and the check is
exact both ways, as for the CPU.

Categories of outcome, from dfa-run's documented exit codes:
  pass         exit 0: every output within rtol=1e-3, atol=1e-7 on the CPU
               (ONNX's own backend-test tolerances), within the budget
               through a target
  fail         exit 1 (wrong values) or 4/6/7 (import or run failure)
  unsupported  exit 3: an op or feature dfa does not implement
  crash        anything else (a signal, exit 70): always a bug
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

DATA = "/usr/share/libonnx-testdata/data"
CATEGORIES = ["node", "pytorch-converted", "pytorch-operator", "simple"]


def run_one(data, dfa_run, category, name, timeout, target):
    test = os.path.join(data, category, name)
    datasets = sorted(d for d in os.listdir(test) if d.startswith("test_data_set"))
    outcome, detail = "pass", ""
    for ds in datasets:
        cmd = [dfa_run, os.path.join(test, "model.onnx"), "--test-data",
               os.path.join(test, ds), "--specialize-as-needed"]
        if target:
            cmd += ["--target", target]
        else:
            # The CPU reference is held to ONNX's own backend-test rule.
            cmd += ["--rtol", "1e-3", "--atol", "1e-7"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return category, name, "fail", "timeout after %ss" % timeout
        if p.returncode == 0:
            continue
        lines = (p.stderr.strip() or p.stdout.strip()).splitlines()
        detail = next((l for l in lines if "error" in l or "MISMATCH" in l),
                      lines[-1] if lines else "")
        if p.returncode == 3:
            outcome = "unsupported"
        elif p.returncode == 9:
            outcome = "nofit"
        elif p.returncode in (1, 4, 5, 6, 7):
            outcome = "fail"
        else:
            outcome = "crash"
            detail = "exit %d: %s" % (p.returncode, detail)
        break
    return category, name, outcome, detail[:300]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dfa-run", required=True)
    ap.add_argument("--report", help="write the JSON report here")
    ap.add_argument("--expected", help="expected-pass list to check against")
    ap.add_argument("--update", action="store_true",
                    help="rewrite the expected-pass list from this run")
    ap.add_argument("--data", default=DATA,
                    help="the suite's root (default: ONNX 1.12's, libonnx-testdata)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--filter", default="", help="only tests containing this")
    ap.add_argument("--target", default="",
                    help="run the CPU's passing tests through this target's schedule")
    ap.add_argument("--cpu-expected",
                    default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "expected_pass.txt"),
                    help="with --target: the tests to run (the CPU's passes)")
    args = ap.parse_args()

    tests = []
    if args.target:
        with open(args.cpu_expected) as f:
            for n, l in enumerate(f, 1):
                l = l.strip()
                if not l or l.startswith("#"):
                    continue
                if "/" not in l:
                    sys.exit("conformance: %s:%d: expected CATEGORY/TEST, got '%s'"
                             % (args.cpu_expected, n, l))
                if args.filter in l.split("/")[1]:
                    tests.append(tuple(l.split("/", 1)))
    suite = "1.12"
    if args.data != DATA:
        try:
            suite = open(os.path.join(args.data, "VERSION")).read().strip()
        except OSError:
            sys.exit("conformance: %s/VERSION is missing (write the suite with "
                     "make_onnx_node_data.py)" % args.data)
    categories = [c for c in CATEGORIES if os.path.isdir(os.path.join(args.data, c))]
    if args.data == DATA and len(categories) != len(CATEGORIES):
        sys.exit("conformance: %s is incomplete (install libonnx-testdata)" % DATA)
    for cat in categories if not args.target else []:
        root = os.path.join(args.data, cat)
        for name in sorted(os.listdir(root)):
            if args.filter in name:
                tests.append((cat, name))

    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(run_one, args.data, args.dfa_run, c, n, args.timeout, args.target)
                for c, n in tests]
        for f in futs:
            results.append(f.result())

    counts = {c: {"pass": 0, "fail": 0, "unsupported": 0, "nofit": 0, "crash": 0,
                  "total": 0} for c in CATEGORIES}
    for cat, _, outcome, _ in results:
        counts[cat][outcome] += 1
        counts[cat]["total"] += 1
    print("%-18s %6s %6s %6s %12s %6s %6s" % ("category", "total", "pass", "fail",
                                              "unsupported", "nofit", "crash"))
    for c in CATEGORIES:
        k = counts[c]
        if not k["total"] and c not in categories:
            continue
        print("%-18s %6d %6d %6d %12d %6d %6d" % (c, k["total"], k["pass"], k["fail"],
                                                  k["unsupported"], k["nofit"], k["crash"]))

    if args.report:
        with open(args.report, "w") as f:
            json.dump({"schema": "dfa.conformance/1", "onnx": suite,
                       "target": args.target or "cpu",
                       "counts": counts,
                       "tests": [{"category": c, "name": n, "outcome": o, "detail": d}
                                 for c, n, o, d in results]}, f, indent=1, sort_keys=True)
            f.write("\n")

    passed = sorted("%s/%s" % (c, n) for c, n, o, _ in results if o == "pass")
    status = 0
    crashes = [(c, n, d) for c, n, o, d in results if o == "crash"]
    for c, n, d in crashes:
        print("CRASH %s/%s: %s" % (c, n, d))
        status = 1
    if args.update and args.expected:
        with open(args.expected, "w") as f:
            f.write("# Conformance tests expected to pass%s%s (regenerate with "
                    "run_conformance.py --update).\n"
                    % (" through the %s schedule" % args.target if args.target else "",
                       "" if args.data == DATA else ", node tests of " + suite))
            f.write("\n".join(passed) + "\n")
    elif args.expected or args.target:
        with open(args.expected or args.cpu_expected) as f:
            expected = {l.strip() for l in f if l.strip() and not l.startswith("#")}
        if args.target:
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   "target_exceptions.txt")) as f:
                for l in f:
                    parts = l.split()
                    if len(parts) >= 2 and not l.startswith("#") and parts[0] == args.target:
                        expected.discard(parts[1])
        if args.filter:
            expected = {e for e in expected if args.filter in e.split("/")[1]}
        got = set(passed)
        for t in sorted(expected - got):
            detail = next((d for c, n, o, d in results if "%s/%s" % (c, n) == t), "")
            print("REGRESSION %s: %s" % (t, detail))
        for t in sorted(got - expected):
            print("NEW PASS %s (record it: %s)" % (
                t, "remove it from target_exceptions.txt" if args.target
                else "run_conformance.py --update"))
        if expected != got:
            status = 1
    n = sum(k["pass"] for k in counts.values())
    f = sum(k["fail"] + k["crash"] for k in counts.values())
    u = sum(k["unsupported"] for k in counts.values())
    nf = sum(k["nofit"] for k in counts.values())
    print("conformance%s: %d passed, %d failed, %d unsupported, %d do not fit"
          % (" on " + args.target if args.target else "", n, f, u, nf))
    return status


if __name__ == "__main__":
    sys.exit(main())
