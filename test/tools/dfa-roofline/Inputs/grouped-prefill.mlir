// The same experts in a prefill of 2048 tokens, top-2: 4096 rows.
func.func @main(%x: tensor<4096x4096xbf16>, %offs: tensor<8xi32>) -> tensor<4096x4096xbf16> {
  %w = graph.weight "experts" at "none"[0] : tensor<8x4096x4096xbf16>
  %0 = graph.grouped_matmul %x, %w, %offs : (tensor<4096x4096xbf16>, tensor<8x4096x4096xbf16>, tensor<8xi32>) -> tensor<4096x4096xbf16>
  return %0 : tensor<4096x4096xbf16>
}
