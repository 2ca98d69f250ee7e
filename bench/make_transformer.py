#!/usr/bin/env python3
"""Writes a GPT-style decoder (N layers, d_model D, sequence T) as ONNX with
every weight in one external-data file, without materializing the weights:
the data file is created sparse at its full size (the importer references
weights by offset and never reads them).

With --kv-cache the model is an LLM decoder step with symbolic dims, as
exported by Hugging Face Optimum: tokens [batch, seq, D], per layer
past_key.L / past_value.L [batch, heads, past, D/heads] and an additive
attention mask [batch, 1, seq, past + seq]; it returns the hidden state and
present_key.L / present_value.L (the cache with this step's keys and values
appended). Bind the dims with --dim (or dfa-roofline --llm).

With --random-weights SEED the data file holds real weights instead:
matrices drawn from N(0, 1/fan_in), LayerNorm scales 1 and biases 0, so
that a run's values are those of a plausible layer (the file is written in
full: 4 bytes a parameter in f32).

With --gemm-dtype f8 the linear layers are FP8 as a W8A8 deployment runs
them (TensorRT-LLM's FP8): float8 e4m3 weights, the activation cast to
float8 before each product and the result cast back; attention, the norms
and the KV cache stay in --dtype. --bidirectional leaves out the causal
mask (an encoder).

usage: make_transformer.py OUT.onnx [--layers 24] [--d-model 1024] [--seq 128]
                           [--kv-cache] [--random-weights SEED]
                           [--gemm-dtype f8] [--bidirectional]
"""
import argparse
import math
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--layers", type=int, default=24)
ap.add_argument("--d-model", type=int, default=1024)
ap.add_argument("--seq", type=int, default=128)
ap.add_argument("--heads", type=int, default=16)
ap.add_argument("--kv-heads", type=int, default=0,
                help="key/value heads (default --heads: MHA; fewer: GQA, 1: MQA), "
                     "each shared by heads / kv-heads query heads (as Llama's repeat_kv)")
ap.add_argument("--ffn", type=int, default=0, help="MLP width (default 4 x d_model)")
ap.add_argument("--swiglu", action="store_true",
                help="Llama-style gated MLP: down(silu(x W_gate) * (x W_up))")
ap.add_argument("--dtype", choices=["f32", "f16"], default="f32")
ap.add_argument("--gemm-dtype", choices=["same", "f8"], default="same",
                help="f8: the linear layers' weights in float8 e4m3 and their products in "
                     "float8 (the activation cast to it, the result cast back), as a W8A8 FP8 "
                     "deployment runs them")
ap.add_argument("--bidirectional", action="store_true",
                help="no causal mask: every token attends to every other (an encoder)")
ap.add_argument("--kv-cache", action="store_true",
                help="a decoder step with a KV cache and symbolic batch/seq/past dims")
ap.add_argument("--random-weights", type=int, metavar="SEED", default=None,
                help="write seeded random weights (default: a sparse file of zeros)")
ap.add_argument("--no-data", action="store_true",
                help="do not create the (sparse) external-data file: compile with --no-weights")
a = ap.parse_args()
D, T, H, L = a.d_model, a.seq, a.heads, a.layers
KVH = a.kv_heads or H
if H % KVH:
    ap.error("--heads must be a multiple of --kv-heads")
HD = D // H
F = a.ffn or 4 * D
NP = np.float16 if a.dtype == "f16" else np.float32
PT = TensorProto.FLOAT16 if a.dtype == "f16" else TensorProto.FLOAT
# FLOAT8E4M3FN is 17 (ONNX 1.14); Debian's onnx 1.12 has no name for it.
F8 = getattr(TensorProto, "FLOAT8E4M3FN", 17)
if a.gemm_dtype == "f8" and a.random_weights is not None:
    ap.error("--gemm-dtype f8 writes no random weights (numpy has no float8)")
data_name = os.path.basename(a.out) + ".data"
data_path = os.path.join(os.path.dirname(os.path.abspath(a.out)), data_name)
offset = 0
inits, nodes = [], []
if a.random_weights is not None and a.no_data:
    ap.error("--random-weights writes the data file that --no-data leaves out")
rng = np.random.default_rng(a.random_weights) if a.random_weights is not None else None
data = open(data_path, "wb") if rng is not None else None


def weight(name, shape, gemm=False):
    global offset
    f8 = gemm and a.gemm_dtype == "f8"
    t = TensorProto()
    t.name = name
    t.data_type = F8 if f8 else PT
    t.dims.extend(shape)
    t.data_location = TensorProto.EXTERNAL
    n = int(np.prod(shape)) * (1 if f8 else np.dtype(NP).itemsize)
    for k, v in (("location", data_name), ("offset", str(offset)), ("length", str(n))):
        e = t.external_data.add()
        e.key, e.value = k, v
    offset += n
    inits.append(t)
    if data is not None:
        if len(shape) == 1:  # LayerNorm: scale 1 ("ln*.w"), bias 0
            arr = np.full(shape, 1.0 if name.endswith(".w") else 0.0, NP)
        else:
            arr = (rng.standard_normal(shape, np.float32) / math.sqrt(shape[0])).astype(NP)
        data.write(arr.tobytes())
    return name


def const(name, arr):
    inits.append(numpy_helper.from_array(np.asarray(arr), name))
    return name


SCOPE = ""  # the layer a node is in, for its name: "/layer3/matmul_17"


