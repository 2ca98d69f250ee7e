// A dot product of 4096 terms: with ones in, the sum is 4096 when the
// matrix unit accumulates in f32 and stalls at 2048 in an f16 accumulator.
func.func @main(%a: tensor<1x4096xf16> {graph.name = "a"}, %b: tensor<4096x1xf16> {graph.name = "b"}) -> (tensor<1x1xf16> {graph.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<1x4096xf16>, tensor<4096x1xf16>) -> tensor<1x1xf16> loc("dot")
  return %0 : tensor<1x1xf16>
}
