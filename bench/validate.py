#!/usr/bin/env python3
"""Validation of dfa-run's timing against published references.

Builds small ONNX models (one GEMM, one elementwise op, a decoder), compiles
and simulates them with dfa (`dfa-compile`, `dfa-run --time-only`), and
prints a Markdown table: each row the predicted value, the reference, the
error and the reference's source. With --write FILE, replaces the block
between the `<!-- validate.py -->` markers of FILE (docs/validation.md).

usage: validate.py BUILD_BIN_DIR WORK_DIR [--write docs/validation.md]
"""
import csv
import json
import math
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DTYPES = {"f16": TensorProto.FLOAT16, "f32": TensorProto.FLOAT,
          "bf16": TensorProto.BFLOAT16}


def one_op_model(path, op, inputs, output, dtype):
    """A model of one ONNX op whose operands are all graph inputs (no
    weights): `inputs` and `output` are (name, shape) pairs."""
    t = DTYPES[dtype]
    g = helper.make_graph(
        [helper.make_node(op, [n for n, _ in inputs], [output[0]], name=op.lower())],
        op.lower(), [helper.make_tensor_value_info(n, t, s) for n, s in inputs],
        [helper.make_tensor_value_info(output[0], t, output[1])])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)]), path)


def gemm_model(path, m, k, n, dtype):
    one_op_model(path, "MatMul", [("a", [m, k]), ("b", [k, n])], ("c", [m, n]), dtype)


def add_model(path, elems, dtype):
    one_op_model(path, "Add", [("x", [elems]), ("y", [elems])], ("z", [elems]), dtype)


def run(bin_dir, args):
    p = subprocess.run([os.path.join(bin_dir, args[0])] + args[1:],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode,
                                                  p.stderr.strip()[-300:]))
    return p.stdout


def simulate(bin_dir, model, target, extra=()):
    """dfa-run --time-only --json: the simulated seconds and ops."""
    out = run(bin_dir, ["dfa-run", model, "--target", target, "--time-only",
                        "--json"] + list(extra))
    return json.loads(out)["time"]


def compute_cycles(bin_dir, model, target, work, extra=()):
    """Sum of the matrix kernels' compute-only cycles in the schedule, and
    how many matrix kernels there are (a GEMM too big for VMEM runs as
    chunks)."""
    sched = os.path.join(work, os.path.basename(model) + "." + target + ".sched.mlir")
    run(bin_dir, ["dfa-compile", model, "--target", target, "-o", sched] + list(extra))
    total = kernels = 0
    for line in open(sched):
        if "sched.compute" in line and 'kind = "matmul"' in line:
            m = re.search(r"compute_cycles = (\d+)", line)
            total += int(m.group(1))
            kernels += 1
    return total, kernels


def scalesim_ws(m, k, n, rows, cols, arrays, runs=1):
    """SCALE-Sim v2 weight-stationary stall-free cycles (reference/perf.md
    2.4): ceil(K/R)*ceil(N/C) folds of 2R + C + M - 2 cycles each, the folds
    spread over `arrays` independent arrays, less the one cycle the
    scalesim package does not count in a run (bench/scalesim_bench.py runs
    it): one per kernel, `runs` for a GEMM run as chunks."""
    folds = math.ceil(k / rows) * math.ceil(n / cols)
    return math.ceil(folds / arrays) * (2 * rows + cols + m - 2) - runs


# GEMMs from real models: (M, K, N, where).
TPU_GEMMS = [
    (512, 768, 768, "BERT-base attention projection, 512 tokens"),
    (512, 768, 3072, "BERT-base FFN up"),
    (512, 3072, 768, "BERT-base FFN down"),
    (1024, 768, 2304, "GPT-2 small fused QKV, 1024 tokens"),
    (3136, 64, 256, "ResNet-50 conv2_x 1x1 expand as GEMM"),
    (784, 1152, 128, "ResNet-50 conv3_x 3x3 as GEMM (im2col)"),
    (196, 2304, 256, "ResNet-50 conv4_x 3x3 as GEMM"),
    (128, 4096, 4096, "Llama-7B prefill attention projection, 128 tokens"),
    (128, 4096, 11008, "Llama-7B prefill MLP up"),
    (8, 4096, 4096, "Llama-7B decode, batch 8"),
    (1, 4096, 11008, "Llama-7B decode, batch 1"),
    (2048, 1024, 4096, "GPT-3 350M-class MLP up, 2048 tokens"),
]


