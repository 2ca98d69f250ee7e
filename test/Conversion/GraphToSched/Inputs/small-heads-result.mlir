// Six small heads ([512, 512] f32 weights, all on one groq-tsp chip)
// joined into the graph result: the parts stay on their chip, gathered
// there (convert-graph-to-sched-chips-result-parts.mlir).
func.func @main(%x: tensor<4x512xf32> {graph.name = "x"}) -> tensor<4x3072xf32> {
  %w0 = graph.weight "w0" at ""[0] : tensor<512x512xf32> loc("w0")
  %w1 = graph.weight "w1" at ""[0] : tensor<512x512xf32> loc("w1")
  %w2 = graph.weight "w2" at ""[0] : tensor<512x512xf32> loc("w2")
  %w3 = graph.weight "w3" at ""[0] : tensor<512x512xf32> loc("w3")
  %w4 = graph.weight "w4" at ""[0] : tensor<512x512xf32> loc("w4")
  %w5 = graph.weight "w5" at ""[0] : tensor<512x512xf32> loc("w5")
  %y0 = graph.gemm %x, %w0 : (tensor<4x512xf32>, tensor<512x512xf32>) -> tensor<4x512xf32> loc("h0")
  %y1 = graph.gemm %x, %w1 : (tensor<4x512xf32>, tensor<512x512xf32>) -> tensor<4x512xf32> loc("h1")
  %y2 = graph.gemm %x, %w2 : (tensor<4x512xf32>, tensor<512x512xf32>) -> tensor<4x512xf32> loc("h2")
  %y3 = graph.gemm %x, %w3 : (tensor<4x512xf32>, tensor<512x512xf32>) -> tensor<4x512xf32> loc("h3")
  %y4 = graph.gemm %x, %w4 : (tensor<4x512xf32>, tensor<512x512xf32>) -> tensor<4x512xf32> loc("h4")
  %y5 = graph.gemm %x, %w5 : (tensor<4x512xf32>, tensor<512x512xf32>) -> tensor<4x512xf32> loc("h5")
  %c = graph.concat %y0, %y1, %y2, %y3, %y4, %y5 {axis = 1 : i64} : (tensor<4x512xf32>, tensor<4x512xf32>, tensor<4x512xf32>, tensor<4x512xf32>, tensor<4x512xf32>, tensor<4x512xf32>) -> tensor<4x3072xf32> loc("cat")
  return %c : tensor<4x3072xf32>
}
