#!/usr/bin/env python3
"""Writes layers whose weights (f32, 0.7-2.4 MiB, stored in 320-element
vectors) exceed one chip of test-lpu-small (512 KiB of SRAM; 460.8 KiB for
weights), one ONNX model each, with seeded random weights: graph-shard
splits them across chips.
usage: make_shard_models.py OUT_DIR"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)


def save(name, nodes, inputs, output, inits, ints=None, dtype=np.float32):
    g = helper.make_graph(nodes, name, inputs, [output],
                          [numpy_helper.from_array(a.astype(dtype), n)
                           for n, a in inits.items()] +
                          [numpy_helper.from_array(np.array(v, np.int64), n)
                           for n, v in (ints or {}).items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(m.SerializeToString())


def vi(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


# MatMul by a [K, N] = [960, 640] weight (2.4 MiB), then a bias: cut along K.
save("matmul", [helper.make_node("MatMul", ["x", "w"], ["y0"], name="proj"),
                helper.make_node("Add", ["y0", "b"], ["y"], name="bias")],
     [vi("x", [4, 960])], vi("y", [4, 640]),
     {"w": rng.standard_normal((960, 640)) / 30, "b": rng.standard_normal(640)})
# Gemm with trans_b, weight [N, K] = [960, 320] (1.2 MiB) and C: cut along N.
save("gemm_tb", [helper.make_node("Gemm", ["x", "w", "c"], ["y"], name="fc", transB=1,
                                  alpha=0.5, beta=2.0)],
     [vi("x", [3, 320])], vi("y", [3, 960]),
     {"w": rng.standard_normal((960, 320)) / 18, "c": rng.standard_normal(960)})
# Gemm without trans_b, weight [K, N] = [640, 320] (0.8 MiB) and C: cut along K.
save("gemm_k", [helper.make_node("Gemm", ["x", "w", "c"], ["y"], name="fc", beta=0.5)],
     [vi("x", [2, 640])], vi("y", [2, 320]),
     {"w": rng.standard_normal((640, 320)) / 25, "c": rng.standard_normal((2, 320))})
# Conv, filters [F, C, 3, 3] = [640, 32, 3, 3] (0.7 MiB, stored HWIO), with a
# bias: cut along F.
save("conv", [helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv", pads=[1, 1, 1, 1])],
     [vi("x", [1, 32, 4, 4])], vi("y", [1, 640, 4, 4]),
     {"w": rng.standard_normal((640, 32, 3, 3)) / 17, "b": rng.standard_normal(640)})
# One [960, 640] weight read by two MatMuls (a tied or reused weight): sliced
# once, both layers read the same slices.
save("shared", [helper.make_node("MatMul", ["x", "w"], ["y0"], name="first"),
                helper.make_node("MatMul", ["y1", "w"], ["y2"], name="second"),
                helper.make_node("Slice", ["y0", "s0", "s1", "ax"], ["y0s"], name="cut"),
                helper.make_node("Concat", ["y0s", "y0s"], ["y1pre"], name="again", axis=1),
                helper.make_node("Tanh", ["y1pre"], ["y1"], name="squash"),
                helper.make_node("Add", ["y2", "y0"], ["y"], name="sum")],
     [vi("x", [4, 960])], vi("y", [4, 640]),
     {"w": rng.standard_normal((960, 640)) / 30},
     ints={"s0": [0], "s1": [480], "ax": [1]})
# A tied embedding and LM head: a [V, D] = [1000, 320] table (1.2 MiB) that a
# Gather looks up (vocabulary-parallel: each piece its rows) and a MatMul reads
# transposed (cut along V, the head's columns). Token ids cover every piece,
# one negative (counted from the end).
g = helper.make_graph(
    [helper.make_node("Gather", ["emb", "ids"], ["h"], name="embed", axis=0),
     helper.make_node("Tanh", ["h"], ["t"], name="mix"),
     helper.make_node("Transpose", ["emb"], ["embT"], name="tied", perm=[1, 0]),
     helper.make_node("MatMul", ["t", "embT"], ["y"], name="head")],
    "tied", [helper.make_tensor_value_info("ids", TensorProto.INT64, [2, 4])], [vi("y", [2, 4, 1000])],
    [numpy_helper.from_array((rng.standard_normal((1000, 320)) / 10).astype(np.float32), "emb")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
with open(os.path.join(out, "tied.onnx"), "wb") as f:
    f.write(m.SerializeToString())
np.save(os.path.join(out, "ids.npy"), np.array([[0, 999, 250, 500], [-1, 749, 333, 1]], np.int64))
np.save(os.path.join(out, "ids_bad.npy"), np.array([[0, 1000, 250, 500], [-1, 749, 333, 1]], np.int64))
# An LM head whose logits do not fit a chip: [128, 320] rows times a [384,
# 320] weight read transposed (480 KiB, cut along its 384 columns into two
# pieces of 240 KiB). Each piece's product (160 KiB as stored) beside its
# piece of the weight and the rows passes a chip: the pieces are assembled
# in the host's memory where the logits go.
g = helper.make_graph(
    [helper.make_node("Transpose", ["w"], ["wT"], name="view", perm=[1, 0]),
     helper.make_node("MatMul", ["x", "wT"], ["y"], name="head")],
    "head", [vi("x", [128, 320])], [vi("y", [128, 384])],
    [numpy_helper.from_array((rng.standard_normal((384, 320)) / 18).astype(np.float32), "w")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
with open(os.path.join(out, "head.onnx"), "wb") as f:
    f.write(m.SerializeToString())
# An embedding lookup of 72 ids in a [738, 320] table (945 KB as stored:
# three pieces of 246 rows, 315 KB each): the three pieces' rows (92 KB
# each) do not fit the last piece's chip beside its piece of the table, so
# each piece selects its ids into the rows so far on its own chip (a chain).
g = helper.make_graph(
    [helper.make_node("Gather", ["emb", "ids"], ["h"], name="embed", axis=0),
     helper.make_node("Tanh", ["h"], ["y"], name="mix")],
    "lookup", [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 72])],
    [vi("y", [1, 72, 320])],
    [numpy_helper.from_array((rng.standard_normal((738, 320)) / 10).astype(np.float32), "emb")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
with open(os.path.join(out, "lookup.onnx"), "wb") as f:
    f.write(m.SerializeToString())
np.save(os.path.join(out, "lookup_ids.npy"),
        np.array([[(i * 97 + 13) % 738 for i in range(71)] + [-1]], np.int64))
# A SwiGLU MLP over 32 rows of 320 with [320, 320] weights (400 KiB each, a
# chip's weight budget apiece): the up projection's kernel fits its chip
# (its weight, the rows and its product: 480 KiB), but not with the gate's
# activation beside it as well (520 KiB): stream fusion leaves the multiply
# a kernel of its own.
def swiglu_nodes(out):
    return [helper.make_node("MatMul", ["x", "wg"], ["g"], name="gate"),
            helper.make_node("Sigmoid", ["g"], ["s"], name="sig"),
            helper.make_node("Mul", ["g", "s"], ["a"], name="silu"),
            helper.make_node("MatMul", ["x", "wu"], ["u"], name="up"),
            helper.make_node("Mul", ["a", "u"], ["h"], name="glu"),
            helper.make_node("MatMul", ["h", "wd"], [out], name="down")]


def swiglu_weights():
    return {"wg": rng.standard_normal((320, 320)) / 18, "wu": rng.standard_normal((320, 320)) / 18,
            "wd": rng.standard_normal((320, 320)) / 18}


save("swiglu", swiglu_nodes("y"), [vi("x", [32, 320])], vi("y", [32, 320]), swiglu_weights())
# The SwiGLU MLP with a residual after it: the down projection's output is
# read again (not a graph result streamed to the host), so the product
# joining the multiply would hold both its activations, its weight and its
# output (532,480 B, past the chip): it starts a kernel of its own.
save("swiglu_res", swiglu_nodes("d") + [helper.make_node("Add", ["d", "x"], ["y"], name="residual")],
     [vi("x", [32, 320])], vi("y", [32, 320]), swiglu_weights())
# A product that widens its input, [320, 960] f32 (1.2 MB, past a chip's
# weight budget) read as stored: graph-shard cuts it along N, each piece a
# window of 320 columns whose rows stand 3,840 B apart in the file.
save("wide", [helper.make_node("MatMul", ["x", "w"], ["y"], name="widen")],
     [vi("x", [32, 320])], vi("y", [32, 960]),
     {"w": rng.standard_normal((320, 960)) / 18})
# A linear layer as torch exports F.linear: a [320, 320] weight read through
# a Transpose (folded into the product by the MXM), then a bias added.
save("linear", [helper.make_node("Transpose", ["w"], ["wT"], name="view", perm=[1, 0]),
                helper.make_node("MatMul", ["x", "wT"], ["p"], name="proj"),
                helper.make_node("Add", ["p", "b"], ["y"], name="bias")],
     [vi("x", [32, 320])], vi("y", [32, 320]),
     {"w": rng.standard_normal((320, 320)) / 18, "b": rng.standard_normal(320)})


def vi16(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT16, shape)


# An MLP as torch exports F.linear, in f16: 256 rows of 320 through [640,
# 320] and [320, 640] weights read transposed (400 KiB each: each fits a
# chip), with a 320 KiB hidden activation (past a third of the chip):
# graph-shard cuts the chain along its rows, each piece folding its own
# view of the weights into its products.
save("mlp_rows",
     [helper.make_node("Transpose", ["w1"], ["w1T"], name="view1", perm=[1, 0]),
      helper.make_node("MatMul", ["x", "w1T"], ["h"], name="fc1"),
      helper.make_node("Sigmoid", ["h"], ["s"], name="sig"),
      helper.make_node("Mul", ["h", "s"], ["a"], name="silu"),
      helper.make_node("Transpose", ["w2"], ["w2T"], name="view2", perm=[1, 0]),
      helper.make_node("MatMul", ["a", "w2T"], ["y"], name="fc2")],
     [vi16("x", [256, 320])], vi16("y", [256, 320]),
     {"w1": rng.standard_normal((640, 320)) / 18, "w2": rng.standard_normal((320, 640)) / 25},
     dtype=np.float16)
# The same MLP as an ONNX exporter writes it: [K, N] weights read as they
# are (no transpose). graph-shard cuts its rows all the same, each piece
# reading the whole weights where they are placed.
save("mlp_kn",
     [helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
      helper.make_node("Sigmoid", ["h"], ["s"], name="sig"),
      helper.make_node("Mul", ["h", "s"], ["a"], name="silu"),
      helper.make_node("MatMul", ["a", "w2"], ["y"], name="fc2")],
     [vi16("x", [256, 320])], vi16("y", [256, 320]),
     {"w1": rng.standard_normal((320, 640)) / 18, "w2": rng.standard_normal((640, 320)) / 25},
     dtype=np.float16)
# A product of two weights' views (torch's F.linear on both sides), its
# [512, 320] result (320 KiB) past a third of the chip: the cut along its
# rows slices the left view, so each piece transposes its own slice of
# that weight (refused for a while when no dim could be cut without
# slicing a view).
save("views_cut",
     [helper.make_node("Transpose", ["wa"], ["waT"], name="va", perm=[1, 0]),
      helper.make_node("Transpose", ["wb"], ["wbT"], name="vb", perm=[1, 0]),
      helper.make_node("MatMul", ["waT", "wbT"], ["p"], name="pp"),
      helper.make_node("Add", ["p", "x"], ["q"], name="addx"),
      helper.make_node("Softmax", ["q"], ["s"], name="sm", axis=-1),
      helper.make_node("ReduceSum", ["s", "ax"], ["y"], name="red", keepdims=0)],
     [vi16("x", [320])], vi16("y", [512]),
     {"wa": rng.standard_normal((64, 512)) / 8, "wb": rng.standard_normal((320, 64)) / 8},
     ints={"ax": [1]}, dtype=np.float16)
# A SwiGLU MLP as an ONNX exporter writes it, widening 320 to 960: the gate
# and up projections' [320, 960] f32 weights (1.2 MB each, past a chip's
# weight budget) are cut along N into three windows of 320 columns, and the
# down projection's [960, 320] weight along K where they were: each piece
# multiplies its part of the gate by its part of the up projection and
# makes a partial of the output from it (Megatron's column- then
# row-parallel pair), with no joined [8, 960] activation anywhere.
save("swiglu_cols", swiglu_nodes("y"), [vi("x", [8, 320])], vi("y", [8, 320]),
     {"wg": rng.standard_normal((320, 960)) / 18, "wu": rng.standard_normal((320, 960)) / 18,
      "wd": rng.standard_normal((960, 320)) / 30})
# An f16 MLP whose first weight, [320, 640] (400 KiB), is within a chip's
# weight budget but not beside its 128 rows in and its 160 KiB product out
# (560 KiB in all), none of them past a third of the chip (no chain is cut
# into rows): graph-shard cuts the weight along N all the same.
save("mlp_crowded",
     [helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
      helper.make_node("Relu", ["h"], ["a"], name="relu"),
      helper.make_node("MatMul", ["a", "w2"], ["y"], name="fc2")],
     [vi16("x", [128, 320])], vi16("y", [128, 320]),
     {"w1": rng.standard_normal((320, 640)) / 18, "w2": rng.standard_normal((640, 320)) / 25},
     dtype=np.float16)
# A product whose result is repeated over 64 heads (4 x 64 x 320 f32, 320
# KiB: beside its 400 KiB weight, past a chip) that a multiply and a sum
# over the heads consume as it is made: the repeat is never stored, so it
# joins the product's kernel (graph-fuse refuses a growing data op only
# where its result is stored whole, for a product or the graph's result).
save("repeat",
     [helper.make_node("MatMul", ["x", "w"], ["p"], name="proj"),
      helper.make_node("Unsqueeze", ["p", "ax"], ["p1"], name="heads"),
      helper.make_node("Expand", ["p1", "shape"], ["r"], name="repeat"),
      helper.make_node("Mul", ["r", "z"], ["m"], name="scale"),
      helper.make_node("ReduceSum", ["m", "ax"], ["y"], name="sum", keepdims=0)],
     [vi("x", [4, 320]), vi("z", [4, 64, 320])], vi("y", [4, 320]),
     {"w": rng.standard_normal((320, 320)) / 18}, ints={"ax": [1], "shape": [4, 64, 320]})
# The same SwiGLU as torch exports F.linear: [960, 320] gate and up weights
# and a [320, 960] down weight, each read through a Transpose. The gate and
# up projections are cut along their 960 output rows; the down
# projection's weight is cut along its 960 columns where they were (each
# piece a window of 320 columns, 3,840 B a row apart in the file, read
# transposed), so again no [8, 960] activation is joined.
save("swiglu_linear",
     [helper.make_node("Transpose", ["wg"], ["wgT"], name="vg", perm=[1, 0]),
      helper.make_node("MatMul", ["x", "wgT"], ["g"], name="gate"),
      helper.make_node("Sigmoid", ["g"], ["s"], name="sig"),
      helper.make_node("Mul", ["g", "s"], ["a"], name="silu"),
      helper.make_node("Transpose", ["wu"], ["wuT"], name="vu", perm=[1, 0]),
      helper.make_node("MatMul", ["x", "wuT"], ["u"], name="up"),
      helper.make_node("Mul", ["a", "u"], ["h"], name="glu"),
      helper.make_node("Transpose", ["wd"], ["wdT"], name="vd", perm=[1, 0]),
      helper.make_node("MatMul", ["h", "wdT"], ["y"], name="down")],
     [vi("x", [8, 320])], vi("y", [8, 320]),
     {"wg": rng.standard_normal((960, 320)) / 18, "wu": rng.standard_normal((960, 320)) / 18,
      "wd": rng.standard_normal((320, 960)) / 30})
# Products cut along K whose partials round where the unsplit product
# rounds once: an f16 product ([1300, 320], 832 KB, past a chip) whose
# result a Cast widens to f32 for a second product (so f16's roundings of
# the partials and of their sums reach an f32 result), and an f64 product
# ([640, 320], 1.6 MB) whose partials cancel. dfa-run's --expect judges
# the sum of the partials as the product it stands for (a reduction over
# all of K) and the chain's roundings in the formats they happen in.
g = helper.make_graph(
    [helper.make_node("MatMul", ["x", "wg"], ["h"], name="gate"),
     helper.make_node("Cast", ["h"], ["h32"], name="widen", to=TensorProto.FLOAT),
     helper.make_node("MatMul", ["h32", "wd"], ["y"], name="down")],
    "kcut_cast", [vi16("x", [8, 1300])], [vi("y", [8, 320])],
    [numpy_helper.from_array((rng.standard_normal((1300, 320)) / 36).astype(np.float16), "wg"),
     numpy_helper.from_array((rng.standard_normal((320, 320)) / 18).astype(np.float32), "wd")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
with open(os.path.join(out, "kcut_cast.onnx"), "wb") as f:
    f.write(m.SerializeToString())
save("kcut_f64", [helper.make_node("MatMul", ["x", "w"], ["y"], name="proj")],
     [helper.make_tensor_value_info("x", TensorProto.DOUBLE, [8, 640])],
     helper.make_tensor_value_info("y", TensorProto.DOUBLE, [8, 320]),
     {"w": rng.standard_normal((640, 320)) / 25}, dtype=np.float64)
# An f64 product cut along K with a bias and a ReLU after it (the oracle,
# itself f64, cannot measure the partials' reassociation that the ReLU
# carries), and an f16 product cut along K whose result is the graph's,
# cast to f32 (the cast rounds nothing: the value carries the product's
# f16 rounding).
save("kcut_f64_act", [helper.make_node("MatMul", ["x", "w"], ["h"], name="proj"),
                      helper.make_node("Add", ["h", "b"], ["hb"], name="bias"),
                      helper.make_node("Relu", ["hb"], ["y"], name="act")],
     [helper.make_tensor_value_info("x", TensorProto.DOUBLE, [8, 700])],
     helper.make_tensor_value_info("y", TensorProto.DOUBLE, [8, 320]),
     {"w": rng.standard_normal((700, 320)) / 26, "b": rng.standard_normal(320)},
     dtype=np.float64)
save("kcut_widen", [helper.make_node("MatMul", ["x", "w"], ["h"], name="gate"),
                    helper.make_node("Cast", ["h"], ["y"], name="widen", to=TensorProto.FLOAT)],
     [vi16("x", [8, 2000])], vi("y", [8, 320]),
     {"w": rng.standard_normal((2000, 320)) / 45}, dtype=np.float16)
# A SwiGLU whose gate and up weights ([320, 1300] f16, 832 KB each) widen
# their input: cut along N into three column windows of 433-434 (each
# stored padded to 640 columns, more bytes a piece than a cut along K's
# 107-row pieces), the down projection ([1300, 320]) along K where they
# were, so the 1300-wide hidden layer is never joined.
save("swiglu_pad",
     [helper.make_node("MatMul", ["x", "wg"], ["g"], name="gate"),
      helper.make_node("Sigmoid", ["g"], ["s"], name="sig"),
      helper.make_node("Mul", ["g", "s"], ["a"], name="silu"),
      helper.make_node("MatMul", ["x", "wu"], ["u"], name="up"),
      helper.make_node("Mul", ["a", "u"], ["h"], name="glu"),
      helper.make_node("MatMul", ["h", "wd"], ["y"], name="down")],
     [vi16("x", [8, 320])], helper.make_tensor_value_info("y", TensorProto.FLOAT16, [8, 320]),
     {"wg": rng.standard_normal((320, 1300)) / 18, "wu": rng.standard_normal((320, 1300)) / 18,
      "wd": rng.standard_normal((1300, 320)) / 36}, dtype=np.float16)
# A qkv-like product whose result is split into two parts: its weight
# ([320, 640] f16, 400 KiB) fits a chip, but not beside its input (made on
# the chip), its 205 KB result and the parts read on: the product and the
# split are cut into rows together, each piece splitting its own rows.
save("qkv_rows",
     [helper.make_node("Tanh", ["x"], ["h"], name="norm"),
      helper.make_node("MatMul", ["h", "w"], ["y"], name="qkv"),
      helper.make_node("Split", ["y", "sizes"], ["q", "k"], name="heads", axis=1),
      helper.make_node("Mul", ["q", "k"], ["m"], name="mix"),
      helper.make_node("MatMul", ["m", "wo"], ["o"], name="out")],
     [vi16("x", [160, 320])], vi16("o", [160, 8]),
     {"w": rng.standard_normal((320, 640)) / 18, "wo": rng.standard_normal((320, 8)) / 18},
     ints={"sizes": [320, 320]}, dtype=np.float16)
# A head whose [320, 1300] f16 weight (832 KB) widens its input into the
# graph's result: cut along N (each piece's padded 640-column window holds
# more than a cut along K's pieces), each piece's columns going to the
# host, with no partial sums to round.
save("head_cols", [helper.make_node("MatMul", ["x", "w"], ["y"], name="head")],
     [vi16("x", [4, 320])], helper.make_tensor_value_info("y", TensorProto.FLOAT16, [4, 1300]),
     {"w": rng.standard_normal((320, 1300)) / 18}, dtype=np.float16)
