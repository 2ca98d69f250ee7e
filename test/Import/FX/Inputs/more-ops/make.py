# The module of ops.fx.json (dfa-export-fx, symbolic_trace), ops-export.fx.json
# (--method export) and torch.npy, its output for x.npy
# (test/Import/FX/more-ops.test): torch functions and modules that real
# models call (a sweep of Hugging Face and timm models met them refused):
# flip, roll, addcmul, baddbmm, logsumexp, nan_to_num, pixel_shuffle and
# pixel_unshuffle, isnan, gather, scatter (src and value), scatter_add,
# scatter_reduce, topk, sort, argsort, argmax/argmin, all/any, var and std
# (unbiased, correction, keepdim), transposed convolutions (F and nn,
# output_padding, groups, dilation; 1-d and 2-d), Conv3d, nn.Unfold, full_like, clamp
# of integers to a float bound, arange of floats; ConvTranspose2d called
# with output_size, unbatched convolutions, pixel shuffle of a 5-d input and
# its modules, the index_put method, and cat's legacy rule: a 1-d empty
# tensor is left out (Hugging Face's KV caches start as torch.tensor([]));
# lists of ints as indices (a list holding tensors is the tuple of them);
# an int size to a negative power (a float, as in Python).
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
class M(nn.Module):
    def __init__(s):
        super().__init__()
        s.up = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2)
        s.up1 = nn.ConvTranspose1d(4, 3, 4, stride=3, dilation=2)
        s.c3 = nn.Conv3d(1, 2, 3, padding=1)
        s.unf = nn.Unfold(3, padding=1, stride=2)
        s.ps, s.pus = nn.PixelShuffle(2), nn.PixelUnshuffle(2)
        s.register_buffer('idx', torch.tensor([[0, 3], [2, 1]]))
        s.perm = [5, 0, 3, 1, 4, 2]  # a Python list indexing a dim (timm's csatv2)
        s.register_buffer('sidx', torch.tensor([[[[0, 3, 3, 1, 0, 2]]]]).expand(2, 4, 1, 6).clone())
    def forward(s, x):                       # x [2, 4, 6, 6]
        y = x.flatten(2)                     # [2, 4, 36]
        inf = x / (x > 0.5).float()          # inf and NaN where x <= 0.5
        parts = [
            torch.flip(x, [1, 3]), x.flip(-1), torch.roll(x, 2, 3), torch.roll(x, (1, -2), (1, 2)),
            torch.roll(x, 5),
            torch.addcmul(x, x, x.flip(2), value=0.5),
            torch.baddbmm(y[:, :, :4], y, y.transpose(1, 2)[:, :, :4], beta=0.5, alpha=2.0),
            torch.logsumexp(x, dim=2), torch.logsumexp(x, (1, 3), keepdim=True),
            torch.nan_to_num(inf), torch.nan_to_num(inf, nan=1.0, posinf=2.0, neginf=-3.0),
            torch.isnan(inf).float(),
            F.pixel_shuffle(x, 2), F.pixel_unshuffle(x, 3),
            torch.gather(x, 1, s.idx.reshape(1, 2, 2, 1).expand(2, 2, 2, 6)),
            torch.topk(x, 3, dim=2).values, x.topk(2, largest=False)[1].float(),
            torch.sort(x, dim=1).values, x.sort(descending=True)[1].float(),
            torch.argsort(x, dim=2, descending=True).float(),
            torch.scatter(x, 3, s.sidx[:, :, :, :2], x[:, :, :1] * 5), x.scatter(2, s.sidx.transpose(2, 3)[:, :, :4], 1.5),
            torch.scatter_add(x, 3, s.sidx, x[:, :, :1]), x.scatter_reduce(3, s.sidx, x[:, :, 2:3], 'amax'),
            x.argmax(1).float(), torch.argmin(x, dim=3, keepdim=True).float(),
            (x > 0).all(1).float(), (x > 1).any().float().reshape(1),
            x.var(2, unbiased=False), torch.var(x, dim=(1, 2), keepdim=True), x.var(),
            x.std(-1), torch.std(x, dim=1, correction=0),
            s.up(x), s.up1(y[:, :, :8]),
            F.conv_transpose2d(x, s.up.weight, None, stride=(1, 2), padding=(0, 1), groups=2,
                               output_padding=(0, 1), dilation=(1, 2)),
            s.c3(x[:, :1].unsqueeze(1)),
            torch.full_like(x, 3.5), s.unf(x),
            s.up(x, output_size=[11, 12]), s.up1(y[0, :, :8]), s.c3(x[:1]),
            F.pixel_shuffle(x.unsqueeze(0), 2), s.ps(x), s.pus(x),
            x[0].index_put((s.idx[0],), x[0, :2] * 3, accumulate=True),
            torch.clamp((x > 0).long() * 4, min=0.5, max=2.5),
            torch.arange(5.0) * x[0, 0, 0, :5],
            torch.cat([torch.tensor([]), x[0]], -2), torch.cat([torch.tensor([]), (x[0] > 0).long()], 1),
            x[:, :, s.perm], x[[1, 0, 1]], x[..., [-1, 0]], x[[s.idx[0] % 2, s.idx[1]]],
            x * (x.shape[3] ** -1), torch.cat([torch.tensor([]), torch.tensor([])], -2),
        ]
        return torch.cat([p.flatten() for p in parts])
def make():
    torch.manual_seed(0)
    return M().eval()
if __name__ == '__main__':
    x = np.random.default_rng(5).standard_normal((2, 4, 6, 6)).astype(np.float32)
    np.save('x.npy', x)
    torch.manual_seed(0)
    with torch.no_grad():
        np.save('torch.npy', make()(torch.from_numpy(x)).numpy())
