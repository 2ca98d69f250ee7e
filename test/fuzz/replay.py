#!/usr/bin/env python3
"""Replays the inputs the fuzzers found bugs with (test/fuzz/regressions/
NAME/, one folder per harness of fuzz/) through the tools, as a user would
meet them: each must end with a documented exit code, never a signal, an
internal error (70) or a hang.
  onnx-import  dfa-compile FILE.onnx, and --check
  fx-import    dfa-compile FILE.fx.json --no-weights, and --check
  target       dfa-compile --list-targets and a compile of a small graph
               for every target, with the file as a --target-dir description
  sched-run    dfa-run FILE.sched.mlir --seed 1
  topology-import  dfa-compile FILE.csv, and --check
  requests     dfa-run --requests FILE on a decoder with a KV cache
  trace        dfa-roofline examples/gpt_block.onnx --measured FILE
  scalesim-config  a compile of a small graph and of a topology for the
               file as a --target .cfg
  sweep-spec   dfa-sweep on the file (first byte: 1 YAML, else JSON), one
               worker, into a fresh results file
  overrides    a compile and a time-only run of a small graph for the
               target the file's first line names, its other lines as --set
Usage: replay.py REGRESSIONS_DIR WORK_DIR"""
import glob
import os
import shutil
import subprocess
import sys

src, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))
graph = os.path.join(here, "..", "tools", "dfa-bisect", "Inputs", "layernorm.mlir")
documented = set(range(0, 10)) | {12, 13, 14}


def commands(kind, f):
    base = os.path.join(work, kind + "-" + os.path.basename(f))
    if kind == "onnx-import":
        shutil.copyfile(f, base + ".onnx")
        return [["dfa-compile", base + ".onnx", "-o", os.devnull],
                ["dfa-compile", "--check", base + ".onnx"]]
    if kind == "fx-import":
        shutil.copyfile(f, base + ".fx.json")
        return [["dfa-compile", base + ".fx.json", "--no-weights", "-o", os.devnull],
                ["dfa-compile", "--check", base + ".fx.json"]]
    if kind == "target":
        os.makedirs(base, exist_ok=True)
        shutil.copyfile(f, os.path.join(base, "fuzzed.json"))
        return [["dfa-compile", "--list-targets", "--target-dir", base],
                ["dfa-compile", graph, "--target", "all", "--target-dir", base,
                 "-o", base + ".out"]]
    if kind == "topology-import":
        shutil.copyfile(f, base + ".csv")
        return [["dfa-compile", base + ".csv", "-o", os.devnull],
                ["dfa-compile", "--check", base + ".csv"]]
    if kind == "scalesim-config":
        shutil.copyfile(f, base + ".cfg")
        topology = os.path.join(here, "..", "Import", "Topology", "Inputs", "conv.csv")
        return [["dfa-compile", graph, "--target", base + ".cfg", "-o", os.devnull],
                ["dfa-compile", topology, "--target", base + ".cfg", "-o", os.devnull]]
    if kind == "trace":
        shutil.copyfile(f, base + ".json")
        gpt = os.path.join(here, "..", "..", "examples", "gpt_block.onnx")
        return [["dfa-roofline", gpt, "--target", "gpu-h100", "--measured", base + ".json"]]
    if kind == "requests":
        shutil.copyfile(f, base + ".jsonl")
        model = os.path.join(work, "requests-decoder.onnx")
        if not os.path.exists(model):
            subprocess.run([sys.executable, os.path.join(here, "..", "..", "bench", "make_transformer.py"),
                            model, "--layers", "1", "--d-model", "64", "--heads", "4",
                            "--kv-cache", "--no-data"], check=True, capture_output=True)
        return [["dfa-run", model, "--no-weights", "--target", "gpu-h100",
                 "--requests", base + ".jsonl"]]
    if kind == "overrides":
        with open(f, errors="replace") as fh:
            lines = [l for l in fh.read().split("\n") if l.strip()]
        target = lines[0].strip() if lines else "tpu-v5e"
        sets = []
        for l in lines[1:]:
            sets += ["--set", l]
        return [["dfa-compile", graph, "--target", target, "-o", os.devnull] + sets,
                ["dfa-run", graph, "--target", target, "--time-only"] + sets]
    if kind == "sweep-spec":
        data = open(f, "rb").read()
        spec = base + (".yaml" if data[:1] == b"\x01" else ".json")
        with open(spec, "wb") as g:
            g.write(data[1:])
        return [["dfa-sweep", spec, "-j", "1", "--quiet", "-o", base + ".results.jsonl"]]
    if kind == "sched-run":
        shutil.copyfile(f, base + ".sched.mlir")
        return [["dfa-run", base + ".sched.mlir", "--seed", "1"]]
    sys.exit("replay.py: unknown harness folder '%s'" % kind)


bad = count = 0
for d in sorted(glob.glob(os.path.join(src, "*"))):
    kind = os.path.basename(d)
    for f in sorted(glob.glob(os.path.join(d, "*"))):
        count += 1
        for cmd in commands(kind, f):
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
                rc, err = p.returncode, p.stderr
            except subprocess.TimeoutExpired:
                rc, err = "timeout", ""
            if rc not in documented:
                bad += 1
                print("BAD %s %s: exit %s %s" % (kind, os.path.basename(f), rc, err[-300:]))
print("fuzz regressions: %d inputs, %d bad" % (count, bad))
sys.exit(1 if bad else 0)
