// Heads moved before the tokens by a transpose, then merged with them
// ([B, H, S, d] viewed as [B*H*S, d]): those rows do not arrive in the
// order of the merged dim, so the reshape stops the stream (found by
// review: the first rule for merged rows let it through).
func.func @main(%x: tensor<4x16x64xf16> {graph.name = "x"}) -> (tensor<4x16x64xf16> {graph.name = "y"}) {
  %w = graph.constant dense<0.01> : tensor<64x64xf16>
  %wh = graph.constant dense<0.02> : tensor<16x16xf16>
  %x2 = graph.reshape %x : (tensor<4x16x64xf16>) -> tensor<64x64xf16>
  %h = graph.matmul %x2, %w : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  %h4 = graph.reshape %h : (tensor<64x64xf16>) -> tensor<4x16x4x16xf16>
  %t = graph.transpose %h4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<4x16x4x16xf16>) -> tensor<4x4x16x16xf16>
  %r = graph.relu %t : tensor<4x4x16x16xf16>
  %f = graph.reshape %r : (tensor<4x4x16x16xf16>) -> tensor<256x16xf16>
  %p = graph.matmul %f, %wh : (tensor<256x16xf16>, tensor<16x16xf16>) -> tensor<256x16xf16>
  %p4 = graph.reshape %p : (tensor<256x16xf16>) -> tensor<4x4x16x16xf16>
  %t2 = graph.transpose %p4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<4x4x16x16xf16>) -> tensor<4x16x4x16xf16>
  %y3 = graph.reshape %t2 : (tensor<4x16x4x16xf16>) -> tensor<64x64xf16>
  %y2 = graph.matmul %y3, %w : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  %y = graph.reshape %y2 : (tensor<64x64xf16>) -> tensor<4x16x64xf16>
  return %y : tensor<4x16x64xf16>
}
