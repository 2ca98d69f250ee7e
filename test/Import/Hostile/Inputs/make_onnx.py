#!/usr/bin/env python3
"""Hostile ONNX models and .mlir inputs (found by review and fuzzing):
missing inputs, bad attributes, scalars where axes are needed, huge
claimed sizes. Usage: make_onnx.py OUT_DIR"""
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
os.chdir(sys.argv[1])
import onnx, sys, numpy as np
from onnx import helper as h, TensorProto as T, numpy_helper as nh
def model(nodes, inputs, outputs, inits=(), opset=17, path=None):
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info(n, t, s) for n,t,s in inputs],
                     [h.make_tensor_value_info(n, t, s) for n,t,s in outputs], initializer=list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.save(m, path)

F=T.FLOAT
x=[("x",F,[2,3])]
y=[("y",F,None)]
model([h.make_node("Relu",[],["y"])],x,y,path="relu0.onnx")
model([h.make_node("Add",["x"],["y"])],x,y,path="add1.onnx")
model([h.make_node("Gemm",["x"],["y"])],x,y,path="gemm1.onnx")
model([h.make_node("Pow",["x"],["y"])],x,y,path="pow1.onnx")
model([h.make_node("Sum",[],["y"])],x,y,path="sum0.onnx")
model([h.make_node("MatMul",["x"],["y"])],x,y,path="matmul1.onnx")
model([h.make_node("Where",["x"],["y"])],x,y,path="where1.onnx")
model([h.make_node("Add",["x",""],["y"])],x,y,path="addempty.onnx")
model([h.make_node("Conv",["x"],["y"])],[("x",F,[1,1,4,4])],y,path="conv1.onnx")
# pow with mismatched shapes
model([h.make_node("Pow",["x","e"],["y"])],x+[("e",F,[4])],y,path="powshape.onnx")
model([h.make_node("Mod",["x","e"],["y"],fmod=1)],x+[("e",F,[4])],y,path="modshape.onnx")
model([h.make_node("BitShift",["a","b"],["y"],direction="LEFT")],[("a",T.UINT8,[2,3]),("b",T.UINT8,[4])],y,path="bitshift.onnx")
model([h.make_node("Mod",["x","e"],["y"],fmod=0)],[("x",T.INT32,[2]),("e",T.INT32,[2])],y,path="modint.onnx")
F=T.FLOAT; I=T.INT64
y=[("y",F,None)]
def c64(name, vals, dims=None):
    a=np.array(vals,dtype=np.int64)
    if dims is not None: a=a.reshape(dims)
    return nh.from_array(a,name)
def cf(name, vals, dims=None):
    a=np.array(vals,dtype=np.float32)
    if dims is not None: a=a.reshape(dims)
    return nh.from_array(a,name)
