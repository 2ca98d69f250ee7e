# The modules of refused-*.fx.json (test/Import/FX/math-ops.test): functions
# whose refusal names the node: one_hot without num_classes (its width is
# the data's largest value) and a spectral matrix norm.
import torch, torch.nn as nn, torch.nn.functional as F
class OneHot(nn.Module):
    def forward(self, x):
        return F.one_hot((x > 0).long()).float()
class Spectral(nn.Module):
    def forward(self, x):
        return torch.linalg.norm(x, 2)
def one_hot():
    return OneHot()
def spectral():
    return Spectral()
