#!/usr/bin/env python3
"""dfa's systolic model against the SCALE-Sim v2 package, on SCALE-Sim's own files.

Parity: for each dataflow (os, ws, is) and array size (8x8, 16x16, 32x32)
one SCALE-Sim config is written; the `scalesim` package runs it on two
topology CSVs (54 GEMMs with M, N, K from 8 to 100, ragged and round; 12
convolutions, strided and depthwise), with interface bandwidth high enough
that nothing stalls. dfa reads the same .cfg as its target and the same
CSVs as its models (`dfa-roofline TOPOLOGY.csv --target CONFIG.cfg
--json`), and each kernel's `compute_cycles` is compared with SCALE-Sim's
total cycles for that layer.

Speed: the same runs timed (dfa's whole tool run, process start
included), and, per GEMM, a few layer sizes of real models on a 32x32
array: SCALE-Sim's time for the layer against dfa's marginal time per
layer (a topology of 2,000 GEMMs, run once, divided by 2,000) and dfa's
whole run of that one layer.

usage: scalesim_bench.py BIN_DIR [WORK_DIR] [--json OUT] [--no-speed]
Needs the project's Python environment (scripts/pyenv.sh: scalesim).
"""
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time

SIZES = [8, 17, 32, 50, 64, 100]
GEMMS = [(m, n, k) for m, n, k in itertools.product(SIZES, SIZES, SIZES)
         if (SIZES.index(m) + 2 * SIZES.index(n) + 3 * SIZES.index(k)) % 4 == 0]
# IFMAP H, W, filter R, S, channels, filters, stride; "DP" in a name is
# depthwise (SCALE-Sim runs one single-channel layer per channel).
CONVS = [("c%d" % i,) + c for i, c in enumerate([
    (14, 14, 3, 3, 8, 16, 1), (14, 14, 3, 3, 16, 8, 2), (15, 13, 1, 1, 24, 40, 1),
    (9, 9, 5, 5, 3, 10, 1), (16, 16, 2, 2, 6, 12, 2), (12, 12, 3, 3, 4, 33, 3),
    (7, 7, 7, 7, 2, 5, 1), (10, 20, 3, 1, 5, 7, 1), (28, 28, 1, 1, 8, 8, 1),
    (8, 8, 3, 3, 20, 20, 1)])] + [
    ("DP0", 14, 14, 3, 3, 8, 1, 1), ("DP1", 16, 16, 3, 3, 6, 2, 2)]
ARRAYS = [(8, 8), (16, 16), (32, 32)]
DATAFLOWS = ["os", "ws", "is"]
# Layer sizes of real models (a transformer's projections and attention,
# a CNN's im2col GEMM) for the per-GEMM speed, on a 32x32 ws array.
SPEED_GEMMS = [(512, 512, 512), (256, 1024, 256), (1024, 256, 128), (197, 768, 384)]


def write_config(path, rows, cols, df):
    with open(path, "w") as f:
        f.write("[general]\nrun_name = dfa\n\n[architecture_presets]\n"
                "ArrayHeight: %d\nArrayWidth: %d\nIfmapSramSzkB: 65536\n"
                "FilterSramSzkB: 65536\nOfmapSramSzkB: 65536\nIfmapOffset: 0\n"
                "FilterOffset: 100000000\nOfmapOffset: 200000000\n"
                "Dataflow : %s\nBandwidth : 100000\nMemoryBanks: 1\n\n"
                "[run_presets]\nInterfaceBandwidth: USER\n" % (rows, cols, df))


def write_gemms(path, gemms):
    with open(path, "w") as f:
        f.write("Layer, M, N, K,\n")
        for i, (m, n, k) in enumerate(gemms):
            f.write("gemm%d, %d, %d, %d,\n" % (i, m, n, k))
    return ["gemm%d" % i for i in range(len(gemms))]


def write_convs(path):
    with open(path, "w") as f:
        f.write("Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, "
                "Channels, Num Filter, Strides,\n")
        for c in CONVS:
            f.write(", ".join(str(x) for x in c) + ",\n")


def scalesim_layers(name, channels):
    """SCALE-Sim's layer rows for one topology row (DP: one per channel)."""
    return channels if "DP" in name else 1


def run_scalesim(work, cfg, topology, gemm):
    from scalesim.scale_sim import scalesim
    out = os.path.join(work, "scalesim-" + os.path.basename(cfg) + "-" +
                       os.path.basename(topology))
    t0 = time.perf_counter()
    s = scalesim(save_disk_space=True, verbose=False, config=cfg, topology=topology,
                 input_type_gemm=gemm)
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


def run_dfa(bin_dir, topology, cfg):
    t0 = time.perf_counter()
    out = subprocess.run([os.path.join(bin_dir, "dfa-roofline"), topology, "--target", cfg,
                          "--json"], check=True, capture_output=True, text=True).stdout
    secs = time.perf_counter() - t0
    report = json.loads(out)["targets"][0]
    return {k["name"]: k["compute_cycles"] for k in report["kernels"]}, secs


