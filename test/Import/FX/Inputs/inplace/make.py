# The module of inplace.fx.json (dfa-export-fx, symbolic_trace) and
# torch.npy, its output for x.npy (test/Import/FX/inplace.test): in-place
# tensor methods (add_, relu_, mul_, clamp_ then masked_fill_ on its result,
# fill_, zero_ and an f16 tensor updated by an f32 one, which stays f16),
# a torch.fx.wrap-ped helper that edits the Python lists it is given (as
# torchvision's Swin3d window sizes) and one that updates its tensor
# argument in place and returns nothing, the argument read afterwards (as
# torchvision's MViT shortcut), and tensor_split by sections and indices.
# aliased.fx.json: an update of a tensor a view was taken of (refused by
# the importer); aliased_fn: an in-place function on a view whose base is
# read afterwards (refused by the exporter).
import numpy as np, torch, torch.fx, torch.nn as nn


def window(shift, size, win):
    for i in range(2):
        if size[i] <= win[i]:
            win[i] = size[i]
            shift[i] = 0
    return win, shift


def add_shortcut(x, shortcut):
    x[:, 1:] += shortcut[:, 1:]


torch.fx.wrap("window")
torch.fx.wrap("add_shortcut")


class M(nn.Module):
    def forward(self, x):                   # x [2, 4, 6]
        y = x * 2
        y.add_(1.0)
        z = y.relu_()
        y.mul_(x)
        w = x * 1
        w.clamp_(min=-0.5).masked_fill_(x > 1, -1.0)
        f = torch.zeros(3)
        f.fill_(2.5)
        g = x * 3
        g.zero_()
        h = x.half() * 1
        h.add_(x)
        win, shift = window([1, 2], [x.size(1), x.size(2)], [7, 3])
        s = x[:, :, :win[1]] + shift[1]
        a = x * 1
        add_shortcut(a, x * 10)
        parts = [y, z, w, f, g, h.float(), s, a]
        ts, ti = torch.tensor_split(x, 3, dim=2), x.tensor_split([1, 3], dim=1)
        parts += [ts[2], ts[1], ts[0], ti[0], ti[1], ti[2]]
        return torch.cat([p.flatten() for p in parts])


def make():
    return M().eval()


class Aliased(nn.Module):
    """A view taken before an in-place update sees it in torch: refused."""
    def forward(self, x):
        y = x * 1
        v = y.view(-1)
        y.add_(1.0)
        return v * 2


class AliasedInplaceFn(nn.Module):
    """F.relu(inplace=True) on a view whose base is read afterwards."""
    def forward(self, x):
        y = x * 1
        t = y.t()
        torch.nn.functional.relu(t, inplace=True)
        return y + 1


def aliased():
    return Aliased()


def aliased_fn():
    return AliasedInplaceFn()


if __name__ == "__main__":
    x = np.random.default_rng(3).standard_normal((2, 4, 6)).astype(np.float32)
    np.save("x.npy", x)
    with torch.no_grad():
        np.save("torch.npy", make()(torch.from_numpy(x)).numpy())


class ExpandedConstant(nn.Module):
    """A constant made by expand (stride 0), which symbolic_trace keeps as
    a buffer: recording restores buffers only where a run changed them."""
    def forward(self, x):
        idx = torch.tensor([[0, 2, 1]]).expand(4, 3)
        return x.scatter_reduce(1, idx, x[:, :3], "amax")


def expanded_constant():
    return ExpandedConstant()


class OperatorOnView(nn.Module):
    """An augmented assignment on a view: torch.fx records `v *= 2` as an
    out-of-place multiply, so the traced graph returns b unscaled. The
    exporter runs the module itself and refuses the trace (auto then uses
    torch.export, which gets it right)."""
    def forward(self, x):
        b = x * 1.0
        v = b.view(-1)
        v *= 2
        return b


def operator_on_view():
    return OperatorOnView()