# rank-0 axis cases
s=[("x",F,[])]
model([h.make_node("ReduceSum",["x","ax"],["y"])],s,y,[c64("ax",[0])],path="reduce_scalar.onnx")
model([h.make_node("ArgMax",["x"],["y"],axis=0)],s,y,path="argmax_scalar.onnx")
model([h.make_node("Concat",["x","x"],["y"],axis=0)],s,y,path="concat_scalar.onnx")
model([h.make_node("Gather",["x","i"],["y"],axis=0)],s,y,[c64("i",[0])],path="gather_scalar.onnx")
model([h.make_node("Split",["x"],["a","b"],axis=0)],s,[("a",F,None),("b",F,None)],path="split_scalar.onnx")
model([h.make_node("TopK",["x","k"],["a","b"],axis=0)],s,[("a",F,None),("b",I,None)],[c64("k",[1])],path="topk_scalar.onnx")
model([h.make_node("Squeeze",["x","ax"],["y"])],s,y,[c64("ax",[0])],path="squeeze_scalar.onnx")
model([h.make_node("CumSum",["x","ax"],["y"])],s,y,[c64("ax",[0])],path="cumsum_scalar.onnx")
model([h.make_node("GatherElements",["x","i"],["y"],axis=0)],s,y,[c64("i",0,[])],path="gatherel_scalar.onnx")
# Split negative sizes
x=[("x",F,[3])]
model([h.make_node("Split",["x","sp"],["a","b"],axis=0)],x,[("a",F,None),("b",F,None)],[c64("sp",[-1,4])],path="split_neg.onnx")
# DeformConv: a kernel larger than the padded input; a zero stride; a 3x3
# kernel over 3-d (1-d spatial) offsets
model([h.make_node("DeformConv",["x","w","o"],["y"])],[("x",F,[1,1,2,2]),("w",F,[1,1,3,3]),("o",F,[1,18,1,1])],y,opset=19,path="deformconv_kernel_big.onnx")
model([h.make_node("DeformConv",["x","w","o"],["y"],strides=[0,0])],[("x",F,[1,1,4,4]),("w",F,[1,1,3,3]),("o",F,[1,18,2,2])],y,opset=19,path="deformconv_stride0.onnx")
model([h.make_node("DeformConv",["x","w","o"],["y"])],[("x",F,[1,1,4]),("w",F,[1,1,3,3]),("o",F,[1,18,2])],y,opset=19,path="deformconv_rank.onnx")
# windowAttrs stride zero with SAME
x4=[("x",F,[1,1,4,4])]
model([h.make_node("MaxPool",["x"],["y"],kernel_shape=[2,2],strides=[0,0],auto_pad="SAME_UPPER")],x4,y,path="pool_stride0.onnx")
# ConvTranspose output_shape short
model([h.make_node("ConvTranspose",["x","w"],["y"],output_shape=[5])],x4,y,[cf("w",np.ones(9),[1,1,3,3])],path="convt_outshape.onnx")
model([h.make_node("ConvTranspose",["x","w"],["y"],strides=[1])],x4,y,[cf("w",np.ones(9),[1,1,3,3])],path="convt_strides.onnx")
model([h.make_node("ConvTranspose",["x","w"],["y"],strides=[0,0])],x4,y,[cf("w",np.ones(9),[1,1,3,3])],path="convt_stride0.onnx")
# Einsum output repeated letters
model([h.make_node("Einsum",["a"],["y"],equation="ij->ii")],[("a",F,[2,2])],y,path="einsum_rep.onnx")
# Clip with empty min
model([h.make_node("Clip",["x","mn"],["y"])],x,y,[cf("mn",[],[0])],path="clip_empty.onnx")
# Range huge
model([h.make_node("Range",["s","l","d"],["y"])],[],y,[cf("s",0,[]),cf("l",1e12,[]),cf("d",1,[])],path="range_huge.onnx")
model([h.make_node("Range",["s","l","d"],["y"])],[],y,[cf("s",0,[]),cf("l",float('nan'),[]),cf("d",1,[])],path="range_nan.onnx")
model([h.make_node("Range",["s","l","d"],["y"])],[],y,[cf("s",[],[0]),cf("l",1,[]),cf("d",1,[])],path="range_empty.onnx")
# OneHot empty depth
model([h.make_node("OneHot",["i","d","v"],["y"])],[("i",I,[3])],y,[cf("d",[],[0]),cf("v",[0,1])],path="onehot_empty.onnx")
# Expand negative
model([h.make_node("Expand",["x","sh"],["y"])],[("x",F,[1])],y,[c64("sh",[-5])],path="expand_neg.onnx")
# Resize negative sizes / nan scale / zero dim
model([h.make_node("Resize",["x","","","sz"],["y"])],[("x",F,[1,1,2,2])],y,[c64("sz",[1,1,-3,4])],path="resize_negsize.onnx")
model([h.make_node("Resize",["x","","sc"],["y"])],[("x",F,[1,1,2,2])],y,[cf("sc",[1,1,float('nan'),2])],path="resize_nan.onnx")
model([h.make_node("Resize",["x","","sc"],["y"])],[("x",F,[1,1,2,2])],y,[cf("sc",[1,1,-2,2])],path="resize_negscale.onnx")
# NLL with scalar weight
model([h.make_node("NegativeLogLikelihoodLoss",["x","t","w"],["y"])],[("x",F,[2,3]),("t",I,[2])],y,[cf("w",1.0,[])],path="nll_scalarw.onnx")
# LayerNorm stats with wrong dims ok; Gemm with C element mismatch
# Tile huge
model([h.make_node("Tile",["x","r"],["y"])],[("x",F,[2])],y,[c64("r",[2**62])],path="tile_huge.onnx")
model([h.make_node("ConstantOfShape",["sh"],["y"])],[],y,[c64("sh",[2**32,2**32])],path="cos_overflow.onnx")
F=T.FLOAT
y=[("y",F,None)]
t=onnx.TensorProto(); t.name="v"; t.data_type=F; t.dims.extend([4000000000])
model([h.make_node("Constant",[],["y"],value=t)],[],y,path="const_huge.onnx")
# initializer huge without data
init=onnx.TensorProto(); init.name="w"; init.data_type=F; init.dims.extend([4000000000])
model([h.make_node("Relu",["w"],["y"])],[],y,[init],path="init_huge.onnx")
F=T.FLOAT; I=T.INT64
y=[("y",F,None)]
def c64(name, vals, dims=None):
    a=np.array(vals,dtype=np.int64)
    if dims is not None: a=a.reshape(dims)
    return nh.from_array(a,name)
