// rows3.mlir with the weight given a leading dim of 1 (broadcast over the
// batch): still one 64 x 4096 x 4096 GEMM.
func.func @main(%x: tensor<64x1x4096xf16> {graph.name = "x"}, %w: tensor<1x4096x4096xf16> {graph.name = "w"}) -> (tensor<64x1x4096xf16> {graph.name = "y"}) {
  %0 = graph.matmul %x, %w : (tensor<64x1x4096xf16>, tensor<1x4096x4096xf16>) -> tensor<64x1x4096xf16> loc("proj")
  return %0 : tensor<64x1x4096xf16>
}
