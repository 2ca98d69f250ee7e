"""Small modules for the FX importer's lit tests (dfa-export-fx factories)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        b = x.size(0)
        return self.fc2(h).view(b, 2, 2).transpose(1, 2).softmax(-1)


def net():
    torch.manual_seed(0)
    return Net()


class Masked(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mask", torch.tril(torch.ones(8, 8, dtype=torch.bool)))

    def forward(self, x):
        t = x.size(-1)
        return x.masked_fill(~self.mask[:t, :t], 0.0).sum(dim=-1, keepdim=True)


def masked():
    return Masked()


class Unsupported(nn.Module):
    def forward(self, x):
        return torch.lgamma(x) + torch.erfinv(x) + x.lgamma() + x.digamma()


def unsupported():
    return Unsupported()


class Branchy(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x


def branchy():
    return Branchy()


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(8)
        self.fc = nn.Linear(8, 8)
        self.act = nn.GELU()

    def forward(self, x):
        return x + self.act(self.fc(self.norm(x)))


class Stack(nn.Module):
    """Two blocks in a ModuleList: module paths blocks.0.fc, blocks.1.act."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(), Block()])

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x


def stack():
    torch.manual_seed(0)
    return Stack()


class Clamped(nn.Module):
    """Size arithmetic torch.export records as torch.sym_max/sym_min."""

    def forward(self, x):
        b = x.shape[0]
        return x.sum(0) * torch.sym_max(b, 3) + torch.sym_min(b, 3)


def clamped():
    return Clamped()


class Tied(nn.Module):
    """An embedding and an LM head sharing one [1000, 64] weight."""
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(1000, 64)
        self.head = nn.Linear(64, 1000, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, ids):
        return self.head(torch.tanh(self.emb(ids)))


def tied():
    torch.manual_seed(0)
    return Tied().eval()
