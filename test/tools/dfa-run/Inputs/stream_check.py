"""Checks a dfa-run --requests --json report against the stream itself:
each request's key is its size rounded up to the way's next bucket (or its
own past the last), the counts add up, and the suggested buckets pad the
stream's tokens least of every choice of K sizes (brute force).

usage: stream_check.py REPORT.json STREAM.jsonl DIM K
"""
import itertools
import json
import sys

report, stream, dim, k = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
r = json.load(open(report))["requests"]
sizes = [json.loads(l)["shapes"]["tokens"][1] for l in open(stream) if l.strip()]
assert r["count"] == len(sizes)
for w in r["ways"]:
    b = w["buckets"].get(dim, [])
    # --warmup compiled every bucket before the stream.
    seen = set(b) if w["warmup_compiles"] else set()
    assert w["warmup_compiles"] in (0, len(b))
    compiles = 0
    for s, q in zip(sizes, w["per_request"]):
        want = min([x for x in b if x >= s], default=s)
        assert q["key"][dim] == want, (w["name"], s, q["key"])
        assert q["compiled"] == (want not in seen), (w["name"], s)
        if want not in seen:
            compiles += 1
        seen.add(want)
    assert w["compiles"] == compiles + w["warmup_compiles"], w
    assert w["cache_hits"] + compiles == len(sizes)
    assert w["recompile_storm"] == (w["compiles"] > r["recompile_limit"])


def padding(bs):
    return sum(min(x for x in bs if x >= s) - s for s in sizes)


sug = next(w for w in r["ways"] if w["name"] == "suggested")["buckets"][dim]
top = max(sizes)
best = min(padding(list(c) + [top]) for c in itertools.combinations(sorted(set(sizes) - {top}), k - 1))
assert padding(sug) == best, (sug, padding(sug), best)
print("suggested %s pad %d tokens, the least of any %d" % (",".join(map(str, sug)), best, k))
for w in r["ways"]:
    print("%s: %d compiles, %d hits, storm %s" % (w["name"], w["compiles"], w["cache_hits"],
                                                  w["recompile_storm"]))
