# The decoder step of decoder.fx.json (test/tools/dfa-roofline/llm-fx.test):
# one layer of grouped-query attention (4 query heads over 2 KV heads of
# 16) and a SwiGLU MLP, its KV cache as inputs and outputs, exported by
# torch.export with symbolic batch, token and cache dims:
#   dfa-export-fx make.py:make --method export -o decoder \
#     --input-shape 2,3 --input-dtype int64 --input-shape 2,2,5,16 \
#     --input-shape 2,2,5,16 --dynamic-dim 0:0=batch --dynamic-dim 0:1=seq \
#     --dynamic-dim 1:0=batch --dynamic-dim 1:2=past --dynamic-dim 2:0=batch \
#     --dynamic-dim 2:2=past
import torch, torch.nn as nn, torch.nn.functional as F
class Step(nn.Module):
    def __init__(s, vocab=64, d=64, heads=4, kv=2, hd=16):
        super().__init__()
        s.heads, s.kv, s.hd = heads, kv, hd
        s.emb = nn.Embedding(vocab, d)
        s.q, s.k, s.v = nn.Linear(d, heads * hd, bias=False), nn.Linear(d, kv * hd, bias=False), nn.Linear(d, kv * hd, bias=False)
        s.o = nn.Linear(heads * hd, d, bias=False)
        s.gate, s.up, s.down = nn.Linear(d, 128, bias=False), nn.Linear(d, 128, bias=False), nn.Linear(128, d, bias=False)
        s.head = nn.Linear(d, vocab, bias=False)
    def forward(s, ids, past_k, past_v):
        b, t = ids.shape
        x = s.emb(ids)
        q = s.q(x).view(b, t, s.heads, s.hd).transpose(1, 2)
        k = torch.cat([past_k, s.k(x).view(b, t, s.kv, s.hd).transpose(1, 2)], 2)
        v = torch.cat([past_v, s.v(x).view(b, t, s.kv, s.hd).transpose(1, 2)], 2)
        a = F.scaled_dot_product_attention(q, k.repeat_interleave(2, 1), v.repeat_interleave(2, 1))
        x = x + s.o(a.transpose(1, 2).reshape(b, t, -1))
        x = x + s.down(F.silu(s.gate(x)) * s.up(x))
        return s.head(x), k, v
def make():
    torch.manual_seed(0)
    return Step().eval()
class StarStep(Step):
    """The same step taking its cache as forward(ids, *past)."""
    def forward(s, ids, *past):
        return super().forward(ids, *past)
def make_star():
    torch.manual_seed(0)
    return StarStep().eval()
