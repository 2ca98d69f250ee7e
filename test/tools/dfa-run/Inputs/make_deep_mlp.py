# A 16-layer MLP (MatMul and Relu, width 256, random weights) as ONNX, an
# input, and its exact output (numpy in float64, rounded to float32) in
# directory argv[1] (test/tools/dfa-run/tolerance.test: a saved schedule's
# output carries the roundings of 32 ops).
import sys, numpy as np, onnx
from onnx import helper as h, numpy_helper as nh, TensorProto as T
out = sys.argv[1]
g = np.random.default_rng(0)
n, d, layers = 64, 256, 16
nodes, inits, x = [], [], 'x'
for i in range(layers):
    w = (g.standard_normal((d, d)) / np.sqrt(d / 2)).astype(np.float32)
    inits.append(nh.from_array(w, 'w%d' % i))
    nodes += [h.make_node('MatMul', [x, 'w%d' % i], ['m%d' % i]), h.make_node('Relu', ['m%d' % i], ['r%d' % i])]
    x = 'r%d' % i
m = h.make_model(h.make_graph(nodes, 'deep', [h.make_tensor_value_info('x', T.FLOAT, [n, d])],
                              [h.make_tensor_value_info(x, T.FLOAT, [n, d])], inits),
                 opset_imports=[h.make_opsetid('', 14)])
onnx.save(m, out + '/deep.onnx')
a = g.standard_normal((n, d)).astype(np.float32)
np.save(out + '/x.npy', a)
y = a.astype(np.float64)
for t in inits:
    y = np.maximum(y @ nh.to_array(t).astype(np.float64), 0)
np.save(out + '/exact.npy', y.astype(np.float32))
