// An 8192^3 product in f8E4M3FN: compute-bound on a GPU.
func.func @main(%a: tensor<8192x8192xf8E4M3FN> {graph.name = "a"}, %b: tensor<8192x8192xf8E4M3FN> {graph.name = "b"}) -> (tensor<8192x8192xf8E4M3FN> {graph.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<8192x8192xf8E4M3FN>, tensor<8192x8192xf8E4M3FN>) -> tensor<8192x8192xf8E4M3FN> loc("mm")
  return %0 : tensor<8192x8192xf8E4M3FN>
}
