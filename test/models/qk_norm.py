"""onnxruntime's GroupQueryAttention with q_norm_weight and k_norm_weight
(Qwen3's per-head RMS norms, which the GenAI builder fuses for CUDA and
onnxruntime's CPU kernel rejects) written out as the builder's unfused
pattern: Reshape -> SimplifiedLayerNormalization -> Reshape on Q and K
before the node, which onnxruntime's CPU kernels run. The reference for
dfa's import of the fused form (test_ort_tools.py, contrib/make.py)."""
import numpy as np
import onnx
from onnx import helper as h, numpy_helper as nh


def unfuse_qk_norm(model):
    """A copy of `model` with every such node unfused (a packed QKV split
    first, the node then given Q, K and V apart)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    nodes = []
    for n in m.graph.node:
        ins = list(n.input)
        if n.op_type != "GroupQueryAttention" or len(ins) < 16 or not ins[14]:
            nodes.append(n)
            continue
        a = {x.name: h.get_attribute_value(x) for x in n.attribute}
        if not ins[1]:
            hd = next(nh.to_array(i).size for i in m.graph.initializer if i.name == ins[14])
            sizes = [a["num_heads"] * hd, a["kv_num_heads"] * hd, a["kv_num_heads"] * hd]
            t = "%s/unpacked" % n.name
            m.graph.initializer.append(nh.from_array(np.array(sizes, np.int64), t))
            nodes.append(h.make_node("Split", [ins[0], t], [t + "/q", t + "/k", t + "/v"], axis=-1))
            ins[:3] = [t + "/q", t + "/k", t + "/v"]
        for slot, heads, eps in ((0, a["num_heads"], a.get("q_norm_epsilon")),
                                 (1, a["kv_num_heads"], a.get("k_norm_epsilon"))):
            t = "%s/unfused%d" % (n.name, slot)
            m.graph.initializer.extend([nh.from_array(np.array([0, 0, heads, -1], np.int64), t + "/s4"),
                                        nh.from_array(np.array([0, 0, -1], np.int64), t + "/s3")])
            nodes += [h.make_node("Reshape", [ins[slot], t + "/s4"], [t + "/4"]),
                      h.make_node("SimplifiedLayerNormalization", [t + "/4", ins[14 + slot]], [t + "/n"],
                                  axis=-1, epsilon=eps if eps is not None else a.get("qk_norm_epsilon", 1e-6)),
                      h.make_node("Reshape", [t + "/n", t + "/s3"], [t + "/3"])]
            ins[slot] = t + "/3"
        keep = {k: v for k, v in a.items() if not k.endswith("norm_epsilon")}
        nodes.append(h.make_node(n.op_type, ins[:14], list(n.output), name=n.name, domain=n.domain, **keep))
    del m.graph.node[:]
    m.graph.node.extend(nodes)
    return m
