// Causal attention over 64 tokens between two projections, as the FX
// importer writes scaled_dot_product_attention(is_causal=True): on the WSE
// it decomposes into q kT, a `where` with a constant causal mask, softmax
// and p v, which stream: row i reads the keys and values up to i.
func.func @main(%x: tensor<1x64x128xf16> {graph.name = "x"}) -> (tensor<1x64x128xf16> {graph.name = "y"}) {
  %w = graph.constant dense<0.01> : tensor<128x128xf16>
  %q = graph.matmul %x, %w : (tensor<1x64x128xf16>, tensor<128x128xf16>) -> tensor<1x64x128xf16>
  %a = graph.attention %q, %q, %q {scale = 0.125 : f64, causal = true} : (tensor<1x64x128xf16>, tensor<1x64x128xf16>, tensor<1x64x128xf16>) -> tensor<1x64x128xf16>
  %y = graph.matmul %a, %w : (tensor<1x64x128xf16>, tensor<128x128xf16>) -> tensor<1x64x128xf16>
  return %y : tensor<1x64x128xf16>
}
