#!/usr/bin/env python3
"""Regenerates docs/reliability.md: every hostile input of
test/Import/Hostile (and the bad-model lit inputs) run through
dfa-compile, with its exit code and first error line.
usage: gen_reliability.py BUILD_DIR"""
import glob
import os
import subprocess
import sys
import tempfile

# Measured by scripts/fuzz.sh and scripts/sanitize.sh (update after a run).
FUZZING = open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "reliability_fuzzing.md")).read().rstrip("\n")

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
bin_dir = os.path.join(sys.argv[1], "bin")
work = tempfile.mkdtemp()
inputs = os.path.join(root, "test", "Import", "Hostile", "Inputs")
subprocess.run(["/usr/bin/python3", os.path.join(inputs, "make_onnx.py"), work], check=True,
               capture_output=True)
subprocess.run(["/usr/bin/python3", os.path.join(inputs, "make_fx.py"), work], check=True,
               capture_output=True)
mk = os.path.join(root, "test", "Import", "ONNX", "Inputs", "make_model.py")
for name in ["truncated", "random", "cycle", "missing_init", "external_missing", "dynamic",
             "bad_reshape", "unsupported3", "opset99", "data_shape", "opset18_axes_attr",
             "opset23_cast_no_to", "opset18_resize_antialias", "quantize_int32",
             "quantize_e8m0", "e8m0_bad_round", "minifloat_mean", "bitcast_bad", "gridsample_bad", "col2im_bad", "deformconv_bad", "attention_opset17",
             "layernorm_stash"]:
    subprocess.run(["/usr/bin/python3", mk, name, os.path.join(work, "lit_" + name + ".onnx")],
                   check=True, capture_output=True)
rows = []
for f in sorted(glob.glob(os.path.join(work, "*.onnx")) + glob.glob(os.path.join(work, "*.mlir")) +
                glob.glob(os.path.join(work, "fx", "*.fx.json"))):
    tool = "dfa-run" if f.endswith(".mlir") else "dfa-compile"
    cmd = [os.path.join(bin_dir, tool), f] + (["--seed", "1"] if tool == "dfa-run" else ["-o", os.devnull])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    err = next((l for l in p.stderr.splitlines() if "error" in l), "")
    err = err.split("error: ", 1)[-1].replace("|", "\\|").replace(work + "/", "")[:140]
    rows.append("| `%s` | %s | %d | %s |" % (os.path.basename(f), tool, p.returncode,
                                              err or "(accepted)"))
# Limits (test/Import/Hostile/limits.test): each with the flags it is tried
# with. The million-node model is written by make_limits.py.
subprocess.run(["/usr/bin/python3", os.path.join(inputs, "make_limits.py"), work], check=True,
               capture_output=True)
limit_cases = [
    ("shape_1e12.onnx", "dfa-compile", ["-o", os.devnull]),
    ("shape_1e12.onnx", "dfa-compile", ["--target", "gpu-h100", "-o", os.devnull]),
    ("shape_1e12.onnx", "dfa-run", ["--seed", "1"]),
    ("nodes_1000000.onnx", "dfa-compile", ["--max-memory", "512M", "-o", os.devnull]),
    ("nodes_1000000.onnx", "dfa-run", ["--max-memory", "512M"]),
    ("nested_if.onnx", "dfa-compile", ["-o", os.devnull]),
    ("nested.fx.json", "dfa-compile", ["-o", os.devnull]),
    ("nested_attr.mlir", "dfa-run", []),
    ("nested_type.mlir", "dfa-compile", ["-o", os.devnull]),
    ("nested_type.mlir", "dfa-opt", []),
    ("huge_attr.onnx", "dfa-compile", ["-o", os.devnull]),
    ("huge_attr.onnx", "dfa-compile", ["--max-memory", "64M", "-o", os.devnull]),
    ("huge_attr.onnx", "dfa-run", ["--seed", "1", "--max-memory", "200M"]),
]
limit_rows = []
for f, tool, args in limit_cases:
    cmd = [os.path.join(bin_dir, tool), os.path.join(work, f)] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    err = next((l for l in p.stderr.splitlines() if "error" in l), "")
    err = err.split("error: ", 1)[-1].replace("|", "\\|")[:200]
    err = err.replace(work + "/", "")
    shown = " ".join(a for a in args if a != os.devnull and a != "-o")
    limit_rows.append("| `%s` | `%s` | %d | %s |" % (f, (tool + " " + shown).strip(), p.returncode,
                                                       err or "(accepted)"))

# SCALE-Sim's files (docs/scalesim.md): malformed topology CSVs and
# configs, as models and as targets.
scalesim_rows = []
topo = os.path.join(root, "test", "Import", "Topology", "Inputs")
for f in sorted(glob.glob(os.path.join(topo, "bad", "*.csv"))):
    p = subprocess.run([os.path.join(bin_dir, "dfa-compile"), f, "-o", os.devnull],
                       capture_output=True, text=True, timeout=60)
    err = next((l for l in p.stderr.splitlines() if "error" in l), "")
    err = err.split("error: ", 1)[-1].replace("|", "\\|")[:200]
    scalesim_rows.append("| `%s` (topology) | dfa-compile | %d | %s |" % (
        os.path.basename(f), p.returncode, err or "(accepted)"))
