#!/usr/bin/env python3
"""A decode step's linear layer, [1, 1024] x [1024, 1024], as onnxruntime's
4-bit MatMulNBits (blocks of 32, an f16 scale each, no zero points) and
as a plain f16 MatMul, for nbits.test. Usage: nbits_linear.py OUT_DIR"""
import os, sys
import numpy as np, onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh

out = sys.argv[1]
K = N = 1024
block = 32
g = np.random.default_rng(0)
a = h.make_tensor_value_info("a", T.FLOAT16, [1, K])
y = h.make_tensor_value_info("y", T.FLOAT16, None)
packed = g.integers(0, 256, size=(N, K // block, block // 2)).astype(np.uint8)
scales = (g.random(N * K // block) * 0.01).astype(np.float16)
node = h.make_node("MatMulNBits", ["a", "B", "s"], ["y"], domain="com.microsoft",
                   K=K, N=N, bits=4, block_size=block)
graph = h.make_graph([node], "nbits", [a], [y],
                     initializer=[nh.from_array(packed, "B"), nh.from_array(scales, "s")])
onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)]),
          os.path.join(out, "nbits.onnx"))
w = g.standard_normal((K, N)).astype(np.float16)
graph = h.make_graph([h.make_node("MatMul", ["a", "w"], ["y"])], "f16", [a], [y],
                     initializer=[nh.from_array(w, "w")])
onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)]), os.path.join(out, "f16.onnx"))
