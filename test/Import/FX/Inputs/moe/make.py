# The modules of moe.fx.json (dfa-export-fx --method export) and torch.npy,
# its output for x.npy (test/Import/FX/moe.test): a mixture of experts'
# dispatch as transformers writes it (tokens' rows sorted by expert,
# torch.histc counting each expert's rows, a cumulative sum for offsets,
# transformers::grouped_mm_fallback multiplying each expert's rows by its
# weights), then the grouped product's edge cases (an empty group, offsets
# that decrease, past the rows, rows no group covers) and histc's (values
# out of range and NaN not counted, the last bin closed, the data's own
# range, one value widened by 1). refused.fx.json: a grouped product of
# 2-d by 2-d operands (groups along K), which dfa does not take.
#
# usage (the project's environment): .venv/bin/python make.py OUT_DIR BIN_DIR
import os, sys
import numpy as np, torch
import transformers.integrations.moe  # noqa: F401  registers transformers::grouped_mm_fallback

out, bin_dir = sys.argv[1], sys.argv[2]
sys.path.insert(0, bin_dir)
import dfa_fx  # noqa: E402

E, K, N, TOP = 4, 8, 6, 2
gmm = torch.ops.transformers.grouped_mm_fallback


class M(torch.nn.Module):
    def __init__(s):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        s.router = torch.nn.Parameter(torch.randn(K, E, generator=g))
        s.experts = torch.nn.Parameter(torch.randn(E, K, N, generator=g) * 0.5)
        s.register_buffer("edge_offs", torch.tensor([3, 3, 1, 5], dtype=torch.int32))
        s.register_buffer("past_offs", torch.tensor([2, 2, 4, 40], dtype=torch.int64))
        s.register_buffer("short_offs", torch.tensor([1, 2, 2, 3], dtype=torch.int32))

    def forward(s, x):                                  # x [T, K]
        # The dispatch (transformers' grouped_mm_experts_forward).
        probs = torch.softmax(x @ s.router, dim=-1)
        w, ids = torch.topk(probs, TOP, dim=-1)
        ids_flat, w_flat = ids.reshape(-1), w.reshape(-1)
        ids_sorted, perm = torch.sort(ids_flat)
        rows = x[perm // TOP]
        counts = torch.histc(ids_sorted.float(), bins=E, min=0, max=E - 1)
        offs = torch.cumsum(counts, dim=0, dtype=torch.int32)
        y = gmm(rows, s.experts, offs) * w_flat[perm].unsqueeze(-1)
        inv = torch.empty_like(perm)
        inv[perm] = torch.arange(perm.size(0))
        moe = y[inv].view(x.size(0), TOP, N).sum(dim=1)  # [T, N]
        # The grouped product's edges: decreasing offsets (the later group
        # stands), offsets past the rows, rows no group covers (zeros).
        t = x.size(0)
        edge = gmm(x[:5], s.experts, s.edge_offs)
        past = gmm(x[:5], s.experts, s.past_offs)
        short = gmm(x[:5], s.experts, s.short_offs)
        # histc: out of range and NaN not counted, the last bin closed.
        v = torch.cat([x.flatten(), torch.tensor([float("nan"), 1.5, -1.5, 10.0])])
        h1 = torch.histc(v, bins=5, min=-1.5, max=1.5)
        h2 = torch.histc(x, bins=7)                      # the data's range
        h3 = torch.histc(x[0, :1].expand(3), bins=4)     # one value, widened
        h4 = torch.histc(x.half(), bins=3, min=-1, max=1).float()
        return torch.cat([moe.flatten(), edge.flatten(), past.flatten(), short.flatten(),
                          h1, h2, h3, h4, torch.tensor([float(t)])])


class Refused(torch.nn.Module):
    def forward(s, a, b):
        return torch._grouped_mm(a, b, offs=torch.tensor([4, 8], dtype=torch.int32))


torch.manual_seed(0)
x = torch.randn(7, K)
m = M().eval()
with torch.no_grad():
    ref = m(x)
np.save(os.path.join(out, "x.npy"), x.numpy())
np.save(os.path.join(out, "torch.npy"), ref.numpy())
dfa_fx.export(m, (x,), os.path.join(out, "moe"), method="export")
a, b = torch.randn(16, 8).bfloat16(), torch.randn(8, 16).bfloat16()
dfa_fx.export(Refused(), (a, b), os.path.join(out, "refused"), method="export")
