#!/usr/bin/env python3
"""Models and numpy-computed test data for composite-ops.test."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(5)


def save(name, nodes, inputs, outputs, data_in, data_out, opset=13):
    g = helper.make_graph(nodes, name, inputs, outputs)
    onnx.save_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]),
                    os.path.join(out, name + ".onnx"))
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    for i, (n, v) in enumerate(data_in):
        open(os.path.join(d, "input_%d.pb" % i), "wb").write(
            numpy_helper.from_array(v, n).SerializeToString())
    for i, (n, v) in enumerate(data_out):
        open(os.path.join(d, "output_%d.pb" % i), "wb").write(
            numpy_helper.from_array(v, n).SerializeToString())


vi = helper.make_tensor_value_info
F, I64 = TensorProto.FLOAT, TensorProto.INT64

# Batched attention-style contraction with a permuted output.
a = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
b = rng.standard_normal((2, 3, 5, 3)).astype(np.float32)
save("einsum", [helper.make_node("Einsum", ["a", "b"], ["y"], name="ein",
                                 equation="bhqd,bhdk->bqhk")],
     [vi("a", F, a.shape), vi("b", F, b.shape)], [vi("y", F, None)],
     [("a", a), ("b", b)], [("y", np.einsum("bhqd,bhdk->bqhk", a, b))], opset=12)

# Weighted NLL with an ignored class, mean reduction.
x = rng.standard_normal((3, 4, 2)).astype(np.float32)
t = np.array([[0, 3], [1, 2], [2, 2]], np.int64)
w = np.array([0.5, 1.0, 2.0, 1.5], np.float32)
picked = -np.take_along_axis(x, t[:, None, :], axis=1)[:, 0, :] * w[t]
mask = t != 2
loss = np.float32((picked * mask).sum() / (w[t] * mask).sum())
save("nll", [helper.make_node("NegativeLogLikelihoodLoss", ["x", "t", "w"], ["l"],
                              name="nll", ignore_index=2)],
     [vi("x", F, x.shape), vi("t", I64, t.shape), vi("w", F, w.shape)],
     [vi("l", F, [])], [("x", x), ("t", t), ("w", w)], [("l", np.array(loss))])

idx = np.array([[0, 2], [-1, 1]], np.int64)
vals = np.array([-2.0, 5.0], np.float32)
depth = numpy_helper.from_array(np.array(3, np.int64), "depth")
hot = np.where(np.eye(3, dtype=bool)[np.where(idx < 0, idx + 3, idx)], 5.0, -2.0)
g = helper.make_graph([helper.make_node("OneHot", ["i", "depth", "v"], ["y"], name="oh")],
                      "onehot", [vi("i", I64, idx.shape), vi("v", F, [2])],
                      [vi("y", F, None)], initializer=[depth])
onnx.save_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)]),
                os.path.join(out, "onehot.onnx"))
os.makedirs(os.path.join(out, "onehot"), exist_ok=True)
for i, (n, v) in enumerate([("i", idx), ("v", vals)]):
    open(os.path.join(out, "onehot", "input_%d.pb" % i), "wb").write(
        numpy_helper.from_array(v, n).SerializeToString())
open(os.path.join(out, "onehot", "output_0.pb"), "wb").write(
    numpy_helper.from_array(hot.astype(np.float32), "y").SerializeToString())

m = rng.standard_normal((3, 3)).astype(np.float32)
save("trace", [helper.make_node("Einsum", ["m"], ["y"], name="ein", equation="ii->")],
     [vi("m", F, m.shape)], [vi("y", F, [])], [("m", m)], [("y", np.array(np.trace(m)))],
     opset=12)
# A diagonal against a matrix ("bii,bij->bj"), and three operands (refused).
d = rng.standard_normal((2, 3, 3)).astype(np.float32)
save("diag", [helper.make_node("Einsum", ["d", "e"], ["y"], name="ein", equation="bii,bij->bj")],
     [vi("d", F, d.shape), vi("e", F, d.shape)], [vi("y", F, [2, 3])], [("d", d), ("e", d[::-1])],
     [("y", np.einsum("bii,bij->bj", d, d[::-1]))], opset=12)
save("three", [helper.make_node("Einsum", ["m", "m2", "m3"], ["y"], name="ein",
                                equation="ij,jk,kl->il")],
     [vi(n, F, m.shape) for n in ("m", "m2", "m3")], [vi("y", F, [3, 3])],
     [("m", m), ("m2", m), ("m3", m)], [("y", m @ m @ m)], opset=12)

# Dropout in training mode: with a constant ratio of 0 it is the identity
# (torch exports such nodes); with 0.3 it is training and unsupported.
x = rng.standard_normal((2, 5)).astype(np.float32)
for name, ratio in (("dropout0", 0.0), ("dropout3", 0.3)):
    g = helper.make_graph(
        [helper.make_node("Dropout", ["x", "r", "t"], ["y"], name="drop")], name,
        [vi("x", F, x.shape)], [vi("y", F, x.shape)],
        initializer=[numpy_helper.from_array(np.array(ratio, np.float32), "r"),
                     numpy_helper.from_array(np.array(True), "t")])
    onnx.save_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]),
                    os.path.join(out, name + ".onnx"))
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "input_0.pb"), "wb").write(
        numpy_helper.from_array(x, "x").SerializeToString())
    open(os.path.join(d, "output_0.pb"), "wb").write(
        numpy_helper.from_array(x, "y").SerializeToString())
