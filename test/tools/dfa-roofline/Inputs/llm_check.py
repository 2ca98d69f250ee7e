"""Checks a dfa-roofline --llm JSON report of make_transformer.py --kv-cache
--layers 2 --d-model 256 --heads 4 --dtype f16 against arithmetic done here.

usage: llm_check.py REPORT.json LAYERS D_MODEL
"""
import json
import sys

r = json.load(open(sys.argv[1]))
layers, d = int(sys.argv[2]), int(sys.argv[3])
llm = r["llm"]
# K and V per layer, d_model halves of 2 bytes each, per token of a sequence.
kv = layers * 2 * d * 2
assert llm["kv_cache_bytes_per_token"] == kv, llm["kv_cache_bytes_per_token"]
print("kv bytes per token", kv)
assert llm["dims"] == {"batch": "batch", "seq": "seq", "past": "past", "total": ""}, llm["dims"]
ref = llm["reference"]
print("reference", ref["phase"], ref["batch"], ref["context"])
for t in llm["targets"]:
    pts = t["points"]
    assert len(pts) == len(llm["phases"]) * len(llm["batches"]) * len(llm["contexts"])
    by = {}
    for p in pts:
        assert "error" not in p, (t["target"], p)
        b, c, s = p["batch"], p["context"], p["seconds"]
        assert p["kv_cache_bytes"] == kv * b * c
        tokens = b * c if p["phase"] == "prefill" else b
        assert abs(p["tokens_per_second"] - tokens / s) <= 1e-9 * tokens / s
        assert 0 <= p["bandwidth_bound_share"] <= 1 + 1e-9
        assert abs(sum(p["mix"].values()) - 1) < 1e-6, p["mix"]
        by[(p["phase"], b, c)] = p
    # A longer cache makes every decode step slower; so does a bigger batch.
    for (ph, b, c), p in by.items():
        for (ph2, b2, c2), q in by.items():
            if ph == ph2 == "decode" and b == b2 and c < c2:
                assert p["seconds"] < q["seconds"], (t["target"], b, c, c2)
            if ph == ph2 and c == c2 and b < b2:
                assert p["seconds"] <= q["seconds"], (t["target"], ph, c, b, b2)
    # The crossover fit, redone from the two largest batches.
    for x in t["decode_crossovers"]:
        ran = sorted((p for p in pts if p["phase"] == "decode" and p["context"] == x["context"]),
                     key=lambda p: p["batch"])
        a, b = ran[-2], ran[-1]
        cs = (b["compute_roof_seconds"] - a["compute_roof_seconds"]) / (b["batch"] - a["batch"])
        ms = (b["memory_roof_seconds"] - a["memory_roof_seconds"]) / (b["batch"] - a["batch"])
        assert abs(cs - x["compute_seconds_per_sequence"]) <= 1e-9 * abs(cs) + 1e-18
        assert abs(ms - x["memory_seconds_per_sequence"]) <= 1e-9 * abs(ms) + 1e-18
        m0 = b["memory_roof_seconds"] - ms * b["batch"]
        c0 = b["compute_roof_seconds"] - cs * b["batch"]
        if x["weight_batch"] is not None:
            want = max(1.0, (m0 - c0) / cs)
            assert abs(x["weight_batch"] - want) <= 1e-6 * want, (x, want)
        first = next((p["batch"] for p in ran if p["bandwidth_bound_share"] <= 0.5), None)
        assert x["swept_batch"] == first, (x, first)
    one = by[("decode", min(llm["batches"]), min(llm["contexts"]))]
    print("%s decode batch 1 bandwidth-bound %s" % (t["target"], one["bandwidth_bound_share"] > 0.5))
print("reports", " ".join(x["target"] for x in r["targets"]))
