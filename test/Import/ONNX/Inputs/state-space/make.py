#!/usr/bin/env python3
"""Opset-27 state-space ops with the ONNX reference's outputs
(state-space.test):

- conv_state.onnx: CausalConvWithState over [1, 3, 5] with a kernel of 4,
  a past state, a bias and SiLU (Mamba's short convolution in decode-chunk
  form).
- gdn.onnx: LinearAttention, Gated DeltaNet (update_rule gated_delta) with
  GQA (4 query heads over 2 K/V heads, d_k 3, d_v 2), 3 steps, a past
  state, a per-head decay and a per-head beta.
- no_decay.onnx: update_rule gated without its decay input (an invalid
  model).

Regenerate with the project's environment:
  .venv/bin/python test/Import/ONNX/Inputs/state-space/make.py
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(11)


def value(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def build(name, node, inputs, outputs):
    g = helper.make_graph([node], name, [value(n, s) for n, s in inputs],
                          [value(n, s) for n, s in outputs])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 27)])
    onnx.save(m, os.path.join(HERE, name + ".onnx"))
    return m


def reference(name, model, inputs):
    feeds = {n: rng.normal(0, 0.5, s).astype(np.float32) for n, s in inputs}
    for n, v in feeds.items():
        np.save(os.path.join(HERE, "%s_%s.npy" % (name, n)), v)
    for i, out in enumerate(ReferenceEvaluator(model).run(None, feeds)):
        np.save(os.path.join(HERE, "%s_ref_%d.npy" % (name, i)), out)


conv_in = [("input", [1, 3, 5]), ("weight", [3, 1, 4]), ("bias", [3]), ("past_state", [1, 3, 3])]
conv = build("conv_state",
             helper.make_node("CausalConvWithState", [n for n, _ in conv_in],
                              ["output", "present_state"], name="short_conv", activation="silu"),
             conv_in, [("output", [1, 3, 5]), ("present_state", [1, 3, 3])])
reference("conv_state", conv, conv_in)

gdn_in = [("query", [2, 3, 12]), ("key", [2, 3, 6]), ("value", [2, 3, 4]),
          ("past_state", [2, 2, 3, 2]), ("decay", [2, 3, 2]), ("beta", [2, 3, 2])]
gdn = build("gdn",
            helper.make_node("LinearAttention", [n for n, _ in gdn_in],
                             ["output", "present_state"], name="gated_delta",
                             q_num_heads=4, kv_num_heads=2),
            gdn_in, [("output", [2, 3, 8]), ("present_state", [2, 2, 3, 2])])
reference("gdn", gdn, gdn_in)

bad_in = gdn_in[:3]
build("no_decay",
      helper.make_node("LinearAttention", [n for n, _ in bad_in], ["output", "present_state"],
                       name="gated",
                       q_num_heads=4, kv_num_heads=2, update_rule="gated"),
      bad_in, [("output", [2, 3, 8]), ("present_state", [2, 2, 3, 2])])
