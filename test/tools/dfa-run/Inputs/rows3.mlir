// A linear layer over a batch of 64 one-token sequences: the weight is
// shared, so it is one 64 x 4096 x 4096 GEMM (rows2.mlir), not 64 GEMVs.
func.func @main(%x: tensor<64x1x4096xf16> {graph.name = "x"}, %w: tensor<4096x4096xf16> {graph.name = "w"}) -> (tensor<64x1x4096xf16> {graph.name = "y"}) {
  %0 = graph.matmul %x, %w : (tensor<64x1x4096xf16>, tensor<4096x4096xf16>) -> tensor<64x1x4096xf16> loc("proj")
  return %0 : tensor<64x1x4096xf16>
}
