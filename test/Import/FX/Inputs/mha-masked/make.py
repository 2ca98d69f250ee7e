# Modules of seq.fx.json, fast.fx.json and zero.fx.json (dfa-export-fx,
# symbolic_trace) and their torch outputs under torch.no_grad()
# (test/Import/FX/mha-masked-row.test) for x.npy: query 0 sees no key.
# seq: sequence-first, need_weights=False (torch runs scaled_dot_product_
# attention: 0 for that query, then the out-projection's bias);
# fast: batch_first self-attention, need_weights=False (torch's fast path,
# _native_multi_head_attention: NaN); fastfloat: the same with a float
# mask, which torch runs off its fast path (0); zero: add_zero_attn=True
# (refused).
import numpy as np, torch
class M(torch.nn.Module):
    def __init__(s, batch_first, zero=False, float_mask=False):
        super().__init__()
        s.bf = batch_first
        s.mha = torch.nn.MultiheadAttention(8, 2, batch_first=batch_first, add_zero_attn=zero)
        torch.nn.init.uniform_(s.mha.out_proj.bias)
        m = torch.zeros(3, 3, dtype=torch.bool); m[0] = True; m[1, 2] = True
        if float_mask:  # -inf where masked: torch takes no fast path for a float mask
            m = torch.zeros(3, 3).masked_fill(m, float('-inf'))
        s.register_buffer('mask', m)
    def forward(s, x):
        return s.mha(x, x, x, attn_mask=s.mask, need_weights=False)[0]
def seq(): torch.manual_seed(0); return M(False).eval()
def fast(): torch.manual_seed(0); return M(True).eval()
def zero(): torch.manual_seed(0); return M(False, True).eval()
def fastfloat(): torch.manual_seed(0); return M(True, float_mask=True).eval()
if __name__ == '__main__':
    x = np.random.default_rng(3).standard_normal((1, 3, 8)).astype(np.float32)
    np.save('x.npy', x)
    with torch.no_grad():
        np.save('seq.npy', seq()(torch.from_numpy(x).transpose(0, 1).contiguous()).numpy())
        np.save('fast.npy', fast()(torch.from_numpy(x)).numpy())
        np.save('fastfloat.npy', fastfloat()(torch.from_numpy(x)).numpy())
    np.save('x_seq.npy', x.transpose(1, 0, 2).copy())
