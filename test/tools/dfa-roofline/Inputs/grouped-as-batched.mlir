// grouped-prefill.mlir's product as 8 products of 512 rows, each with its
// own matrix (the even spread graph::activeGroups assumes).
func.func @main(%x: tensor<8x512x4096xbf16>) -> tensor<8x512x4096xbf16> {
  %w = graph.weight "experts" at "none"[0] : tensor<8x4096x4096xbf16>
  %0 = graph.matmul %x, %w : (tensor<8x512x4096xbf16>, tensor<8x4096x4096xbf16>) -> tensor<8x512x4096xbf16>
  return %0 : tensor<8x512x4096xbf16>
}
