// A projection, a layer norm over 64 features and a GELU-like tail: the
// layer norm is kept whole on CPU and Spyre and decomposed elsewhere.
func.func @main(%x: tensor<8x64xf32> {graph.name = "x"}) -> (tensor<8x64xf32> {graph.name = "y"}) {
  %w = graph.constant dense<0.125> : tensor<64x64xf32> loc("w")
  %g = graph.constant dense<1.5> : tensor<64xf32> loc("gamma")
  %b = graph.constant dense<0.25> : tensor<64xf32> loc("beta")
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32> loc("proj")
  %1 = graph.add %0, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32> loc("residual")
  %2 = graph.layer_norm %1, %g, %b {axis = 1 : i64} : (tensor<8x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<8x64xf32> loc("ln")
  %3 = graph.tanh %2 : tensor<8x64xf32> loc("act")
  return %3 : tensor<8x64xf32>
}
