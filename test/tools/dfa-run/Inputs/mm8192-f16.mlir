// An 8192^3 product in f16: compute-bound on a GPU.
func.func @main(%a: tensor<8192x8192xf16> {graph.name = "a"}, %b: tensor<8192x8192xf16> {graph.name = "b"}) -> (tensor<8192x8192xf16> {graph.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<8192x8192xf16>, tensor<8192x8192xf16>) -> tensor<8192x8192xf16> loc("mm")
  return %0 : tensor<8192x8192xf16>
}
