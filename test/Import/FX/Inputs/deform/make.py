# The module of deform.fx.json (dfa-export-fx --method export: torchvision's
# deform_conv2d has shape checks symbolic_trace cannot follow) and torch.npy,
# its output for x.npy (test/Import/FX/deform-conv.test): torchvision's
# DeformConv2d with two offset groups, a mask and groups=2, as DCNv2 layers
# use it, fed by convolutions that predict the offsets and the mask, plus
# torchvision.ops.deform_conv2d without a mask, strided and dilated.
#   dfa-export-fx make.py:make --input-shape 2,4,7,6 --method export -o deform
import numpy as np, torch, torch.nn as nn, torchvision
class M(nn.Module):
    def __init__(s):
        super().__init__()
        s.off = nn.Conv2d(4, 2 * 2 * 9, 3, padding=1)
        s.msk = nn.Conv2d(4, 2 * 9, 3, padding=1)
        s.dc = torchvision.ops.DeformConv2d(4, 6, 3, padding=1, groups=2)
        s.off2 = nn.Conv2d(4, 2 * 4, 2, stride=2, dilation=2, padding=1)
        s.w2 = nn.Parameter(torch.randn(3, 4, 2, 2) * 0.3)
    def forward(s, x):
        # Offsets of a few pixels, so that taps fall between pixels and off the image.
        y = s.dc(x, 3 * s.off(x), torch.sigmoid(s.msk(x)))
        z = torchvision.ops.deform_conv2d(x, 2 * s.off2(x), s.w2, stride=2, padding=1, dilation=2)
        return torch.cat([y.flatten(), z.flatten()])
def make():
    torch.manual_seed(0)
    return M().eval()
if __name__ == '__main__':
    x = np.random.default_rng(3).standard_normal((2, 4, 7, 6)).astype(np.float32)
    np.save('x.npy', x)
    with torch.no_grad():
        np.save('torch.npy', make()(torch.from_numpy(x)).numpy())
