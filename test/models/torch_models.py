#!/usr/bin/env python3
"""Reference models built with Debian's torch and torchvision: ResNet-18,
MobileNet-V2 and a small GPT-style decoder block with a causal mask. The
weights are random (seeded); nothing is downloaded."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_head, max_len):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        mask = torch.tril(torch.ones(max_len, max_len, dtype=torch.bool))
        self.register_buffer("mask", mask.view(1, 1, max_len, max_len))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        hd = c // self.n_head
        q = q.view(b, t, self.n_head, hd).transpose(1, 2)
        k = k.view(b, t, self.n_head, hd).transpose(1, 2)
        v = v.view(b, t, self.n_head, hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(hd)
        att = att.masked_fill(~self.mask[:, :, :t, :t], float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.proj(y)


class GPTBlock(nn.Module):
    """One pre-norm GPT-2 decoder block."""

    def __init__(self, d_model=64, n_head=4, max_len=32):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_head, max_len)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(),
                                 nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


# torch 2.x exports through torch.export (opset 18 and newer) by default;
# the tests that compare against an opset-14 export keep the TorchScript
# exporter on every torch.
LEGACY_ONNX_EXPORT = {"dynamo": False} if int(torch.__version__.split(".")[0]) >= 2 else {}

def build(name):
    """Returns (module in eval mode, example input)."""
    torch.manual_seed(0)
    if name == "resnet18":
        import torchvision
        m = torchvision.models.resnet18(weights=None)
        x = torch.randn(1, 3, 224, 224)
    elif name == "mobilenet_v2":
        import torchvision
        m = torchvision.models.mobilenet_v2(weights=None)
        x = torch.randn(1, 3, 224, 224)
    elif name == "gpt_block":
        m = GPTBlock()
        x = torch.randn(1, 16, 64)
    else:
        raise ValueError("unknown model %s" % name)
    m.eval()
    # Batch-norm statistics away from the identity, so that folding errors
    # would show.
    for mod in m.modules():
        if isinstance(mod, nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.5, 0.5)
            mod.running_var.uniform_(0.5, 2.0)
    return m, x


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 10))

    def forward(self, x):
        return F.log_softmax(self.net(x), dim=-1)


class MHAModel(nn.Module):
    """nn.MultiheadAttention (sequence-first) with a causal float mask and a
    residual LayerNorm."""

    def __init__(self, d=32, heads=4, seq=12):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads)
        self.norm = nn.LayerNorm(d)
        self.register_buffer("mask", torch.triu(torch.full((seq, seq), float("-inf")), 1))

    def forward(self, x):
        y, _ = self.attn(x, x, x, attn_mask=self.mask)
        return self.norm(x + y)


class Activations(nn.Module):
    """Every torch.nn activation beyond the plain unary ones, as modules and
    as functions."""

    def __init__(self):
        super().__init__()
        self.mods = nn.ModuleList([
            nn.Hardsigmoid(), nn.ELU(0.7), nn.SELU(), nn.CELU(1.3), nn.Softsign(),
            nn.LogSigmoid(), nn.Softplus(beta=2.0, threshold=3.0), nn.PReLU(6),
            nn.Tanhshrink(), nn.Hardshrink(0.3), nn.Softshrink(0.4),
            nn.Threshold(0.1, -2.0), nn.RReLU(0.1, 0.3), nn.Hardswish(), nn.Mish(),
            nn.Dropout2d(0.5)])
        self.glu = nn.GLU(dim=1)
        self.softmin = nn.Softmin(dim=1)

    def forward(self, x):
        y = x
        for m in self.mods:
            y = y + m(x)
        y = y + F.elu(x, 0.5) + F.hardsigmoid(x) + F.softplus(x) + F.logsigmoid(x)
        y = y + F.glu(torch.cat([x, x * 2], 1), 1) + F.softshrink(x, 0.2)
        y = y + F.threshold(x, 0.1, 20.0)
        return self.glu(torch.cat([y, x], 1)) + self.softmin(x) + F.prelu(x, torch.tensor([0.2]))


def _leaf_window(x, size: int):
    """A library helper kept opaque by torch.fx.wrap, as torchvision's swin
    helpers are: it pads in place and branches on shapes."""
    b, c, h, w = x.shape
    out = x.new_zeros(b, c, h + size, w)
    out[:, :, :h, :] = x
    if h % 2 == 0:
        out = out * 2
    return out.mean(dim=2)


torch.fx.wrap("_leaf_window")


class Indexing(nn.Module):
    """einsum, swapaxes, movedim, unbind, advanced indexing, runtime checks,
    a forward argument left at its default, and a torch.fx.wrap-ped helper."""

    def __init__(self):
        super().__init__()
        self.table = nn.Parameter(torch.randn(10, 6))
        self.register_buffer("index", torch.tensor([[3, 1, 4], [1, 5, 9]]))

    def forward(self, x, scale: float = 0.5, mode: str = "sum", mask=None):
        torch._assert(x.dim() == 4, "x must be 4-d")
        a, b = x.unbind(1)
        y = torch.einsum("nhw,nvw->nhv", a, b) * scale
        z = torch.swapaxes(y, 1, 2) + torch.movedim(y, 2, 1)
        g = self.table[self.index]            # (2, 3, 6) by a tensor index
        h = x[1, :, self.index[0], :]          # torch selects the int first: (2, 3, 6)
        k = x[:, 1, self.index[1] % 6]         # (2, 3, 6)
        w = _leaf_window(x, 3)
        counts = (x > 0).sum(1)                # int64, as torch sums bools
        bits = torch.bitwise_and(self.index, 6) + torch.bitwise_or(self.index, 8)
        parts = [z, g, h, k, w, counts.float(), bits.float()]
        if mode == "sum":
            parts.append(x.sum(-1))
        return torch.cat([p.flatten() for p in parts])


def has_pt2e_ops():
    """Whether torch has PT2E's quantized_decomposed operators (torch 2.x;
    not Debian's 1.13)."""
    try:
        import torch.ao.quantization.fx._decomposed  # noqa: F401
        return True
    except ImportError:
        return False


