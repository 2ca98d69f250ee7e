"""Checks dfa-roofline --llm's KV-cache figures against arithmetic done here
from the ONNX file and the target descriptions (not from dfa's own numbers).

usage: kv_check.py MODEL.onnx REPORT.json TARGETS_DIR [--block B] [--prefix P]
                   [--chunk C]
"""
import argparse
import json
import math
import os

import onnx

ap = argparse.ArgumentParser()
ap.add_argument("model")
ap.add_argument("report")
ap.add_argument("targets")
ap.add_argument("--block", type=int, default=0)
ap.add_argument("--prefix", type=int, default=0)
ap.add_argument("--chunk", type=int, default=0)
a = ap.parse_args()

m = onnx.load(a.model, load_external_data=False)
ebytes = {onnx.TensorProto.FLOAT: 4, onnx.TensorProto.FLOAT16: 2, onnx.TensorProto.INT64: 8}
# The cache: past_* inputs [batch, kv_heads, past, head_dim].
past = [i for i in m.graph.input if i.name.startswith("past_")]
layers = len(past) // 2
dims = [d.dim_value for d in past[0].type.tensor_type.shape.dim]
kvh, hd = dims[1], dims[3]
eb = ebytes[past[0].type.tensor_type.elem_type]
per_token = 2 * layers * kvh * hd * eb
weights = sum(math.prod(t.dims) * ebytes[t.data_type] for t in m.graph.initializer)

r = json.load(open(a.report))["llm"]
kv = r["kv_cache"]
assert kv["bytes_per_token"] == per_token == r["kv_cache_bytes_per_token"], (kv, per_token)
assert (kv["layers"], kv["kv_heads"], kv["head_dim"], kv["element_bytes"]) == (layers, kvh, hd, eb), kv
print("kv bytes per token %d = 2 x %d layers x %d kv heads x %d x %d B" % (per_token, layers, kvh, hd, eb))
# The importer folds the shape constants: the weights agree within them.
assert abs(r["weight_bytes"] - weights) <= 4096, (r["weight_bytes"], weights)


def capacity(target):
    d = json.load(open(os.path.join(a.targets, target + ".json")))
    val = lambda x: x["value"] if isinstance(x, dict) else x
    mem = d["memory"]
    outer = next((l for l in mem if l["kind"] == "dram"), None) or next(l for l in mem if l["scope"] == "chip")
    cap = val(outer["capacity_bytes"])
    if d["family"] == "wse":  # weights stay on the wafer unless they stream
        streamed = weights > 0.5 * val(d["limits"]["sram_bytes_total"])
        return cap - (weights if streamed else 0), 1
    if outer["kind"] == "sram":  # chip partition: the chips the weights fill at 90%
        chips = max(1, math.ceil(weights / (0.9 * cap)))
        return chips * cap - weights, chips
    return cap - weights, 1


B = max(1, a.block)
for t in r["targets"]:
    cap, chips = capacity(t["target"])
    assert abs(t["cache"]["capacity_bytes"] - cap) <= 4096, (t["target"], t["cache"], cap)
    assert t["cache"]["chips"] == chips
    for c, got in t["max_batch_by_context"].items():
        c = int(c)
        shared = min(a.prefix, c) // B * B
        held = math.ceil((c - shared) / B) * B
        table = math.ceil(c / B) * 4 if a.block else 0
        want = max(0, int((cap - per_token * shared) // (per_token * held + table)))
        assert abs(got - want) <= 1, (t["target"], c, got, want)
        if t["target"] in ("gpu-h100", "tpu-v5e", "groq-tsp"):
            print("%s context %d: largest batch %d" % (t["target"], c, got))
    for p in t["points"]:
        b, c = p["batch"], p["context"]
        shared = min(a.prefix, c) // B * B
        own = c - shared
        held = math.ceil(own / B) * B
        table = b * math.ceil(c / B) * 4 if a.block else 0
        size = per_token * (shared + b * held) + table
        assert abs(p["kv_cache_bytes"] - size) <= 1e-9 * size, (p, size)
        frag = (b * (held - own)) / (shared + b * held)
        assert abs(p["fragmentation"] - frag) < 1e-12, (p["fragmentation"], frag)
        if "error" in p:
            continue
        if p["phase"] == "prefill":
            steps = math.ceil(own / a.chunk) if a.chunk else 1
            assert p["steps"] == steps, (p["steps"], steps)
            assert p["longest_step_seconds"] <= p["seconds"] + 1e-15
        else:
            pre = [q for q in t["points"] if q["phase"] == "prefill" and q["context"] == c
                   and q["batch"] == min(r["batches"]) and "error" not in q]
            if pre:
                assert p["stall_seconds"] == pre[0]["longest_step_seconds"]
print("checked", " ".join(t["target"] for t in r["targets"]))
