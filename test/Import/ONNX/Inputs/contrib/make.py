# The models of test/Import/ONNX/contrib.test: one node each of
# onnxruntime's com.microsoft operators (and SimplifiedLayerNormalization),
# with onnxruntime's results for their inputs (x_<name>_<i>.npy in,
# ort_<name>_<i>.npy out). Run with the project's environment:
#   .venv/bin/python make.py
# Weights are initializers; the inputs are graph inputs.
import numpy as np, onnx, onnxruntime as ort
from onnx import TensorProto as T, helper as h, numpy_helper as nh

import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'models'))
from qk_norm import unfuse_qk_norm

g = np.random.default_rng(11)
F = T.FLOAT

def model(name, op, inputs, nouts, attrs=None, consts=(), opset=17, domain='com.microsoft', ref=True, otypes=None):
    """inputs: (name, array) graph inputs, or None for an absent one;
    consts: (name, array) initializers, listed in `inputs` by name too."""
    cnames = {n for n, _ in consts}
    ins = [i[0] if i is not None else '' for i in inputs]
    outs = ['y%d' % k for k in range(nouts)]
    node = h.make_node(op, ins, outs, domain=domain, name=name, **(attrs or {}))
    feeds = {n: a for n, a in (i for i in inputs if i is not None) if n not in cnames}
    graph = h.make_graph([node], name,
                         [h.make_tensor_value_info(n, onnx.helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
                          for n, a in feeds.items()],
                         [h.make_tensor_value_info(o, (otypes or {}).get(k, F), None) for k, o in enumerate(outs)],
                         initializer=[nh.from_array(a, n) for n, a in consts])
    m = h.make_model(graph, opset_imports=[h.make_opsetid('', opset), h.make_opsetid('com.microsoft', 1)],
                     producer_name='make.py')
    onnx.save(m, name + '.onnx')
    if not ref:
        return
    res = (ref(*feeds.values()) if callable(ref) else
           ort.InferenceSession(name + '.onnx', providers=['CPUExecutionProvider']).run(None, feeds))
    for k, (n, a) in enumerate(feeds.items()):
        np.save('x_%s_%d.npy' % (name, k), a)
    for k, a in enumerate(res):
        np.save('ort_%s_%d.npy' % (name, k), a)

def r(*shape): return g.standard_normal(shape).astype(np.float32)

x = r(2, 3, 8)
model('gelu', 'Gelu', [('x', x)], 1)
model('bias_gelu', 'BiasGelu', [('x', x), ('b', r(8))], 1, consts=[('b', r(8))])
model('fast_gelu', 'FastGelu', [('x', x), ('b', r(8))], 1)
model('fast_gelu_nobias', 'FastGelu', [('x', x)], 1)
model('quick_gelu', 'QuickGelu', [('x', x)], 1, dict(alpha=1.702))
model('quick_gelu_silu', 'QuickGelu', [('x', x)], 1, dict(alpha=1.0))
# BiasAdd has no CPU kernel in onnxruntime: numpy's sum is the reference.
model('bias_add', 'BiasAdd', [('x', r(2, 4, 8)), ('b', r(8)), ('s', r(2, 4, 8))], 1,
      ref=lambda x, b, s: [x + b + s])

# Skip layer norms: 3-d input and a 2-d skip broadcast over the batch; the
# optional outputs.
gamma, beta, bias = r(8), r(8), r(8)
model('skip_ln', 'SkipLayerNormalization',
      [('x', x), ('s', r(3, 8)), ('gamma', gamma), ('beta', beta), ('bias', bias)], 4,
      dict(epsilon=1e-5), consts=[('gamma', gamma), ('beta', beta), ('bias', bias)])
model('skip_ln_min', 'SkipLayerNormalization', [('x', x), ('s', r(2, 3, 8)), ('gamma', gamma)], 1,
      consts=[('gamma', gamma)])
model('skip_sln', 'SkipSimplifiedLayerNormalization',
      [('x', x), ('s', r(2, 3, 8)), ('gamma', gamma), ('bias', bias)], 4,
      dict(epsilon=1e-6), consts=[('gamma', gamma), ('bias', bias)])
model('sln', 'SimplifiedLayerNormalization', [('x', x), ('gamma', gamma)], 2, dict(epsilon=1e-6),
      consts=[('gamma', gamma)], domain='')

# Fused products.
a, b = r(2, 5, 6), r(2, 4, 6)
model('fused_matmul', 'FusedMatMul', [('a', a), ('b', b)], 1, dict(alpha=0.125, transB=1))
model('fused_matmul_ta', 'FusedMatMul', [('a', r(6, 5)), ('b', r(6, 3))], 1, dict(transA=1))
w, c = r(7, 6), r(7)
model('fused_gemm', 'FusedGemm', [('a', r(4, 6)), ('w', w), ('c', c)], 1,
      dict(transB=1, alpha=0.5, beta=2.0, activation='LeakyRelu', activation_alpha=0.2),
      consts=[('w', w), ('c', c)])
wc, bc = r(4, 3, 3, 3), r(4)
model('fused_conv', 'FusedConv', [('x', r(1, 3, 6, 6)), ('w', wc), ('b', bc)], 1,
      dict(activation='Relu', pads=[1, 1, 1, 1]), consts=[('w', wc), ('b', bc)])
model('fused_conv_clip', 'FusedConv', [('x', r(1, 3, 6, 6)), ('w', wc), ('b', bc), ('z', r(1, 4, 3, 3))], 1,
      dict(activation='Clip', activation_params=[-0.5, 0.5], strides=[2, 2], pads=[1, 1, 1, 1]),
      consts=[('w', wc), ('b', bc)])
model('fused_conv_hs', 'FusedConv', [('x', r(1, 3, 6, 6)), ('w', wc)], 1,
      dict(activation='HardSigmoid', activation_params=[0.2, 0.5]), consts=[('w', wc)])

# MatMulNBits: 4-bit blocks of 32 with zero points and a bias; 8-bit
# without zero points; 2-bit with K not a multiple of the block.
def nbits(name, K, N, bits, block, zp=True, bias=False, m=3, level=None, zeros=False, tiny=False):
    blocks = (K + block - 1) // block
    blob = block * bits // 8
    codes = g.integers(0, 2**bits, size=(N, blocks * block)).astype(np.uint8)
    packed = np.zeros((N, blocks * blob), np.uint8)
    for k in range(blocks * block):
        packed[:, k * bits // 8] |= (codes[:, k] << (k * bits % 8)).astype(np.uint8)
    scales = (g.random((N * blocks,)) * 0.1 + 0.01).astype(np.float32)
    a = r(*m, K) if isinstance(m, tuple) else r(m, K)
    if zeros:  # one block of A all zeros: its codes and scale are zeros
        a[..., 0, :block] = 0
    if tiny:  # one block all zeros but a denormal: 127 / amax overflows
        a[..., 0, :block] = 0
        a[..., 0, 3] = 1e-40
    inputs = [('a', a), ('B', packed.reshape(N, blocks, blob)), ('scales', scales)]
    consts = [('B', packed.reshape(N, blocks, blob)), ('scales', scales)]
    if zp:
        zrow = (blocks * bits + 7) // 8
        zcodes = g.integers(0, 2**bits, size=(N, zrow * 8 // bits)).astype(np.uint8)
        zpk = np.zeros((N, zrow), np.uint8)
        for k in range(zrow * 8 // bits):
            zpk[:, k * bits // 8] |= (zcodes[:, k] << (k * bits % 8)).astype(np.uint8)
        inputs.append(('zp', zpk.reshape(-1))); consts.append(('zp', zpk.reshape(-1)))
    else:
        inputs.append(None)
    if bias:
        bb = r(N); inputs += [None, ('bias', bb)]; consts.append(('bias', bb))
    attrs = dict(K=K, N=N, bits=bits, block_size=block)
    if level is not None:
        attrs['accuracy_level'] = level
    model(name, 'MatMulNBits', inputs, 1, attrs, consts=consts)
nbits('nbits4', 64, 5, 4, 32, zp=True, bias=True)
nbits('nbits8', 48, 4, 8, 16, zp=False)
nbits('nbits2', 40, 3, 2, 16, zp=True)

# Attention: merged Q, K, V weights of 2 heads; onnxruntime's mask formats
# (2-d, lengths, end and start, 3-d), causal masking, a past, attention_bias,
# a narrower V.
xa, wa, ba = r(2, 4, 16), r(16, 48), r(48)
i32 = lambda *v: np.array(v, np.int32)
model('attn', 'Attention', [('x', xa), ('w', wa), ('b', ba)], 1, dict(num_heads=2),
      consts=[('w', wa), ('b', ba)])
model('attn_mask2d', 'Attention', [('x', xa), ('w', wa), ('b', ba), ('m', i32([1, 1, 0, 1], [1, 1, 1, 0]))], 1,
      dict(num_heads=2, unidirectional=1), consts=[('w', wa), ('b', ba)])
model('attn_lens', 'Attention', [('x', xa), ('w', wa), None, ('m', i32(3, 2))], 1, dict(num_heads=2, scale=0.3),
      consts=[('w', wa)])
model('attn_startend', 'Attention', [('x', xa), ('w', wa), ('b', ba), ('m', i32(4, 3, 1, 0))], 1,
      dict(num_heads=2, mask_filter_value=-5000.0), consts=[('w', wa), ('b', ba)])
model('attn_mask3d', 'Attention', [('x', xa), ('w', wa), ('b', ba),
      ('m', g.integers(0, 2, (2, 4, 4)).astype(np.int32))], 1, dict(num_heads=2), consts=[('w', wa), ('b', ba)])
model('attn_past', 'Attention', [('x', xa), ('w', wa), ('b', ba), ('m', i32([1, 1, 1, 1, 1, 0, 1], [0, 1, 1, 1, 1, 1, 1])),
      ('past', r(2, 2, 2, 3, 8))], 2, dict(num_heads=2, unidirectional=1), consts=[('w', wa), ('b', ba)])
wv = r(16, 40)
model('attn_sizes', 'Attention', [('x', xa), ('w', wv), None, None, None, ('ab', r(1, 2, 4, 4))], 1,
      dict(num_heads=2, qkv_hidden_sizes=[16, 16, 8]), consts=[('w', wv)])

# MultiHeadAttention: 3-d key and value with a bias and padding; a past with
# causal masking; key and value already in heads (only Q's bias applies);
# queries and keys of other lengths, causal (onnxruntime leaves the last
# row unmasked).
q3, k3, v3, bm = r(2, 3, 16), r(2, 5, 16), r(2, 5, 16), r(48)
model('mha', 'MultiHeadAttention', [('q', q3), ('k', k3), ('v', v3), ('b', bm), ('m', i32([1, 1, 1, 0, 1], [1, 0, 1, 1, 1]))],
      3, dict(num_heads=4), consts=[('b', bm)])
model('mha_past', 'MultiHeadAttention', [('q', q3), ('k', r(2, 3, 16)), ('v', r(2, 3, 16)), None, ('m', i32(5, 6)), None,
      ('pk', r(2, 4, 3, 4)), ('pv', r(2, 4, 3, 4))], 3, dict(num_heads=4, unidirectional=1))
model('mha_heads', 'MultiHeadAttention', [('q', q3), ('k', r(2, 4, 5, 4)), ('v', r(2, 4, 5, 4)), ('b', bm),
      None, ('ab', r(2, 1, 3, 5))], 3, dict(num_heads=4, scale=0.2), consts=[('b', bm)])
model('mha_cross', 'MultiHeadAttention', [('q', q3), ('k', k3), ('v', r(2, 5, 8))], 1,
      dict(num_heads=4, unidirectional=1))

# RotaryEmbedding: a 3-d input with heads of twice the caches' width,
# positions [B, S]; an offset and interleaved pairs on a 4-d input; a
# partial rotary dim.
cosc = np.cos(np.arange(16)[:, None] * 0.1 * np.arange(1, 5)[None]).astype(np.float32)
sinc = np.sin(np.arange(16)[:, None] * 0.1 * np.arange(1, 5)[None]).astype(np.float32)
model('rope', 'RotaryEmbedding', [('x', r(2, 3, 16)), ('p', np.array([[0, 1, 2], [5, 6, 9]], np.int64)),
      ('cos', cosc), ('sin', sinc)], 1, consts=[('cos', cosc), ('sin', sinc)])
model('rope_offset', 'RotaryEmbedding', [('x', r(2, 2, 3, 8)), ('p', np.array([4], np.int64)),
      ('cos', cosc), ('sin', sinc)], 1, dict(interleaved=1), consts=[('cos', cosc), ('sin', sinc)])
model('rope_partial', 'RotaryEmbedding', [('x', r(2, 3, 32)), ('p', np.array([[0, 1, 2], [3, 4, 5]], np.int64)),
      ('cos', cosc), ('sin', sinc)], 1, dict(num_heads=2, rotary_embedding_dim=8),
      consts=[('cos', cosc), ('sin', sinc)])

# EmbedLayerNormalization: word, position and segment embeddings with a
# mask (its count of ones, not of nonzeros); without segments and mask.
we, pe, se, ge, be = r(20, 8), r(10, 8), r(2, 8), r(8), r(8)
ids = np.array([[1, 5, 7, 19], [0, 2, 2, 3]], np.int32)
model('eln', 'EmbedLayerNormalization', [('ids', ids), ('seg', np.array([[0, 0, 1, 1], [0, 1, 1, 1]], np.int32)),
      ('we', we), ('pe', pe), ('se', se), ('g', ge), ('be', be), ('m', i32([1, 1, 2, 0], [1, 1, 1, 1]))], 3,
      dict(epsilon=1e-5), consts=[('we', we), ('pe', pe), ('se', se), ('g', ge), ('be', be)], otypes={1: T.INT32})
model('eln_plain', 'EmbedLayerNormalization', [('ids', ids), None, ('we', we), ('pe', pe), None, ('g', ge), ('be', be)],
      2, consts=[('we', we), ('pe', pe), ('g', ge), ('be', be)], otypes={1: T.INT32})

# GroupQueryAttention (4 query heads on 2 KV heads of 8; 16 with rotary, as
# onnxruntime's CPU kernel wants): a first prompt with one sequence
# right-padded; decode steps over a past buffer, sequences of different
# lengths; rotary embedding on a prompt with a local window and on decode
# steps (interleaved); packed QKV; a second prompt after a past; an
# attention_bias; softcap, head_sink and smooth_softmax. total_sequence_length is a constant, seqlens_k an input.
def unfused(name):
    """onnxruntime's results for GroupQueryAttention with q_norm_weight and
    k_norm_weight (which its CPU kernel rejects): the same node with the
    norms written out as the GenAI builder's unfused pattern."""
    def run(*values):
        m = unfuse_qk_norm(onnx.load(name + '.onnx'))
        feeds = dict(zip([i.name for i in m.graph.input], values))
        return ort.InferenceSession(m.SerializeToString(), providers=['CPUExecutionProvider']).run(None, feeds)
    return run

def gqa(name, S, B, seq, total, past=0, H=8, attrs=None, rotary=False, packed=False, bias=None, sink=None,
        qknorm=False, qlens=None, posids=None):
    N, K = 4, 2
    q, k, v = r(B, S, N * H), r(B, S, K * H), r(B, S, K * H)
    ins = [('q', np.concatenate([q, k, v], -1))] + [None, None] if packed else [('q', q), ('k', k), ('v', v)]
    ins += [('pk', r(B, K, past, H)), ('pv', r(B, K, past, H))] if past else [None, None]
    consts = [('total', np.array(total, np.int32))]
    ins += [('seqlens', np.array(seq, np.int32)), ('total', np.array(total, np.int32))]
    if rotary:
        cs = np.cos(np.arange(32)[:, None] * 0.05 * np.arange(1, H // 2 + 1)[None]).astype(np.float32)
        sn = np.sin(np.arange(32)[:, None] * 0.05 * np.arange(1, H // 2 + 1)[None]).astype(np.float32)
        ins += [('cos', cs), ('sin', sn)]
        consts += [('cos', cs), ('sin', sn)]
    if posids is not None:
        ins += [('pos', np.array(posids, np.int64))]
    if bias is not None or sink is not None:
        ins += ([None, None] if not rotary else []) + [None, ('ab', bias) if bias is not None else None]
    if sink is not None:
        ins += [('sink', sink)]
        consts += [('sink', sink)]
    if qknorm:
        # Qwen3's per-head RMS norms (the GenAI builder's CUDA models).
        wq, wk = 0.5 + g.random(H).astype(np.float32), 0.5 + g.random(H).astype(np.float32)
        ins += [None] * (14 - len(ins)) + [('qn', wq), ('kn', wk)]
        consts += [('qn', wq), ('kn', wk)]
    if qlens is not None:
        # Right-padded chunks: query_seqlens valid rows of each S.
        ins += [None] * (16 - len(ins)) + [('qlens', np.array(qlens, np.int32))]
    model(name, 'GroupQueryAttention', ins, 3, dict(num_heads=N, kv_num_heads=K, do_rotary=int(rotary), **(attrs or {})),
          consts=consts, ref=unfused(name) if qknorm else True)
    if qlens is not None:
        # What the schema leaves unspecified: output rows past a chunk's
        # valid ones, cache rows at or after its T keys (unspec_*: compare.py
        # skips them).
        y = np.zeros((B, S, N * H), bool)
        windowed = (attrs or {}).get('sliding_window_cache')
        kv = np.zeros((B, K, past if windowed else max(total, past), H), bool)
        for b, (t, q) in enumerate(zip(seq, qlens)):
            y[b, q:] = True
            kv[b, :, t + 1:] = True
        for o, m in ((0, y), (1, kv), (2, kv)):
            np.save('unspec_%s_%d.npy' % (name, o), m)
            # onnxruntime leaves what its buffers held there: zeros, so that
            # the files do not change from one run to the next.
            a = np.load('ort_%s_%d.npy' % (name, o))
            np.save('ort_%s_%d.npy' % (name, o), np.where(m, 0, a).astype(a.dtype))
    if past and not (attrs or {}).get('sliding_window_cache'):
        # The new keys are written in place over the past buffer (as
        # onnxruntime does when past and present share one buffer, the
        # GenAI runtime's default): the rows after a sequence's T keys keep
        # the past's, where onnxruntime given two buffers zeroes them.
        named = dict(i for i in ins if i is not None)
        for o, p in ((1, named['pk']), (2, named['pv'])):
            a = np.load('ort_%s_%d.npy' % (name, o))
            for b, t in enumerate(seq):
                a[b, :, t + 1:past] = p[b, :, t + 1:past]
            np.save('ort_%s_%d.npy' % (name, o), a)
    if (attrs or {}).get('sliding_window_cache'):
        # A window-sized cache's rows after its latest L(T) positions are
        # unspecified (onnxruntime leaves what its staging held there);
        # dfa zeros them, and so does the reference.
        W, G = attrs['local_window_size'], past - attrs['local_window_size'] + 1
        for o in (1, 2):
            a = np.load('ort_%s_%d.npy' % (name, o))
            for b, t in enumerate(seq):
                t += 1
                a[b, :, t if t <= past else t - G * -(-(t - past) // G):] = 0
            np.save('ort_%s_%d.npy' % (name, o), a)
gqa('gqa_prompt', S=5, B=2, seq=[4, 2], total=5)
gqa('gqa_decode', S=1, B=2, seq=[6, 3], total=7, past=6)
gqa('gqa_rotary', S=5, B=2, seq=[4, 4], total=5, H=16, rotary=True, attrs=dict(local_window_size=3))
gqa('gqa_rotary_decode', S=1, B=2, seq=[6, 4], total=7, past=6, H=16, rotary=True, attrs=dict(rotary_interleaved=1, scale=0.2))
gqa('gqa_packed', S=4, B=1, seq=[3], total=4, packed=True, attrs=dict(causal=0))
gqa('gqa_second', S=3, B=1, seq=[6], total=7, past=8)
gqa('gqa_bias', S=4, B=2, seq=[3, 3], total=4, bias=r(1, 4, 4, 4))
# Soft-capped scores (Gemma 2) before the mask, a sink logit per head
# (gpt-oss) and smooth_softmax (a sink of 0) in the denominator.
gqa('gqa_softcap', S=4, B=2, seq=[3, 2], total=4, attrs=dict(softcap=1.5))
gqa('gqa_sink', S=1, B=2, seq=[5, 2], total=6, past=5, sink=r(4), attrs=dict(local_window_size=2))
gqa('gqa_smooth', S=3, B=1, seq=[2], total=3, attrs=dict(smooth_softmax=1, softcap=2.0), bias=r(1, 1, 3, 3))

# onnxruntime's quantized operators (its QOperator format, and the fusions
# of its dynamic quantization), uint8 and int8, rounding as each of its
# kernels does; a value near a tie in onnxruntime's float32 formulas may
# round one step the other way (compare.py allows one step).
def qt(shape, dt=np.uint8):
    lo, hi = (0, 255) if dt == np.uint8 else (-128, 127)
    return g.integers(lo, hi + 1, shape).astype(dt)
sc = lambda v: np.array(v, np.float32)
zp = lambda v, dt=np.uint8: np.array(v, dt)
U8, I8 = T.UINT8, T.INT8
model('q_add', 'QLinearAdd', [('a', qt((2, 3, 4))), ('as', sc(0.05)), ('az', zp(120)), ('b', qt((4,))),
      ('bs', sc(0.02)), ('bz', zp(7)), ('cs', sc(0.07)), ('cz', zp(128))], 1,
      consts=[('as', sc(0.05)), ('az', zp(120)), ('bs', sc(0.02)), ('bz', zp(7)), ('cs', sc(0.07)), ('cz', zp(128))],
      otypes={0: U8})
model('q_mul', 'QLinearMul', [('a', qt((2, 6), np.int8)), ('as', sc(0.05)), ('az', zp(3, np.int8)),
      ('b', qt((2, 6), np.int8)), ('bs', sc(0.04)), ('bz', zp(-2, np.int8)), ('cs', sc(0.1)), ('cz', zp(0, np.int8))], 1,
      consts=[('as', sc(0.05)), ('az', zp(3, np.int8)), ('bs', sc(0.04)), ('bz', zp(-2, np.int8)), ('cs', sc(0.1)),
              ('cz', zp(0, np.int8))], otypes={0: I8})
for name, op, attrs in (('q_sigmoid', 'QLinearSigmoid', {}), ('q_leaky', 'QLinearLeakyRelu', dict(alpha=0.1)),
                        ('q_softmax', 'QLinearSoftmax', dict(axis=-1, opset=13))):
    model(name, op, [('x', qt((2, 3, 8))), ('xs', sc(0.03)), ('xz', zp(100)), ('ys', sc(1 / 256 if 'soft' in name else 0.02)),
          ('yz', zp(0 if 'soft' in name else 90))], 1, attrs,
          consts=[('xs', sc(0.03)), ('xz', zp(100)), ('ys', sc(1 / 256 if 'soft' in name else 0.02)),
                  ('yz', zp(0 if 'soft' in name else 90))], otypes={0: U8})
model('q_gap', 'QLinearGlobalAveragePool', [('x', qt((1, 4, 5, 5))), ('xs', sc(0.03)), ('xz', zp(100)),
      ('ys', sc(0.01)), ('yz', zp(128))], 1, consts=[('xs', sc(0.03)), ('xz', zp(100)), ('ys', sc(0.01)), ('yz', zp(128))],
      otypes={0: U8})
model('q_avgpool', 'QLinearAveragePool', [('x', qt((1, 2, 6, 6), np.int8)), ('xs', sc(0.03)), ('xz', zp(5, np.int8)),
      ('ys', sc(0.02)), ('yz', zp(-3, np.int8))], 1, dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
      consts=[('xs', sc(0.03)), ('xz', zp(5, np.int8)), ('ys', sc(0.02)), ('yz', zp(-3, np.int8))], otypes={0: I8})
model('q_concat', 'QLinearConcat', [('ys', sc(0.05)), ('yz', zp(128)), ('a', qt((1, 2, 3))), ('as', sc(0.04)),
      ('az', zp(120)), ('b', qt((1, 3, 3))), ('bs', sc(0.06)), ('bz', zp(130))], 1, dict(axis=1),
      consts=[('ys', sc(0.05)), ('yz', zp(128)), ('as', sc(0.04)), ('az', zp(120)), ('bs', sc(0.06)), ('bz', zp(130))],
      otypes={0: U8})
wq, cq = qt((8, 6), np.int8), g.integers(-500, 500, (6,)).astype(np.int32)
qgc = [('as', sc(0.05)), ('az', zp(128)), ('w', wq), ('ws', sc(0.02)), ('wz', zp(0, np.int8)), ('c', cq)]
model('q_gemm', 'QGemm', [('a', qt((3, 8))), ('as', sc(0.05)), ('az', zp(128)), ('w', wq), ('ws', sc(0.02)),
      ('wz', zp(0, np.int8)), ('c', cq)], 1, dict(alpha=0.5), consts=qgc)
model('q_gemm_q', 'QGemm', [('a', qt((3, 8))), ('as', sc(0.05)), ('az', zp(128)), ('w', wq), ('ws', sc(0.02)),
      ('wz', zp(0, np.int8)), ('c', cq), ('ys', sc(0.1)), ('yz', zp(120))], 1, consts=qgc + [('ys', sc(0.1)), ('yz', zp(120))],
      otypes={0: U8})
bw, bsc, bb = qt((8, 5), np.int8), (g.random(5) * 0.05 + 0.01).astype(np.float32), r(5)
model('mm_int_float', 'MatMulIntegerToFloat', [('a', qt((2, 3, 8))), ('w', bw), ('as', sc(0.05)), ('ws', bsc),
      ('az', zp(128)), None, ('bias', bb)], 1, consts=[('w', bw), ('as', sc(0.05)), ('ws', bsc), ('az', zp(128)), ('bias', bb)])
model('dq_matmul', 'DynamicQuantizeMatMul', [('a', r(3, 8)), ('w', bw), ('ws', bsc), None, ('bias', bb)], 1,
      consts=[('w', bw), ('ws', bsc), ('bias', bb)])

# Refused: a FusedConv activation dfa does not fuse, transBatchA, g_idx.
model('bad_activation', 'FusedConv', [('x', r(1, 3, 6, 6)), ('w', wc)], 1,
      dict(activation='Softplus'), consts=[('w', wc)], ref=False)
model('bad_transbatch', 'FusedMatMul', [('a', a), ('b', b)], 1, dict(transBatchA=1), ref=False)
model('bad_skip', 'SkipLayerNormalization', [('x', x), ('s', r(4, 8)), ('gamma', gamma)], 1,
      consts=[('gamma', gamma)], ref=False)
model('bad_schema', 'SkipLayerNormalization', [('x', x), ('s', r(3, 8))], 1, ref=False)
model('bad_mask4d', 'Attention', [('x', xa), ('w', wa), None, ('m', np.ones((2, 1, 4, 4), np.int32))], 1,
      dict(num_heads=2), consts=[('w', wa)], ref=False)
model('bad_mask', 'Attention', [('x', xa), ('w', wa), None, ('m', np.ones((5,), np.int32))], 1,
      dict(num_heads=2), consts=[('w', wa)], ref=False)

# MatMulNBits at accuracy_level 4, where onnxruntime's CPU kernels code A
# to int8 by blocks: 4-bit with K not a multiple of the block, a batch of
# rows and a block of zeros; 8-bit; 4-bit blocks of 512 (A coded by 256);
# 2-bit blocks of 32 (coded) and of 16 (computed in float). (Appended
# here, so that the models above keep their random draws.)
nbits('nbits4_acc4', 80, 6, 4, 32, zp=True, bias=True, m=(2, 3), level=4, zeros=True)
nbits('nbits8_acc4', 64, 5, 8, 16, zp=False, m=4, level=4)
nbits('nbits2_acc4', 40, 3, 2, 16, zp=True, level=4)
nbits('nbits4_acc4_b512', 600, 4, 4, 512, zp=True, m=2, level=4)
nbits('nbits2_acc4_b32', 72, 3, 2, 32, zp=True, level=4)

# GatherBlockQuantized: rows of a block-quantized table (the GenAI builder's
# tied embedding). uint8 packing 4 bits (no zero points: 8) with 2-d and
# negative indices; 2-bit with zero points and float16 scales; 8-bit with
# zero points; int4 data gathered along axis 1, quantized along axis 0
# (zero points int4 too), and uint4 without zero points (0).
def gbq(name, bits, V, H, block, zp=False, idx=(3,), f16=False, code=None, axes=(0, 1)):
    blocks = (H + block - 1) // block
    vals = g.integers(0, 2**bits, size=(V, H))
    scales = (g.random((V, blocks)) * 0.1 + 0.01).astype(np.float16 if f16 else np.float32)
    ids = g.integers(-V, V, size=idx).astype(np.int64)
    attrs = dict(bits=bits, block_size=block, gather_axis=axes[0], quantize_axis=axes[1])
    if code is None:  # uint8, packed low bits first along the rows
        per = 8 // bits
        packed = np.zeros((V, H // per), np.uint8)
        for k in range(H):
            packed[:, k // per] |= (vals[:, k] << (bits * (k % per))).astype(np.uint8)
        data = nh.from_array(packed, 'data')
        consts = [('data', packed), ('scales', scales)]
        zeros = None
        if zp:
            zrow = (blocks * bits + 7) // 8
            zc = g.integers(0, 2**bits, size=(V, zrow * per))
            z = np.zeros((V, zrow), np.uint8)
            for k in range(zrow * per):
                z[:, k // per] |= (zc[:, k] << (bits * (k % per))).astype(np.uint8)
            consts.append(('zp', z))
        inputs = [('data', packed), ('ids', ids), ('scales', scales)] + ([('zp', consts[-1][1])] if zp else [])
        model(name, 'GatherBlockQuantized', inputs, 1, attrs, consts=consts, otypes={0: T.FLOAT16 if f16 else F})
        return
    # int4 / uint4 data [H, V] quantized along axis 0, gathered along axis 1
    lo = -8 if code == T.INT4 else 0
    vals = vals.T + lo
    scales = np.ascontiguousarray(scales.T)
    inits = [h.make_tensor('data', code, list(vals.shape), vals.flatten().tolist()),
             nh.from_array(scales, 'scales')]
    ins = ['data', 'ids', 'scales']
    if zp:
        zv = g.integers(lo, lo + 16, size=scales.shape)
        inits.append(h.make_tensor('zp', code, list(zv.shape), zv.flatten().tolist()))
        ins.append('zp')
    node = h.make_node('GatherBlockQuantized', ins, ['y0'], domain='com.microsoft', name=name, **attrs)
    graph = h.make_graph([node], name, [h.make_tensor_value_info('ids', T.INT64, list(idx))],
                         [h.make_tensor_value_info('y0', F, None)], initializer=inits)
    m = h.make_model(graph, opset_imports=[h.make_opsetid('', 21), h.make_opsetid('com.microsoft', 1)],
                     producer_name='make.py')
    onnx.save(m, name + '.onnx')
    res = ort.InferenceSession(name + '.onnx', providers=['CPUExecutionProvider']).run(None, {'ids': ids})
    np.save('x_%s_0.npy' % name, ids)
    np.save('ort_%s_0.npy' % name, res[0])
gbq('gbq4', 4, 12, 80, 32, idx=(2, 3))
gbq('gbq2', 2, 6, 64, 16, zp=True, f16=True)
gbq('gbq8', 8, 5, 48, 16, zp=True, idx=(4,))
gbq('gbq_int4', 4, 6, 40, 16, zp=True, code=T.INT4, axes=(1, 0))
gbq('gbq_uint4', 4, 6, 40, 16, code=T.UINT4, axes=(1, 0), idx=(2, 2))
# Refused: scales of the wrong shape (exit 4), gather_axis equal to
# quantize_axis (exit 3).
model('bad_gbq_scales', 'GatherBlockQuantized', [('data', np.zeros((4, 16), np.uint8)), ('ids', np.zeros((2,), np.int64)),
      ('scales', np.ones((4, 3), np.float32))], 1, dict(bits=4, block_size=16),
      consts=[('data', np.zeros((4, 16), np.uint8)), ('scales', np.ones((4, 3), np.float32))], ref=False)
bad = h.make_graph([h.make_node('GatherBlockQuantized', ['data', 'ids', 'scales'], ['y0'], domain='com.microsoft',
                                name='bad_gbq_axes', bits=4, block_size=16, gather_axis=0, quantize_axis=0)],
                   'bad_gbq_axes', [h.make_tensor_value_info('ids', T.INT64, [2])], [h.make_tensor_value_info('y0', F, None)],
                   initializer=[h.make_tensor('data', T.INT4, [32, 4], [0] * 128),
                                nh.from_array(np.ones((2, 4), np.float32), 'scales')])
onnx.save(h.make_model(bad, opset_imports=[h.make_opsetid('', 21), h.make_opsetid('com.microsoft', 1)],
                       producer_name='make.py'), 'bad_gbq_axes.onnx')

# MoE: top-k experts by the router's softmax, each a two-layer MLP (fc1
# [E, N, H], fc2 [E, H, I]), outputs weighted: relu with biases; the tanh
# gelu on 3-d input with normalized weights; silu with k = 1; identity
# with every expert; gpt-oss's clamped SwiGLU over interleaved columns.
def moe(name, act, T, E, k, H=8, I=6, bias=False, norm=0, shape=None, **attrs):
    f1 = 2 * I if act == 'swiglu' else I
    w1, w2 = (0.5 * r(E, f1, H)), (0.5 * r(E, H, I))
    consts = [('w1', w1), ('w2', w2)]
    x = 2 * r(*(shape or (T, H)))
    inputs = [('x', x), ('router', r(T, E)), ('w1', w1)]
    if bias:
        b1, b2 = 0.3 * r(E, f1), 0.3 * r(E, H)
        consts += [('b1', b1), ('b2', b2)]
        inputs += [('b1', b1), ('w2', w2), ('b2', b2)]
    else:
        inputs += [None, ('w2', w2)]
    model(name, 'MoE', inputs, 1, dict(activation_type=act, k=k, normalize_routing_weights=norm, **attrs),
          consts=consts)
moe('moe_relu', 'relu', 5, 4, 2, bias=True)
moe('moe_gelu', 'gelu', 6, 4, 2, norm=1, shape=(2, 3, 8))
moe('moe_silu', 'silu', 7, 8, 1)
moe('moe_identity', 'identity', 4, 3, 3, bias=True)
moe('moe_swiglu', 'swiglu', 9, 4, 2, bias=True, norm=1, swiglu_fusion=1, activation_alpha=1.702,
    activation_beta=1.0, swiglu_limit=7.0)
# Refused: separate gate weights (fc3, exit 3), more experts chosen than
# there are (exit 4).
w1b, w2b = r(4, 6, 8), r(4, 8, 6)
model('bad_moe_fc3', 'MoE', [('x', r(3, 8)), ('router', r(3, 4)), ('w1', w1b), None, ('w2', w2b), None,
      ('w3', w1b)], 1, dict(activation_type='relu', k=2), consts=[('w1', w1b), ('w2', w2b), ('w3', w1b)],
      ref=False)
model('bad_moe_k', 'MoE', [('x', r(3, 8)), ('router', r(3, 4)), ('w1', w1b), None, ('w2', w2b)], 1,
      dict(activation_type='relu', k=5), consts=[('w1', w1b), ('w2', w2b)], ref=False)

# QMoE: the experts' weights 4- or 8-bit, packed along K: per-column
# scales with zero points (computed in float); 4-bit blocks of 16 at
# accuracy_level 4 with gpt-oss's SwiGLU (rows coded to int8 by blocks);
# 8-bit blocks of 32 (coded at any level).
def pack_rows(codes, bits):
    per = 8 // bits
    n = codes.shape[-1]
    codes = np.concatenate([codes, np.zeros(codes.shape[:-1] + ((-n) % per,), codes.dtype)], -1)
    out = np.zeros(codes.shape[:-1] + (codes.shape[-1] // per,), np.uint8)
    for j in range(codes.shape[-1]):
        out[..., j // per] |= (codes[..., j] << (bits * (j % per))).astype(np.uint8)
    return out
def qmoe(name, act, T, E, k, H, I, bits, block=0, zp=False, level=0, norm=1, **attrs):
    f1 = 2 * I if act == 'swiglu' else I
    consts, inputs = [], [('x', r(T, H)), ('router', r(T, E))]
    def layer(tag, N, K):
        w = pack_rows(g.integers(0, 2**bits, size=(E, N, K)), bits)
        s = ((g.random((E, N, K // block) if block else (E, N)) * 0.04 + 0.01) * 16 / 2**bits).astype(np.float32)
        consts.extend([(tag + 'w', w), (tag + 's', s)])
        z = None
        if zp:
            z = pack_rows(g.integers(0, 2**bits, size=(E, N, K // block)), bits) if block else \
                pack_rows(g.integers(0, 2**bits, size=(E, N)), bits)
            consts.append((tag + 'z', z))
        return (tag + 'w', w), (tag + 's', s), ((tag + 'z', z) if zp else None)
    w1, s1, z1 = layer('fc1', f1, H)
    w2, s2, z2 = layer('fc2', H, I)
    inputs += [w1, s1, None, w2, s2, None, None, None, None, z1, z2]
    a = dict(activation_type=act, k=k, normalize_routing_weights=norm, expert_weight_bits=bits,
             accuracy_level=level, **attrs)
    if block:
        a['block_size'] = block
    model(name, 'QMoE', inputs, 1, a, consts=consts)
qmoe('qmoe4_col', 'silu', 5, 4, 2, 32, 16, 4, zp=True)
qmoe('qmoe4_blk', 'swiglu', 6, 4, 2, 32, 16, 4, block=16, level=4, swiglu_fusion=1,
     activation_alpha=1.702, activation_beta=1.0, swiglu_limit=7.0)
qmoe('qmoe8_blk', 'relu', 4, 3, 2, 64, 32, 8, block=32)
model('bad_qmoe_fp4', 'QMoE', [('x', r(3, 32)), ('router', r(3, 4)), ('w1', np.zeros((4, 16, 16), np.uint8)),
      None, None, ('w2', np.zeros((4, 32, 8), np.uint8))], 1,
      dict(activation_type='relu', k=2, quant_type='fp4', expert_weight_bits=4),
      consts=[('w1', np.zeros((4, 16, 16), np.uint8)), ('w2', np.zeros((4, 32, 8), np.uint8))], ref=False)
nbits('nbits4_acc4_tiny', 64, 3, 4, 32, level=4, tiny=True)
# onnxruntime's QMoE normalizes the k weights even when told not to.
qmoe('qmoe8_nonorm', 'relu', 4, 4, 2, 32, 16, 8, norm=0)
# GroupQueryAttention with window-sized caches (sliding_window_cache, the
# GenAI builder's default for sliding layers): decode steps of sequences
# of different lengths, one past an eviction (capacity 6, window 4: rows
# reclaimed 3 at a time, the rows after the latest zero), with rotary
# embedding; a prompt longer than the cache; a chunk of 3 after a past
# with an attention_bias indexed by absolute position.
gqa('gqa_window_decode', S=1, B=2, seq=[6, 5], total=7, past=6, H=16, rotary=True,
    attrs=dict(local_window_size=4, sliding_window_cache=1))
gqa('gqa_window_prompt', S=8, B=1, seq=[7], total=8, past=5,
    attrs=dict(local_window_size=3, sliding_window_cache=1))
gqa('gqa_window_chunk', S=3, B=1, seq=[11], total=12, past=6, bias=r(1, 4, 3, 12),
    attrs=dict(local_window_size=4, sliding_window_cache=1))
# Refused: a window-sized cache smaller than its window (exit 4).
model('bad_gqa_window', 'GroupQueryAttention',
      [('q', r(1, 1, 32)), ('k', r(1, 1, 16)), ('v', r(1, 1, 16)), ('pk', r(1, 2, 3, 8)), ('pv', r(1, 2, 3, 8)),
       ('seqlens', np.array([5], np.int32)), ('total', np.array(6, np.int32))], 3,
      dict(num_heads=4, kv_num_heads=2, local_window_size=4, sliding_window_cache=1),
      consts=[('total', np.array(6, np.int32))], ref=False)
# Qwen3's Q/K norms fused into GroupQueryAttention (q_norm_weight and
# k_norm_weight, as the GenAI builder writes CUDA models): a prompt with
# rotary embedding after the norms, and a packed decode step with its own
# epsilon for each; onnxruntime's CPU kernel rejects the inputs, so its
# results are those of the builder's unfused pattern.
gqa('gqa_qknorm_prompt', S=5, B=2, seq=[4, 3], total=5, H=16, rotary=True, qknorm=True)
gqa('gqa_qknorm_decode', S=1, B=2, seq=[6, 4], total=7, past=6, packed=True, qknorm=True,
    attrs=dict(q_norm_epsilon=1e-3, k_norm_epsilon=0.05))
# Refused: a Q norm without its K norm, and a K norm of the wrong width.
for bad, norms in (('bad_gqa_qnorm_only', [('qn', np.ones(8, np.float32)), None]),
                   ('bad_gqa_knorm_width', [('qn', np.ones(8, np.float32)), ('kn', np.ones(4, np.float32))])):
    model(bad, 'GroupQueryAttention',
          [('q', r(1, 2, 32)), ('k', r(1, 2, 16)), ('v', r(1, 2, 16)), None, None,
           ('seqlens', np.array([1], np.int32)), ('total', np.array(2, np.int32))] + [None] * 7 + norms, 3,
          dict(num_heads=4, kv_num_heads=2),
          consts=[('total', np.array(2, np.int32))] + [n for n in norms if n is not None], ref=False)
# Chunked prefill with right-padded chunks (query_seqlens, onnxruntime's
# CPU kernel honours it): a chunk of 4 rows holding 4 and 2 valid tokens
# after pasts of 3 and 2, with rotary at their absolute positions, in a
# buffer of 10; a decode step whose second entry is idle (0 valid rows:
# its cache unchanged).
gqa('gqa_chunk_padded', S=4, B=2, seq=[6, 3], total=10, past=10, H=16, rotary=True, qlens=[4, 2])
gqa('gqa_chunk_idle', S=1, B=2, seq=[5, 3], total=8, past=8, qlens=[1, 0])
# A padded chunk's position_ids hold filler in its padding rows (-1 and
# 999, outside the rotary caches): onnxruntime reads only the valid rows'.
gqa('gqa_chunk_filler', S=3, B=2, seq=[4, 5], total=9, past=9, H=16, rotary=True, qlens=[1, 3],
    posids=[[4, -1, 999], [3, 4, 5]])
# Right-padded chunks into window-sized caches (query_seqlens with
# sliding_window_cache): a chunk of 3 rows holding 3 and 1 valid tokens
# after pasts of 8 (evicted: the cache holds 6 rows, window 4) and 4, with
# rotary; a chunk of 2 whose first entry is idle.
gqa('gqa_chunk_window', S=3, B=2, seq=[10, 4], total=11, past=6, H=16, rotary=True, qlens=[3, 1],
    attrs=dict(local_window_size=4, sliding_window_cache=1))
gqa('gqa_chunk_window_idle', S=2, B=2, seq=[6, 2], total=7, past=5, qlens=[0, 2],
    attrs=dict(local_window_size=3, sliding_window_cache=1))
