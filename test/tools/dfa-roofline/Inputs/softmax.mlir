// Softmax over the rows of a 640 x 1280 f16 tensor (multiples of every
// family's layout granule, as in gemm.mlir).
func.func @main(%x: tensor<640x1280xf16> {graph.name = "x"}) -> (tensor<640x1280xf16> {graph.name = "y"}) {
  %0 = graph.softmax %x {axis = 1 : i64} : tensor<640x1280xf16> loc("softmax")
  return %0 : tensor<640x1280xf16>
}
