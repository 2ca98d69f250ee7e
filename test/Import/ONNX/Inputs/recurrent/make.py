# The models of test/Import/ONNX/recurrent.test and onnxruntime's outputs
# for their inputs (onnxruntime implements what the ONNX reference leaves
# out: sequence_lens, clip, the activation list; it has no layout 1, which
# the ONNX node tests cover). Each model is one node;
# in_*.npy are its inputs after X, W, R, ort_*.npy its outputs.
#   lstm_lens: bidirectional LSTM, biases, sequence_lens 4, 2, 0
#     (a run-time input), initial states, peepholes, clip 0.8.
#   gru_lbr: reverse GRU with linear_before_reset, activations HardSigmoid
#     (alpha 0.3, beta 0.4) and Softsign, sequence_lens 3, 0, 4.
#   rnn_acts: bidirectional RNN, LeakyRelu (alpha 0.2) forward and ScaledTanh
#     (alpha 1.5, beta 0.7) reverse, initial_h.
#   lstm_forget: LSTM with input_forget=1 (refused).
import numpy as np, onnx, onnxruntime as ort
from onnx import TensorProto as T, helper as h

g = np.random.default_rng(11)
def rnd(*s): return g.standard_normal(s).astype(np.float32) * 0.6

def save(name, op, attrs, inputs, outputs, run=True):
    names = ['X', 'W', 'R', 'B', 'sequence_lens', 'initial_h', 'initial_c', 'P']
    ins = [(names[i], a) for i, a in enumerate(inputs) if a is not None]
    node = h.make_node(op, [names[i] if a is not None else '' for i, a in enumerate(inputs)],
                       outputs, **attrs)
    vi = lambda n, a: h.make_tensor_value_info(n, T.INT32 if a.dtype == np.int32 else T.FLOAT, a.shape)
    graph = h.make_graph([node], name, [vi(n, a) for n, a in ins],
                         [h.make_tensor_value_info(o, T.FLOAT, None) for o in outputs])
    m = h.make_model(graph, opset_imports=[h.make_opsetid('', 14)], producer_name='make.py')
    onnx.save(m, name + '.onnx')
    for n, a in ins:
        np.save('%s_%s.npy' % (name, n), a)
    if run:
        res = ort.InferenceSession(name + '.onnx').run(None, dict(ins))
        for o, v in zip(outputs, res):
            np.save('%s_ort_%s.npy' % (name, o), v)

H, I, B, S = 3, 2, 3, 4
save('lstm_lens', 'LSTM', dict(hidden_size=H, direction='bidirectional', clip=0.8),
     [rnd(S, B, I), rnd(2, 4 * H, I), rnd(2, 4 * H, H), rnd(2, 8 * H),
      np.array([4, 2, 0], np.int32), rnd(2, B, H), rnd(2, B, H), rnd(2, 3 * H)],
     ['Y', 'Y_h', 'Y_c'])
save('gru_lbr', 'GRU', dict(hidden_size=H, direction='reverse', linear_before_reset=1,
                            activations=['HardSigmoid', 'Softsign'],
                            activation_alpha=[0.3], activation_beta=[0.4]),
     [rnd(S, B, I), rnd(1, 3 * H, I), rnd(1, 3 * H, H), rnd(1, 6 * H),
      np.array([3, 0, 4], np.int32)],
     ['Y', 'Y_h'])
save('rnn_acts', 'RNN', dict(hidden_size=H, direction='bidirectional',
                             activations=['LeakyRelu', 'ScaledTanh'],
                             activation_alpha=[0.2, 1.5], activation_beta=[0.7]),
     [rnd(S, B, I), rnd(2, H, I), rnd(2, H, H), rnd(2, 2 * H), None, rnd(2, B, H)],
     ['Y', 'Y_h'])
save('lstm_forget', 'LSTM', dict(hidden_size=H, input_forget=1),
     [rnd(S, B, I), rnd(1, 4 * H, I), rnd(1, 4 * H, H)], ['Y'], run=False)
