"""A linear layer as PT2E's convert_pt2e writes it: int8 weights
dequantized per output channel, the activation quantized and dequantized
per tensor (torch.ops.quantized_decomposed, torch 2.x)."""
import torch
from torch import nn
import torch.ao.quantization.fx._decomposed  # noqa: F401  (the operators)

qd = torch.ops.quantized_decomposed


class QLinear(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        w = torch.randn(16, 8)
        self.register_buffer("scales", (w.abs().amax(dim=1) / 127).float())
        self.register_buffer("zps", torch.zeros(16, dtype=torch.int64))
        self.register_buffer("wq", qd.quantize_per_channel(w, self.scales, self.zps, 0,
                                                           -127, 127, torch.int8))
        self.bias = nn.Parameter(torch.randn(16))

    def forward(self, x):
        q = qd.quantize_per_tensor.default(x, 0.05, 3, -128, 127, torch.int8)
        xd = qd.dequantize_per_tensor.default(q, 0.05, 3, -128, 127, torch.int8)
        wd = qd.dequantize_per_channel.default(self.wq, self.scales, self.zps, 0,
                                               -127, 127, torch.int8)
        return torch.relu(torch.nn.functional.linear(xd, wd, self.bias))


def qlinear():
    return QLinear()
