# The module of sdpa.fx.json (exported with dfa-export-fx, torch 2.14,
# symbolic_trace) and of torch.npy, its output for q.npy, k.npy, v.npy
# (test/Import/FX/sdpa-masked-row.test): query 0 sees no key. sdpa-scale and
# sdpa-dropout.fx.json are sdpa.fx.json with scale=2.0 and dropout_p=0.1 added.
import torch, torch.nn.functional as F
class M(torch.nn.Module):
    def __init__(s):
        super().__init__()
        m = torch.zeros(4, 4); m[0] = float('-inf'); m[1, 2:] = float('-inf')
        s.register_buffer('mask', m)
    def forward(s, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=s.mask)
def make(): return M()
