# The modules of pool.fx.json (dfa-export-fx, symbolic_trace) and
# pool-export.fx.json (--method export), and torch.npy, their output for
# x.npy (test/Import/FX/pool-indices.test): max pooling that returns its
# indices (nn.MaxPool2d(return_indices=True) kept whole, F.max_pool1d/2d/3d
# with padding, dilation and ceil_mode, an unbatched input, ties that take
# the first largest element) and the max unpooling that puts the values
# back (nn.MaxUnpool2d, F.max_unpool1d/2d/3d with an output size), as
# SegNet's decoder does.
#
# usage (the project's environment): .venv/bin/python make.py OUT_DIR BIN_DIR
import os, sys
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F

out, bin_dir = sys.argv[1], sys.argv[2]
sys.path.insert(0, bin_dir)
import dfa_fx  # noqa: E402


class M(nn.Module):
    def __init__(s):
        super().__init__()
        s.pool = nn.MaxPool2d(2, 2, return_indices=True)
        s.unpool = nn.MaxUnpool2d(2, 2)

    def forward(s, x):                     # x [2, 3, 8, 10]
        y, i = s.pool(x)
        seg = s.unpool(y, i)
        a, ia = F.max_pool2d(x, 3, 2, 1, ceil_mode=True, return_indices=True)
        b = F.max_unpool2d(a, ia, 3, 2, 1, output_size=x.shape[-2:])
        c, ic = F.max_pool2d(x[0], (2, 3), (1, 2), (1, 1), dilation=(2, 1), return_indices=True)
        s1 = x.flatten(2)
        d, id_ = F.max_pool1d(s1, 3, 2, 1, return_indices=True)
        e = F.max_unpool1d(d, id_, 3, 2, 1, output_size=[s1.shape[-1]])
        v = x.unsqueeze(2).expand(-1, -1, 4, -1, -1).contiguous()
        f, if_ = F.max_pool3d(v, 2, 2, return_indices=True)
        g = F.max_unpool3d(f, if_, 2, 2)
        t, it = F.max_pool2d(torch.round(x), 2, return_indices=True)   # ties
        outs = [seg, i.float(), b, ia.float(), c, ic.float(), e, id_.float(), g, if_.float(),
                it.float()]
        return torch.cat([o.flatten() for o in outs])


torch.manual_seed(0)
x = torch.randn(2, 3, 8, 10)
np.save(os.path.join(out, "x.npy"), x.numpy())
with torch.no_grad():
    np.save(os.path.join(out, "torch.npy"), M()(x).numpy())
dfa_fx.export(M(), (x,), os.path.join(out, "pool"), method="symbolic_trace")
dfa_fx.export(M(), (x,), os.path.join(out, "pool-export"), method="export")
