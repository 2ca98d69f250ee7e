// A diamond: x feeds a matmul branch (x @ w) and a memory-heavy branch
// (a 2x2 max pool over a large y); a matmul joins them.
func.func @main(%x: tensor<64x8192xf16> {graph.name = "x"}, %w: tensor<8192x640xf16> {graph.name = "w"}, %y: tensor<1x1x128x1280xf16> {graph.name = "y"}) -> (tensor<64x64xf16> {graph.name = "out"}) {
  %a = graph.matmul %x, %w : (tensor<64x8192xf16>, tensor<8192x640xf16>) -> tensor<64x640xf16> loc("matmul_branch")
  %p = graph.max_pool %y {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x128x1280xf16>) -> tensor<1x1x64x640xf16> loc("memory_branch")
  %b = graph.reshape %p : (tensor<1x1x64x640xf16>) -> tensor<640x64xf16> loc("memory_branch_view")
  %c = graph.matmul %a, %b : (tensor<64x640xf16>, tensor<640x64xf16>) -> tensor<64x64xf16> loc("join")
  return %c : tensor<64x64xf16>
}
