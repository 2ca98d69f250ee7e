#!/usr/bin/env python3
"""Interrupts a running sweep once its results file holds `at` points:
  resume  SIGTERM to the sweep itself; checks that it stopped short of the
          end, runs it again and prints what the resumed run said;
  worker  SIGKILL to one of its workers (as the OOM killer would); prints
          the sweep's exit code and the errors the results record.
usage: sweep_kill.py MODE DFA_SWEEP SPEC RESULTS AT"""
import json
import os
import signal
import subprocess
import sys
import time

mode, sweep, spec, results, at = sys.argv[1:5] + [int(sys.argv[5])]


def lines():
    try:
        with open(results, "rb") as f:
            return f.read().count(b"\n")
    except FileNotFoundError:
        return 0


p = subprocess.Popen([sweep, spec, "-j", "2", "-o", results, "--quiet"])
while p.poll() is None and lines() < at:
    time.sleep(0.01)
if mode == "resume":
    p.send_signal(signal.SIGTERM)
    p.wait()
    held = lines()
    print("killed: %s" % ("halfway" if at <= held < 1000 else "at %d lines" % held))
    r = subprocess.run([sweep, spec, "-j", "2", "-o", results], capture_output=True, text=True)
    print(r.stderr.strip())
    sys.exit(r.returncode)
children = []
try:
    with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
        children = [int(c) for c in f.read().split()]
except OSError:
    pass
if children:
    os.kill(children[0], signal.SIGKILL)
print("exit %d" % p.wait())
died = [json.loads(l) for l in open(results) if '"error"' in l]
print("lines %d, died %d" % (lines(), len(died)))
for d in died:
    print(d["error"]["message"])