def scalesim_variant(work, target):
    """The shipped description with compute.systolic_model = scalesim-ws
    (the shipped TPUs pipeline their folds), as a user target in work/.
    SCALE-Sim counts a GEMM run whole, so the variant does not double-buffer
    (compiler.double_buffering false): a GEMM runs as chunks only when VMEM
    cannot hold it, where the shipped TPU pipelines every GEMM in chunks and
    each chunk of rows pays the folds' fill and drain again."""
    root = os.path.dirname(HERE)
    desc = json.load(open(os.path.join(root, "targets", target + ".json")))
    name = target + "-scalesim"
    desc["name"] = name
    desc["compute"]["systolic_model"] = "scalesim-ws"
    desc.setdefault("compiler", {})["double_buffering"] = False
    d = os.path.join(work, "targets")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".json"), "w") as f:
        json.dump(desc, f)
    return name, d


def tpu_rows(bin_dir, work, target="tpu-v4", arrays=8):
    rows = []
    variant, target_dir = scalesim_variant(work, target)
    for m, k, n, where in TPU_GEMMS:
        path = os.path.join(work, "gemm_%d_%d_%d.onnx" % (m, k, n))
        gemm_model(path, m, k, n, "bf16")
        got, kernels = compute_cycles(bin_dir, path, variant, work,
                                      ["--target-dir", target_dir])
        ref = scalesim_ws(m, k, n, 128, 128, arrays, kernels)
        rows.append(("TPU v4 MXU cycles, GEMM %dx%dx%d bf16 (%s)" % (m, k, n, where),
                     got, ref, "SCALE-Sim v2 WS closed form, 128x128 arrays x %d "
                     "(4 MXUs x 2 TensorCores), reference/perf.md 2.4" % arrays))
    return rows


def gpu_rows(bin_dir, work):
    rows = []
    path = os.path.join(work, "gemm_8192.onnx")
    gemm_model(path, 8192, 8192, 8192, "bf16")
    t = simulate(bin_dir, path, "gpu-h100")
    tflops = 2 * 8192 ** 3 / t["seconds"] / 1e12
    rows.append(("H100 SXM bf16 GEMM 8192^3 (TFLOP/s)", tflops, 740.0,
                 "measured cuBLAS, about 700-780 TFLOP/s (issue 5; dense peak 989)"))
    path = os.path.join(work, "add_stream.onnx")
    n = 256 * 1024 * 1024
    add_model(path, n, "f32")
    t = simulate(bin_dir, path, "gpu-h100")
    kernel = [op for op in t["ops"] if op["kind"] != "dma"][0]
    gbps = 3 * 4 * n / (kernel["end"] - kernel["start"]) / 1e9
    rows.append(("H100 SXM streaming add, 1 GiB f32 per operand (GB/s)", gbps,
                 0.9 * 3350.0, "about 90% of the 3.35 TB/s spec; measured STREAM "
                 "triad 2.97 TB/s (Azure ND H100 v5, reference/perf.md 5)"))
    return rows


