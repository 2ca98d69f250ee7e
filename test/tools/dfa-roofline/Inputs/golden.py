#!/usr/bin/env python3
"""Hand-checked rooflines: a GEMM and a softmax on one target of each family.

golden.py GEMM_JSON SOFTMAX_JSON, the dfa.roofline/1 reports of
Inputs/gemm.mlir and Inputs/softmax.mlir. Every expected number is written
out below from the shapes and the target descriptions (targets/*.json); the
script fails on the first one that differs.
"""
import json
import math
import sys

# Shapes: A [640,640], B [640,1280], Y, X, E [640,1280], all f16 (2 bytes).
A = 640 * 640 * 2            # 819,200 B
B = 640 * 1280 * 2           # 1,638,400 B
Y = X = E = 640 * 1280 * 2   # 1,638,400 B
ROW = 640 * 1 * 2            # a [640,1] row statistic, dense: 1,280 B
# ... on the TPU in (8,128)(2,1) f16 tiles: 640/8 = 80 tiles of 8*128*2 B.
ROW_TILED = (640 // 8) * 8 * 128 * 2     # 163,840 B
N = 640 * 1280               # 819,200 elements
GEMM_FLOPS = 2 * 640 * 640 * 1280        # 1,048,576,000

# Target numbers (targets/*.json).
H100_F16, H100_SMS = 989.4e12, 132  # dense f16 (the roof is the peak; the tiled GEMM model times the kernel)
H100_VEC_F16, H100_HBM = 133.8e12, 3.35e12
V4_PEAK, V4_HBM, V4_VMEM_PER_CORE = 275e12, 1.2e12, 13.2e12   # 2 TensorCores
WSE2_PEAK, WSE2_PES, WSE2_MEMX, WSE2_PE_BW = 5.44e15, 850000, 150e9, 23529400000.0
GROQ_F16, GROQ_SRAM = 188e12, 60473139527680.0
SPYRE_F16, SPYRE_DDR, SPYRE_LX_PER_CORE = 98304e9, 150e9, 547e9  # 32 cores

# Per kernel: FLOPs, units held, FLOP/s roof (peak x units/all units),
# and {level: (bytes, bandwidth)}. Bytes at a level = the DMAs into and out
# of it (their layout bytes) + the kernel's operands there (dense bytes).
WSE2_HOP = 1.25e-9            # network.on_chip.latency_ns, one hop


def wse_rect(flops):
    """A lone kernel's PE rectangle on wse-2 (graph-tile): half the wafer
    by its share of the FLOPs (all of them), capped where the fill across
    the rectangle (width + height hops) would cost more than the PEs save,
    R* = (its time on one PE / one hop)^(2/3), then made as square as it
    goes: ceil(sqrt(R)) rows."""
    one_pe = flops / (WSE2_PEAK / WSE2_PES)
    pes = min(int(0.5 * WSE2_PES), int((one_pe / WSE2_HOP) ** (2.0 / 3.0)))
    h = math.ceil(math.sqrt(pes))
    return math.ceil(pes / h) * h


WSE_RECT = wse_rect(GEMM_FLOPS)            # 508 x 508 = 258,064 PEs
WSE_RECT_SOFTMAX = wse_rect(5 * 640 * 1280)  # 80 x 80 = 6,400 PEs
EXPECT = {
    "gemm": {
        # GPU: the tiled model's fastest tile (target::gemmTiling) is 64x128:
        # (640/64) * (1280/128) = 100 CTAs on 100 of 132 SMs (128x128 would
        # leave 82 SMs idle with 50); operands straight from HBM.
        "gpu-h100": [("gemm", GEMM_FLOPS, 100, H100_F16 * 100 / H100_SMS,
                      {"HBM": (A + B + Y, H100_HBM)})],
        # TPU: A and B copied HBM -> VMEM, Y back: HBM sees A + B + Y once,
        # VMEM sees those copies and the compute's reads and writes. XLA
        # double-buffers (compiler.double_buffering): the GEMM runs as
        # chunks of Y's rows (A's too) or columns (B's too), as many as the
        # pipeline's model chooses (the report's compute ops, at least 2),
        # each copying in while the one before computes; each chunk's
        # compute reads all of the operand the split leaves whole: once
        # more per chunk after the first.
        "tpu-v4": [("gemm", GEMM_FLOPS, 2, V4_PEAK,
                    {"HBM": (A + B + Y, V4_HBM),
                     "VMEM": (lambda k: [2 * (A + B + Y) + (k["compute_ops"] - 1) * whole
                                         for whole in (A, B)],
                              2 * V4_VMEM_PER_CORE)})],
        # WSE: A and B stream in from MemoryX; Y stays on the wafer.
        "wse-2": [("gemm", GEMM_FLOPS, WSE_RECT, WSE2_PEAK * WSE_RECT / WSE2_PES,
                   {"MemoryX": (A + B, WSE2_MEMX),
                    "PE-SRAM": ((A + B) + (A + B + Y), WSE_RECT * WSE2_PE_BW)})],
        # LPU: everything lives in SRAM; the kernel holds the whole chip.
        "groq-tsp": [("gemm", GEMM_FLOPS, 4, GROQ_F16, {"SRAM": (A + B + Y, GROQ_SRAM)})],
        # Spyre: as the TPU, LPDDR5 -> LX (2 MB per core) and back.
        "spyre": [("gemm", GEMM_FLOPS, 32, SPYRE_F16,
                   {"LPDDR5": (A + B + Y, SPYRE_DDR),
                    "LX": (2 * (A + B + Y), 32 * SPYRE_LX_PER_CORE)})],
    },
    "softmax": {
        # 5 FLOPs per element: max, subtract, exp, sum, divide.
        "gpu-h100": [("softmax", 5 * N, 132, H100_VEC_F16, {"HBM": (X + Y, H100_HBM)})],
        # TPU: three kernels through HBM. 1: row max (1 FLOP/element) on one
        # core; 2: exp(x - max) and the row sum (3); 3: divide (1).
        "tpu-v4": [
            ("softmax", N, 1, V4_PEAK / 2,
             {"HBM": (X + ROW_TILED, V4_HBM),
              "VMEM": (X + ROW_TILED + X + ROW, V4_VMEM_PER_CORE)}),
            ("softmax.1", 3 * N, 2, V4_PEAK,
             {"HBM": (X + ROW_TILED + E + ROW_TILED, V4_HBM),
              "VMEM": (X + ROW_TILED + E + ROW_TILED + X + ROW + E + ROW,
                       2 * V4_VMEM_PER_CORE)}),
            ("softmax.2", N, 2, V4_PEAK,
             {"HBM": (E + ROW_TILED + Y, V4_HBM),
              "VMEM": (E + ROW_TILED + Y + E + ROW + Y, 2 * V4_VMEM_PER_CORE)}),
        ],
        "wse-2": [("softmax", 5 * N, WSE_RECT_SOFTMAX,
                   WSE2_PEAK * WSE_RECT_SOFTMAX / WSE2_PES,
                   {"MemoryX": (X, WSE2_MEMX),
                    "PE-SRAM": (X + X + Y, WSE_RECT_SOFTMAX * WSE2_PE_BW)})],
        # LPU: two kernels on the vector unit (its roof: the chip's peak).
        # 1: max, subtract, exp (3 FLOPs/element); 2: sum, divide (2).
        "groq-tsp": [("softmax", 3 * N, 1, GROQ_F16, {"SRAM": (X + E, GROQ_SRAM)}),
                     ("softmax.1", 2 * N, 1, GROQ_F16, {"SRAM": (E + Y, GROQ_SRAM)})],
        # Spyre runs softmax whole (a native op) on all 32 cores.
        "spyre": [("softmax", 5 * N, 32, SPYRE_F16,
                   {"LPDDR5": (X + Y, SPYRE_DDR),
                    "LX": (2 * (X + Y), 32 * SPYRE_LX_PER_CORE)})],
    },
}


def close(got, want, what):
    if abs(got - want) > 1e-9 * max(abs(want), 1e-30):
        sys.exit("%s: got %r, expected %r" % (what, got, want))


def check(report, case):
    targets = {t["target"]: t for t in report["targets"]}
    for target, kernels in EXPECT[case].items():
        got = {k["name"]: k for k in targets[target]["kernels"]}
        if sorted(got) != sorted(k[0] for k in kernels):
            sys.exit("%s %s: kernels %s" % (case, target, sorted(got)))
        for name, flops, units, peak, levels in kernels:
            k, where = got[name], "%s on %s, kernel %s" % (case, target, name)
            close(k["flops"], flops, where + " FLOPs")
            if k["units"] != units:
                sys.exit("%s: units %d, expected %d" % (where, k["units"], units))
            close(k["peak_flops"], peak, where + " roof")
            close(k["compute_seconds"], flops / peak, where + " compute time")
            seen = {l["level"]: l for l in k["levels"]}
            if sorted(seen) != sorted(levels):
                sys.exit("%s: levels %s" % (where, sorted(seen)))
            bound, attainable = flops / peak, peak
            if target == "tpu-v4" and case == "gemm" and k["compute_ops"] < 2:
                sys.exit("%s: %d compute ops, expected a pipeline of chunks" % (where, k["compute_ops"]))
            for level, (nbytes, bw) in levels.items():
                l = seen[level]
                if callable(nbytes):
                    # One of the values the description allows.
                    nbytes = min(nbytes(k), key=lambda n: abs(n - l["bytes"]))
                close(l["bytes"], nbytes, "%s bytes at %s" % (where, level))
                close(l["bandwidth"], bw, "%s bandwidth at %s" % (where, level))
                close(l["intensity"], flops / nbytes, "%s intensity at %s" % (where, level))
                bound = max(bound, nbytes / bw)
                attainable = min(attainable, flops / nbytes * bw)
            close(k["bound_seconds"], bound, where + " bound")
            close(k["attainable_flops"], attainable, where + " attainable")


check(json.load(open(sys.argv[1])), "gemm")
check(json.load(open(sys.argv[2])), "softmax")
print("golden rooflines: ok")
