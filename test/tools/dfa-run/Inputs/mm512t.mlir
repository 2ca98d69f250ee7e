// mm512.mlir with the right-hand side stored [N, K] (K minor), read through
// a transpose of its two dims.
func.func @main(%a: tensor<512x512xf32> {graph.name = "a"}, %bt: tensor<512x512xf32> {graph.name = "bt"}) -> (tensor<512x512xf32> {graph.name = "y"}) {
  %b = graph.transpose %bt {perm = array<i64: 1, 0>} : (tensor<512x512xf32>) -> tensor<512x512xf32> loc("bt_t")
  %0 = graph.matmul %a, %b : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32> loc("mm")
  return %0 : tensor<512x512xf32>
}
