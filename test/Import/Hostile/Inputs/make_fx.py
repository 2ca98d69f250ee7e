#!/usr/bin/env python3
"""Hostile dfa.fx/1 graphs: malformed nodes and arguments. Usage: make_fx.py OUT_DIR"""
import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
os.chdir(sys.argv[1])
os.makedirs("fx", exist_ok=True)
import json, os
def ph(name, shape, dtype="float32"):
    return {"name":name,"op":"placeholder","target":name,"args":[],"kwargs":{},"meta":{"shape":shape,"dtype":dtype}}
def cf(name, target, args, kwargs=None, op="call_function"):
    return {"name":name,"op":op,"target":target,"args":args,"kwargs":kwargs or {}}
def N(n): return {"node":n}
def out(n): return {"name":"output","op":"output","target":"output","args":[N(n)],"kwargs":{}}
def write(fname, nodes, tensors=None, modules=None):
    d={"schema":"dfa.fx/1","weights":{"file":"w.bin","compression":"none"},"tensors":tensors or {},"modules":modules or {},"nodes":nodes}
    json.dump(d, open("fx/"+fname+".fx.json","w"))
open("fx/w.bin","wb").write(b"\0"*4096)
x=ph("x",[2,3])
write("rsub1",[x,cf("r","torch.rsub",[N("x")]),out("r")])
write("where_missing",[x,cf("w","torch.where",[N("x")]),out("w")])
write("where_badcond",[x,ph("c",[4],"bool"),cf("w","torch.where",[N("c"),N("x"),N("x")]),out("w")])
write("full_nofill",[cf("f","torch.full",[[2,2]]),out("f")])
write("slice_short",[x,cf("g","_operator.getitem",[N("x"),{"slice":[0]}]),out("g")])
write("split_neg",[ph("x",[3]),cf("s","torch.split",[N("x"),[-1,4]]),cf("g","_operator.getitem",[N("s"),0]),out("g")])
write("matmul_scalar",[ph("a",[]),ph("b",[]),cf("m","torch.matmul",[N("a"),N("b")]),out("m")])
write("addmm_3d",[ph("c",[2,3,4]),ph("a",[3,5]),ph("b",[5,4]),cf("m","torch.addmm",[N("c"),N("a"),N("b")]),out("m")])
write("sum_scalar_dim0",[ph("x",[]),cf("s","torch.sum",[N("x"),0]),out("s")])
write("max_tensor_bad",[x,ph("y",[4]),cf("m","torch.max",[N("x"),N("y")]),out("m")])
write("max_emptydims",[x,cf("m","torch.max",[N("x"),[]]),out("m")])
write("bn_fn",[ph("x",[2,3,4]),ph("m",[5]),ph("v",[5]),cf("b","torch.nn.functional.batch_norm",[N("x"),N("m"),N("v")]),out("b")])
write("linear_badbias",[x,ph("w",[4,3]),ph("b",[5]),cf("l","torch.nn.functional.linear",[N("x"),N("w"),N("b")]),out("l")])
write("layernorm_badbias",[x,ph("w",[3]),ph("b",[5]),cf("l","torch.nn.functional.layer_norm",[N("x"),[3],N("w"),N("b")]),out("l")])
write("conv_stride0",[ph("x",[1,1,4,4]),ph("w",[1,1,2,2]),cf("c","torch.conv2d",[N("x"),N("w"),None,[0,0]]),out("c")])
write("conv_dil0",[ph("x",[1,1,4,4]),ph("w",[1,1,2,2]),cf("c","torch.conv2d",[N("x"),N("w"),None,[1,1],[0,0],[0,0]]),out("c")])
write("maxpool_k3",[ph("x",[1,1,4,4]),cf("c","torch.nn.functional.max_pool2d",[N("x"),[2,2,2]]),out("c")])
write("maxpool_dil0",[ph("x",[1,1,4,4]),cf("c","torch.nn.functional.max_pool2d",[N("x"),[2,2],[1,1],[0,0],[0,0]]),out("c")])
write("zeros_neg",[cf("z","torch.zeros",[-3]),out("z")])
write("arange_huge",[cf("z","torch.arange",[1e12]),out("z")])
write("expand_neg2",[ph("x",[1]),cf("e","expand",[N("x"),-2],op="call_method"),out("e")])
write("list_add",[x,cf("s","getattr",[N("x"),"shape"]),cf("t","_operator.add",[N("s"),[6]]),cf("v","view",[N("x"),N("t")],op="call_method"),out("v")])
write("ellipsis2",[x,cf("g","_operator.getitem",[N("x"),[{"ellipsis":True},{"ellipsis":True},0]]),out("g")])
write("two_outputs",[x,out("x"),out("x")])
write("conv_module_nopm",[ph("x",[1,1,4,4]),{"name":"c","op":"call_module","target":"c","args":[N("x")],"kwargs":{}},out("c")],
  tensors={"c.w":{"dtype":"float32","shape":[1,1,2,2],"offset":0}},
  modules={"c":{"type":"Conv2d","attrs":{"stride":[1,1]},"tensors":{"weight":"c.w"}}})
