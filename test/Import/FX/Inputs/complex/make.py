# The modules of rope.fx.json (dfa-export-fx, symbolic_trace),
# rope-export.fx.json (--method export) and torch.npy, their output for
# x.npy (test/Import/FX/complex.test): complex tensors as rotary position
# embeddings write them (Meta's reference Llama: a complex freqs_cis buffer
# made by torch.polar, view_as_complex, a complex product, view_as_real;
# Llama 4 and DeepSeek-V2 in transformers make freqs_cis in forward), and
# the other complex arithmetic and views dfa computes (complex(), real,
# imag, add/sub/mul with complex, real and number operands, unsqueeze,
# squeeze, view, expand, slice, select, transpose, permute, cat, clone).
# spectral.fx.json / spectral-export.fx.json and spectral-torch.npy: the
# torch.fft transforms (rfft with n and norms, fft of a real signal, ifft,
# fft2/fftn, rfft2/rfftn, irfft with n, irfft2/irfftn, FNet's mixing, a
# conversion to complex, conj, abs and angle, stft: a power spectrogram as
# torchaudio computes one) as products with DFT matrices.
# refused-exp.fx.json: torch.exp of a complex tensor, which dfa refuses.
#
# usage (the project's environment): .venv/bin/python make.py OUT_DIR BIN_DIR
import os, sys
import numpy as np, torch

out, bin_dir = sys.argv[1], sys.argv[2]
sys.path.insert(0, bin_dir)
import dfa_fx  # noqa: E402

T, H, D = 6, 2, 8


def rotary(x, freqs_cis):                  # x [B, T, H, D], freqs_cis [T, D/2]
    xc = torch.view_as_complex(x.float().reshape(x.shape[0], x.shape[1], x.shape[2], -1, 2))
    f = freqs_cis.view(1, xc.shape[1], 1, xc.shape[-1])
    return torch.view_as_real(xc * f).flatten(3).type_as(x)


class M(torch.nn.Module):
    def __init__(s):
        super().__init__()
        inv = 1.0 / (10000 ** (torch.arange(0, D, 2).float() / D))
        freqs = torch.outer(torch.arange(T).float(), inv)
        s.register_buffer("freqs_cis", torch.polar(torch.ones_like(freqs), freqs))
        s.register_buffer("inv", inv)

    def forward(s, x):                     # x [1, T, H, D]
        a = rotary(x, s.freqs_cis)
        # freqs_cis made in forward (transformers' Llama 4 / DeepSeek-V2).
        pos = torch.arange(T).float()
        fc = torch.polar(torch.ones(T, D // 2), torch.outer(pos, s.inv))
        b = rotary(x, fc)
        # Arithmetic and views.
        z = torch.complex(x[0, :, 0, :4], x[0, :, 1, :4])          # [T, 4]
        w = torch.view_as_complex(x[0, :, :, :].reshape(T, H, D // 2, 2).contiguous())
        y = (z * 2.0 - x[0, :, 0, 4:]) * z + 1.5                     # number, real tensor
        y = y - z.unsqueeze(0).expand(3, T, 4)[1] + w[:, 1, :]
        y = torch.cat([y, w.transpose(0, 1)[0], w.permute(2, 0, 1)[1, :, 0].unsqueeze(-1)], 1)
        y = y[1:5:2].clone().squeeze()
        return torch.cat([a.flatten(), b.flatten(), y.real.flatten(), y.imag.flatten(),
                          torch.view_as_real(w.select(1, 0)).flatten()])


class Spectral(torch.nn.Module):
    def __init__(s):
        super().__init__()
        s.register_buffer("window", torch.hann_window(16))

    def forward(s, x):                     # x [3, 6, 8]
        f = torch.fft
        outs = [
            torch.view_as_real(f.rfft(x, n=10, dim=1, norm="ortho")),
            torch.view_as_real(f.fft(x, dim=0, norm="forward")),
            torch.view_as_real(f.ifft(f.fft(x))),
            f.fftn(x).real, f.fft2(x).imag,
            torch.view_as_real(f.rfft2(x)),
            f.irfft(f.rfft(x), n=7),
            f.irfft2(f.rfft2(x), s=(6, 8)),
            f.irfftn(f.rfftn(x, norm="ortho"), norm="ortho"),
            f.fft(f.fft(x, dim=-1), dim=-2).real,  # FNet's token mixing
            torch.view_as_real(x.to(torch.complex64) * f.fft(x).conj()),
            f.rfft(x).abs(), f.rfft(x).angle(),   # a spectrogram's magnitude, the phase
            # A power spectrogram as torchaudio computes one.
            torch.stft(x.flatten(1), n_fft=16, hop_length=4, window=s.window,
                       return_complex=True).abs().pow(2),
            torch.view_as_real(torch.stft(x[0, 0], n_fft=6, hop_length=1, win_length=5,
                                          center=False, normalized=True,
                                          return_complex=True)),
        ]
        return torch.cat([o.flatten() for o in outs])


class Exp(torch.nn.Module):
    def forward(s, x):
        return torch.view_as_real(torch.view_as_complex(x.reshape(-1, 2)).exp())


torch.manual_seed(0)
x = torch.randn(1, T, H, D)
m = M().eval()
with torch.no_grad():
    ref = m(x)
np.save(os.path.join(out, "x.npy"), x.numpy())
np.save(os.path.join(out, "torch.npy"), ref.numpy())
dfa_fx.export(m, (x,), os.path.join(out, "rope"), method="symbolic_trace")
dfa_fx.export(m, (x,), os.path.join(out, "rope-export"), method="export")
dfa_fx.export(Exp(), (x,), os.path.join(out, "refused-exp"), method="export")
xs = torch.randn(3, 6, 8)
np.save(os.path.join(out, "xs.npy"), xs.numpy())
np.save(os.path.join(out, "spectral-torch.npy"), Spectral()(xs).numpy())
dfa_fx.export(Spectral(), (xs,), os.path.join(out, "spectral"), method="symbolic_trace")
dfa_fx.export(Spectral(), (xs,), os.path.join(out, "spectral-export"), method="export")
