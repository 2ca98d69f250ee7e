# The module of safe-softmax.fx.json and torch.npy, its output for x.npy
# (test/Import/FX/safe-softmax.test): torch's _safe_softmax called
# directly, as graphs not decomposed to core ATen keep it. Row 0 is all
# -inf (torch gives 0), row 1 holds a NaN and row 2 a +inf (torch gives
# NaN for both), row 3 is finite. Written with
#   dfa-export-fx make.py:make --input-shape 2,4,6 --method export -o safe-softmax
#   python make.py
import numpy as np, torch

class M(torch.nn.Module):
    def forward(s, x):
        return torch.ops.aten._safe_softmax(x * 2.0, -1)

def make(): return M()

if __name__ == '__main__':
    x = torch.from_numpy(np.random.default_rng(3).standard_normal((2, 4, 6)).astype(np.float32))
    x[:, 0] = float('-inf')
    x[:, 1, 3] = float('nan')
    x[:, 2, 1] = float('inf')
    np.save('x.npy', x.numpy())
    np.save('torch.npy', make()(x).numpy())
