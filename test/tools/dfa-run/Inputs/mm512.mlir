// A 512^3 f32 matmul: on a GPU, --fp32-matmul changes the peak it runs at.
func.func @main(%a: tensor<512x512xf32> {graph.name = "a"}, %b: tensor<512x512xf32> {graph.name = "b"}) -> (tensor<512x512xf32> {graph.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32> loc("mm")
  return %0 : tensor<512x512xf32>
}
