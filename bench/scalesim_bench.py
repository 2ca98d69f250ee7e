#!/usr/bin/env python3
"""dfa's systolic model against the SCALE-Sim v2 package, in one run.

For each dataflow (os, ws, is) and array size (8x8, 16x16, 32x32), 54
GEMMs (M, N, K from 8 to 100, ragged and round) are run through the
`scalesim` package (one run of the whole topology per config, interface
bandwidth high enough that nothing stalls) and compiled by dfa for a
description of that one array (a copy of tpu-v4.json: compute.matrix_unit
k x n = rows x columns, limits.mxu_count 1, one core,
compute.systolic_model scalesim-<dataflow>). Prints, per config, how many
GEMMs have identical cycles (dfa's per-kernel compute_cycles against
SCALE-Sim's total cycles) and the time each tool took, and the speed ratio.

usage: scalesim_bench.py BIN_DIR [WORK_DIR] [--json OUT]
Needs the project's Python environment (scripts/pyenv.sh: scalesim, onnx).
"""
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIZES = [8, 17, 32, 50, 64, 100]
GEMMS = [(m, n, k) for m, n, k in itertools.product(SIZES, SIZES, SIZES)
         if (SIZES.index(m) + 2 * SIZES.index(n) + 3 * SIZES.index(k)) % 4 == 0]
ARRAYS = [(8, 8), (16, 16), (32, 32)]
DATAFLOWS = ["os", "ws", "is"]


def scalesim_config(path, rows, cols, df):
    with open(path, "w") as f:
        f.write("[general]\nrun_name = dfa\n\n[architecture_presets]\n"
                "ArrayHeight: %d\nArrayWidth: %d\nIfmapSramSzkB: 65536\n"
                "FilterSramSzkB: 65536\nOfmapSramSzkB: 65536\nIfmapOffset: 0\n"
                "FilterOffset: 100000000\nOfmapOffset: 200000000\n"
                "Dataflow : %s\nBandwidth : 100000\nMemoryBanks: 1\n\n"
                "[run_presets]\nInterfaceBandwidth: USER\n" % (rows, cols, df))


def run_scalesim(work, rows, cols, df, topology):
    from scalesim.scale_sim import scalesim
    cfg = os.path.join(work, "%s_%dx%d.cfg" % (df, rows, cols))
    scalesim_config(cfg, rows, cols, df)
    out = os.path.join(work, "scalesim_%s_%dx%d" % (df, rows, cols))
    t0 = time.perf_counter()
    s = scalesim(save_disk_space=True, verbose=False, config=cfg, topology=topology,
                 input_type_gemm=True)
    s.run_scale(top_path=out)
    secs = time.perf_counter() - t0
    report = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs
              if f == "COMPUTE_REPORT.csv"][0]
    cycles, stalls = [], 0
    for line in open(report).read().splitlines()[1:]:
        cells = [c.strip() for c in line.split(",")]
        cycles.append(int(cells[1]))
        stalls += int(cells[2])
    return cycles, stalls, secs


def description(work, rows, cols, df):
    desc = json.load(open(os.path.join(ROOT, "targets", "tpu-v4.json")))
    name = "array-%s-%dx%d" % (df, rows, cols)
    desc["name"] = name
    desc["compute"]["units"]["value"] = 1
    desc["compute"]["matrix_unit"]["k"]["value"] = rows
    desc["compute"]["matrix_unit"]["n"]["value"] = cols
    desc["compute"]["systolic_model"] = "scalesim-" + df
    desc["limits"]["mxu_count"]["value"] = 1
    d = os.path.join(work, "targets")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".json"), "w") as f:
        json.dump(desc, f)
    return name, d