class PT2E(nn.Module):
    """A convolution and a linear layer as PT2E's convert_pt2e writes them
    (XNNPACK's symmetric scheme): int8 weights dequantized per output
    channel, activations quantized and dequantized per tensor."""

    def __init__(self):
        super().__init__()
        import torch.ao.quantization.fx._decomposed  # noqa: F401
        qd = torch.ops.quantized_decomposed
        for name, w in (("conv", torch.randn(8, 3, 3, 3)), ("fc", torch.randn(10, 128))):
            s = (w.abs().flatten(1).amax(1) / 127).float()
            z = torch.zeros(w.shape[0], dtype=torch.int64)
            self.register_buffer(name + "_s", s)
            self.register_buffer(name + "_z", z)
            self.register_buffer(name + "_q", qd.quantize_per_channel(
                w, s, z, 0, -127, 127, torch.int8))
        self.cb = nn.Parameter(torch.randn(8))
        self.fb = nn.Parameter(torch.randn(10))

    def forward(self, x):
        qd = torch.ops.quantized_decomposed

        def qdq(t, s, z):
            q = qd.quantize_per_tensor.default(t, s, z, -128, 127, torch.int8)
            return qd.dequantize_per_tensor.default(q, s, z, -128, 127, torch.int8)

        x = qdq(x, 0.03, -2)
        w = qd.dequantize_per_channel.default(self.conv_q, self.conv_s, self.conv_z, 0,
                                              -127, 127, torch.int8)
        y = F.max_pool2d(torch.relu(F.conv2d(x, w, self.cb, padding=1)), 2)
        y = qdq(y, 0.05, 0)
        w = qd.dequantize_per_channel.default(self.fc_q, self.fc_s, self.fc_z, 0,
                                              -127, 127, torch.int8)
        return F.linear(y.flatten(1), w, self.fb)


def build_extra(name):
    torch.manual_seed(0)
    if name == "pt2e":
        return PT2E().eval(), torch.randn(2, 3, 8, 8)
    if name == "mlp":
        return MLP().eval(), torch.randn(4, 32)
    if name == "mha":
        return MHAModel().eval(), torch.randn(12, 2, 32)
    if name == "activations":
        return Activations().eval(), torch.randn(2, 6, 5)
    if name == "indexing":
        return Indexing().eval(), torch.randn(2, 2, 6, 6)
    return build(name)
