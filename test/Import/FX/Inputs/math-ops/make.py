# The module of ops.fx.json (dfa-export-fx, symbolic_trace), ops-export.fx.json
# (--method export) and torch.npy, its output for x.npy
# (test/Import/FX/math-ops.test): torch functions and nn modules that are
# compositions of graph ops (a probe of ~150 functions and modules met them
# refused): elementwise math (atan2, hypot, logaddexp/2, lerp, frac, log2,
# log10, exp2, the hyperbolic and inverse trigonometric functions, isinf,
# isfinite, clamp to tensor bounds), vector norms and distances (cosine
# similarity, pairwise distance, cdist by product and by differences, pdist),
# instance/group/RMS/local response norms, 1-d and 3-d and adaptive max and
# power-average pooling, the Pad modules, scans (cumprod, cummax, cummin,
# logcumsumexp), order statistics (median, kthvalue, bucketize,
# searchsorted), tables (one_hot, count_nonzero, diag, diag_embed, diagonal,
# meshgrid, block_diag, outer, cross, rot90, diff, narrow, tile,
# channel_shuffle, unflatten), scatter_reduce mean and include_self=False,
# embedding bags, grid_sample, nearest-exact and antialiased interpolation,
# and the cases a review found wrong (int64 extremes, hypot's overflow,
# atan2's signed zeros and infinities, median with a NaN, promotions). The
# torch.nn modules the importer does not take whole (GroupNorm, the Pads,
# RMSNorm, MaxPool1d, ...) are traced through into the functions they call.
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
class M(nn.Module):
    def __init__(s):
        super().__init__()
        s.inorm = nn.InstanceNorm2d(4, affine=True)
        s.inorm1 = nn.InstanceNorm1d(4)
        s.gn = nn.GroupNorm(2, 4)
        s.bn3 = nn.BatchNorm3d(4)
        s.lrn = nn.LocalResponseNorm(3)
        s.rms = nn.RMSNorm(6)
        s.mp1 = nn.MaxPool1d(3, 2, 1)
        s.amp = nn.AdaptiveMaxPool2d((4, 5))
        s.lpp = nn.LPPool1d(2, 3)
        s.rpad, s.zpad, s.cpad = nn.ReflectionPad2d(2), nn.ZeroPad2d((1, 0, 2, 1)), nn.ConstantPad3d(1, 0.5)
        s.rep1 = nn.ReplicationPad1d((2, 1))
        s.shuf = nn.ChannelShuffle(2)
        s.unfl = nn.Unflatten(1, (2, 2))
        s.bag = nn.EmbeddingBag(6, 3, mode='max')
        s.register_buffer('bounds', torch.tensor([-1.0, -0.25, 0.0, 0.5, 1.5]))
        s.register_buffer('special', torch.tensor([0.0, -0.0, 1.0, -1.0, float('inf'), -float('inf'), 2.0]))
        s.register_buffer('sidx', torch.tensor([[[[0, 3, 3, 1, 0, 2]]]]).expand(2, 4, 1, 6).clone())
        with torch.no_grad():
            for m in (s.inorm, s.bn3, s.gn):
                m.weight.copy_(torch.linspace(0.5, 1.5, 4))
                m.bias.copy_(torch.linspace(-0.2, 0.3, 4))
            s.bn3.running_mean.copy_(torch.linspace(-0.1, 0.1, 4))
            s.bn3.running_var.copy_(torch.linspace(0.8, 1.2, 4))
    def forward(s, x):                       # x [2, 4, 6, 6]
        a, v = x[:, :, 0], x[0, :3].flatten(1)[:, :8]    # [2, 4, 6], [3, 8]
        inf = x / (x > 0.5).float()
        idx = (x[0, 0] > 0).long() + (x[0, 1] > 0).long()   # [6, 6] in 0..2
        rows = x.permute(0, 2, 3, 1).reshape(2, 36, 4)       # 36 rows: cdist by product
        parts = [
            torch.atan2(x, x.flip(1)), torch.atan2(torch.where(x > 1, 0.0, x), torch.where(x.abs() < 0.3, 0.0, x)),
            torch.hypot(x, x.flip(2)), torch.logaddexp(x, x.flip(1)), torch.logaddexp2(x, 2 * x),
            torch.lerp(x, x.flip(3), torch.sigmoid(x)), torch.frac(x * 3), torch.square(x),
            torch.log2(x.abs() + 1), torch.log10(x.abs() + 1), torch.exp2(x),
            torch.sinh(x), torch.cosh(x), torch.asinh(x), torch.tan(x.clamp(-1, 1)), torch.atan(x),
            torch.asin(x.clamp(-0.9, 0.9)), torch.arccos(x.clamp(-0.9, 0.9)), torch.acosh(x.abs() + 1),
            torch.atanh(x.clamp(-0.9, 0.9)), torch.expm1(x), torch.log1p(x.abs()),
            torch.isinf(inf).float(), torch.isfinite(inf).float(), torch.isneginf(-inf).float(),
            torch.clamp(x, min=x.flip(1), max=x.flip(1) + 0.5), x.clamp_min(0.1), x.clamp_max(-0.1),
            torch.linalg.vector_norm(x, dim=(1, 2)), torch.linalg.vector_norm(x, ord=3, dim=-1),
            torch.linalg.vector_norm(x, float('inf'), dim=1), torch.linalg.norm(x[0, 0], 'fro').reshape(1),
            x.norm(p=1, dim=2), torch.norm(x).reshape(1),
            F.cosine_similarity(x, x.flip(1)), F.cosine_similarity(a, a[:1], dim=-1, eps=0.5),
            F.pairwise_distance(a, a.flip(1)), torch.cdist(rows, rows.flip(1) * 2), torch.cdist(a, a.flip(1), p=1),
            F.pdist(v), s.inorm(x), s.inorm1(a[0]), F.instance_norm(x), s.gn(x),
            s.bn3(x.unsqueeze(2).expand(2, 4, 3, 6, 6)), s.lrn(x), F.local_response_norm(a, 2), s.rms(x),
            F.rms_norm(x, (6, 6), eps=1e-3), s.mp1(a), F.max_pool1d(a, 2), F.avg_pool1d(a, 3, 2, 1),
            F.avg_pool3d(x.unsqueeze(1), 2), F.max_pool3d(x.unsqueeze(1), (2, 3, 2), (1, 2, 2), (1, 1, 0)),
            s.amp(x), F.adaptive_max_pool1d(a, 4), F.lp_pool2d(x, 2, (2, 3), 1), s.lpp(a),
            s.rpad(x), s.zpad(x), s.cpad(x[:, :2]), s.rep1(a),
            torch.cumprod(x, 3), torch.cummax(x, 3).values, torch.cummax(x.round(), 3)[1].float(),
            torch.cummin(x, 2)[1].float(), torch.logcumsumexp(x * 10, 1),
            torch.median(x).reshape(1), x.median(dim=2).values, torch.kthvalue(x, 3, 1)[0],
            torch.bucketize(x, s.bounds).float(), torch.searchsorted(s.bounds, x, right=True).float(),
            F.one_hot(idx, 3).float(), torch.count_nonzero(x > 0.3, dim=1).float(),
            torch.diag(v[0], -2), torch.diag(v, 2), torch.diag_embed(v, 1), x.diagonal(1, 1, 3),
            torch.stack(torch.meshgrid(v[0, :3], v[1, :5], indexing='xy')),
            torch.block_diag(v[0], v[:2, :3], v[2, 0]), torch.outer(v[0], v[1]),
            torch.linalg.cross(v[:, :3], v[:, 3:6]), torch.rot90(x, 1, (1, 3)), torch.rot90(x, -1, (2, 3)),
            torch.diff(x, n=2, dim=1, prepend=x[:, :1]), x.narrow(2, 1, 3), torch.tile(v, (2, 1, 3)),
            s.shuf(x), F.channel_shuffle(x, 4), x.flatten(1).unflatten(1, (4, -1, 3)), s.unfl(x),
            torch.aminmax(x, dim=1).min, torch.std_mean(x, dim=(1, 2), unbiased=False)[0],
            torch.var_mean(x, 1, keepdim=True)[1], x.new_tensor([[1.0, 2.0], [3.0, 4.0]]), x.new_zeros(2, 3),
            x.scatter_reduce(3, s.sidx, x[:, :, 2:3], 'mean'),
            x.scatter_reduce(3, s.sidx, x[:, :, 2:3], 'mean', include_self=False),
            x.scatter_reduce(3, s.sidx, x[:, :, 2:3] - 5, 'amax', include_self=False),
            F.embedding_bag(idx[0], v, torch.tensor([0, 2, 2]), mode='mean'),
            F.embedding_bag(idx[:2], v, mode='sum', padding_idx=1), s.bag(idx.flatten()[:10], torch.tensor([0, 3, 3, 7])),
            F.grid_sample(x, torch.tanh(x[:, :2].permute(0, 2, 3, 1)), align_corners=False),
            F.grid_sample(x, torch.tanh(x[:, :2].permute(0, 2, 3, 1)) * 1.2, mode='nearest', padding_mode='border',
                          align_corners=True),
            F.interpolate(x, scale_factor=1.5, mode='nearest-exact'), F.interpolate(a, size=13, mode='nearest-exact'),
            torch.cat(x.split([1, 3], 1)[::-1], 1),
            (((x * 10).long() & 6) | ((x * 3).long() ^ 5)).float(),
            # The review's cases: exact int64 extremes, hypot without
            # overflow, atan2 on signed zeros and infinities, median of a
            # row with a NaN, torch's lerp, promotions (clamp to float
            # bounds, cat, block_diag, bool & long, a number on the left).
            torch.cummin((x * 5).long(), 2)[0].float(),
            x.long().scatter_reduce(3, s.sidx, (x[:, :, 2:3] * 5).long(), 'amin', include_self=False).float(),
            torch.hypot(x * 1e20, x) / 1e20, torch.atan2(s.special[:, None].expand(7, 7), s.special[None, :].expand(7, 7)),
            torch.median(torch.where(x > 1.5, float('nan'), x), 2)[0], torch.lerp(x, x.flip(2), 0.7),
            torch.clamp((x * 4).long(), min=x.flip(1)), torch.cat([x, (x * 3).long()], 1),
            torch.block_diag((v * 3).long(), v), ((x > 0) & (x * 5).long()).float(), (12 & (x * 5).long()).float(),
            torch.logical_xor(x > 0, x.flip(2)).float(), x[0, 0][tuple(torch.tril_indices(6, 6, 1))],
            F.interpolate(x, size=(4, 3), mode='bilinear', antialias=True),
            F.interpolate(x, scale_factor=1.7, mode='bicubic', antialias=True),
        ]
        return torch.cat([p.flatten() for p in parts])
def make():
    torch.manual_seed(0)
    return M().eval()
if __name__ == '__main__':
    x = np.random.default_rng(7).standard_normal((2, 4, 6, 6)).astype(np.float32)
    np.save('x.npy', x)
    torch.manual_seed(0)
    with torch.no_grad():
        np.save('torch.npy', make()(torch.from_numpy(x)).numpy())