model([h.make_node("ScatterElements",["x","i","u"],["y"],axis=1)],[("x",F,[1,1]),("u",F,[200000,1])],y,[c64("i",np.zeros(200000),[200000,1])],path="scatterel_oob.onnx")
model([h.make_node("GatherElements",["x","i"],["y"],axis=1)],[("x",F,[1,1])],y,[c64("i",np.zeros(200000),[200000,1])],path="gatherel_oob.onnx")
model([h.make_node("GatherElements",["x","i"],["y"],axis=1)],[("x",F,[2,2])],y,[c64("i",np.zeros(8),[4,2])],path="gatherel_small.onnx")
F=T.FLOAT; I=T.INT64
model([h.make_node("Div",["a","b"],["y"])],[("a",I,[1])],[("y",I,None)],[nh.from_array(np.array([-1],dtype=np.int64),"b")],path="div_min.onnx")
model([h.make_node("Div",["a","b"],["y"])],[],[("y",I,None)],[nh.from_array(np.array([-2**63],dtype=np.int64),"a"),nh.from_array(np.array([-1],dtype=np.int64),"b")],path="div_min_const.onnx")
model([h.make_node("Pow",["a","b"],["y"])],[("a",I,[1])],[("y",I,None)],[nh.from_array(np.array([0.5],dtype=np.float32),"b")],path="pow_intfloat.onnx")
model([h.make_node("ArgMax",["x"],["y"],axis=0,keepdims=0)],[("x",F,[3])],[("y",I,None)],path="argmax_nan.onnx")
model([h.make_node("ConvTranspose",["x","w","b"],["y"])],[("x",F,[1,1,2,2])],[("y",F,None)],[nh.from_array(np.ones((1,4,1,1),np.float32),"w"),nh.from_array(np.ones((1,),np.float32),"b")],path="convt_bias.onnx")
model([h.make_node("LayerNormalization",["x"],["y"])],[("x",F,[2,3])],[("y",F,None)],path="ln_noscale.onnx")
F=T.FLOAT
g = h.make_graph([h.make_node("Relu",["x"],["y"])], "g", [h.make_tensor_value_info("x",F,[2])],[h.make_tensor_value_info("y",F,None)])
m = h.make_model(g, opset_imports=[h.make_opsetid("com.foo", 1)]); m.ir_version=8
onnx.save(m, "noopset.onnx")
F=T.FLOAT
def c64(name, vals): return nh.from_array(np.array(vals,dtype=np.int64),name)
model([h.make_node("Slice",["x","s","e","a","st"],["y"])],[("x",F,[3])],[("y",F,None)],[c64("s",[0]),c64("e",[3]),c64("a",[0]),c64("st",[2**63-1])],path="slice_bigstep.onnx")
model([h.make_node("DepthToSpace",["x"],["y"],blocksize=2**32)],[("x",F,[1,4,2,2])],[("y",F,None)],path="d2s_huge.onnx")
F=T.FLOAT
def c64(name, vals): return nh.from_array(np.array(vals,dtype=np.int64),name)
model([h.make_node("Expand",["c","sh"],["y"])],[],[("y",F,None)],[nh.from_array(np.ones((1,),np.float32),"c"),c64("sh",[2**32,2**32])],path="expand_wrap.onnx")
model([h.make_node("Expand",["x","sh"],["y"])],[("x",F,[1])],[("y",F,None)],[c64("sh",[2**32,2**32])],path="expand_wrap_run.onnx")

