// A bfloat16 product and its float8 (e4m3) cast: outputs numpy has no type
// for, which --outputs writes widened to float32 (test/tools/dfa-run/npy-narrow.test).
func.func @main(%a: tensor<4x8xbf16> {graph.name = "a"}, %b: tensor<8x3xbf16> {graph.name = "b"}) -> (tensor<4x3xbf16> {graph.name = "y"}, tensor<4x3xf8E4M3FN> {graph.name = "q"}) {
  %0 = graph.matmul %a, %b : (tensor<4x8xbf16>, tensor<8x3xbf16>) -> tensor<4x3xbf16> loc("dot")
  %1 = graph.cast %0 : (tensor<4x3xbf16>) -> tensor<4x3xf8E4M3FN> loc("quant")
  return %0, %1 : tensor<4x3xbf16>, tensor<4x3xf8E4M3FN>
}