def gemm_model(path):
    """All the GEMMs in one model, each its own MatMul (its own kernel)."""
    nodes, inputs, outputs = [], [], []
    for i, (m, n, k) in enumerate(GEMMS):
        inputs += [helper.make_tensor_value_info("a%d" % i, TensorProto.BFLOAT16, [m, k]),
                   helper.make_tensor_value_info("b%d" % i, TensorProto.BFLOAT16, [k, n])]
        outputs.append(helper.make_tensor_value_info("y%d" % i, TensorProto.BFLOAT16, [m, n]))
        nodes.append(helper.make_node("MatMul", ["a%d" % i, "b%d" % i], ["y%d" % i],
                                      name="gemm%d" % i))
    g = helper.make_graph(nodes, "gemms", inputs, outputs)
    mo = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    mo.ir_version = 8
    onnx.save(mo, path)


def run_dfa(bin_dir, work, model, rows, cols, df):
    name, tdir = description(work, rows, cols, df)
    sched = os.path.join(work, name + ".sched.mlir")
    t0 = time.perf_counter()
    subprocess.run([os.path.join(bin_dir, "dfa-compile"), model, "--no-weights",
                    "--target", name, "--target-dir", tdir, "-o", sched], check=True)
    secs = time.perf_counter() - t0
    cycles = {}
    for line in open(sched):
        if "sched.compute" in line and 'kind = "matmul"' in line:
            node = re.search(r'sched.compute "gemm(\d+)"', line)
            c = re.search(r"compute_cycles = (\d+)", line)
            cycles[int(node.group(1))] = cycles.get(int(node.group(1)), 0) + int(c.group(1))
    return [cycles.get(i) for i in range(len(GEMMS))], secs


def main():
    bin_dir = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") \
        else tempfile.mkdtemp(prefix="scalesim-bench-")
    os.makedirs(work, exist_ok=True)
    topology = os.path.join(work, "gemms.csv")
    with open(topology, "w") as f:
        f.write("Layer, M, N, K,\n")
        for i, (m, n, k) in enumerate(GEMMS):
            f.write("gemm%d, %d, %d, %d,\n" % (i, m, n, k))
    model = os.path.join(work, "gemms.onnx")
    gemm_model(model)
    print("%d GEMMs x %d dataflows x %d arrays" % (len(GEMMS), len(DATAFLOWS), len(ARRAYS)))
    print("%-4s %-8s %10s %8s %12s %10s %10s" % ("df", "array", "identical", "stalls",
                                                 "scalesim s", "dfa s", "ratio"))
    rows_out, total_same, total, t_ss, t_dfa = [], 0, 0, 0.0, 0.0
    for df in DATAFLOWS:
        for r, c in ARRAYS:
            ref, stalls, ss = run_scalesim(work, r, c, df, topology)
            got, ds = run_dfa(bin_dir, work, model, r, c, df)
            same = sum(1 for a, b in zip(ref, got) if a == b)
            bad = [(GEMMS[i], ref[i], got[i]) for i in range(len(GEMMS)) if ref[i] != got[i]]
            total_same += same
            total += len(GEMMS)
            t_ss += ss
            t_dfa += ds
            print("%-4s %-8s %6d/%-3d %8d %12.2f %10.3f %9.0fx" % (
                df, "%dx%d" % (r, c), same, len(GEMMS), stalls, ss, ds, ss / ds))
            for g, a, b in bad[:3]:
                print("     differs: M,N,K %s: scalesim %d, dfa %s" % (g, a, b))
            rows_out.append({"dataflow": df, "rows": r, "cols": c, "identical": same,
                             "gemms": len(GEMMS), "stalls": stalls,
                             "scalesim_seconds": ss, "dfa_seconds": ds})
    print("identical cycles: %d of %d; scalesim %.1f s, dfa %.2f s (whole compiles, "
          "process start included): %.0fx" % (total_same, total, t_ss, t_dfa, t_ss / t_dfa))
    if "--json" in sys.argv:
        with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
            json.dump(rows_out, f, indent=2)
            f.write("\n")
    sys.exit(0 if total_same == total else 1)


if __name__ == "__main__":
    main()
