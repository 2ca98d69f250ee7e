# The module of put.fx.json (dfa-export-fx --method export) and torch.npy,
# its output for x.npy (test/Import/FX/index-put.test): indexed assignment
# as torch.export writes it (aten.index_put), one index on the first dim
# accumulating duplicates, an index after a full slice (adjacent: its
# result dims in place), two non-adjacent indices (their dims first), two
# adjacent broadcast indices in the middle, negative indices and values
# that broadcast.
import numpy as np, torch, torch.nn as nn
class M(nn.Module):
    def __init__(s):
        super().__init__()
        s.register_buffer('i0', torch.tensor([2, 0, 2]))
        s.register_buffer('i1', torch.tensor([[1, -1], [0, 3]]))
        s.register_buffer('i2', torch.tensor([4, -5]))
    def forward(s, x):                        # x [3, 4, 5]
        a = x.index_put((s.i0,), x[:3] * 2, accumulate=True)
        b = x.clone()
        b[:, s.i1] = torch.arange(5.0)        # [3, 2, 2, 5] <- [5]
        c = x.clone()
        c[s.i0[:2], :, s.i2] = -x[0, :, :1].T  # [2, 4] <- [1, 4]
        d = x.clone()
        d[:, s.i1[:, :1], s.i2] = 7.0         # bshape [2, 2]
        e = torch.ops.aten.index_put.default(x, [s.i2[:1] - 2, None, s.i2], x[1, 1, :2, None], True)
        return torch.cat([t.flatten() for t in (a, b, c, d, e)])
def make():
    return M().eval()
if __name__ == '__main__':
    x = np.random.default_rng(3).standard_normal((3, 4, 5)).astype(np.float32)
    np.save('x.npy', x)
    with torch.no_grad():
        np.save('torch.npy', make()(torch.from_numpy(x)).numpy())