for f in sorted(glob.glob(os.path.join(root, "test", "Target", "Inputs", "scalesim-bad", "*.cfg"))):
    p = subprocess.run([os.path.join(bin_dir, "dfa-compile"), os.path.join(topo, "gemm.csv"),
                        "--target", f, "-o", os.devnull], capture_output=True, text=True,
                       timeout=60)
    err = next((l for l in p.stderr.splitlines() if "error" in l), "")
    err = err.split("error: ", 1)[-1].replace("|", "\\|").replace(os.path.dirname(f) + "/", "")
    scalesim_rows.append("| `%s` (config, as `--target`) | dfa-compile | %d | %s |" % (
        os.path.basename(f), p.returncode, err[:200] or "(accepted)"))

# The inputs the fuzzers found bugs with (test/fuzz/regressions), as a user
# meets them now.
fuzz_rows = []
regress = os.path.join(root, "test", "fuzz", "regressions")
fuzz_tool = {"onnx-import": ("dfa-compile", [".onnx"], ["-o", os.devnull]),
             "topology-import": ("dfa-compile", [".csv"], ["-o", os.devnull]),
             "fx-import": ("dfa-compile", [".fx.json"], ["--no-weights", "-o", os.devnull]),
             "sched-run": ("dfa-run", [".sched.mlir"], ["--seed", "1"])}
for kind in sorted(os.listdir(regress)) if os.path.isdir(regress) else []:
    for f in sorted(glob.glob(os.path.join(regress, kind, "*"))):
        if kind not in fuzz_tool:
            continue
        tool, (suffix,), args = fuzz_tool[kind]
        copy = os.path.join(work, "fuzz-" + os.path.basename(f).split(".")[0] + suffix)
        with open(f, "rb") as src, open(copy, "wb") as dst:
            dst.write(src.read())
        p = subprocess.run([os.path.join(bin_dir, tool), copy] + args, capture_output=True,
                           text=True, timeout=120)
        err = next((l for l in p.stderr.splitlines() if "error" in l), "")
        err = err.split("error: ", 1)[-1].replace("|", "\\|").replace(work + "/", "")[:200]
        fuzz_rows.append("| `%s/%s` | %s | %d | %s |" % (kind, os.path.basename(f), tool,
                                                         p.returncode, err or "(accepted)"))

out = ["# Reliability", "",
       "Every bad input tried, what dfa does with it, and the exit code",
       "(docs/cli.md). Generated by `scripts/gen_reliability.py` from the inputs of",
       "`test/Import/Hostile` and `test/Import/ONNX` (the lit tests assert that",
       "none of them crashes, hangs or reports an internal error). Some inputs",
       "are valid edge cases and are accepted (exit 0).", "",
       "Mutation fuzzing of the ONNX importer (random byte edits of the 932",
       "ONNX node-test models, `dfa-compile` on each): the crashes it found are",
       "fixed and their models are among the inputs below.", "",
       "| input | tool | exit | message |", "|---|---|---|---|"] + rows + [
       "", "## Limits", "",
       "Hostile sizes (`test/Import/Hostile/Inputs/make_limits.py`): a",
       "10^12-element input, a chain of a million nodes, subgraphs, JSON and",
       "MLIR nested 2000 to 100000 deep, and a 48 MiB constant attribute. Each",
       "ends fast with a clear error and exit 14 (limit exceeded), 9 (does not",
       "fit) or 4 (invalid), within `--max-memory` (docs/cli.md). The budget is",
       "checked against estimates before the work starts (the file, nodes,",
       "ops, the CPU reference's peak live set, the simulator's memory images)",
       "and enforced on the process, so an allocation past it ends the run",
       "with exit 14 rather than a crash.", "",
       "| input | command | exit | message |", "|---|---|---|---|"] + limit_rows + [
       "", "## SCALE-Sim files", "",
       "Malformed SCALE-Sim topologies (`test/Import/Topology/Inputs/bad`) and",
       "configs (`test/Target/Inputs/scalesim-bad`): each names the line or the",
       "key and what was expected. A topology is refused with exit 4, a config",
       "with exit 8; an unreadable file is exit 5. Rows are read as SCALE-Sim",
       "reads them, and also without the trailing comma SCALE-Sim needs.", "",
       "| input | tool | exit | message |", "|---|---|---|---|"] + scalesim_rows + [
       "", FUZZING, "",
       "Inputs the fuzzers found bugs with, now regression tests",
       "(`test/fuzz/regressions`, replayed by `test/fuzz/regressions.test`):", "",
       "| input | tool | exit | message |", "|---|---|---|---|"] + fuzz_rows
open(os.path.join(root, "docs", "reliability.md"), "w").write("\n".join(out) + "\n")
print("docs/reliability.md: %d inputs" % len(rows))
