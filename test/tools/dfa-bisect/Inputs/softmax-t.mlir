// f16 on Spyre: a projection, a softmax and a transpose as the output. The
// transpose moves device values that the kernels before it rounded to
// dfp16: fed those, it is judged as arithmetic, not bit for bit.
func.func @main(%x: tensor<16x64xf16> {graph.name = "x"}) -> (tensor<64x16xf16> {graph.name = "y"}) {
  %w = graph.constant dense<0.0625> : tensor<64x64xf16> loc("w")
  %0 = graph.matmul %x, %w : (tensor<16x64xf16>, tensor<64x64xf16>) -> tensor<16x64xf16> loc("proj")
  %1 = graph.softmax %0 {axis = 1 : i64} : tensor<16x64xf16> loc("softmax")
  %2 = graph.transpose %1 {perm = array<i64: 1, 0>} : (tensor<16x64xf16>) -> tensor<64x16xf16> loc("t")
  return %2 : tensor<64x16xf16>
}