# Packed minifloat initializers that lie about their size: FP6 raw data a
# byte short, FP6 int32_data (one code per entry) with too few codes, FP4
# int32_data (packed bytes) with too many; E8M0 with a huge claimed shape.
F=T.FLOAT
def mf(name, dt, dims, **kw): return T(name=name, data_type=dt, dims=dims, **kw)
for path, t in (("fp6_short.onnx", mf("w", 27, [5], raw_data=b"\x00\x00\x00")),
                ("fp6_codes.onnx", mf("w", 28, [4], int32_data=[1, 2, 3])),
                ("fp4_codes.onnx", mf("w", 23, [4], int32_data=[1, 2, 3])),
                ("e8m0_huge.onnx", mf("w", 24, [2**20, 2**20], raw_data=b"\x7f"))):
    model([h.make_node("Cast",["w"],["y"],to=F)],[],[("y",F,None)],[t],opset=25,path=path)

# .mlir functions whose signatures dfa-run cannot feed.
for name, ty in (("scalar_arg", "f32"), ("i3_arg", "tensor<2xi3>"),
                 ("dynamic_arg", "tensor<?xf32>")):
    with open(name + ".mlir", "w") as f:
        f.write("func.func @main(%%a: %s) -> %s {\n  return %%a : %s\n}\n" % (ty, ty, ty))

# MelWeightMatrix: no bands, and edges the wrong way round.
def mel_inputs(bins, lo, hi):
    return [nh.from_array(np.array(bins, dtype=np.int64), "bins"),
            nh.from_array(np.array(16, dtype=np.int64), "dft"),
            nh.from_array(np.array(8000, dtype=np.int64), "rate"),
            nh.from_array(np.array(lo, dtype=np.float32), "lo"),
            nh.from_array(np.array(hi, dtype=np.float32), "hi")]
for path, args in (("mel_nobins.onnx", (0, 0.0, 4000.0)), ("mel_edges.onnx", (8, 3000.0, 100.0))):
    model([h.make_node("MelWeightMatrix", ["bins", "dft", "rate", "lo", "hi"], ["y"])], [],
          [("y", T.FLOAT, None)], mel_inputs(*args), path=path)

# Model-local functions: a function calling itself, one defined twice, a
# body reading a value it never defines, an output no body node makes, a
# body defining a value twice, a call passing more inputs than the
# function takes, a ten-fold call nested eight deep (10^8 nodes, refused
# before expanding), and a reference to an attribute of the wrong type.
def fmodel(path, functions, nodes, opset=17):
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", F, [2])],
                     [h.make_tensor_value_info("y", F, None)])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset), h.make_opsetid("lib", 1)],
                     functions=functions)
    m.ir_version = 8
    onnx.save(m, path)
def fn(name, nodes, ins=("x",), outs=("y",), attrs=()):
    return h.make_function("lib", name, list(ins), list(outs), nodes,
                           [h.make_opsetid("", 17), h.make_opsetid("lib", 1)], list(attrs))
call = lambda op, ins=("x",), outs=("y",), **kw: h.make_node(op, list(ins), list(outs), domain="lib", **kw)
fmodel("fn_self.onnx", [fn("A", [call("A")])], [call("A")])
fmodel("fn_twice.onnx", [fn("A", [h.make_node("Relu", ["x"], ["y"])]),
                         fn("A", [h.make_node("Neg", ["x"], ["y"])])], [call("A")])
fmodel("fn_undef.onnx", [fn("A", [h.make_node("Add", ["x", "w"], ["y"])])], [call("A")])
fmodel("fn_noout.onnx", [fn("A", [h.make_node("Relu", ["x"], ["r"])])], [call("A")])
fmodel("fn_dup.onnx", [fn("A", [h.make_node("Relu", ["x"], ["y"]), h.make_node("Neg", ["x"], ["y"])])],
       [call("A")])
fmodel("fn_args.onnx", [fn("A", [h.make_node("Relu", ["x"], ["y"])])], [call("A", ins=("x", "x"))])
levels = [fn("L0", [h.make_node("Relu", ["x"], ["y"])])]
for i in range(1, 9):
    body = [call("L%d" % (i - 1), ins=("x" if k == 0 else "t%d" % (k - 1),), outs=("t%d" % k if k < 9 else "y",))
            for k in range(10)]
    levels.append(fn("L%d" % i, body))
