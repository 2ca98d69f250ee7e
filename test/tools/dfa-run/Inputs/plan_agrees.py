"""Reads dfa-run --json on stdin: prints 'agree' when the simulated time
and the plan's are within 1% of each other, else both."""
import json
import sys

t = json.load(sys.stdin)["time"]
sim, plan = t["seconds"], t["planned_seconds"]
print("agree" if plan and abs(sim - plan) <= 0.01 * plan else "sim %r plan %r" % (sim, plan))