def parity(bin_dir, work):
    gemm_csv = os.path.join(work, "gemms.csv")
    gemm_names = write_gemms(gemm_csv, GEMMS)
    conv_csv = os.path.join(work, "convs.csv")
    write_convs(conv_csv)
    print("%d GEMMs + %d convolutions x %d dataflows x %d arrays" % (
        len(GEMMS), len(CONVS), len(DATAFLOWS), len(ARRAYS)))
    print("%-4s %-8s %10s %8s %12s %10s %10s" % ("df", "array", "identical", "stalls",
                                                 "scalesim s", "dfa s", "ratio"))
    rows, same_all, total, t_ss, t_dfa = [], 0, 0, 0.0, 0.0
    for df in DATAFLOWS:
        for r, c in ARRAYS:
            cfg = os.path.join(work, "%s_%dx%d.cfg" % (df, r, c))
            write_config(cfg, r, c, df)
            same = n = stalls = 0
            ss = ds = 0.0
            bad = []
            # GEMMs: one SCALE-Sim row per layer.
            ref, st, secs = run_scalesim(work, cfg, gemm_csv, True)
            got, dsecs = run_dfa(bin_dir, gemm_csv, cfg)
            stalls, ss, ds = stalls + st, ss + secs, ds + dsecs
            for i, name in enumerate(gemm_names):
                n += 1
                if got.get(name) == ref[i]:
                    same += 1
                else:
                    bad.append((name, GEMMS[i], ref[i], got.get(name)))
            # Convolutions: a depthwise row is one SCALE-Sim layer per
            # channel, and one dfa kernel (a grouped conv); SCALE-Sim's
            # cycles for it are the sum over its channels.
            ref, st, secs = run_scalesim(work, cfg, conv_csv, False)
            got, dsecs = run_dfa(bin_dir, conv_csv, cfg)
            stalls, ss, ds = stalls + st, ss + secs, ds + dsecs
            at = 0
            for conv in CONVS:
                layers = scalesim_layers(conv[0], conv[5])
                want = sum(ref[at:at + layers])
                at += layers
                n += 1
                if got.get(conv[0]) == want:
                    same += 1
                else:
                    bad.append((conv[0], conv[1:], want, got.get(conv[0])))
            same_all += same
            total += n
            t_ss += ss
            t_dfa += ds
            print("%-4s %-8s %6d/%-3d %8d %12.2f %10.3f %9.0fx" % (
                df, "%dx%d" % (r, c), same, n, stalls, ss, ds, ss / ds))
            for name, shape, a, b in bad[:3]:
                print("     differs: %s %s: scalesim %d, dfa %s" % (name, shape, a, b))
            rows.append({"dataflow": df, "rows": r, "cols": c, "identical": same,
                         "layers": n, "stalls": stalls,
                         "scalesim_seconds": ss, "dfa_seconds": ds})
    print("identical cycles: %d of %d; scalesim %.1f s, dfa %.2f s (whole tool runs, "
          "process start included): %.0fx" % (same_all, total, t_ss, t_dfa, t_ss / t_dfa))
    return rows, same_all == total


def speed(bin_dir, work):
    cfg = os.path.join(work, "speed_ws_32x32.cfg")
    write_config(cfg, 32, 32, "ws")
    # dfa's marginal time per GEMM: 2,000 layers of these sizes and others.
    rng = random.Random(1)
    many = [SPEED_GEMMS[i % len(SPEED_GEMMS)] if i % 2 else
            (rng.randint(8, 1024), rng.randint(8, 1024), rng.randint(8, 1024))
            for i in range(2000)]
    many_csv = os.path.join(work, "many.csv")
    write_gemms(many_csv, many)
    _, many_secs = run_dfa(bin_dir, many_csv, cfg)
    per_layer = many_secs / len(many)
    print("\nper GEMM, 32x32 ws: dfa's marginal time %.3f ms (2,000 GEMMs in %.2f s)" % (
        per_layer * 1e3, many_secs))
    print("%-18s %10s %10s %12s %10s %10s %12s" % ("M, N, K", "cycles", "identical",
                                                    "scalesim s", "dfa run s",
                                                    "ratio", "per GEMM"))
    rows = []
    for g in SPEED_GEMMS:
        csv = os.path.join(work, "speed_%d_%d_%d.csv" % g)
        write_gemms(csv, [g])
        ref, _, ss = run_scalesim(work, cfg, csv, True)
        got, ds = run_dfa(bin_dir, csv, cfg)
        print("%-18s %10d %10s %12.2f %10.3f %9.0fx %11.0fx" % (
            "%d, %d, %d" % g, ref[0], "yes" if got["gemm0"] == ref[0] else "NO", ss, ds,
            ss / ds, ss / per_layer))
        rows.append({"gemm": g, "cycles": ref[0], "identical": got["gemm0"] == ref[0],
                     "scalesim_seconds": ss, "dfa_seconds": ds,
                     "dfa_marginal_seconds": per_layer})
    return rows


def main():
    bin_dir = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") \
        else tempfile.mkdtemp(prefix="scalesim-bench-")
    os.makedirs(work, exist_ok=True)
    rows, ok = parity(bin_dir, work)
    fast = [] if "--no-speed" in sys.argv else speed(bin_dir, work)
    if "--json" in sys.argv:
        with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
            json.dump({"parity": rows, "speed": fast}, f, indent=2)
            f.write("\n")
    sys.exit(0 if ok and all(r["identical"] for r in fast) else 1)


if __name__ == "__main__":
    main()