def node(op, ins, outs=None, **attrs):
    outs = outs or ["%s_%d" % (op.lower(), len(nodes))]
    # Scoped names, as torch's exporter writes them: tools group by them.
    name = "%s/%s" % (SCOPE, outs[0].split(".")[-1]) if SCOPE else outs[0]
    nodes.append(helper.make_node(op, ins, outs, name=name, **attrs))
    return outs[0]


def linear(x, name, shape):
    """x times a linear layer's weight: in float8 with --gemm-dtype f8."""
    w = weight(name, shape, gemm=True)
    if a.gemm_dtype != "f8":
        return node("MatMul", [x, w])
    y = node("MatMul", [node("Cast", [x], to=F8), w])
    return node("Cast", [y], to=PT)


KV = a.kv_cache
# Reshape's 0 copies the input's dim: the same shapes serve any batch and seq.
const("shape_heads", np.array([0, 0, H, HD] if KV else [1, T, H, HD], np.int64))
const("shape_kv_heads", np.array([0, 0, KVH, HD] if KV else [1, T, KVH, HD], np.int64))
# repeat_kv: [b, kv, t, hd] -> [b, kv, 1, t, hd] -> [b, kv, H/kv, t, hd] -> [b, H, t, hd]
const("axis2", np.array([2], np.int64))
const("rep", np.array([1, 1, H // KVH, 1, 1], np.int64))
const("shape_repeated", np.array([0, H, -1, HD], np.int64))
const("shape_model", np.array([0, 0, D] if KV else [1, T, D], np.int64))
const("scale", np.array(1.0 / math.sqrt(D // H), NP))
if not KV and not a.bidirectional:
    const("mask", np.triu(np.full((T, T), -1e4 if a.dtype == "f16" else -1e9, NP), 1))
const("half", np.array(0.5, NP))
const("one", np.array(1.0, NP))
const("rsqrt2", np.array(1 / math.sqrt(2), NP))

x = "tokens"
inputs, outputs = [], []
if KV:
    inputs.append(helper.make_tensor_value_info("attn_mask", PT, ["batch", 1, "seq", "past + seq"]))
for l in range(L):
    p = "layer%d." % l
    SCOPE = "/layer%d" % l
    h = node("LayerNormalization", [x, weight(p + "ln1.w", [D]), weight(p + "ln1.b", [D])], axis=-1)
    qkv = linear(h, p + "attn.qkv", [D, D + 2 * KVH * HD])
    q, k, v = (p + "q", p + "k", p + "v")
    node("Split", [qkv, const(p + "split", np.array([D, KVH * HD, KVH * HD], np.int64))],
         [q, k, v], axis=2)
    heads = []
    for t, shape in ((q, "shape_heads"), (k, "shape_kv_heads"), (v, "shape_kv_heads")):
        r = node("Reshape", [t, shape])
        heads.append(node("Transpose", [r], perm=[0, 2, 1, 3]))
    if KV:
        for i, kind in ((1, "key"), (2, "value")):
            past = "past_%s.%d" % (kind, l)
            inputs.append(helper.make_tensor_value_info(past, PT, ["batch", KVH, "past", HD]))
            heads[i] = node("Concat", [past, heads[i]], ["present_%s.%d" % (kind, l)], axis=2)
            outputs.append(helper.make_tensor_value_info(heads[i], PT, ["batch", KVH, "past + seq", HD]))
    if KVH != H:
        for i in (1, 2):
            e = node("Expand", [node("Unsqueeze", [heads[i], "axis2"]), "rep"])
            heads[i] = node("Reshape", [e, "shape_repeated"])
    kt = node("Transpose", [heads[1]], perm=[0, 1, 3, 2])
    s = node("Mul", [node("MatMul", [heads[0], kt]), "scale"])
    if KV:
        s = node("Add", [s, "attn_mask"])
    elif not a.bidirectional:
        s = node("Add", [s, "mask"])
    att = node("Softmax", [s], axis=-1)
    y = node("Transpose", [node("MatMul", [att, heads[2]])], perm=[0, 2, 1, 3])
    y = node("Reshape", [y, "shape_model"])
    x = node("Add", [x, linear(y, p + "attn.proj", [D, D])])
    h = node("LayerNormalization", [x, weight(p + "ln2.w", [D]), weight(p + "ln2.b", [D])], axis=-1)
    u = linear(h, p + "mlp.up", [D, F])
    if a.swiglu:
        gate = linear(h, p + "mlp.gate", [D, F])
        g = node("Mul", [node("Mul", [gate, node("Sigmoid", [gate])]), u])
    else:
        g = node("Mul", [node("Mul", [u, "half"]),
                         node("Add", [node("Erf", [node("Mul", [u, "rsqrt2"])]), "one"])])
    x = node("Add", [x, linear(g, p + "mlp.down", [F, D])])

tokens = ["batch", "seq", D] if KV else [1, T, D]
graph = helper.make_graph(
    nodes, "transformer",
    [helper.make_tensor_value_info("tokens", PT, tokens)] + inputs,
    [helper.make_tensor_value_info(x, PT, tokens)] + outputs, initializer=inits)
# Cast to float8 is opset 19.
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19 if a.gemm_dtype == "f8" else 17)])
onnx.save_model(model, a.out)
if data is not None:
    data.close()
elif not a.no_data:
    with open(data_path, "wb") as f:
        f.truncate(offset)
print("%s: %d layers, %d nodes, %.2f GB of external weights" % (a.out, L, len(nodes), offset / 1e9))
