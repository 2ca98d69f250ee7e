// A mixture of experts' up projection in decode: 2 rows (one token, top-2)
// over 8 experts of 4096 x 4096 bf16.
func.func @main(%x: tensor<2x4096xbf16>, %offs: tensor<8xi32>) -> tensor<2x4096xbf16> {
  %w = graph.weight "experts" at "none"[0] : tensor<8x4096x4096xbf16>
  %0 = graph.grouped_matmul %x, %w, %offs : (tensor<2x4096xbf16>, tensor<8x4096x4096xbf16>, tensor<8xi32>) -> tensor<2x4096xbf16>
  return %0 : tensor<2x4096xbf16>
}
