#!/usr/bin/env python3
"""Checks the critical path of every target in a dfa.roofline/1 report
(stdin): its steps tile [0, makespan] with no gap or overlap, their times
sum to the makespan within 1%, every kernel with time on the path has no
slack beyond the plan's idle cycles on the path, and no kernel has negative
slack. Prints one line per target."""
import json
import sys

report = json.load(sys.stdin)
bad = 0
for t in report["targets"]:
    path = t["critical_path"]
    steps = path["steps"]
    total = t["seconds"]
    err = []
    at = 0.0
    for s in steps:
        if abs(s["start"] - at) > 1e-9 * max(total, 1e-12) + 1e-15:
            err.append("step at %g s does not start where the last ended (%g s)" % (s["start"], at))
        at = s["start"] + s["seconds"]
    summed = sum(s["seconds"] for s in steps)
    if total > 0 and abs(summed - total) > 0.01 * total:
        err.append("steps sum to %g s, makespan %g s" % (summed, total))
    if abs(sum(path["shares"].values()) - 1) > 1e-6:
        err.append("shares sum to %g" % sum(path["shares"].values()))
    # A cycle-exact plan's idle cycles on the path are slack of what runs
    # before them.
    plan = sum(s["seconds"] for s in steps if s["kind"] == "wait" and s["via"] == "plan")
    for k in t["kernels"]:
        if k["slack_seconds"] < 0:
            err.append("kernel %s has negative slack" % k["name"])
        if k["critical_seconds"] > 0 and k["slack_seconds"] > plan + 1e-9 * total:
            err.append("kernel %s is on the path with slack %g s" % (k["name"], k["slack_seconds"]))
    bad += bool(err)
    print("%s: %d steps, %.4f of the makespan%s" % (t["target"], len(steps), summed / total if total else 0,
                                                   "".join("\n  BAD " + e for e in err)))
sys.exit(1 if bad else 0)
