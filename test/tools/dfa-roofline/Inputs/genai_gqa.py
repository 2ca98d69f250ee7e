"""Writes a two-layer attention stack as onnxruntime-genai's model builder
lays out a Llama: a fused QKV product whose result goes to
GroupQueryAttention packed (no separate key and value), its past and
present caches [batch, 2, past_sequence_length, 16] (4 query heads of 16,
2 K/V heads), seqlens_k and total_sequence_length from the attention
mask, and an output product added to the residual. With --window layer
0 keeps a sliding window of 8 in a window-sized cache
(sliding_window_cache, its past [batch, 2, past_sliding_length, 16]), as
the builder writes gpt-oss and Gemma.
usage: genai_gqa.py OUT.onnx [--window]"""
import sys

import numpy as np
from onnx import TensorProto as T, helper as h, numpy_helper, save

from genai_common import MASK, ONE, SEQLENS

F = T.FLOAT
rng = np.random.default_rng(0)
inputs = [h.make_tensor_value_info("x", F, ["batch_size", "sequence_length", 64]),
          MASK]
nodes = list(SEQLENS)
inits = [ONE]
outputs = []
x = "x"
window = "--window" in sys.argv
for layer in range(2):
    sliding = window and layer == 0
    names = ["past_key_values.%d.%s" % (layer, kv) for kv in ("key", "value")]
    past = "past_sliding_length" if sliding else "past_sequence_length"
    inputs += [h.make_tensor_value_info(n, F, ["batch_size", 2, past, 16]) for n in names]
    attrs = dict(local_window_size=8, sliding_window_cache=1) if sliding else {}
    presents = ["present.%d.%s" % (layer, kv) for kv in ("key", "value")]
    qkv, wo = "layers.%d.qkv_proj.weight" % layer, "layers.%d.o_proj.weight" % layer
    inits += [numpy_helper.from_array(rng.standard_normal((64, 128)).astype(np.float32) * 0.1, qkv),
              numpy_helper.from_array(rng.standard_normal((64, 64)).astype(np.float32) * 0.1, wo)]
    nodes += [h.make_node("MatMul", [x, qkv], ["qkv%d" % layer]),
              h.make_node("GroupQueryAttention",
                          ["qkv%d" % layer, "", ""] + names + ["seqlens_k", "tot"],
                          ["a%d" % layer] + presents, domain="com.microsoft",
                          num_heads=4, kv_num_heads=2, **attrs),
              h.make_node("MatMul", ["a%d" % layer, wo], ["o%d" % layer]),
              h.make_node("Add", [x, "o%d" % layer], ["h%d" % layer])]
    outputs += [h.make_tensor_value_info(o, F, None) for o in presents]
    x = "h%d" % layer
outputs.insert(0, h.make_tensor_value_info(x, F, None))
graph = h.make_graph(nodes, "genai_gqa", inputs, outputs, inits)
model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.microsoft", 1)])
model.ir_version = 8
save(model, sys.argv[1])
