#!/usr/bin/env python3
"""Models that test dfa's limits rather than its parsers: a 10^12-element
shape, a million nodes, deep nesting (ONNX subgraphs, FX JSON, MLIR
attributes) and a huge attribute. The big protobufs are written by
appending encoded fields to a small model (protobuf merges repeated and
message fields), which takes a second where onnx.helper takes a minute.
Usage: make_limits.py OUT_DIR [NODES]"""
import os
import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h

out = sys.argv[1]
nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
os.makedirs(out, exist_ok=True)


def varint(n):
    b = bytearray()
    while True:
        if n < 0x80:
            b.append(n)
            return bytes(b)
        b.append((n & 0x7F) | 0x80)
        n >>= 7


def field(num, payload):
    """A length-delimited field (wire type 2)."""
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def model(graph_nodes, inputs, outputs):
    g = h.make_graph(graph_nodes, "g", inputs, outputs)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def save(m, name, extra_graph=b""):
    data = m.SerializeToString()
    if extra_graph:  # ModelProto.graph = 7: merged into the graph above
        data += field(7, extra_graph)
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


F = T.FLOAT
# A 10^12-element input: valid, shapes only; nothing can hold its values.
save(model([h.make_node("Relu", ["x"], ["y"], name="relu")],
           [h.make_tensor_value_info("x", F, [1000000, 1000000])],
           [h.make_tensor_value_info("y", F, [1000000, 1000000])]), "shape_1e12.onnx")

# A chain of NODES Relus on a 4-element tensor.
chain = bytearray()
for i in range(nodes):
    src = "x" if i == 0 else "t%d" % (i - 1)
    dst = "y" if i == nodes - 1 else "t%d" % i
    node = field(1, src.encode()) + field(2, dst.encode()) + \
        field(3, ("n%d" % i).encode()) + field(4, b"Relu")
    chain += field(1, node)  # GraphProto.node = 1
save(model([], [h.make_tensor_value_info("x", F, [4])],
           [h.make_tensor_value_info("y", F, [4])]), "nodes_%d.onnx" % nodes, bytes(chain))

# If nodes nested 2000 deep through their then_branch subgraphs.
g = b""
for depth in range(2000):
    attr = field(1, b"then_branch") + varint(20 << 3 | 0) + varint(5)  # type = GRAPH
    attr += field(6, field(2, b"sub") + g)                            # g = 6
    node = field(1, b"c") + field(2, b"y") + field(4, b"If") + field(5, attr)
    g = field(1, node)
save(model([], [h.make_tensor_value_info("c", T.BOOL, [])],
           [h.make_tensor_value_info("y", F, [1])]), "nested_if.onnx", g)

# A Constant whose value tensor holds 48 MiB, added to an int32 input: the
# reference adds integers in int64 temporaries, which no estimate sees.
n = 12 * 1024 * 1024
big = h.make_tensor("v", T.INT32, [n], vals=b"\0" * (4 * n), raw=True)
save(model([h.make_node("Constant", [], ["c"], value=big, name="big_constant"),
            h.make_node("Add", ["x", "c"], ["y"], name="add")],
           [h.make_tensor_value_info("x", T.INT32, [n])],
           [h.make_tensor_value_info("y", T.INT32, [n])]), "huge_attr.onnx")

# FX JSON nested 100000 deep in a node's arguments.
depth = 100000
fx = ('{"schema": "dfa.fx/1", "weights": {"file": "w.bin", "compression": "none"},'
      ' "tensors": {}, "modules": {}, "nodes": [{"name": "x", "op": "placeholder",'
      ' "target": "x", "args": [], "kwargs": {}, "meta": {"shape": [2], "dtype": "float32"}},'
      ' {"name": "r", "op": "call_function", "target": "torch.relu", "args": ' +
      "[" * depth + "]" * depth + ', "kwargs": {}}]}')
with open(os.path.join(out, "nested.fx.json"), "w") as f:
    f.write(fx)

# MLIR with an attribute nested 100000 deep.
with open(os.path.join(out, "nested_attr.mlir"), "w") as f:
    f.write('func.func @main(%x: tensor<2xf32> {graph.name = "x"}) -> tensor<2xf32> {\n'
            '  %0 = graph.relu %x {deep = ' + "[" * depth + "]" * depth +
            '} : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n')
# ...and a type nested as deep.
with open(os.path.join(out, "nested_type.mlir"), "w") as f:
    f.write('func.func @main(%x: ' + "tuple<" * depth + "f32" + ">" * depth +
            ') {\n  return\n}\n')
