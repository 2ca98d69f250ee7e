# The module of fn.fx.json (dfa-export-fx, symbolic_trace) and torch.npy,
# its output for x.npy (test/Import/FX/functional.test): functions, methods
# and modules a symbolic trace keeps as calls: F.pad (constant, reflect,
# replicate, circular), F.group_norm, F.normalize, F.interpolate (nearest by
# a scale, bilinear to a size, bilinear with align_corners), nn.Upsample,
# nn.UpsamplingBilinear2d, Conv2d with padding='same' (an even kernel pads
# one more after) and padding_mode='reflect', the methods repeat,
# cumsum, index_select, reshape_as, type, unfold and repeat_interleave, and
# F.batch_norm in training mode (the batch's own statistics), and F.unfold
# (im2col, with dilation, padding and stride; unbatched), F.normalize with
# p=inf, F.conv2d with padding='same', negative replicate pads, type() with a
# legacy tensor-type name, promotion of integers to f32 (10 / ints, exp), and
# 1-d and 3-d interpolation (linear, trilinear, nearest), bicubic (by a
# scale, to a size, with align_corners; nn.Upsample), area (to a size, by a
# scale) and adaptive average pooling to sizes that do not divide the input
# (1-d, 2-d, 3-d; nn.AdaptiveAvgPool2d), and F.fold / nn.Fold (col2im, the
# overlapping windows summed; batched and unbatched), align_corners with a
# scale factor (torch maps by the sizes alone), and adaptive pooling of an
# unbatched image and with None (the input's size) in the output size.
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
class M(nn.Module):
    def __init__(s):
        super().__init__()
        s.same = nn.Conv2d(4, 4, 4, padding='same')
        s.refl = nn.Conv2d(4, 4, 3, padding=1, padding_mode='reflect')
        s.up = nn.Upsample(scale_factor=2)
        s.bi = nn.UpsamplingBilinear2d(size=(7, 9))
        s.cubic = nn.Upsample(size=(5, 9), mode='bicubic')
        s.adapt = nn.AdaptiveAvgPool2d((4, 5))
        s.adapt_none = nn.AdaptiveAvgPool2d((5, None))
        s.fold = nn.Fold((6, 6), (2, 3), dilation=(2, 1), padding=1, stride=(1, 2))
        s.gn_w = nn.Parameter(torch.rand(4))
        s.register_buffer('idx', torch.tensor([3, 0, 2]))
    def forward(s, x):                       # x [1, 4, 6, 6]
        a = F.pad(x, (1, 2, 0, 1)) + 0.5
        b = F.pad(x, (2, 1, 1, 2), mode='reflect')
        c = F.pad(x, (1, 1, 2, 0), mode='replicate') * F.pad(x, (1, 1, 2, 0), mode='circular')
        g = F.group_norm(x, 2, s.gn_w, None, 1e-5)
        nrm = F.normalize(x, dim=1)
        i1 = F.interpolate(x, scale_factor=2, mode='nearest')
        i2 = F.interpolate(x, size=(5, 8), mode='bilinear')
        i3 = F.interpolate(x, size=(9, 4), mode='bilinear', align_corners=True)
        conv = s.same(x) + s.refl(x)
        rep = x.repeat(1, 2, 1, 1).cumsum(1).index_select(1, s.idx)
        shaped = g.reshape(1, 4, 36).reshape_as(x).type(torch.float32)
        win = x.unfold(3, 3, 2)                       # [1, 4, 6, 2, 3]
        inter = x.repeat_interleave(2, dim=1) + torch.repeat_interleave(x[0, 0, 0], 3).sum()
        bn = F.batch_norm(x * 2, None, None, weight=s.gn_w, training=True, momentum=0.0, eps=1e-4)
        cols = F.unfold(x, (2, 3), dilation=(2, 1), padding=1, stride=(1, 2))
        more = [F.normalize(x, p=float('inf'), dim=2),
                F.conv2d(x, s.same.weight, padding='same', dilation=2),
                F.pad(x, (-1, 2, 1, -2), mode='replicate'),
                F.unfold(x[0], 3),
                10 / (x * 4).type('torch.IntTensor') + torch.exp((x > 0).long()),
                F.interpolate(x.flatten(2), scale_factor=1.5, mode='linear'),
                F.interpolate(x.flatten(2), size=50),
                F.interpolate(x.unsqueeze(2).expand(1, 4, 3, 6, 6), size=(5, 4, 9), mode='trilinear'),
                F.interpolate(x.unsqueeze(2), scale_factor=(2, 1, 0.5)),
                F.interpolate(x, scale_factor=1.5, mode='bicubic'),
                F.interpolate(x, size=(3, 10), mode='bicubic', align_corners=True),
                s.cubic(x),
                F.interpolate(x, size=(4, 3), mode='area'),
                F.interpolate(x, scale_factor=0.7, mode='area'),
                s.adapt(x),
                F.adaptive_avg_pool1d(x.flatten(2), 7),
                F.adaptive_avg_pool3d(x.unsqueeze(2).expand(1, 4, 3, 6, 6), (2, 4, 5)),
                s.fold(cols),
                F.fold(F.unfold(x[0], 3), (6, 6), 3),
                F.fold(x.reshape(1, 16, 9), 5, 2, stride=2, padding=1),
                F.interpolate(x, scale_factor=1.5, mode='bilinear', align_corners=True),
                F.interpolate(x, scale_factor=0.7, mode='bicubic', align_corners=True),
                F.adaptive_avg_pool2d(x[0], 4), F.adaptive_avg_pool2d(x, (None, 4)),
                s.adapt_none(x)]
        parts = [a, b, c, g, nrm, i1, i2, i3, s.up(x), s.bi(x), conv, rep, shaped, win, inter, bn, cols] + more
        return torch.cat([p.flatten() for p in parts])
def make():
    torch.manual_seed(0)
    return M().eval()
if __name__ == '__main__':
    x = np.random.default_rng(9).standard_normal((1, 4, 6, 6)).astype(np.float32)
    np.save('x.npy', x)
    torch.manual_seed(0)
    with torch.no_grad():
        np.save('torch.npy', make()(torch.from_numpy(x)).numpy())
# fn-antialias.fx.json is fn.fx.json with the first interpolate's antialias set (refused).