fmodel("fn_bomb.onnx", levels, [call("L8")])
leaky = h.make_node("LeakyRelu", ["x"], ["y"])
ref = onnx.AttributeProto(name="alpha", type=onnx.AttributeProto.FLOAT, ref_attr_name="slope")
leaky.attribute.append(ref)
fmodel("fn_attrtype.onnx", [fn("A", [leaky], attrs=("slope",))], [call("A", slope=[1, 2])])

# onnxruntime's operators with bad shapes, types and attributes.
def msmodel(path, node, inputs, inits=(), opset=17):
    g = h.make_graph([node], "g", [h.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                     [h.make_tensor_value_info(o, F, None) for o in node.output if o], initializer=list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset), h.make_opsetid("com.microsoft", 1)])
    m.ir_version = 8
    onnx.save(m, path)
ms = lambda op, ins, outs=("y",), **kw: h.make_node(op, list(ins), list(outs), domain="com.microsoft", **kw)
u8 = lambda name, shape: nh.from_array(np.zeros(shape, np.uint8), name)
f32 = lambda name, shape: nh.from_array(np.ones(shape, np.float32), name)
msmodel("ms_nbits_k.onnx", ms("MatMulNBits", ["a", "B", "s"], K=64, N=4, bits=4, block_size=32),
        [("a", F, [2, 48])], [u8("B", [4, 2, 16]), f32("s", [8])])
msmodel("ms_nbits_bits.onnx", ms("MatMulNBits", ["a", "B", "s"], K=32, N=4, bits=3, block_size=32),
        [("a", F, [2, 32])], [u8("B", [4, 1, 12]), f32("s", [4])])
msmodel("ms_nbits_block.onnx", ms("MatMulNBits", ["a", "B", "s"], K=32, N=4, bits=4, block_size=0),
        [("a", F, [2, 32])], [u8("B", [4, 1, 16]), f32("s", [4])])
msmodel("ms_nbits_blob.onnx", ms("MatMulNBits", ["a", "B", "s"], K=32, N=4, bits=4, block_size=16),
        [("a", F, [2, 32])], [u8("B", [4, 2, 3]), f32("s", [8])])
msmodel("ms_gbq_scales.onnx", ms("GatherBlockQuantized", ["d", "i", "s"], bits=4, block_size=16),
        [("i", T.INT64, [2])], [u8("d", [4, 16]), f32("s", [4, 3])])
msmodel("ms_gbq_bits.onnx", ms("GatherBlockQuantized", ["d", "i", "s"], bits=3, block_size=16),
        [("i", T.INT64, [2])], [u8("d", [4, 16]), f32("s", [4, 2])])
msmodel("ms_gbq_axis.onnx", ms("GatherBlockQuantized", ["d", "i", "s"], bits=4, block_size=16,
                               gather_axis=0, quantize_axis=0),
        [("i", T.INT64, [2])], [u8("d", [4, 16]), f32("s", [1, 16])])
msmodel("ms_gbq_zp.onnx", ms("GatherBlockQuantized", ["d", "i", "s", "z"], bits=4, block_size=16),
        [("i", T.INT64, [2])], [u8("d", [4, 16]), f32("s", [4, 2]), u8("z", [4, 2])])
msmodel("ms_gbq_block.onnx", ms("GatherBlockQuantized", ["d", "i", "s"], bits=4, block_size=2**40),
        [("i", T.INT64, [2])], [u8("d", [4, 16]), f32("s", [4, 1])])
msmodel("ms_moe_shape.onnx", ms("MoE", ["x", "r", "w1", "", "w2"], k=2, activation_type="relu"),
        [("x", F, [3, 8]), ("r", F, [3, 4])], [f32("w1", [4, 6, 8]), f32("w2", [4, 8, 5])])
msmodel("ms_moe_k0.onnx", ms("MoE", ["x", "r", "w1", "", "w2"], k=0, activation_type="relu"),
        [("x", F, [3, 8]), ("r", F, [3, 4])], [f32("w1", [4, 6, 8]), f32("w2", [4, 8, 6])])
msmodel("ms_moe_act.onnx", ms("MoE", ["x", "r", "w1", "", "w2"], k=1, activation_type="tanh"),
        [("x", F, [3, 8]), ("r", F, [3, 4])], [f32("w1", [4, 6, 8]), f32("w2", [4, 8, 6])])
msmodel("ms_moe_tokens.onnx", ms("MoE", ["x", "r", "w1", "", "w2"], k=1, activation_type="relu"),
        [("x", F, [3, 8]), ("r", F, [5, 4])], [f32("w1", [4, 6, 8]), f32("w2", [4, 8, 6])])
