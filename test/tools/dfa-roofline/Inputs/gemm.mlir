// A 640 x 640 by 640 x 1280 f16 GEMM: every dim a multiple of the layout
// granules of all five families (GPU tiles, TPU (8,128)(2,1) f16 tiles, Spyre
// 64-element sticks, Groq 320-element vectors), so no padding moves.
func.func @main(%a: tensor<640x640xf16> {graph.name = "a"}, %b: tensor<640x1280xf16> {graph.name = "b"}) -> (tensor<640x1280xf16> {graph.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<640x640xf16>, tensor<640x1280xf16>) -> tensor<640x1280xf16> loc("gemm")
  return %0 : tensor<640x1280xf16>
}
