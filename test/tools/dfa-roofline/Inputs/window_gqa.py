"""Writes a two-layer attention stack as onnxruntime-genai's model builder
lays out gpt-oss and Gemma: layer 0 a sliding window of 8 with a
window-sized cache (GroupQueryAttention's sliding_window_cache, its past
[batch, 2, past_sliding_length, 16]), layer 1 full attention over a cache
that grows (past_sequence_length); seqlens_k and total_sequence_length
from the attention mask. With --all-window both layers keep windows,
layer 1's cache dim named past_sequence_length as a growing one would be;
--shared-dim names layer 0's rows past_sequence_length too.
usage: window_gqa.py OUT.onnx [--all-window] [--shared-dim]"""
import sys

from onnx import TensorProto as T, helper as h, save

from genai_common import MASK, ONE, SEQLENS

F = T.FLOAT
inputs = [h.make_tensor_value_info("q", F, ["batch_size", "sequence_length", 64]),
          h.make_tensor_value_info("k", F, ["batch_size", "sequence_length", 32]),
          h.make_tensor_value_info("v", F, ["batch_size", "sequence_length", 32]),
          MASK]
nodes = list(SEQLENS)
outputs = []
all_window = "--all-window" in sys.argv
sliding = "past_sequence_length" if "--shared-dim" in sys.argv else "past_sliding_length"
for layer, past, window in [(0, sliding, 8),
                            (1, "past_sequence_length", 8 if all_window else -1)]:
    names = ["past_key_values.%d.%s" % (layer, kv) for kv in ("key", "value")]
    inputs += [h.make_tensor_value_info(n, F, ["batch_size", 2, past, 16]) for n in names]
    outs = ["y%d" % layer] + ["present.%d.%s" % (layer, kv) for kv in ("key", "value")]
    attrs = dict(num_heads=4, kv_num_heads=2, local_window_size=window)
    if window > 0:
        attrs["sliding_window_cache"] = 1
    nodes.append(h.make_node("GroupQueryAttention", ["q", "k", "v"] + names + ["seqlens_k", "tot"],
                             outs, domain="com.microsoft", **attrs))
    outputs += [h.make_tensor_value_info(o, F, None) for o in outs]
graph = h.make_graph(nodes, "window_gqa", inputs, outputs,
                     [ONE])
model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.microsoft", 1)])
model.ir_version = 8
save(model, sys.argv[1])