write("emb_scalar",[ph("i",[2],"int64"),{"name":"e","op":"call_module","target":"e","args":[N("i")],"kwargs":{}},out("e")],
  tensors={"e.w":{"dtype":"float32","shape":[],"offset":0}},
  modules={"e":{"type":"Embedding","attrs":{},"tensors":{"weight":"e.w"}}})
write("mha_rank2k",[ph("q",[2,1,4]),ph("k",[2,4]),{"name":"m","op":"call_module","target":"m","args":[N("q"),N("k"),N("k")],"kwargs":{}},
  cf("g","_operator.getitem",[N("m"),0]),out("g")],
  tensors={"m.iw":{"dtype":"float32","shape":[12,4],"offset":0},"m.ow":{"dtype":"float32","shape":[4,4],"offset":0}},
  modules={"m":{"type":"MultiheadAttention","attrs":{"embed_dim":4,"num_heads":1},"tensors":{"in_proj_weight":"m.iw","out_proj.weight":"m.ow"}}})
write("and_nums",[x,cf("a","_operator.and_",[True,False]),cf("v","view",[N("x"),6],op="call_method"),
  cf("o","_operator.mul",[N("v"),N("a")]),out("o")])
write("transpose_scalar",[ph("x",[]),cf("t","torch.transpose",[N("x"),0,-1]),out("t")])
# Complex tensors: an input (refused), a view_as_complex without a pair dim,
# a complex op outside the table, a complex weight read by a module, and a
# record of a complex result where dfa computes a real one.
write("complex_input",[ph("z",[2,3],"complex64"),cf("r","torch.view_as_real",[N("z")]),out("r")])
write("view_as_complex_odd",[ph("x",[2,3]),cf("z","torch.view_as_complex",[N("x")]),cf("r","torch.view_as_real",[N("z")]),out("r")])
write("complex_exp",[ph("x",[2,2]),cf("z","torch.view_as_complex",[N("x")]),cf("e","torch.exp",[N("z")]),
  cf("r","torch.view_as_real",[N("e")]),out("r")])
write("complex_output",[ph("x",[2,2]),cf("z","torch.view_as_complex",[N("x")]),out("z")])
write("complex_record",[x,dict(cf("a","torch.add",[N("x"),N("x")]),meta={"shape":[2,3],"dtype":"complex64"}),out("a")])
write("complex_module_weight",[ph("x",[2,4]),{"name":"l","op":"call_module","target":"l","args":[N("x")],"kwargs":{}},out("l")],
  tensors={"l.w":{"dtype":"complex64","shape":[4,4],"offset":0}},
  modules={"l":{"type":"Linear","attrs":{"in_features":4,"out_features":4},"tensors":{"weight":"l.w"}}})
# Mixtures of experts: histc and grouped products with bad arguments.
write("histc_bins0",[x,cf("h","torch.histc",[N("x"),0]),out("h")])
write("histc_minmax",[x,cf("h","torch.histc",[N("x"),4,2.0,1.0]),out("h")])
write("histc_int",[ph("i",[4],"int64"),cf("h","torch.histc",[N("i"),4,0.0,3.0]),out("h")])
write("grouped_mm_offsets",[ph("a",[4,3]),ph("w",[2,3,5]),ph("o",[3],"int32"),
  cf("g","torch._grouped_mm",[N("a"),N("w"),N("o")]),out("g")])
write("grouped_mm_float_offsets",[ph("a",[4,3]),ph("w",[2,3,5]),ph("o",[2]),
  cf("g","torch._grouped_mm",[N("a"),N("w"),N("o")]),out("g")])
write("grouped_mm_k",[ph("a",[4,3]),ph("w",[2,4,5]),ph("o",[2],"int32"),
  cf("g","torch._grouped_mm",[N("a"),N("w"),N("o")]),out("g")])
# Complex values and FFTs torch would not make (a review's hand-written files).
vac=lambda name, shape: [ph("x",shape),cf("z","torch.view_as_complex",[N("x")])]
write("fft_0d",vac("x",[2])+[cf("f","torch._C._fft.fft_fft",[N("z")]),cf("r","torch.view_as_real",[N("f")]),out("r")])
write("complex_nobroadcast",[ph("a",[3,4]),ph("b",[3]),cf("c","torch.complex",[N("a"),N("b")]),
  cf("r","torch.view_as_real",[N("c")]),out("r")])
write("complex_getitem_many",vac("x",[2,3,2])+[cf("g","_operator.getitem",[N("z"),[0,0,0]]),
  cf("r","torch.view_as_real",[N("g")]),out("r")])
write("fft2_dupdim",[ph("x",[4,4]),cf("f","torch._C._fft.fft_fft2",[N("x"),None,[1,1]]),
  cf("r","torch.view_as_real",[N("f")]),out("r")])
write("fft_c2c_norm7",vac("x",[4,2])+[cf("f","aten._fft_c2c.default",[N("z"),[0],7,True]),
  cf("r","torch.view_as_real",[N("f")]),out("r")])
write("fft_n_neg",[ph("x",[8]),cf("f","torch._C._fft.fft_fft",[N("x"),-5]),
  cf("r","torch.view_as_real",[N("f")]),out("r")])
