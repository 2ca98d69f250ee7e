"""Writes a 4096x8192x8192 linear layer in four forms into OUT_DIR, as the
ONNX importer spells QuantizeLinear (divide, round, clip, cast to int8)
and DequantizeLinear (cast, times the scale), the weights and scales as it
imports initializers (graph.weight, here without data):
  w8a8.mlir   the f16 activation quantized to int8 and dequantized, the
              int8 weight dequantized with one scale per output column
  w8a16.mlir  the weight alone dequantized (a weight-only layer)
  rows.mlir   like w8a16, the weight scaled per K row
  f16.mlir    no quantization
usage: qdq_linear.py OUT_DIR"""
import os
import sys

M, K, N = 4096, 8192, 8192
X, W = "tensor<%dx%dx%s>" % (M, K, "%s"), "tensor<%dx%dx%s>" % (K, N, "%s")
Y = "tensor<%dx%dxf16>" % (M, N)


def module(act, weight, scale_shape="1x%d" % N):
    args = ['%%x: %s {graph.name = "x"}' % (X % "f16")]
    lines = []
    if weight:
        lines += [
            '%%wq = graph.weight "wq" at ""[0] : %s' % (W % "i8"),
            '%%sw = graph.weight "sw" at ""[0] : tensor<%sxf32>' % scale_shape,
            "%%w0 = graph.cast %%wq : (%s) -> %s" % (W % "i8", W % "f32"),
            "%%w1 = graph.mul %%w0, %%sw : (%s, tensor<%sxf32>) -> %s" % (W % "f32", scale_shape, W % "f32"),
            "%%w = graph.cast %%w1 : (%s) -> %s" % (W % "f32", W % "f16")]
    else:
        lines.append('%%w = graph.weight "w" at ""[0] : %s' % (W % "f16"))
    a = "%x"
    if act:
        f32 = X % "f32"
        lines += [
            "%s = graph.constant dense<0.05> : tensor<f32>" % "%s",
            "%lo = graph.constant dense<-128.0> : tensor<f32>",
            "%hi = graph.constant dense<127.0> : tensor<f32>",
            "%%x32 = graph.cast %%x : (%s) -> %s" % (X % "f16", f32),
            "%%q0 = graph.div %%x32, %%s : (%s, tensor<f32>) -> %s" % (f32, f32),
            "%%q1 = graph.round %%q0 : %s" % f32,
            "%%q2 = graph.max %%q1, %%lo : (%s, tensor<f32>) -> %s" % (f32, f32),
            "%%q3 = graph.min %%q2, %%hi : (%s, tensor<f32>) -> %s" % (f32, f32),
            "%%xq = graph.cast %%q3 : (%s) -> %s" % (f32, X % "i8"),
            "%%d0 = graph.cast %%xq : (%s) -> %s" % (X % "i8", f32),
            "%%d1 = graph.mul %%d0, %%s : (%s, tensor<f32>) -> %s" % (f32, f32),
            "%%a = graph.cast %%d1 : (%s) -> %s" % (f32, X % "f16")]
        a = "%a"
    lines += ["%%y = graph.matmul %s, %%w : (%s, %s) -> %s" % (a, X % "f16", W % "f16", Y),
              "return %%y : %s" % Y]
    return ("func.func @main(%s) -> (%s {graph.name = \"y\"}) {\n" % (", ".join(args), Y) +
            "".join("  %s\n" % l for l in lines) + "}\n")


out = sys.argv[1]
for name, text in [("w8a8", module(True, True)), ("w8a16", module(False, True)),
                   ("rows", module(False, True, "%dx1" % K)), ("f16", module(False, False))]:
    with open(os.path.join(out, name + ".mlir"), "w") as f:
        f.write(text)