msmodel("ms_moe_empty.onnx", ms("MoE", ["x", "r", "w1", "", "w2"], k=1, activation_type="relu"),
        [("x", F, [0, 8]), ("r", F, [0, 4])], [f32("w1", [4, 6, 8]), f32("w2", [4, 8, 6])])
msmodel("ms_qmoe_scales.onnx", ms("QMoE", ["x", "r", "w1", "s1", "", "w2", "s2"], k=1, activation_type="relu"),
        [("x", F, [3, 32]), ("r", F, [3, 4])],
        [u8("w1", [4, 16, 16]), f32("s1", [4, 8]), u8("w2", [4, 32, 8]), f32("s2", [4, 32])])
msmodel("ms_qmoe_bits.onnx", ms("QMoE", ["x", "r", "w1", "s1", "", "w2", "s2"], k=1, activation_type="relu",
                                expert_weight_bits=3),
        [("x", F, [3, 32]), ("r", F, [3, 4])],
        [u8("w1", [4, 16, 12]), f32("s1", [4, 16]), u8("w2", [4, 32, 6]), f32("s2", [4, 32])])
msmodel("ms_qmoe_block.onnx", ms("QMoE", ["x", "r", "w1", "s1", "", "w2", "s2"], k=1, activation_type="relu",
                                 block_size=64),
        [("x", F, [3, 32]), ("r", F, [3, 4])],
        [u8("w1", [4, 16, 16]), f32("s1", [4, 16, 1]), u8("w2", [4, 32, 8]), f32("s2", [4, 32, 1])])
msmodel("ms_attn_heads.onnx", ms("Attention", ["x", "w"], num_heads=5),
        [("x", F, [1, 4, 16]), ("w", F, [16, 48])])
msmodel("ms_attn_weights.onnx", ms("Attention", ["x", "w"], num_heads=2),
        [("x", F, [1, 4, 16]), ("w", F, [8, 48])])
msmodel("ms_attn_past.onnx", ms("Attention", ["x", "w", "", "", "p"], ["y", "present"], num_heads=2),
        [("x", F, [1, 4, 16]), ("w", F, [16, 48]), ("p", F, [2, 1, 2, 3, 4])])
msmodel("ms_mha_kv.onnx", ms("MultiHeadAttention", ["q", "k", "v"], num_heads=2),
        [("q", F, [1, 4, 16]), ("k", F, [1, 5, 8]), ("v", F, [1, 5, 16])])
msmodel("ms_rope_pos.onnx", ms("RotaryEmbedding", ["x", "p", "c", "s"]),
        [("x", F, [1, 3, 16]), ("p", T.INT64, [1, 5])], [f32("c", [8, 4]), f32("s", [8, 4])])
msmodel("ms_gqa_total.onnx", ms("GroupQueryAttention", ["q", "k", "v", "pk", "pv", "seq", "tot"],
        ["y", "pk2", "pv2"], num_heads=4, kv_num_heads=2),
        [("q", F, [1, 2, 32]), ("k", F, [1, 2, 16]), ("v", F, [1, 2, 16]), ("pk", F, [1, 2, 3, 8]),
         ("pv", F, [1, 2, 3, 8]), ("seq", T.INT32, [1])], [nh.from_array(np.array(9, np.int32), "tot")])
# A window-sized cache needs a local window, and a total length of at
# least the query's tokens.
msmodel("ms_gqa_window.onnx", ms("GroupQueryAttention", ["q", "k", "v", "pk", "pv", "seq", "tot"],
        ["y", "pk2", "pv2"], num_heads=4, kv_num_heads=2, sliding_window_cache=1),
        [("q", F, [1, 1, 32]), ("k", F, [1, 1, 16]), ("v", F, [1, 1, 16]), ("pk", F, [1, 2, 4, 8]),
         ("pv", F, [1, 2, 4, 8]), ("seq", T.INT32, [1])], [nh.from_array(np.array(6, np.int32), "tot")])
