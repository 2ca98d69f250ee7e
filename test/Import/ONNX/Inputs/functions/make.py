# The models of test/Import/ONNX/functions.test: ONNX models that define
# functions of their own (ModelProto.functions), with onnxruntime's results
# for their inputs (x_*.npy in, ort_*.npy out). Run with the project's
# environment: .venv/bin/python make.py
#   torch_modules: torch.onnx.export(export_modules_as_functions=True) of a
#     Linear -> ReLU -> LayerNorm block; the module is a function that calls
#     the Linear and LayerNorm functions, which take attributes.
#   attrs: a function `Scaled` whose LeakyRelu slope refers to the caller's
#     attribute `alpha`, defaulted to 0.5 (attribute_proto), called with
#     alpha 0.1, without it, and through a second function; an optional
#     input left out (Clip's max), an If whose branches read the function's values, and two overloads of
#     one name (IR 10).
#   passthrough: a function whose output is its input (an Identity; not
#     a model onnxruntime loads: its output is the input, x_passthrough_0).
#   opset_ok: a function importing opset 17 in a model of opset 18, whose
#     Relu is the same operator at both, called with an attribute that
#     nothing in it refers to (no effect, as in onnxruntime).
#   recursive, undefined, opset (ReduceSum changed between the function's
#     opset 12 and the model's 18), arity: refused.
import numpy as np, onnx, onnxruntime as ort
from onnx import TensorProto as T, helper as h

g = np.random.default_rng(7)
F = T.FLOAT

def save(name, model, feeds):
    onnx.save(model, name + '.onnx')
    outs = ort.InferenceSession(name + '.onnx', providers=['CPUExecutionProvider']).run(None, feeds)
    for i, (k, v) in enumerate(feeds.items()):
        np.save('x_%s_%d.npy' % (name, i), v)
    for i, v in enumerate(outs):
        np.save('ort_%s_%d.npy' % (name, i), v)

# torch's module functions.
import torch
class Block(torch.nn.Module):
    def __init__(s):
        super().__init__(); s.l = torch.nn.Linear(8, 6); s.n = torch.nn.LayerNorm(6)
    def forward(s, x): return s.n(torch.relu(s.l(x)))
torch.manual_seed(0)
x = g.standard_normal((3, 8)).astype(np.float32)
torch.onnx.export(Block().eval(), (torch.from_numpy(x),), 'torch_modules.onnx', dynamo=False,
                  export_modules_as_functions=True, opset_version=17, input_names=['x'])
m = onnx.load('torch_modules.onnx'); m.producer_name = 'make.py'
save('torch_modules', m, {'x': x})

# A hand-written library of functions.
ref = h.make_attribute_ref
leaky = h.make_node('LeakyRelu', ['a'], ['b'])
leaky.attribute.append(ref('alpha', onnx.AttributeProto.FLOAT))
scaled = h.make_function(
    'lib', 'Scaled', ['x', 'lo', 'hi'], ['y', 'a'],
    [h.make_node('Clip', ['x', 'lo', 'hi'], ['a']), leaky,
     h.make_node('ReduceSum', ['b'], ['s'], keepdims=1),
     h.make_node('Greater', ['s', 'lo'], ['c']),
     h.make_node('If', ['c'], ['y'],
                 then_branch=h.make_graph([h.make_node('Mul', ['b', 'b'], ['t'])], 'then', [],
                                          [h.make_tensor_value_info('t', F, [2, 5])]),
                 else_branch=h.make_graph([h.make_node('Neg', ['b'], ['t'])], 'else', [],
                                          [h.make_tensor_value_info('t', F, [2, 5])]))],
    [h.make_opsetid('', 18)], attributes=[],
    attribute_protos=[h.make_attribute('alpha', 0.5)])
twice_leaky = h.make_node('Scaled', ['x', 'lo'], ['y', ''], domain='lib')
twice_leaky.attribute.append(ref('alpha', onnx.AttributeProto.FLOAT))
twice_leaky.attribute[0].ref_attr_name = 'slope'
twice = h.make_function('lib', 'Twice', ['x', 'lo'], ['z'],
                        [twice_leaky, h.make_node('Add', ['y', 'y'], ['z'])],
                        [h.make_opsetid('', 18), h.make_opsetid('lib', 1)], attributes=['slope'])
over_a = h.make_function('lib', 'Pick', ['x'], ['y'], [h.make_node('Abs', ['x'], ['y'])],
                         [h.make_opsetid('', 18)], overload='abs')
over_b = h.make_function('lib', 'Pick', ['x'], ['y'], [h.make_node('Sqrt', ['x'], ['y'])],
                         [h.make_opsetid('', 18)], overload='sqrt')
def call(op, ins, outs, name, overload=None, **attrs):
    n = h.make_node(op, ins, outs, name=name, domain='lib', **attrs)
    if overload: n.overload = overload
    return n
