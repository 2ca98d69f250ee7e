# The module of fold.fx.json (dfa-export-fx --method export, core ATen) and
# torch.npy, its output for x.npy (test/Import/FX/const-fold.test): a
# shifted window's index arithmetic and a mask built in forward() from
# aranges and zeros, as torchvision's Swin does, which depend on no input
# and no weight: the importer folds them into constants.
import numpy as np, torch
class M(torch.nn.Module):
    def forward(s, x):
        idx = (torch.arange(16) + 3) % 16            # a roll's positions
        m = torch.zeros(16)
        m[4:8] = -100.0                               # a shifted window's mask
        w = (torch.arange(16).unsqueeze(0) - torch.arange(16).unsqueeze(1)).float()
        return x[:, idx] + m + x @ w
def make(): return M()
if __name__ == '__main__':
    g = np.random.default_rng(7)
    x = g.standard_normal((2, 16)).astype(np.float32)
    np.save('x.npy', x)
    np.save('torch.npy', make()(torch.from_numpy(x)).numpy())
