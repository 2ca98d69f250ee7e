// rows3.mlir's product with the batch and token dims as one.
func.func @main(%x: tensor<64x4096xf16> {graph.name = "x"}, %w: tensor<4096x4096xf16> {graph.name = "w"}) -> (tensor<64x4096xf16> {graph.name = "y"}) {
  %0 = graph.matmul %x, %w : (tensor<64x4096xf16>, tensor<4096x4096xf16>) -> tensor<64x4096xf16> loc("proj")
  return %0 : tensor<64x4096xf16>
}
