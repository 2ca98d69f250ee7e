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


def build_extra(name):
    torch.manual_seed(0)
    if name == "mlp":
        return MLP().eval(), torch.randn(4, 32)
    if name == "mha":
        return MHAModel().eval(), torch.randn(12, 2, 32)
    return build(name)