def attention_model(path, b, h, s, d, dtype="f16", causal=False):
    """softmax(q k^T / sqrt(d)) v over [b, h, s, d] inputs, as exporters
    write it (graph-raise makes it one flash-attention kernel); `causal`
    adds the mask torch.onnx cuts for SDPA's is_causal, where(equal(
    trilu(ones), 0), -inf, 0), which graph-raise reads as causal."""
    t = {"f16": TensorProto.FLOAT16, "bf16": TensorProto.BFLOAT16}[dtype]
    io = lambda n: helper.make_tensor_value_info(n, t, [b, h, s, d])
    inits = [helper.make_tensor("scale", t, [], [1.0 / d ** 0.5])]
    nodes = [helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]),
             helper.make_node("MatMul", ["q", "kt"], ["s0"]),
             helper.make_node("Mul", ["s0", "scale"], ["s1"])]
    scores = "s1"
    if causal:
        inits += [helper.make_tensor("square", TensorProto.INT64, [2], [s, s]),
                  helper.make_tensor("zero", t, [], [0.0]),
                  helper.make_tensor("ninf", t, [], [float("-inf")])]
        nodes += [helper.make_node("ConstantOfShape", ["square"], ["ones"],
                                   value=helper.make_tensor("one", t, [1], [1.0])),
                  helper.make_node("Trilu", ["ones"], ["tril"], upper=0),
                  helper.make_node("Equal", ["tril", "zero"], ["above"]),
                  helper.make_node("Where", ["above", "ninf", "zero"], ["mask"]),
                  helper.make_node("Add", ["s1", "mask"], ["s2"])]
        scores = "s2"
    nodes += [helper.make_node("Softmax", [scores], ["p"], axis=-1),
              helper.make_node("MatMul", ["p", "v"], ["y"])]
    g = helper.make_graph(nodes, "attention", [io("q"), io("k"), io("v")], [io("y")], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)


def attention_rows(bin_dir, work):
    """Flash attention on the H100 against measured FlashAttention-3
    (bench/data/fa3_h100_attention.csv)."""
    rows = []
    with open(os.path.join(HERE, "data", "fa3_h100_attention.csv")) as f:
        table = list(csv.DictReader(l for l in f if not l.startswith("#")))
    for r in table:
        b, h, s, d = (int(r[k]) for k in ("batch", "heads", "seq", "head_dim"))
        path = os.path.join(work, "attention_%d.onnx" % s)
        attention_model(path, b, h, s, d)
        t = simulate(bin_dir, path, "gpu-h100")
        tflops = 4 * b * h * s * s * d / t["seconds"] / 1e12
        rows.append(("H100 SXM flash attention forward, 16-bit, %d x %d heads x %d tokens, "
                     "head dim %d (TFLOP/s)" % (b, h, s, d), tflops, float(r["flash_v3_tflops"]),
                     "FlashAttention-3 measured, pytorch/benchmark ff65cb67 (the paper's own "
                     "figure: %s; bench/data/fa3_h100_attention.csv)" % r["paper_fa3_tflops"]))
    # The paper's other FP16 panels: causal (its FLOPs halved, as the paper
    # counts them) and head dim 256.
    with open(os.path.join(HERE, "data", "fa3_paper_h100_attention.csv")) as f:
        table = list(csv.DictReader(l for l in f if not l.startswith("#")))
    for r in table:
        b, h, s, d = (int(r[k]) for k in ("batch", "heads", "seq", "head_dim"))
        causal = r["causal"] == "1"
        path = os.path.join(work, "attention_%d_%d_%d.onnx" % (d, s, causal))
        attention_model(path, b, h, s, d, causal=causal)
        t = simulate(bin_dir, path, "gpu-h100")
        tflops = 4 * b * h * s * s * d / (2 if causal else 1) / t["seconds"] / 1e12
        rows.append(("H100 SXM flash attention forward, 16-bit, %s, %d x %d heads x %d tokens, "
                     "head dim %d (TFLOP/s)" % ("causal" if causal else "non-causal", b, h, s, d),
                     tflops, float(r["fa3_paper_tflops"]),
                     "FlashAttention-3 paper, figure of FP16 forward speed "
                     "(bench/data/fa3_paper_h100_attention.csv)"))
    return rows


