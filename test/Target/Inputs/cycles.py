"""Prints each kernel's compute_cycles from a dfa.roofline/1 report on
stdin, one 'TARGET NAME CYCLES' line per kernel, sorted by name."""
import json
import sys

for t in json.load(sys.stdin)["targets"]:
    for k in sorted(t["kernels"], key=lambda k: k["name"]):
        print(t["target"], k["name"], k["compute_cycles"])
