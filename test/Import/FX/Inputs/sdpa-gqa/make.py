# The module of gqa.fx.json (dfa-export-fx, symbolic_trace) and of torch.npy,
# its output for q.npy, k.npy, v.npy (test/Import/FX/sdpa-gqa.test): 6 query
# heads over 2 K/V heads with enable_gqa=True, causal; each K/V head serves
# three query heads in a row (torch's repeat_interleave, not a tiling).
import numpy as np, torch, torch.nn.functional as F
class M(torch.nn.Module):
    def forward(s, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
def make(): return M()
if __name__ == '__main__':
    g = np.random.default_rng(7)
    q, k, v = (g.standard_normal(s).astype(np.float32)
               for s in ((2, 6, 5, 8), (2, 2, 5, 8), (2, 2, 5, 8)))
    for name, a in (('q', q), ('k', k), ('v', v)):
        np.save(name + '.npy', a)
    np.save('torch.npy', make()(*map(torch.from_numpy, (q, k, v))).numpy())
# gqa-uneven.fx.json is gqa.fx.json with 5 query heads (not a multiple of 2),
# gqa-off.fx.json without enable_gqa: both refused, as torch refuses them.