def spyre_rows(bin_dir, work):
    """Whole programs on Spyre (LPDDR5 -> LX -> LPDDR5) against the
    torch-spyre analytical cost model (reference/hardware.md 6.3):
    T = max(compute, (R + W) / 150 GB/s + 0.00574 ns/B * min(R, W)), with
    matmul compute at the fitted 1140 MAC/ns per core on 32 cores."""
    def formula(read, written, macs=0):
        mem = (read + written) / 150e9 + 0.00574e-9 * min(read, written)
        return max(macs / (1140e9 * 32), mem)
    rows = []
    n = 8 * 1024 * 1024
    path = os.path.join(work, "spyre_add.onnx")
    add_model(path, n, "f16")
    t = simulate(bin_dir, path, "spyre")
    rows.append(("Spyre add, 8 Mi f16 elements (us)", t["seconds"] * 1e6,
                 formula(4 * n, 2 * n) * 1e6,
                 "torch-spyre cost model (cost_model.py; RMS 5-9% on pointwise ops), "
                 "reference/hardware.md 6.3"))
    for m, k, nn in [(1024, 1024, 1024), (128, 4096, 4096)]:
        path = os.path.join(work, "spyre_mm_%d_%d_%d.onnx" % (m, k, nn))
        gemm_model(path, m, k, nn, "f16")
        t = simulate(bin_dir, path, "spyre")
        rows.append(("Spyre matmul %dx%dx%d f16 (us)" % (m, k, nn), t["seconds"] * 1e6,
                     formula(2 * (m * k + k * nn), 2 * m * nn, m * k * nn) * 1e6,
                     "torch-spyre cost model, 1140 MAC/ns/core fitted (25-40% "
                     "under-prediction on matmul), reference/hardware.md 5.1, 6.3"))
    return rows


def decode_rows(bin_dir, work):
    rows = []
    specs = [
        ("groq-tsp", "Llama-2-7B", ["--layers", "32", "--d-model", "4096", "--heads", "32",
                                    "--ffn", "11008", "--swiglu"], 750.0,
         "Groq public API, Llama-2-7B: 750 tok/s per user (reference/perf.md 5, row 7)"),
        # The 70B figure's deployment is reported as 576 chips (unverified);
        # the model here has multi-head attention (Llama-2-70B uses grouped
        # K/V heads: its weights are 11% fewer) and f16 weights.
        ("groq-tsp", "Llama-2-70B-shaped (MHA)", ["--layers", "80", "--d-model", "8192",
                                                  "--heads", "64", "--ffn", "28672",
                                                  "--swiglu"], 300.0,
         "Groq public API, Llama-2-70B: 300 tok/s per user (reference/perf.md 5, row 7)"),
        ("wse-3", "Llama-3.1-8B", ["--layers", "32", "--d-model", "4096", "--heads", "32",
                                   "--ffn", "14336", "--swiglu"], 1800.0,
         "Cerebras Inference, Llama-3.1-8B: 1,800 tok/s (reference/perf.md 5, row 8)"),
    ]
    for target, name, shape, ref, source in specs:
        path = os.path.join(work, "%s-decode.onnx" % name.split(" ")[0])
        subprocess.run([sys.executable, os.path.join(HERE, "make_transformer.py"), path,
                        "--seq", "1", "--dtype", "f16", "--no-data"] + shape,
                       check=True, capture_output=True)
        t = simulate(bin_dir, path, target, ["--no-weights"])
        rows.append(("%s decode, %s, batch 1 (tokens/s)" % (target, name),
                     1.0 / t["seconds"], ref, source))
    return rows


