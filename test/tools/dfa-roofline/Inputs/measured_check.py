"""Checks a dfa-roofline --measured JSON report against the trace itself:
the ops dfa counts are the trace's top-level operators that launched
kernels (or, kernels only, the kernels), their measured times are the
kernels' durations, the rows come largest gap first, and each row's
prediction is the sum of its nodes' parts of the report.

usage: measured_check.py REPORT.json TRACE.json
"""
import json
import math
import sys

r = json.load(open(sys.argv[1]))["targets"][0]
t = json.load(open(sys.argv[2]))["traceEvents"]
m = r["measured"]
kernels = [e for e in t if e.get("cat") == "kernel"]
total = sum(e["dur"] for e in kernels) * 1e-6
assert abs(m["measured_seconds"] - total) <= 1e-12 + 1e-9 * total, (m["measured_seconds"], total)
assert m["predicted_seconds"] == r["seconds"]
assert m["matched"] == len(m["rows"]) and m["ops"] == m["matched"] + len(m["unmatched"])
assert abs(m["matched_fraction"] - m["matched"] / m["ops"]) < 1e-12


def size(row):
    g = row["gap"]
    return math.inf if g is None else abs(math.log(g))


sizes = [size(x) for x in m["rows"]]
assert sizes == sorted(sizes, reverse=True), sizes
nodes = {n["name"]: n for n in r["nodes"]}
for x in m["rows"]:
    want = sum(nodes[n]["seconds"] for n in x["nodes"] if n in nodes)
    assert abs(x["predicted_seconds"] - want) <= 1e-12 + 1e-9 * want, x
    assert x["measured_seconds"] > 0 and x["kernels"] >= 1
print("%s time: %d ops, %d matched (%.1f%%)" % (m["clock"], m["ops"], m["matched"],
                                              100 * m["matched_fraction"]))
print("largest gap: %s (%s)" % (m["rows"][0]["op"], m["rows"][0]["cause"].split(":")[0]))
