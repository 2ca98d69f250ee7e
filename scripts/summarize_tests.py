#!/usr/bin/env python3
"""Adds up the results test.sh collected and prints one closing line:
'N passed, N failed'. Exits 1 when anything failed."""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

results = sys.argv[1]
passed = failed = 0
rows = []

lit = json.load(open(os.path.join(results, "lit.json")))
lp = sum(t["code"] in ("PASS", "XFAIL") for t in lit["tests"])
lf = sum(t["code"] not in ("PASS", "XFAIL", "UNSUPPORTED") for t in lit["tests"])
rows.append(("lit", lp, lf))

suite = ET.parse(os.path.join(results, "unit.xml")).getroot()
if suite.tag == "testsuites":
    suite = suite.find("testsuite")
cases = suite.findall("testcase")
ut = len(cases)
uf = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
rows.append(("unit", ut - uf, uf))

conf = json.load(open(os.path.join(results, "conformance.json")))
text = open(os.path.join(results, "conformance.txt")).read()
regressions = len(re.findall(r"^(REGRESSION|NEW PASS|CRASH) ", text, re.M))
cp = sum(c["pass"] for c in conf["counts"].values())
rows.append(("conformance (expected list)", cp, regressions))

# The node tests of the project's pinned onnx (make_onnx_node_data.py).
cur = os.path.join(results, "conformance-onnx-current.json")
if os.path.exists(cur):
    cconf = json.load(open(cur))
    ctext = open(os.path.join(results, "conformance-onnx-current.txt")).read()
    rows.append(("conformance, %s" % cconf["onnx"].split(",")[0],
                 sum(c["pass"] for c in cconf["counts"].values()),
                 len(re.findall(r"^(REGRESSION|NEW PASS|CRASH) ", ctext, re.M))))
else:
    rows.append(("conformance, current onnx (not run)", 0, 1))

for name in sorted(os.listdir(results)):
    m = re.match(r"conformance\.(.+)\.json$", name)
    if not m:
        continue
    tconf = json.load(open(os.path.join(results, name)))
    ttext = open(os.path.join(results, "conformance.%s.txt" % m.group(1))).read()
    tbad = len(re.findall(r"^(REGRESSION|NEW PASS|CRASH) ", ttext, re.M))
    rows.append(("conformance on " + m.group(1),
                 sum(c["pass"] for c in tconf["counts"].values()), tbad))

promise = os.path.join(results, "check_promise.txt")
m = re.search(r"(\d+) agree .*, (\d+) disagree", open(promise).read()) \
    if os.path.exists(promise) else None
rows.append(("--check promise", int(m.group(1)) if m else 0,
             int(m.group(2)) if m else 1))

slurm = os.path.join(results, "slurm.txt")
stext = open(slurm).read() if os.path.exists(slurm) else ""
if "slurm sweep: skipped" in stext:
    print("  slurm sweep: skipped (this machine cannot run the daemons; see slurm.txt)")
else:
    ok = "slurm sweep: ok" in stext
    rows.append(("slurm sweep", 1 if ok else 0, 0 if ok else 1))

install = os.path.join(results, "install.txt")
m = re.search(r"(\d+) passed, (\d+) failed", open(install).read()) \
    if os.path.exists(install) else None
rows.append(("install and .deb", int(m.group(1)) if m else 0, int(m.group(2)) if m else 1))

for env, label in (("venv", "torch 2.x"), ("debian", "torch 1.13")):
    for kind, title in (("models", "torch exports"), ("fx", "fx round trips")):
        path = os.path.join(results, "%s.%s.txt" % (kind, env))
        m = re.search(r"(\d+) passed, (\d+) failed", open(path).read()) \
            if os.path.exists(path) else None
        p, f = (int(m.group(1)), int(m.group(2))) if m else (0, 1)
        rows.append(("%s (%s)" % (title, label), p, f))

# Hugging Face architectures through the dynamo exporter, and every export
# path on real architectures (the project's environment only).
for kind, title in (("hf", "hf exports (torch 2.x)"), ("hf-arch", "hf architectures sweep"),
                    ("paths", "export paths (torch 2.x)"),
                    ("detection", "detection in segments"),
                    ("ort-tools", "onnxruntime tools' models"),
                    ("measured", "measured traces")):
    path = os.path.join(results, "%s.venv.txt" % kind)
    m = re.search(r"(\d+) passed, (\d+) failed", open(path).read()) \
        if os.path.exists(path) else None
    rows.append((title, int(m.group(1)) if m else 0, int(m.group(2)) if m else 1))

for name, p, f in rows:
    print("  %-28s %5d passed %3d failed" % (name, p, f))
    passed += p
    failed += f
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
