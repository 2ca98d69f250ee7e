# The module of div.fx.json (dfa-export-fx, symbolic_trace) and
# div-export.fx.json (torch.export, core ATen: div.Tensor_mode,
# floor_divide), and torch.npy, their output for x.npy and i.npy
# (test/Import/FX/division.test): torch's true division of integers (to
# f32), its rounding modes on floats and on negative integers, an integer
# tensor with a float number, a bool tensor with an int.
import numpy as np, torch
class M(torch.nn.Module):
    def forward(s, x, i):
        j = i + 3                       # int64, some negative
        parts = [
            i / j,                                       # int / int -> f32
            torch.div(x, 0.7, rounding_mode='floor'),
            torch.div(x, 0.7, rounding_mode='trunc'),
            torch.div(i, j, rounding_mode='floor').float(),
            torch.div(i, j, rounding_mode='trunc').float(),
            (i // -3).float(),
            torch.floor_divide(x, -0.4),
            torch.trunc(x * 3),
            i * 0.5,                                     # int tensor, float number -> f32
            ((i > 0) + 1).float(),                       # bool tensor + int -> int64
        ]
        return torch.stack(parts)
def make(): return M()
if __name__ == '__main__':
    g = np.random.default_rng(5)
    x = (g.standard_normal((4, 6)) * 3).astype(np.float32)
    i = g.integers(-9, 9, (4, 6)).astype(np.int64)
    i[i == -3] = 5                      # j = i + 3 is never 0
    np.save('x.npy', x); np.save('i.npy', i)
    np.save('torch.npy', make()(torch.from_numpy(x), torch.from_numpy(i)).numpy())
# div-badmode.fx.json is div.fx.json with rounding_mode 'ceil' (torch has none; refused).