def llm_rows(bin_dir, work):
    """Published end-to-end LLM serving throughputs on GPUs, with their
    deployment (model, precision, GPUs, batch, prompt and output tokens; a
    deployment over several GPUs runs with --tensor-parallel):
    `dfa-roofline --llm` times the prefill of the batch's prompts (the first
    output token) and decode steps at contexts spanning the rest of the
    generation, summed over every step by the trapezoid rule; output
    tokens/s = batch x output tokens / (prefill + decode steps). The models
    are make_transformer.py's decoders of the same shape (no embedding or LM
    head: under 1% of a step's FLOPs at these batches) with FP8 linear
    layers (--gemm-dtype f8: weights and products in float8 e4m3, the rest
    and the KV cache in f16)."""
    rows = []
    llama3_8b = ["--layers", "32", "--d-model", "4096", "--heads", "32", "--kv-heads", "8",
                 "--ffn", "14336", "--swiglu"]
    llama_70b = ["--layers", "80", "--d-model", "8192", "--heads", "64", "--kv-heads", "8",
                 "--ffn", "28672", "--swiglu"]
    azure70 = ("Azure ND H200 v5, TensorRT-LLM, FP8, world size 8 (the guide's config: "
               "tp_sizes [8]): %s tok/s (reference/perf.md 5, row 4)")
    # (target, what, model shape, tensor-parallel chips, batch, prompt and
    # output tokens, the published output tokens/s, its source)
    specs = [
        ("gpu-h200", "Llama-3-8B, FP8, 1 GPU, batch 64, 128 in / 8 out", llama3_8b, 1,
         64, 128, 8, 2757.54,
         "Azure ND H200 v5, TensorRT-LLM, FP8, TP 1 (the guide's config): 2,757.5 tok/s (reference/perf.md 5, row 4)"),
        ("gpu-h200", "Llama-2-70B, FP8, 1 GPU, batch 512, 128 in / 128 out", llama_70b, 1,
         512, 128, 128, 3014.0,
         "TensorRT-LLM v0.5.0 on H200, FP8, TP 1: 3,014 tok/s (reference/perf.md 5, row 5)"),
    ] + [("gpu-h200", "Llama-3-70B, FP8, 8 GPUs (TP 8), batch %d, 128 in / 8 out" % b,
          llama_70b, 8, b, 128, 8, ref, azure70 % ("{:,}".format(ref)))
         for b, ref in [(16, 647.78), (32, 861.77), (64, 1145.14)]]
    made = set()
    for target, name, shape, tp, batch, prompt, out, ref, source in specs:
        path = os.path.join(work, "llm-%s.onnx" % name.split(",")[0])
        if path not in made:
            made.add(path)
            subprocess.run([sys.executable, os.path.join(HERE, "make_transformer.py"), path,
                            "--kv-cache", "--dtype", "f16", "--gemm-dtype", "f8", "--no-data"]
                           + shape, check=True, capture_output=True)
        # Decode steps run at contexts prompt .. prompt + out - 2: sampled at
        # both ends and the middle.
        last = prompt + out - 2
        contexts = sorted({prompt, (prompt + last) // 2, last})
        rep = json.loads(run(bin_dir, [
            "dfa-roofline", path, "--target", target, "--llm", "prefill,decode",
            "--tensor-parallel", str(tp),
            "--batch", str(batch), "--context", ",".join(map(str, contexts)), "--json"]))
        points = rep["llm"]["targets"][0]["points"]
        prefill = [p["seconds"] for p in points if p["phase"] == "prefill" and p["context"] == prompt]
        decode = sorted((p["context"], p["seconds"]) for p in points if p["phase"] == "decode")
        if not prefill or len(decode) != len(contexts) or any(s is None for _, s in decode):
            raise RuntimeError("dfa-roofline --llm: %s did not run every step" % name)
        steps = 0.0
        for (c0, t0), (c1, t1) in zip(decode, decode[1:]):
            steps += (c1 - c0) * (t0 + t1) / 2
        steps += (decode[0][1] + decode[-1][1]) / 2  # the end points whole
        rows.append(("%s %s (output tokens/s)" % (target, name),
                     batch * out / (prefill[0] + steps), ref, source))
    return rows


def tpu_serving_rows(bin_dir, work):
    """JetStream-PyTorch's published v5e-8 serving throughputs
    (reference/perf.md 5, row 6; AI-Hypercomputer/jetstream-pytorch
    benchmarks/summary.md): bf16, 8 chips sharding the heads (TP 8), a
    2,048-position KV cache, and, at that code (layers.py, March 2024),
    decode attention over the whole cache with a mask, so every decode step
    reads batch x 2,048 positions whatever the requests' lengths. dfa times
    that step (`dfa-roofline --llm decode` at context 2,048) and the row is
    batch / step: the decode steps alone, an upper bound, since JetStream's
    figure (its benchmark_serving.py over ShareGPT) also pays each request's
    prefill, in series with the decode steps (its analyze_sharegpt.py
    model). The models are make_transformer.py's decoders of the same shape
    (no embedding or LM head: Llama-3-8B's 128K-entry head adds 131 MB a
    chip a step, under 1%)."""
    rows = []
    source = ("JetStream-PyTorch on TPU v5e-8, bf16, %s (benchmarks/summary.md; "
              "reference/perf.md 5, row 6)")
    specs = [
        ("Llama-2-7B", ["--layers", "32", "--d-model", "4096", "--heads", "32",
                        "--ffn", "11008", "--swiglu"], 96, 3663.0,
         "batch 96, cache 2,048: 3,663 tok/s"),
        ("Llama-3-8B", ["--layers", "32", "--d-model", "4096", "--heads", "32",
                        "--kv-heads", "8", "--ffn", "14336", "--swiglu"], 128, 8249.0,
         "batch 128, cache 2,048: 8,249 tok/s"),
    ]
    for name, shape, batch, ref, what in specs:
        path = os.path.join(work, "jetstream-%s.onnx" % name)
        subprocess.run([sys.executable, os.path.join(HERE, "make_transformer.py"), path,
                        "--kv-cache", "--dtype", "f16", "--no-data"] + shape,
                       check=True, capture_output=True)
        rep = json.loads(run(bin_dir, [
            "dfa-roofline", path, "--target", "tpu-v5e", "--llm", "decode",
            "--tensor-parallel", "8", "--batch", str(batch), "--context", "2048", "--json"]))
        points = rep["llm"]["targets"][0]["points"]
        step = [p["seconds"] for p in points if p["phase"] == "decode"]
        if len(step) != 1 or step[0] is None:
            raise RuntimeError("dfa-roofline --llm: the %s decode step did not run" % name)
        rows.append(("tpu-v5e x8 %s, bf16, TP 8, batch %d, decode over a 2,048-position "
                     "cache (output tokens/s, decode steps only)" % (name, batch),
                     batch / step[0], ref, source % what))
    return rows


# NCCL all-reduce bus bandwidth on Azure ND H200 v5 (8 GPUs over NVSwitch,
# the NVLS algorithm, in place), GB/s by message size in bytes
# (`Azure/AI-benchmarking-guide`, Azure_Results/ND_H200_v5_results.md,
# "NCCL Bandwidth"; reference/perf.md 5, row 4).
NCCL_H200_ALLREDUCE = [(1024, 0.06), (65536, 3.72), (1 << 20, 52.96),
                       (16 << 20, 240.41), (128 << 20, 412.45),
                       (1 << 30, 467.58), (8 << 30, 479.98)]


def collective_rows(bin_dir, work):
    """One all-reduce over 8 gpu-h200 chips per message size, timed by
    dfa-roofline --analytic (the cost model's collective kernel, less the
    description's per-kernel launch estimate: nccl-tests times operations
    queued back to back), as the bus bandwidth nccl-tests reports:
    2 (N-1)/N x bytes / seconds."""
    out = ["| message | nccl-tests bus bandwidth | dfa | error |", "|---|---|---|---|"]
    errors = []
    for size, measured in NCCL_H200_ALLREDUCE:
        path = os.path.join(work, "allreduce-%d.mlir" % size)
        n = size // 2
        with open(path, "w") as f:
            f.write('func.func @main(%%x: tensor<%dxf16> {graph.name = "x"}) -> tensor<%dxf16> {\n'
                    '  %%y = graph.all_reduce %%x {chips = 8 : i64} : tensor<%dxf16>\n'
                    '  return %%y : tensor<%dxf16>\n}\n' % (n, n, n, n))
        rep = json.loads(run(bin_dir, ["dfa-roofline", path, "--target", "gpu-h200",
                                       "--analytic", "--json"]))
        k = [k for k in rep["targets"][0]["kernels"] if k["kind"] == "collective"][0]
        seconds = k["seconds"] - k["waits"]["launch"]
        got = 2 * 7 / 8 * size / seconds / 1e9
        err = (got - measured) / measured * 100
        errors.append(abs(err))
        label = ("%d GiB" % (size >> 30) if size >= 1 << 30 else
                 "%d MiB" % (size >> 20) if size >= 1 << 20 else "%d KiB" % (size >> 10))
        out.append("| %s | %.2f GB/s | %.2f GB/s | %+.1f%% |" % (label, measured, got, err))
    return "\n".join(out)


def attributed_seconds(sim, copies):
    """Each kernel's time in dfa-run's own timing: the instants its ops
    (its compute ops, and with `copies` the DMAs it owns: `kernel` of a
    DMA) are active. An instant when only its copies run is shared with the
    other kernels copying on the same chip then: the simulator splits a
    memory path's bandwidth among the copies on it, so contention with
    another kernel is not this kernel's bound. Its compute holds its units
    alone and counts whole."""
    iv = []
    for op in sim["ops"]:
        k = op["name"] if op["kind"] != "dma" else op.get("kernel")
        if k and (copies or op["kind"] != "dma"):
            iv.append((op["start"], op["end"], k, op["kind"] == "dma", op.get("chip", 0)))
    points = sorted({x[0] for x in iv} | {x[1] for x in iv})
    out = {}
    for lo, hi in zip(points, points[1:]):
        active = [x for x in iv if x[0] < hi and x[1] > lo]
        for k in {x[2] for x in active}:
            mine = [x for x in active if x[2] == k]
            if any(not x[3] for x in mine):
                weight = 1.0
            else:
                chips = {x[4] for x in mine}
                weight = 1.0 / len({x[2] for x in active if x[3] and x[4] in chips})
            out[k] = out.get(k, 0.0) + (hi - lo) * weight
    return out


def label_rows(bin_dir, work):
    """Roofline labels against the simulator: every kernel dfa-roofline
    labels compute-bound (memory-bound) must run, in dfa-run's own timing
    (attributed_seconds: its compute ops; for a memory-bound kernel its
    copies too, sharing with other kernels' concurrent copies), within 10%
    of its roof (compute seconds, or its bound level's bytes over
    bandwidth). Models: the GPT block example, a 2-layer f16 transformer
    (d_model 1024, 512 tokens), a bf16 4096^3 GEMM and a 64 Mi f16 add, on
    every accelerator target. Returns markdown and whether every label
    held."""
    root = os.path.dirname(HERE)
    models = [os.path.join(root, "examples", "gpt_block.onnx")]
    t2 = os.path.join(work, "labels-transformer.onnx")
    subprocess.run([sys.executable, os.path.join(HERE, "make_transformer.py"), t2,
                    "--layers", "2", "--d-model", "1024", "--seq", "512", "--heads", "16",
                    "--dtype", "f16", "--no-data"], check=True, capture_output=True)
    models.append(t2)
    g = os.path.join(work, "labels-gemm.onnx")
    gemm_model(g, 4096, 4096, 4096, "bf16")
    models.append(g)
    a = os.path.join(work, "labels-add.onnx")
    add_model(a, 64 * 1024 * 1024, "f16")
    models.append(a)
    targets = json.loads(run(bin_dir, ["dfa-compile", "--list-targets", "--json"]))["targets"]
    names = [t["name"] for t in targets if t["name"] != "cpu"]
    out = ["| target | compute-bound kernels within 10% | memory-bound within 10% | "
           "worst (simulated / roof) |", "|---|---|---|---|"]
    ok = True
    for target in names:
        counts = {"compute": [0, 0], "memory": [0, 0]}
        worst = (1.0, "")
        for m in models:
            roof = json.loads(run(bin_dir, ["dfa-roofline", m, "--target", target, "--json"]))
            sim = simulate(bin_dir, m, target, ["--seed", "1", "--no-weights"])
            took_compute = attributed_seconds(sim, copies=False)
            took_memory = attributed_seconds(sim, copies=True)
            for k in roof["targets"][0]["kernels"]:
                label = k["bottleneck"].split(":")[0]
                if label not in ("compute", "memory") or k["name"] not in took_compute:
                    continue
                took = (took_compute if label == "compute" else took_memory)[k["name"]]
                if label == "compute":
                    bound = k["compute_seconds"]
                else:
                    level = k["bottleneck"].split(":", 1)[1]
                    bound = next(l["seconds"] for l in k["levels"] if l["level"] == level)
                ratio = took / bound if bound > 0 else 1.0
                counts[label][1] += 1
                if ratio <= 1.10:
                    counts[label][0] += 1
                else:
                    ok = False
                if ratio > worst[0]:
                    worst = (ratio, "%s (%s, %s)" % (k["name"], label, os.path.basename(m)))
        out.append("| %s | %d/%d | %d/%d | %.3f %s |" % (
            target, counts["compute"][0], counts["compute"][1], counts["memory"][0],
            counts["memory"][1], worst[0], worst[1]))
    return "\n".join(out), ok


def table(rows):
    out = ["| quantity | dfa | reference | error | source |", "|---|---|---|---|---|"]
    for what, got, ref, source in rows:
        err = (got - ref) / ref * 100.0
        fmt = (lambda v: "%.0f" % v) if max(abs(got), abs(ref)) >= 100 else (lambda v: "%.3g" % v)
        out.append("| %s | %s | %s | %+.1f%% | %s |" % (what, fmt(got), fmt(ref), err, source))
    return "\n".join(out)


def replace_block(doc, name, text):
    s = open(doc).read()
    begin, end = "<!-- %s begin -->" % name, "<!-- %s end -->" % name
    i, j = s.index(begin) + len(begin), s.index(end)
    open(doc, "w").write(s[:i] + "\n" + text + "\n" + s[j:])


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    rows = (tpu_rows(bin_dir, work) + gpu_rows(bin_dir, work)
            + attention_rows(bin_dir, work) + spyre_rows(bin_dir, work)
            + decode_rows(bin_dir, work) + llm_rows(bin_dir, work)
            + tpu_serving_rows(bin_dir, work))
    text = table(rows)
    print(text)
    # Measured GEMM tables, every shape: XLA's H100 table the GPU model was
    # built against, and the held-out B200 and A100 tables
    # (bench/gemm_validate.py RUNS).
    sys.path.insert(0, HERE)
    import gemm_validate
    gemm = gemm_validate.markdown(gemm_validate.validate_all(bin_dir))
    print(gemm)
    labels, labels_ok = label_rows(bin_dir, work)
    print(labels)
    collectives = collective_rows(bin_dir, work)
    print(collectives)
    if "--write" in sys.argv:
        doc = sys.argv[sys.argv.index("--write") + 1]
        replace_block(doc, "validate.py", text)
        replace_block(doc, "gemm_validate.py", gemm)
        replace_block(doc, "labels", labels)
        replace_block(doc, "collectives", collectives)
    if not labels_ok:
        print("validate.py: some roofline labels disagree with the simulator's "
              "kernel times (docs/validation.md, 'Roofline labels')", file=sys.stderr)


if __name__ == "__main__":
    main()
