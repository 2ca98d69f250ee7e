# The models of test/Import/ONNX/signal.test and numpy's results for their
# inputs (x_*.npy in, np_*.npy out). Each model is one DFT or STFT node:
#   dft_pad: real [2, 6, 3, 1] along axis 1 with dft_length 8 (zero-padded),
#     opset 17 (axis an attribute).
#   dft_trunc: complex [2, 3, 10, 2] along axis -2 (opset 20, axis an input)
#     truncated to 7 points, onesided (the first 4 bins).
#   irfft_odd: a onesided spectrum of 5 bins to 9 real samples (opset 20,
#     inverse and onesided).
#   stft: a real signal [1, 40, 1], frames of 16 every 6 samples, a Hann
#     window, onesided.
#   bad_axis, too_long, bad_frame: refused.
import numpy as np, onnx
from onnx import TensorProto as T, helper as h

g = np.random.default_rng(2)

def model(name, op, inputs, attrs, opset, consts=()):
    """inputs: (name, array or None for an absent input); consts: initializers."""
    node = h.make_node(op, [n if a is not None else '' for n, a in inputs], ['y'], **attrs)
    inits = [onnx.numpy_helper.from_array(a, n) for n, a in consts]
    graph = h.make_graph([node], name,
                         [h.make_tensor_value_info(n, T.FLOAT, a.shape) for n, a in inputs
                          if a is not None and n not in dict(consts)],
                         [h.make_tensor_value_info('y', T.FLOAT, None)], initializer=inits)
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid('', opset)],
                           producer_name='make.py'), name + '.onnx')

def cplx(a): return a[..., 0] + 1j * a[..., 1] if a.shape[-1] == 2 else a[..., 0]
def split(z): return np.stack([z.real, z.imag], -1).astype(np.float32)

x = g.standard_normal((2, 6, 3, 1)).astype(np.float32)
model('dft_pad', 'DFT', [('x', x), ('dft_length', np.array(8, np.int64))], dict(axis=1), 17,
      consts=[('dft_length', np.array(8, np.int64))])
np.save('x_dft_pad.npy', x); np.save('np_dft_pad.npy', split(np.fft.fft(cplx(x), 8, axis=1)))

x = g.standard_normal((2, 3, 10, 2)).astype(np.float32)
model('dft_trunc', 'DFT', [('x', x), ('dft_length', np.array(7, np.int64)), ('axis', np.array(-2, np.int64))],
      dict(onesided=1), 20, consts=[('dft_length', np.array(7, np.int64)), ('axis', np.array(-2, np.int64))])
np.save('x_dft_trunc.npy', x); np.save('np_dft_trunc.npy', split(np.fft.fft(cplx(x), 7, axis=2)[:, :, :4]))

x = g.standard_normal((1, 5, 2)).astype(np.float32)
model('irfft_odd', 'DFT', [('x', x), ('dft_length', np.array(9, np.int64)), ('axis', np.array(1, np.int64))],
      dict(inverse=1, onesided=1), 20, consts=[('dft_length', np.array(9, np.int64)), ('axis', np.array(1, np.int64))])
np.save('x_irfft_odd.npy', x); np.save('np_irfft_odd.npy', np.fft.irfft(cplx(x), 9, axis=1)[..., None].astype(np.float32))

x = g.standard_normal((1, 40, 1)).astype(np.float32)
w = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(16) / 16)).astype(np.float32)
model('stft', 'STFT', [('x', x), ('step', np.array(6, np.int64)), ('window', w)], {}, 17,
      consts=[('step', np.array(6, np.int64)), ('window', w)])
frames = np.stack([x[0, f * 6:f * 6 + 16, 0] * w for f in range(1 + (40 - 16) // 6)])
np.save('x_stft.npy', x); np.save('np_stft.npy', split(np.fft.rfft(frames, axis=-1))[None])

x = g.standard_normal((1, 8, 1)).astype(np.float32)
model('bad_axis', 'DFT', [('x', x)], dict(axis=2), 17)
model('too_long', 'DFT', [('x', x), ('dft_length', np.array(5000, np.int64))], dict(axis=1), 17,
      consts=[('dft_length', np.array(5000, np.int64))])
model('bad_frame', 'STFT', [('x', x), ('step', np.array(2, np.int64)), ('window', None),
                            ('frame_length', np.array(9, np.int64))], {}, 17,
      consts=[('step', np.array(2, np.int64)), ('frame_length', np.array(9, np.int64))])