msmodel("ms_gqa_window_total.onnx", ms("GroupQueryAttention", ["q", "k", "v", "pk", "pv", "seq", "tot"],
        ["y", "pk2", "pv2"], num_heads=4, kv_num_heads=2, local_window_size=2, sliding_window_cache=1),
        [("q", F, [1, 3, 32]), ("k", F, [1, 3, 16]), ("v", F, [1, 3, 16]), ("pk", F, [1, 2, 4, 8]),
         ("pv", F, [1, 2, 4, 8]), ("seq", T.INT32, [1])], [nh.from_array(np.array(2, np.int32), "tot")])
# Qwen3's Q/K norms: an epsilon that is not positive.
msmodel("ms_gqa_qknorm_eps.onnx", ms("GroupQueryAttention", ["q", "k", "v", "", "", "seq", "tot"] + [""] * 7 +
                                     ["qn", "kn"], ["y"], num_heads=4, kv_num_heads=2, qk_norm_epsilon=-1.0),
        [("q", F, [1, 2, 32]), ("k", F, [1, 2, 16]), ("v", F, [1, 2, 16]), ("seq", T.INT32, [1])],
        [nh.from_array(np.array(2, np.int32), "tot"), f32("qn", [8]), f32("kn", [8])])
# Right-padded chunks need a past (and never a window-sized cache).
msmodel("ms_gqa_chunk_nopast.onnx", ms("GroupQueryAttention", ["q", "k", "v", "", "", "seq", "tot"] + [""] * 9 +
                                       ["ql"], ["y"], num_heads=4, kv_num_heads=2),
        [("q", F, [1, 2, 32]), ("k", F, [1, 2, 16]), ("v", F, [1, 2, 16]), ("seq", T.INT32, [1]),
         ("ql", T.INT32, [1])], [nh.from_array(np.array(2, np.int32), "tot")])
msmodel("ms_gqa_heads.onnx", ms("GroupQueryAttention", ["q", "k", "v", "", "", "seq", "tot"],
        ["y"], num_heads=3, kv_num_heads=2),
        [("q", F, [1, 2, 24]), ("k", F, [1, 2, 16]), ("v", F, [1, 2, 16]), ("seq", T.INT32, [1])],
        [nh.from_array(np.array(2, np.int32), "tot")])
msmodel("ms_eln_seg.onnx", ms("EmbedLayerNormalization", ["ids", "seg", "we", "pe", "", "g", "b"], ["y", "mi"]),
        [("ids", T.INT32, [1, 4]), ("seg", T.INT32, [1, 4])], [f32("we", [10, 8]), f32("pe", [8, 8]),
         f32("g", [8]), f32("b", [8])])
msmodel("ms_skip_rank.onnx", ms("SkipLayerNormalization", ["x", "s", "g"]),
        [("x", F, [8]), ("s", F, [8]), ("g", F, [8])])
msmodel("ms_fused_act.onnx", ms("FusedGemm", ["a", "b"], activation="LeakyRelu"),
        [("a", F, [2, 3]), ("b", F, [3, 4])])
# Attention biases that do not fit (found by review: they crashed).
msmodel("ms_attn_bias.onnx", ms("Attention", ["x", "w", "b"], num_heads=2),
        [("x", F, [2, 4, 16]), ("w", F, [16, 48]), ("b", F, [47])])
msmodel("ms_attn_ab.onnx", ms("Attention", ["x", "w", "", "", "", "ab"], num_heads=2),
        [("x", F, [2, 4, 16]), ("w", F, [16, 48]), ("ab", F, [3, 2, 4, 4])])
msmodel("ms_mha_ab.onnx", ms("MultiHeadAttention", ["q", "k", "v", "", "", "ab"], num_heads=4),
        [("q", F, [2, 3, 16]), ("k", F, [2, 5, 16]), ("v", F, [2, 5, 16]), ("ab", F, [2, 3, 3, 5])])
msmodel("ms_gelu_int.onnx", ms("Gelu", ["x"]), [("x", T.INT32, [4])])
# GroupQueryAttention's key counts out of what the buffers hold (found by
# review: read wrong rows silently); checked at run time (exit 7).
msmodel("ms_gqa_seqlens.onnx", ms("GroupQueryAttention", ["q", "k", "v", "", "", "seq", "tot"],
        ["y"], num_heads=4, kv_num_heads=2),
        [("q", F, [1, 4, 32]), ("k", F, [1, 4, 16]), ("v", F, [1, 4, 16])],
        [nh.from_array(np.array([7], np.int32), "seq"), nh.from_array(np.array(4, np.int32), "tot")])
