// A two-term f32 dot product whose terms TF32, bf16 and bf16x3 round apart
// (test/tools/dfa-run/fp32-matmul.test).
func.func @main(%a: tensor<1x2xf32> {graph.name = "a"}, %b: tensor<2x1xf32> {graph.name = "b"}) -> (tensor<1x1xf32> {graph.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<1x2xf32>, tensor<2x1xf32>) -> tensor<1x1xf32> loc("dot")
  return %0 : tensor<1x1xf32>
}
