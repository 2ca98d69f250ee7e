#!/usr/bin/env python3
"""Kills a sweep once its results file holds `at` points, checks that it
stopped short of the end, resumes it, and prints what the resumed run said.
usage: kill_resume.py DFA_SWEEP SPEC RESULTS AT"""
import signal
import subprocess
import sys
import time

sweep, spec, results, at = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])


def lines():
    try:
        with open(results, "rb") as f:
            return f.read().count(b"\n")
    except FileNotFoundError:
        return 0


p = subprocess.Popen([sweep, spec, "-j", "2", "-o", results, "--quiet"])
while p.poll() is None and lines() < at:
    time.sleep(0.01)
p.send_signal(signal.SIGTERM)
p.wait()
held = lines()
print("killed: %s" % ("halfway" if at <= held < 1000 else "at %d lines" % held))
r = subprocess.run([sweep, spec, "-j", "2", "-o", results], capture_output=True, text=True)
print(r.stderr.strip())
sys.exit(r.returncode)
