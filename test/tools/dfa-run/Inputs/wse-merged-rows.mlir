// Two linear layers as torch.export writes them for a [B, S, D] input: the
// activation viewed as [B*S, D] for the product (addmm) and back. The
// reshapes keep the rows in order, so the kernels stream on the WSE's
// layer pipeline as the 3-D products do.
func.func @main(%x: tensor<4x16x64xf16> {graph.name = "x"}) -> (tensor<4x16x64xf16> {graph.name = "y"}) {
  %w = graph.constant dense<0.01> : tensor<64x64xf16>
  %x2 = graph.reshape %x : (tensor<4x16x64xf16>) -> tensor<64x64xf16>
  %h = graph.matmul %x2, %w : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  %h3 = graph.reshape %h : (tensor<64x64xf16>) -> tensor<4x16x64xf16>
  %r = graph.relu %h3 : tensor<4x16x64xf16>
  %r2 = graph.reshape %r : (tensor<4x16x64xf16>) -> tensor<64x64xf16>
  %y2 = graph.matmul %r2, %w : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  %y = graph.reshape %y2 : (tensor<64x64xf16>) -> tensor<4x16x64xf16>
  return %y : tensor<4x16x64xf16>
}
