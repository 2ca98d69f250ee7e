// A W8A8 FP8 linear layer as a deployment runs it: the activation cast to
// float8 e4m3, the product on float8 operands, the result cast back to f16.
func.func @main(%x: tensor<4096x8192xf16> {graph.name = "x"}) -> (tensor<4096x8192xf16> {graph.name = "y"}) {
  %w = graph.constant dense<0.5> : tensor<8192x8192xf8E4M3FN>
  %a = graph.cast %x : (tensor<4096x8192xf16>) -> tensor<4096x8192xf8E4M3FN>
  %m = graph.matmul %a, %w : (tensor<4096x8192xf8E4M3FN>, tensor<8192x8192xf8E4M3FN>) -> tensor<4096x8192xf8E4M3FN>
  %y = graph.cast %m : (tensor<4096x8192xf8E4M3FN>) -> tensor<4096x8192xf16>
  return %y : tensor<4096x8192xf16>
}
