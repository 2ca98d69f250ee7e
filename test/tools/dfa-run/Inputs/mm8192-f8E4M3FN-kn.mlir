// An 8192^3 product in f8E4M3FN, the right-hand side stored [K, N] (N
// minor), which a Hopper reads K-major only: it is transposed on its way in.
func.func @main(%a: tensor<8192x8192xf8E4M3FN> {graph.name = "a"}, %b: tensor<8192x8192xf8E4M3FN> {graph.name = "b"}) -> (tensor<8192x8192xf8E4M3FN> {graph.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<8192x8192xf8E4M3FN>, tensor<8192x8192xf8E4M3FN>) -> tensor<8192x8192xf8E4M3FN> loc("mm")
  return %0 : tensor<8192x8192xf8E4M3FN>
}