nodes = [call('Scaled', ['x', 'lo', 'hi'], ['y1', 'x1'], 'first', alpha=0.1),
         call('Scaled', ['x', 'lo'], ['y2', 'a2'], 'second'),
         call('Twice', ['x', 'lo'], ['y3'], 'third', slope=2.0),
         call('Pick', ['y1'], ['p'], 'abs', overload='abs'),
         call('Pick', ['p'], ['q'], 'sqrt', overload='sqrt')]
graph = h.make_graph(nodes, 'attrs',
                     [h.make_tensor_value_info(n, F, s) for n, s in (('x', [2, 5]), ('lo', []), ('hi', []))],
                     [h.make_tensor_value_info(n, F, [2, 5]) for n in ('y1', 'x1', 'y2', 'a2', 'y3', 'q')])
model = h.make_model(graph, opset_imports=[h.make_opsetid('', 18), h.make_opsetid('lib', 1)],
                     functions=[scaled, twice, over_a, over_b], producer_name='make.py', ir_version=10)
onnx.checker.check_model(model)
save('attrs', model, {'x': g.standard_normal((2, 5)).astype(np.float32),
                      'lo': np.array(-0.5, np.float32), 'hi': np.array(0.75, np.float32)})

def refused(name, functions, node, opset=18, nouts=1):
    graph = h.make_graph([node], name, [h.make_tensor_value_info('x', F, [2])],
                         [h.make_tensor_value_info('y', F, None)])
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid('', opset), h.make_opsetid('lib', 1)],
                           functions=functions, producer_name='make.py', ir_version=10), name + '.onnx')
def fn(name, nodes, ins=('x',), outs=('y',), opset=18, **kw):
    return h.make_function('lib', name, list(ins), list(outs), nodes,
                           [h.make_opsetid('', opset), h.make_opsetid('lib', 1)], **kw)
refused('recursive', [fn('A', [h.make_node('B', ['x'], ['y'], domain='lib')]),
                      fn('B', [h.make_node('A', ['x'], ['y'], domain='lib')])],
        h.make_node('A', ['x'], ['y'], name='top', domain='lib'))
refused('undefined', [fn('A', [h.make_node('Add', ['x', 'w'], ['y'])])],
        h.make_node('A', ['x'], ['y'], name='top', domain='lib'))
refused('opset', [fn('A', [h.make_node('ReduceSum', ['x'], ['y'])], opset=12)],
        h.make_node('A', ['x'], ['y'], name='top', domain='lib'))
refused('arity', [fn('A', [h.make_node('Relu', ['x'], ['y'])])],
        h.make_node('A', ['x', 'x'], ['y'], name='top', domain='lib'))

p = fn('Pass', [h.make_node('Relu', ['x'], ['r'])], outs=('r', 'x'))
graph = h.make_graph([h.make_node('Pass', ['x'], ['r', 'y'], name='top', domain='lib')], 'passthrough',
                     [h.make_tensor_value_info('x', F, [2])], [h.make_tensor_value_info('y', F, [2])])
onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid('', 18), h.make_opsetid('lib', 1)],
                       functions=[p], producer_name='make.py', ir_version=10), 'passthrough.onnx')
np.save('x_passthrough_0.npy', np.array([-1.5, 2.0], np.float32))

graph = h.make_graph([h.make_node('A', ['x'], ['y'], name='top', domain='lib', unused=1.0)], 'opset_ok',
                     [h.make_tensor_value_info('x', F, [2])], [h.make_tensor_value_info('y', F, [2])])
save('opset_ok', h.make_model(graph, opset_imports=[h.make_opsetid('', 18), h.make_opsetid('lib', 1)],
                              functions=[fn('A', [h.make_node('Relu', ['x'], ['y'])], opset=17)],
                              producer_name='make.py', ir_version=10),
     {'x': np.array([-1.5, 2.0], np.float32)})

# A graph the call passes (If's branches by reference): it reads the
# caller's values, not the body's. onnxruntime refuses such a model; onnx's
# inliner gives -x, the expected output (expect_graph_attr.npy).
ref_g = [onnx.AttributeProto(name=b, type=onnx.AttributeProto.GRAPH, ref_attr_name='tb')
         for b in ('then_branch', 'else_branch')]
body_if = h.make_node('If', ['c'], ['o'])
body_if.attribute.extend(ref_g)
passed = h.make_graph([h.make_node('Neg', ['x'], ['r'])], 'cg', [], [h.make_tensor_value_info('r', F, None)])
graph = h.make_graph([h.make_node('G', ['c'], ['y'], name='top', domain='lib', tb=passed)], 'graph_attr',
                     [h.make_tensor_value_info('x', F, [2]), h.make_tensor_value_info('c', T.BOOL, [])],
                     [h.make_tensor_value_info('y', F, [2])])
onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid('', 18), h.make_opsetid('lib', 1)],
                       functions=[fn('G', [body_if], ins=('c',), outs=('o',), attributes=['tb'])],
                       producer_name='make.py', ir_version=10), 'graph_attr.onnx')
xg = np.array([1.5, -2.0], np.float32)
np.save('x_graph_attr_0.npy', xg); np.save('x_graph_attr_1.npy', np.array(True))
np.save('expect_graph_attr.npy', -xg)
