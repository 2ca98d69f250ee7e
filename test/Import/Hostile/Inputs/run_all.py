#!/usr/bin/env python3
"""Runs dfa-compile and dfa-run on every hostile input in DIR: each must end
with a documented exit code (0-8, or 14: over the memory budget), never a
signal, an internal error (70) or a hang. Usage: run_all.py DIR"""
import glob
import os
import subprocess
import sys

bad = 0
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.onnx")) +
               glob.glob(os.path.join(sys.argv[1], "*.mlir")) +
               glob.glob(os.path.join(sys.argv[1], "fx", "*.fx.json")))
for f in files:
    for cmd in (["dfa-compile", f, "-o", os.devnull], ["dfa-run", f, "--seed", "1"]):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        if not (isinstance(rc, int) and (0 <= rc <= 8 or rc == 14)):
            bad += 1
            print("BAD %s %s: exit %s %s" % (cmd[0], os.path.basename(f), rc,
                                              (p.stderr or "")[-300:] if rc != "timeout" else ""))
print("hostile inputs: %d files, %d bad" % (len(files), bad))
sys.exit(1 if bad else 0)
