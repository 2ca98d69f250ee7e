"""Checks how a transformer prefill's kernels stream on a layer pipeline
(wse-2): the head split, q kT and p v stream; q kT waits for all of its
keys (the QKV kernel's end) unless a causal mask lets row i start on the
keys up to i; p v and the output projection start before their producers
end. Reads a schedule; prints one line per check."""
import re
import sys

ops = {}
for line in open(sys.argv[1]):
    m = re.search(r'sched\.compute "([^"]+)"', line)
    if not m:
        continue
    get = lambda key: int(re.search(key + r" = (\d+)", line).group(1)) if re.search(key + r" = (\d+)", line) else 0
    ops[m.group(1)] = (get("start"), get(" cycles"), get("rows"))
# The first layer's first four kernels, in program order: QKV (with the
# head split), the scores (q kT to softmax), p v, the output projection.
qkv, scores, pv, proj = [v for k, v in ops.items() if k.startswith("/layer0/")][:4]
print("streams:", all(k[2] > 1 for k in (qkv, scores, pv, proj)))
print("keys whole:", scores[0] >= qkv[0] + qkv[1])
print("scores overlap qkv:", scores[0] < qkv[0] + qkv[1])
print("pv overlaps scores:", pv[0] < scores[0] + scores[1])
print("projection overlaps pv:", proj[0] < pv[0] + pv[1])
