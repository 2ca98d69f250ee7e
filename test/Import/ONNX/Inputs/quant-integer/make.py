#!/usr/bin/env python3
"""Integer-quantized models as onnxruntime's quantizer writes them, with
onnxruntime's outputs (quant-integer.test).

- dynamic.onnx / dynamic_pc.onnx: quantize_dynamic of a two-layer MLP over
  [2, 5, 16] (per tensor, and per output channel): DynamicQuantizeLinear,
  MatMulInteger (its int32 product), Cast and Mul by the scales.
- qconv.onnx: quantize_static in the QOperator format (per channel) of a
  conv - relu - strided conv - conv: QuantizeLinear, QLinearConv with int32
  biases, DequantizeLinear.

Regenerate with the project's environment:
  .venv/bin/python test/Import/ONNX/Inputs/quant-integer/make.py
"""
import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat,
                                      QuantType, quantize_dynamic,
                                      quantize_static)

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)


def save(model, name):
    path = os.path.join(HERE, name)
    onnx.save(model, path)
    return path


def mlp():
    w1 = numpy_helper.from_array(rng.normal(0, 0.3, (16, 24)).astype(np.float32), "w1")
    b1 = numpy_helper.from_array(rng.normal(0, 0.1, (24,)).astype(np.float32), "b1")
    w2 = numpy_helper.from_array(rng.normal(0, 0.3, (24, 8)).astype(np.float32), "w2")
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
             helper.make_node("Add", ["h", "b1"], ["hb"], name="bias1"),
             helper.make_node("Relu", ["hb"], ["r"], name="relu1"),
             helper.make_node("MatMul", ["r", "w2"], ["y"], name="fc2")]
    g = helper.make_graph(nodes, "mlp",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5, 8])],
                          [w1, b1, w2])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def convnet():
    def w(shape):
        return rng.normal(0, 0.4, shape).astype(np.float32)
    inits = [numpy_helper.from_array(w((8, 3, 3, 3)), "cw1"),
             numpy_helper.from_array(w((8,)), "cb1"),
             numpy_helper.from_array(w((6, 8, 3, 3)), "cw2"),
             numpy_helper.from_array(w((6,)), "cb2"),
             numpy_helper.from_array(w((4, 6, 1, 1)), "cw3")]
    nodes = [helper.make_node("Conv", ["x", "cw1", "cb1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
             helper.make_node("Conv", ["r1", "cw2", "cb2"], ["c2"], name="conv2",
                              pads=[1, 0, 1, 0], strides=[2, 2]),
             helper.make_node("Conv", ["c2", "cw3"], ["y"], name="conv3")]
    g = helper.make_graph(nodes, "convnet",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 9, 10])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


class Reader(CalibrationDataReader):
    def __init__(self):
        self.batches = iter([{"x": rng.normal(0, 1, (1, 3, 9, 10)).astype(np.float32)}
                             for _ in range(4)])

    def get_next(self):
        return next(self.batches, None)


def reference(path, x, name):
    out = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    np.save(os.path.join(HERE, name + "_x.npy"), x)
    np.save(os.path.join(HERE, name + "_ort.npy"), out)


float_mlp = save(mlp(), "mlp_float.onnx")
quantize_dynamic(float_mlp, os.path.join(HERE, "dynamic.onnx"), weight_type=QuantType.QInt8)
quantize_dynamic(float_mlp, os.path.join(HERE, "dynamic_pc.onnx"), weight_type=QuantType.QUInt8,
                 per_channel=True)
os.remove(float_mlp)
x = rng.normal(0, 1, (2, 5, 16)).astype(np.float32)
reference(os.path.join(HERE, "dynamic.onnx"), x, "dynamic")
reference(os.path.join(HERE, "dynamic_pc.onnx"), x, "dynamic_pc")

float_conv = save(convnet(), "conv_float.onnx")
quantize_static(float_conv, os.path.join(HERE, "qconv.onnx"), Reader(),
                quant_format=QuantFormat.QOperator, per_channel=True,
                activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
os.remove(float_conv)
reference(os.path.join(HERE, "qconv.onnx"), rng.normal(0, 1, (1, 3, 9, 10)).astype(np.float32),
          "qconv")
for f in os.listdir(HERE):
    if f.endswith("-opt.onnx") or f.endswith(".data"):
        os.remove(os.path.join(HERE, f))

# A zero point of A that is neither a scalar nor one per row (error, exit 2).
bad = helper.make_graph(
    [helper.make_node("MatMulInteger", ["a", "b", "azp"], ["y"], name="mmi")], "bad",
    [helper.make_tensor_value_info("a", TensorProto.UINT8, [3, 4]),
     helper.make_tensor_value_info("b", TensorProto.UINT8, [4, 2])],
    [helper.make_tensor_value_info("y", TensorProto.INT32, [3, 2])],
    [numpy_helper.from_array(np.array([1, 2], np.uint8), "azp")])
save(helper.make_model(bad, opset_imports=[helper.make_opsetid("", 17)]), "bad_zp.onnx")

# Zero points of rank 2 broadcast against their operand, as the spec's
# reference subtracts them: A's per row as [M, 1], B's per column as [1, N].
bc = helper.make_graph(
    [helper.make_node("MatMulInteger", ["a", "b", "azp", "bzp"], ["y"], name="mmi_bc")], "bc",
    [helper.make_tensor_value_info("a", TensorProto.UINT8, [3, 4]),
     helper.make_tensor_value_info("b", TensorProto.INT8, [4, 2])],
    [helper.make_tensor_value_info("y", TensorProto.INT32, [3, 2])],
    [numpy_helper.from_array(np.array([[3], [200], [0]], np.uint8), "azp"),
     numpy_helper.from_array(np.array([[-5, 7]], np.int8), "bzp")])
save(helper.make_model(bc, opset_imports=[helper.make_opsetid("", 17)]), "zp_bcast.onnx")
a = rng.integers(0, 256, (3, 4)).astype(np.uint8)
b = rng.integers(-128, 128, (4, 2)).astype(np.int8)
np.save(os.path.join(HERE, "zp_bcast_a.npy"), a)
np.save(os.path.join(HERE, "zp_bcast_b.npy"), b)
np.save(os.path.join(HERE, "zp_bcast_ref.npy"),
        ((a.astype(np.int32) - [[3], [200], [0]]) @ (b.astype(np.int32) - [[-5, 7]])).astype(np.int32))
