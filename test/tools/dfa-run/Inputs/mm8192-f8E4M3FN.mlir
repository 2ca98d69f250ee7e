// An 8192^3 product in f8E4M3FN, both operands K-minor (the right-hand side
// stored [N, K], as cuBLASLt takes FP8 on a Hopper): compute-bound on a GPU.
func.func @main(%a: tensor<8192x8192xf8E4M3FN> {graph.name = "a"}, %bt: tensor<8192x8192xf8E4M3FN> {graph.name = "bt"}) -> (tensor<8192x8192xf8E4M3FN> {graph.name = "y"}) {
  %b = graph.transpose %bt {perm = array<i64: 1, 0>} : (tensor<8192x8192xf8E4M3FN>) -> tensor<8192x8192xf8E4M3FN> loc("bt_t")
  %0 = graph.matmul %a, %b : (tensor<8192x8192xf8E4M3FN>, tensor<8192x8192xf8E4M3FN>) -> tensor<8192x8192xf8E4M3FN> loc("mm")
  return %0 : tensor<8192x8192xf8E4M3FN>
}
