#!/usr/bin/env python3
"""Writes small ONNX models (good and deliberately broken) for the importer's
lit tests, so that no binary model is committed.

usage: make_model.py NAME OUT.onnx
"""
import os
import random
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I64 = TensorProto.INT64


def model(nodes, inputs, outputs, inits=(), opset=14, name="g"):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                             producer_name="dfa-tests")


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def save_external(m, out, missing=False):
    """Saves `m` at `out` with every initializer in `out`.data; with
    `missing`, the data file is removed again."""
    data = os.path.basename(out) + ".data"
    onnx.external_data_helper.convert_model_to_external_data(
        m, all_tensors_to_one_file=True, location=data, size_threshold=0)
    onnx.save_model(m, out)
    if missing:
        os.remove(os.path.join(os.path.dirname(out), data))


def build(name, out):
    rng = np.random.default_rng(0)
    if name == "add":
        return model([helper.make_node("Add", ["a", "b"], ["c"], name="add0")],
                     [vi("a", F, [2, 3]), vi("b", F, [3])], [vi("c", F, [2, 3])])
    if name == "shape_fold":
        # The pattern torch.onnx exports for x.view(x.size(0), -1).
        nodes = [
            helper.make_node("Shape", ["x"], ["s"], name="shape"),
            helper.make_node("Constant", [], ["zero"], name="c0",
                             value=numpy_helper.from_array(np.array(0, np.int64))),
            helper.make_node("Gather", ["s", "zero"], ["n"], name="gather", axis=0),
            helper.make_node("Unsqueeze", ["n", "ax"], ["n1"], name="unsq"),
            helper.make_node("Constant", [], ["m1"], name="c1",
                             value=numpy_helper.from_array(np.array([-1], np.int64))),
            helper.make_node("Concat", ["n1", "m1"], ["shape2"], name="concat", axis=0),
            helper.make_node("Reshape", ["x", "shape2"], ["y"], name="reshape"),
            helper.make_node("Relu", ["y"], ["z"], name="relu"),
        ]
        ax = numpy_helper.from_array(np.array([0], np.int64), "ax")
        return model(nodes, [vi("x", F, ["batch", 3, 4])], [vi("z", F, None)], [ax])
    if name in ("weights", "no_weights"):
        w = numpy_helper.from_array(rng.standard_normal((64, 32)).astype(np.float32), "fc.weight")
        b = numpy_helper.from_array(rng.standard_normal((32,)).astype(np.float32), "fc.bias")
        nodes = [helper.make_node("MatMul", ["x", "fc.weight"], ["h"], name="fc/MatMul"),
                 helper.make_node("Add", ["h", "fc.bias"], ["y"], name="fc/Add")]
        return model(nodes, [vi("x", F, [4, 64])], [vi("y", F, [4, 32])], [w, b])
    if name == "causal_masks":
        # An additive causal mask (f32, 0 on and below the diagonal, -1e9
        # above), a bool keep mask (64 x 64), and a square weight whose first
        # two elements look like a mask's (0, then not) but is not one.
        L = 32
        mask = np.triu(np.full((L, L), -1e9, np.float32), 1)
        keep = np.tril(np.ones((64, 64), bool))
        w = rng.standard_normal((L, L)).astype(np.float32)
        w[0, 0] = 0.0
        inits = [numpy_helper.from_array(mask, "mask"),
                 numpy_helper.from_array(keep, "keep"),
                 numpy_helper.from_array(w, "w")]
        nodes = [helper.make_node("MatMul", ["x", "w"], ["h"], name="mm"),
                 helper.make_node("Add", ["h", "mask"], ["y"], name="add"),
                 helper.make_node("Not", ["keep"], ["z"], name="not")]
        return model(nodes, [vi("x", F, [L, L])],
                     [vi("y", F, [L, L]), vi("z", TensorProto.BOOL, [64, 64])], inits)
    if name in ("external_escape", "external_absolute"):
        # A location that climbs out of the model's folder, or an absolute one.
        t = numpy_helper.from_array(rng.standard_normal((64, 32)).astype(np.float32), "w")
        t.ClearField("raw_data")
        t.data_location = TensorProto.EXTERNAL
        where = "../../etc/passwd" if name == "external_escape" else "/etc/passwd"
        t.external_data.add(key="location", value=where)
        m = model([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
                  [vi("x", F, [2, 64])], [vi("y", F, [2, 32])], [t])
        return m
    if name == "sdpa_causal_external":
        # SDPA with is_causal=True as torch.onnx.export(dynamo=True) writes it
        # once the mask is too large to fold: the ones it cuts the mask from
        # are an initializer in the external-data file, beside a square
        # weight whose corners are alike but whose inside is not.
        B, H, L, D = 1, 2, 512, 8
        ones = numpy_helper.from_array(np.ones((L, L), np.float32), "ones")
        w = np.full((L, L), 0.5, np.float32)
        w[3, 5] = 0.25
        inits = [ones, numpy_helper.from_array(w, "w"),
                 numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
                 numpy_helper.from_array(np.array(-np.inf, np.float32), "ninf")]
        nodes = [helper.make_node("Trilu", ["ones"], ["tril"], upper=0),
                 helper.make_node("Equal", ["tril", "zero"], ["above"]),
                 helper.make_node("Where", ["above", "ninf", "zero"], ["mask"]),
                 helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]),
                 helper.make_node("MatMul", ["q", "kt"], ["s"]),
                 helper.make_node("Add", ["s", "mask"], ["sm"]),
                 helper.make_node("Softmax", ["sm"], ["p"], axis=-1),
                 helper.make_node("MatMul", ["p", "v"], ["y"]),
                 helper.make_node("MatMul", ["x", "w"], ["z"])]
        io = lambda n: vi(n, F, [B, H, L, D])
        m = model(nodes, [io("q"), io("k"), io("v"), vi("x", F, [2, L])],
                  [io("y"), vi("z", F, [2, L])], inits, opset=18)
        data = os.path.basename(out) + ".data"
        onnx.external_data_helper.convert_model_to_external_data(
            m, all_tensors_to_one_file=True, location=data, size_threshold=1024)
        onnx.save_model(m, out)
        return None
    if name in ("external", "external_missing"):
        w = rng.standard_normal((64, 32)).astype(np.float32)
        t = numpy_helper.from_array(w, "w")
        m = model([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
                  [vi("x", F, [2, 64])], [vi("y", F, [2, 32])], [t])
        save_external(m, out, missing=name.endswith("_missing"))
        return None
    if name == "gather_select":
        # torch's x[:, :, 0] of a [1, 4, 1] tensor as the dynamo exporter
        # writes it (a Gather of a scalar index), then the same of index -1
        # and of index 2 (out of range) and of a size-3 dim.
        idx = {n: numpy_helper.from_array(np.array(v, np.int64), n)
               for n, v in (("i0", 0), ("im1", -1), ("i2", 2), ("i1", 1))}
        return model([helper.make_node("Gather", ["x", "i0"], ["a"], name="select0", axis=2),
                      helper.make_node("Gather", ["x", "im1"], ["b"], name="select_last", axis=2),
                      helper.make_node("Gather", ["x", "i2"], ["c"], name="select_bad", axis=2),
                      helper.make_node("Gather", ["z", "i1"], ["d"], name="select_wide", axis=2)],
                     [vi("x", F, [1, 4, 1]), vi("z", F, [1, 4, 3])],
                     [vi("a", F, [1, 4]), vi("b", F, [1, 4]), vi("c", F, [1, 4]), vi("d", F, [1, 4])],
                     list(idx.values()))
    if name == "gather_select_ok":
        # The column of index 1 and of index -1 of a [1, 4, 3] tensor.
        idx = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in (("i1", 1), ("im1", -1))]
        return model([helper.make_node("Gather", ["z", "i1"], ["d"], name="select1", axis=2),
                      helper.make_node("Gather", ["z", "im1"], ["e"], name="select_last", axis=2)],
                     [vi("z", F, [1, 4, 3])], [vi("d", F, [1, 4]), vi("e", F, [1, 4])], idx)
    if name in ("external_small", "external_small_missing"):
        # Every initializer in the data file: a [4, 8] table (128 B) and the
        # [1, 3] ids looked up in it (24 B), as BERT's token-type ids, then a
        # large weight.
        table = numpy_helper.from_array(rng.standard_normal((4, 8)).astype(np.float32), "table")
        ids = numpy_helper.from_array(np.array([[0, 2, 1]], np.int64), "ids")
        w = numpy_helper.from_array(rng.standard_normal((8, 512)).astype(np.float32), "w")
        m = model([helper.make_node("Gather", ["table", "ids"], ["e"], name="lookup", axis=0),
                   helper.make_node("Add", ["x", "e"], ["h"], name="add"),
                   helper.make_node("MatMul", ["h", "w"], ["y"], name="mm")],
                  [vi("x", F, [1, 3, 8])], [vi("y", F, [1, 3, 512])], [table, ids, w])
        save_external(m, out, missing=name.endswith("_missing"))
        return None
    if name == "dynamic":
        return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                     [vi("x", F, ["batch", 8])], [vi("y", F, ["batch", 8])])
    if name == "dynamic2":  # two inputs sharing a symbolic dim, one unnamed
        return model([helper.make_node("Add", ["x", "z"], ["y"], name="add")],
                     [vi("x", F, ["batch", 8]), vi("z", F, ["batch", None])],
                     [vi("y", F, ["batch", 8])])
    if name == "unsupported3":
        nodes = [helper.make_node("NonZero", ["x"], ["nz"], name="nz0"),
                 helper.make_node("Bernoulli", ["x"], ["u"], name="bern0"),
                 helper.make_node("Bernoulli", ["x"], ["u2"], name="bern1"),
                 helper.make_node("Det", ["x"], ["e"], name="det0"),
                 helper.make_node("Relu", ["x"], ["r"], name="relu0")]
        return model(nodes, [vi("x", F, [2, 2])],
                     [vi("r", F, [2, 2]), vi("e", F, [])], opset=15)
    if name == "cycle":
        nodes = [helper.make_node("Add", ["x", "b"], ["a"], name="first"),
                 helper.make_node("Relu", ["a"], ["b"], name="second")]
        return model(nodes, [vi("x", F, [2])], [vi("b", F, [2])])
    if name == "missing_init":
        return model([helper.make_node("Add", ["x", "bias"], ["y"], name="add_bias")],
                     [vi("x", F, [2])], [vi("y", F, [2])])
    if name == "matmul_k_mismatch":
        return model([helper.make_node("MatMul", ["a", "b"], ["y"], name="mm")],
                     [vi("a", F, [2, 16]), vi("b", F, [32, 4])], [vi("y", F, [2, 4])])
    if name == "opset99":
        return model([helper.make_node("Relu", ["x"], ["y"])],
                     [vi("x", F, [2])], [vi("y", F, [2])], opset=99)
    # Opsets past libonnx's (17): checked against dfa's own signature table.
    if name == "opset18_axes_attr":
        # ReduceMean-18 takes its axes as an input, no longer an attribute.
        return model([helper.make_node("ReduceMean", ["x"], ["y"], name="mean", axes=[1])],
                     [vi("x", F, [2, 3])], [vi("y", F, None)], opset=18)
    if name == "opset23_cast_no_to":
        return model([helper.make_node("Cast", ["x"], ["y"], name="cast")],
                     [vi("x", F, [2])], [vi("y", F, None)], opset=23)
    if name == "opset19_avgpool_dilations":
        return model([helper.make_node("AveragePool", ["x"], ["y"], name="pool",
                                       kernel_shape=[2, 2], dilations=[2, 2])],
                     [vi("x", F, [1, 1, 6, 6])], [vi("y", F, None)], opset=19)
    if name == "opset18_resize_antialias":
        # Antialias with tf_crop_and_resize: outside the roi the extrapolation
        # value, which no per-dim product gives.
        scales = numpy_helper.from_array(np.array([0.5, 0.5], np.float32), "scales")
        roi = numpy_helper.from_array(np.array([0.1, 0.1, 0.9, 0.9], np.float32), "roi")
        return model([helper.make_node("Resize", ["x", "roi", "scales"], ["y"], name="shrink",
                                       mode="linear", antialias=1, axes=[2, 3],
                                       coordinate_transformation_mode="tf_crop_and_resize")],
                     [vi("x", F, [1, 1, 8, 8])], [vi("y", F, None)], [scales, roi], opset=18)
    # Attention (opset 23), imported as the subgraph the spec defines.
    if name == "attention_causal":
        return model([helper.make_node("Attention", ["q", "k", "v"], ["y"], name="att",
                                       is_causal=1)],
                     [vi(x, F, [1, 4, 64, 32]) for x in "qkv"], [vi("y", F, None)], opset=23)
    if name == "attention_gqa_mask":
        # 3-d inputs, 4 query heads over 2 KV heads, a bool mask from the
        # caller: the KV heads are repeated, and a row the mask empties is 0.
        return model([helper.make_node("Attention", ["q", "k", "v", "mask"], ["y"],
                                       name="gqa", q_num_heads=4, kv_num_heads=2)],
                     [vi("q", F, [1, 8, 64]), vi("k", F, [1, 8, 32]), vi("v", F, [1, 8, 32]),
                      vi("mask", TensorProto.BOOL, [8, 8])], [vi("y", F, None)], opset=23)
    if name == "quantize_int32":
        # QuantizeLinear to int32 (output_dtype 6): not a quantized type dfa has.
        scale = numpy_helper.from_array(np.array(0.5, np.float32), "scale")
        return model([helper.make_node("QuantizeLinear", ["x", "scale"], ["y"], name="q",
                                       output_dtype=TensorProto.INT32)],
                     [vi("x", F, [4])], [vi("y", TensorProto.INT32, None)], [scale], opset=21)
    if name == "quantize_e8m0":
        # E8M0 is a scale format, not a quantized one: refused, not uint8.
        scale = numpy_helper.from_array(np.array(0.5, np.float32), "scale")
        return model([helper.make_node("QuantizeLinear", ["x", "scale"], ["y"], name="q8",
                                       output_dtype=24)],
                     [vi("x", F, [4])], [vi("y", F, None)], [scale], opset=21)
    if name == "attention_opset17":
        return model([helper.make_node("Attention", ["q", "k", "v"], ["y"], name="att")],
                     [vi(x, F, [1, 2, 4, 8]) for x in "qkv"], [vi("y", F, None)], opset=17)
    if name == "layernorm_stash":
        return model([helper.make_node("LayerNormalization", ["x", "g"], ["y"], name="ln",
                                       stash_type=10)],
                     [vi("x", F, [2, 4]), vi("g", F, [4])], [vi("y", F, None)], opset=17)
    if name == "bad_reshape":
        shape = numpy_helper.from_array(np.array([5, -1], np.int64), "shape")
        return model([helper.make_node("Reshape", ["x", "shape"], ["y"], name="rs")],
                     [vi("x", F, [2, 3])], [vi("y", F, None)], [shape])
    if name == "data_shape":
        # Reshape to a shape that is a graph input: needs --specialize.
        return model([helper.make_node("Reshape", ["x", "shape"], ["y"], name="rs")],
                     [vi("x", F, [2, 3]), vi("shape", I64, [2])], [vi("y", F, None)])
    if name == "data_shape_computed":
        # The shape is computed from a graph input (n, the row count): the
        # input is what must be known at compile time.
        six = numpy_helper.from_array(np.array([6], np.int64), "six")
        nodes = [helper.make_node("Div", ["six", "n"], ["cols"], name="div"),
                 helper.make_node("Concat", ["n", "cols"], ["shape"], name="cat", axis=0),
                 helper.make_node("Reshape", ["x", "shape"], ["y"], name="rs")]
        return model(nodes, [vi("x", F, [2, 3]), vi("n", I64, [1])], [vi("y", F, None)], [six])
    if name in ("cast_f8", "cast_f8_no_saturate"):
        # 17 is FLOAT8E4M3FN, 19 FLOAT8E5M2, 22 INT4 (newer than this onnx).
        sat = {} if name == "cast_f8" else {"saturate": 0}
        nodes = [helper.make_node("Cast", ["x"], ["e4"], name="to_e4m3", to=17, **sat),
                 helper.make_node("Cast", ["x"], ["e5"], name="to_e5m2", to=19, **sat),
                 helper.make_node("Cast", ["x"], ["i4"], name="to_int4", to=22)]
        return model(nodes, [vi("x", F, [6])],
                     [vi("e4", 17, [6]), vi("e5", 19, [6]), vi("i4", 22, [6])], opset=21)
    if name == "bitcast":
        return model([helper.make_node("BitCast", ["x"], ["y"], name="bc", to=TensorProto.INT32)],
                     [vi("x", F, [2, 3])], [vi("y", TensorProto.INT32, [2, 3])], opset=26)
    if name == "bitcast_bad":
        return model([helper.make_node("BitCast", ["x"], ["y"], name="bc",
                                       to=TensorProto.FLOAT16)],
                     [vi("x", F, [2, 3])], [vi("y", TensorProto.FLOAT16, [2, 3])], opset=26)
    if name == "quantize_f8":
        scale = numpy_helper.from_array(np.array(0.5, np.float32), "scale")
        zp = TensorProto(name="zp", data_type=17, raw_data=b"\x00")  # FLOAT8E4M3FN 0
        return model([helper.make_node("QuantizeLinear", ["x", "scale", "zp"], ["y"], name="q")],
                     [vi("x", F, [4])], [vi("y", 17, [4])], [scale, zp], opset=21)
    if name in ("minifloats", "e8m0_bad_round"):
        # 23 FLOAT4E2M1, 24 FLOAT8E8M0, 27 FLOAT6E2M3, 28 FLOAT6E3M2 (newer
        # than this onnx). Files pack FP4 and FP6 as a little-endian bit
        # stream; int32_data holds FP6 one code per entry.
        def pack(codes, bits):
            stream = sum(c << (i * bits) for i, c in enumerate(codes))
            return stream.to_bytes((len(codes) * bits + 7) // 8, "little")
        w4 = TensorProto(name="w4", data_type=23, dims=[5],
                         raw_data=pack([1, 0xA, 7, 3, 8], 4))  # .5 -1 6 1.5 -0
        w6 = TensorProto(name="w6", data_type=27, dims=[5],
                         raw_data=pack([8, 31, 33, 18, 0], 6))  # 1 7.5 -.125 2.5 0
        w6b = TensorProto(name="w6b", data_type=28, dims=[3],
                          int32_data=[0x1F, 0x21, 0x0C])  # 28 -0.0625 1
        # 4096 FP4 codes 0..7 (2 KB packed: past the inline limit, in the
        # file's raw data): they sum to 512 * 18.
        big = TensorProto(name="w4big", data_type=23, dims=[4096],
                          raw_data=pack([i % 8 for i in range(4096)], 4))
        mode = "sideways" if name == "e8m0_bad_round" else "nearest"
        nodes = [helper.make_node("Cast", ["w4"], ["f4"], name="from_f4", to=F),
                 helper.make_node("Cast", ["w6"], ["f6"], name="from_f6", to=F),
                 helper.make_node("Cast", ["w6b"], ["f6b"], name="from_f6b", to=F),
                 helper.make_node("Cast", ["x"], ["x4"], name="to_f4", to=23),
                 helper.make_node("Cast", ["x"], ["x6"], name="to_f6", to=28),
                 helper.make_node("Cast", ["x"], ["up"], name="to_e8m0_up", to=24),
                 helper.make_node("Cast", ["x"], ["near"], name="to_e8m0_nearest", to=24,
                                  round_mode=mode),
                 helper.make_node("Cast", ["x"], ["down"], name="to_e8m0_down", to=24,
                                  round_mode="down"),
                 helper.make_node("Cast", ["x"], ["nosat"], name="to_e8m0_nosat", to=24,
                                  saturate=0),
                 helper.make_node("Cast", ["up"], ["e4"], name="e8m0_to_e4m3", to=17),
                 helper.make_node("Cast", ["w4big"], ["big32"], name="from_big_f4", to=F),
                 helper.make_node("ReduceSum", ["big32"], ["bigsum"], name="sum_big",
                                  keepdims=0)]
        return model(nodes, [vi("x", F, [6])],
                     [vi("f4", F, [5]), vi("f6", F, [5]), vi("f6b", F, [3]),
                      vi("x4", 23, [6]), vi("x6", 28, [6]), vi("up", 24, [6]),
                      vi("near", 24, [6]), vi("down", 24, [6]), vi("nosat", 24, [6]),
                      vi("e4", 17, [6]), vi("bigsum", F, [])],
                     [w4, w6, w6b, big], opset=25)
    if name == "torch_scopes":
        # As torch's dynamo exporter records a node's module: NodeProto's
        # metadata_props (field 9, newer than this onnx), written as bytes.
        def scoped(node, scopes):
            def field(num, data):
                return bytes([num << 3 | 2, len(data)]) + data
            entry = field(1, b"pkg.torch.onnx.name_scopes") + field(2, repr(scopes).encode())
            n = onnx.NodeProto()
            n.ParseFromString(node.SerializeToString() + field(9, entry))
            return n
        w = numpy_helper.from_array(np.ones((8, 8), np.float32), "w")
        nodes = [scoped(helper.make_node("MatMul", ["x", "w"], ["h"], name="node_matmul"),
                        ["", "blocks.0", "blocks.0.fc", "matmul"]),
                 scoped(helper.make_node("Relu", ["h"], ["a"], name="node_relu"),
                        ["", "blocks.0", "blocks.0.act", "relu"]),
                 scoped(helper.make_node("MatMul", ["a", "w"], ["y"], name="node_matmul_1"),
                        ["", "blocks.1", "blocks.1.fc", "matmul_1"])]
        return model(nodes, [vi("x", F, [4, 8])], [vi("y", F, [4, 8])], [w], opset=18)
    if name == "minifloat_pad":
        # Pad moves E8M0 (opset 24+); its default fill, 0, is E8M0's NaN.
        pads = numpy_helper.from_array(np.array([1, 1], np.int64), "pads")
        return model([helper.make_node("Cast", ["x"], ["e"], name="to_e8m0", to=24),
                      helper.make_node("Pad", ["e", "pads"], ["y"], name="pad")],
                     [vi("x", F, [3])], [vi("y", 24, [5])], [pads], opset=25)
    if name == "nonzero":
        # NonZero's output size is its count: known only once x is.
        return model([helper.make_node("NonZero", ["x"], ["i"], name="nz"),
                      helper.make_node("Transpose", ["i"], ["y"], name="t")],
                     [vi("x", F, [2, 3])], [vi("y", I64, None)], opset=13)
    if name in ("if_input", "if_const"):
        # If on a graph input's value, or on a constant: the taken branch is
        # imported in place.
        then = helper.make_graph([helper.make_node("Relu", ["x"], ["t"], name="then_relu")],
                                 "then", [], [vi("t", F, [2, 3])])
        other = helper.make_graph([helper.make_node("Neg", ["x"], ["e"], name="else_neg")],
                                  "else", [], [vi("e", F, [2, 3])])
        nodes = [helper.make_node("If", ["c"], ["y"], name="branch", then_branch=then,
                                  else_branch=other)]
        if name == "if_input":
            return model(nodes, [vi("x", F, [2, 3]), vi("c", TensorProto.BOOL, [])],
                         [vi("y", F, [2, 3])], opset=13)
        c = numpy_helper.from_array(np.array(False), "c")
        return model(nodes, [vi("x", F, [2, 3])], [vi("y", F, [2, 3])], [c], opset=13)
    if name == "host_ops":
        # Ops dfa has no converter for: each would run on the host.
        return model([helper.make_node("Bernoulli", ["x"], ["u"], name="bern"),
                      helper.make_node("Bernoulli", ["u"], ["v"], name="bern2"),
                      helper.make_node("Det", ["m"], ["d"], name="det")],
                     [vi("x", F, [6]), vi("m", F, [3, 3])], [vi("v", F, None), vi("d", F, None)],
                     opset=15)
    if name == "two_breaks":
        # Two NonZeros on run-time values (one through a matmul), a node
        # after the first, and one that needs neither.
        w = numpy_helper.from_array(np.ones((3, 2), np.float32), "w")
        nodes = [helper.make_node("NonZero", ["x"], ["i"], name="nz"),
                 helper.make_node("Transpose", ["i"], ["it"], name="after"),
                 helper.make_node("MatMul", ["x", "w"], ["s"], name="mm"),
                 helper.make_node("NonZero", ["s"], ["j"], name="nz_of_product"),
                 helper.make_node("Relu", ["x"], ["r"], name="fine")]
        return model(nodes, [vi("x", F, [2, 3])],
                     [vi("it", I64, None), vi("j", I64, None), vi("r", F, [2, 3])], [w],
                     opset=13)
    if name in ("segments", "segments_loop"):
        # Breaks on values the device computes: NonZero of a matmul's relu
        # (the host computes it), an If on a reduction (the host reads the
        # condition), a Reshape to a shape computed from data (the host
        # reads it); segments_loop adds a Loop whose condition the device
        # computes each step (the host runs it).
        w = numpy_helper.from_array(
            (np.arange(36, dtype=np.float32).reshape(6, 6) % 5 - 2) / 4, "w")
        then = helper.make_graph([helper.make_node("Mul", ["g", "two"], ["t"], name="then_mul")],
                                 "then", [], [vi("t", F, None)])
        other = helper.make_graph([helper.make_node("Neg", ["g"], ["e"], name="else_neg")],
                                  "else", [], [vi("e", F, None)])
        two = numpy_helper.from_array(np.array(2, np.float32), "two")
        zero = numpy_helper.from_array(np.array(0, np.float32), "zero")
        neg1 = numpy_helper.from_array(np.array([-1], np.int64), "neg1")
        nodes = [helper.make_node("MatMul", ["x", "w"], ["s"], name="mm"),
                 helper.make_node("Relu", ["s"], ["m"], name="relu"),
                 helper.make_node("NonZero", ["m"], ["idx"], name="nz"),
                 helper.make_node("Transpose", ["idx"], ["it"], name="tr"),
                 helper.make_node("GatherND", ["m", "it"], ["g"], name="gather"),
                 helper.make_node("ReduceSum", ["g"], ["tot"], name="sum", keepdims=0),
                 helper.make_node("Greater", ["tot", "zero"], ["c"], name="positive"),
                 helper.make_node("If", ["c"], ["y"], name="branch", then_branch=then,
                                  else_branch=other),
                 # A shape from data: (count of rows whose max exceeds 1, -1).
                 helper.make_node("ReduceMax", ["m"], ["rmax"], name="rowmax", axes=[1],
                                  keepdims=0),
                 helper.make_node("Greater", ["rmax", "zero"], ["big"], name="big"),
                 helper.make_node("Cast", ["big"], ["bigi"], name="cast", to=I64),
                 helper.make_node("ReduceSum", ["bigi"], ["rows"], name="count", keepdims=1),
                 helper.make_node("Concat", ["rows", "neg1"], ["shp"], name="shape", axis=0),
                 helper.make_node("Reshape", ["s", "shp"], ["r"], name="reshape")]
        outs = [vi("y", F, None), vi("it", I64, None), vi("r", F, None)]
        inits = [w, two, zero, neg1]
        if name == "segments_loop":
            half = numpy_helper.from_array(np.array(0.5, np.float32), "half")
            one = numpy_helper.from_array(np.array(1, np.float32), "one")
            trip = numpy_helper.from_array(np.array(20, np.int64), "trip")
            body = helper.make_graph(
                [helper.make_node("Mul", ["v_in", "half"], ["v_out"], name="halve"),
                 helper.make_node("ReduceSum", ["v_out"], ["vs"], name="vsum", keepdims=0),
                 helper.make_node("Greater", ["vs", "one"], ["go"], name="more")],
                "body", [vi("i", I64, []), vi("c_in", TensorProto.BOOL, []),
                         vi("v_in", F, None)],
                [vi("go", TensorProto.BOOL, []), vi("v_out", F, None)])
            nodes.append(helper.make_node("Loop", ["trip", "", "y"], ["halved"],
                                          name="loop", body=body))
            outs.append(vi("halved", F, None))
            inits += [half, one, trip]
        return model(nodes, [vi("x", F, [4, 6])], outs, inits, opset=13)
    if name == "segments_shadow":
        # Two Ifs on conditions the device computes, whose branches both
        # name their NonZero's output `nzv` (each branch's own value).
        def branch(tag, src):
            return helper.make_graph(
                [helper.make_node("NonZero", [src], ["nzv"], name="nz_" + tag),
                 helper.make_node("Shape", ["nzv"], ["shp_" + tag], name="shape_" + tag)],
                tag, [], [vi("shp_" + tag, I64, [2])])
        zero = numpy_helper.from_array(np.array(0, np.float32), "zero")
        nodes = [helper.make_node("Relu", ["x"], ["m"], name="relu"),
                 helper.make_node("Neg", ["x"], ["n"], name="neg"),
                 helper.make_node("ReduceSum", ["m"], ["sm"], name="sum_m", keepdims=0),
                 helper.make_node("Greater", ["sm", "zero"], ["c1"], name="c1"),
                 helper.make_node("ReduceSum", ["n"], ["sn"], name="sum_n", keepdims=0),
                 helper.make_node("Greater", ["sn", "zero"], ["c2"], name="c2"),
                 helper.make_node("If", ["c1"], ["a"], name="if_a", then_branch=branch("a1", "m"),
                                  else_branch=branch("a2", "x")),
                 helper.make_node("If", ["c2"], ["b"], name="if_b", then_branch=branch("b1", "n"),
                                  else_branch=branch("b2", "x"))]
        return model(nodes, [vi("x", F, [2, 3])], [vi("a", I64, [2]), vi("b", I64, [2])],
                     [zero], opset=13)
    if name == "branch_break":
        # A constant If whose taken branch holds a break on a graph input;
        # a sibling If reuses the branch's value names.
        def branch(tag):
            return helper.make_graph(
                [helper.make_node("NonZero", ["x"], ["nzv"], name="inner_nz_" + tag),
                 helper.make_node("Shape", ["nzv"], ["shp"], name="inner_shape_" + tag)],
                tag, [], [vi("shp", I64, [2])])
        c = numpy_helper.from_array(np.array(True), "c")
        nodes = [helper.make_node("If", ["c"], ["y"], name="outer_if",
                                  then_branch=branch("a"), else_branch=branch("b")),
                 helper.make_node("Relu", ["x"], ["r"], name="fine")]
        return model(nodes, [vi("x", F, [2, 3])], [vi("y", I64, [2]), vi("r", F, [2, 3])],
                     [c], opset=13)
    if name == "scan_cumsum":
        # Scan over the rows of x: the state is the running sum, each step's
        # sum also a scan output (stacked back into rows).
        body = helper.make_graph(
            [helper.make_node("Add", ["acc", "row"], ["acc_out"], name="step_add"),
             helper.make_node("Identity", ["acc_out"], ["row_out"], name="step_id")],
            "body", [vi("acc", F, [3]), vi("row", F, [3])],
            [vi("acc_out", F, [3]), vi("row_out", F, [3])])
        zero = numpy_helper.from_array(np.zeros(3, np.float32), "zero")
        return model([helper.make_node("Scan", ["zero", "x"], ["total", "sums"], name="scan",
                                       body=body, num_scan_inputs=1)],
                     [vi("x", F, [4, 3])], [vi("total", F, [3]), vi("sums", F, [4, 3])],
                     [zero], opset=11)
    if name == "loop_data_cond":
        # Double v until its sum reaches 100: how many steps is data.
        limit = numpy_helper.from_array(np.array(100, np.float32), "limit")
        body = helper.make_graph(
            [helper.make_node("Add", ["v", "v"], ["v2"], name="double"),
             helper.make_node("ReduceSum", ["v2"], ["s"], name="sum", keepdims=0),
             helper.make_node("Less", ["s", "limit"], ["cond_out"], name="below")],
            "body", [vi("i", I64, []), vi("cond_in", TensorProto.BOOL, []), vi("v", F, [2])],
            [vi("cond_out", TensorProto.BOOL, []), vi("v2", F, [2])])
        trips = numpy_helper.from_array(np.array(50, np.int64), "trips")
        yes = numpy_helper.from_array(np.array(True), "yes")
        return model([helper.make_node("Loop", ["trips", "yes", "x"], ["y"], name="loop",
                                       body=body)],
                     [vi("x", F, [2])], [vi("y", F, [2])], [limit, trips, yes], opset=13)
    if name == "minifloat_mean":
        # Mean is not defined on FP4: refused by name, not a crash.
        return model([helper.make_node("Mean", ["a", "b"], ["y"], name="mean4")],
                     [vi("a", 23, [4]), vi("b", 23, [4])], [vi("y", 23, [4])], opset=25)
    if name == "gridsample":
        return model([helper.make_node("GridSample", ["x", "grid"], ["y"], name="gs",
                                       mode="bicubic", padding_mode="reflection",
                                       align_corners=1)],
                     [vi("x", F, [1, 2, 4, 5]), vi("grid", F, [1, 3, 6, 2])],
                     [vi("y", F, [1, 2, 3, 6])], opset=16)
    if name == "gridsample_bad":
        return model([helper.make_node("GridSample", ["x", "grid"], ["y"], name="gs",
                                       padding_mode="mirror")],
                     [vi("x", F, [1, 2, 4, 5]), vi("grid", F, [1, 3, 6, 2])],
                     [vi("y", F, [1, 2, 3, 6])], opset=16)
    if name == "affine_grid":
        size = numpy_helper.from_array(np.array([2, 1, 3, 4], np.int64), "size")
        return model([helper.make_node("AffineGrid", ["theta", "size"], ["grid"], name="ag",
                                       align_corners=1)],
                     [vi("theta", F, [2, 2, 3])], [vi("grid", F, [2, 3, 4, 2])], [size],
                     opset=20)
    if name == "col2im":
        image = numpy_helper.from_array(np.array([5, 5], np.int64), "image")
        block = numpy_helper.from_array(np.array([2, 2], np.int64), "block")
        return model([helper.make_node("Col2Im", ["x", "image", "block"], ["y"], name="c2i",
                                       strides=[2, 2], pads=[1, 1, 0, 0])],
                     [vi("x", F, [1, 8, 9])], [vi("y", F, [1, 2, 5, 5])], [image, block],
                     opset=18)
    if name == "col2im_bad":
        image = numpy_helper.from_array(np.array([5, 5], np.int64), "image")
        block = numpy_helper.from_array(np.array([2, 2], np.int64), "block")
        return model([helper.make_node("Col2Im", ["x", "image", "block"], ["y"], name="c2i")],
                     [vi("x", F, [1, 8, 7])], [vi("y", F, [1, 2, 5, 5])], [image, block],
                     opset=18)
    if name in ("deformconv", "deformconv_bad"):
        # 2 offset groups, a mask and a bias; the bad one's offset has the
        # channels of one offset group.
        groups = 1 if name == "deformconv_bad" else 2
        return model([helper.make_node("DeformConv", ["x", "w", "off", "b", "m"], ["y"],
                                       name="dc", pads=[1, 1, 1, 1], offset_group=2)],
                     [vi("x", F, [1, 4, 5, 6]), vi("w", F, [3, 4, 3, 3]),
                      vi("off", F, [1, groups * 18, 5, 6]), vi("b", F, [3]),
                      vi("m", F, [1, 18, 5, 6])],
                     [vi("y", F, [1, 3, 5, 6])], [], opset=19)
    if name == "maxunpool":
        shape = numpy_helper.from_array(np.array([1, 1, 5, 5], np.int64), "shape")
        return model([helper.make_node("MaxUnpool", ["x", "i", "shape"], ["y"], name="unpool",
                                       kernel_shape=[2, 2], strides=[2, 2])],
                     [vi("x", F, [1, 1, 2, 2]), vi("i", I64, [1, 1, 2, 2])],
                     [vi("y", F, [1, 1, 5, 5])], [shape], opset=11)
    if name in ("truncated", "random"):
        m = build("weights", out)
        data = m.SerializeToString()
        if name == "truncated":
            data = data[: len(data) // 2]
        else:
            data = bytes(random.Random(1).getrandbits(8) for _ in range(4096))
        with open(out, "wb") as f:
            f.write(data)
        return None
    sys.exit("make_model.py: unknown model '%s'" % name)


def main():
    name, out = sys.argv[1], sys.argv[2]
    m = build(name, out)
    if m is not None:
        onnx.save_model(m, out)


if __name__ == "__main__":
    main()
