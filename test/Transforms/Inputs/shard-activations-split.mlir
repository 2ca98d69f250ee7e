// A product whose large result is split into three (a qkv projection's
// q, k and v) that go on to a reduction, not to the graph's results as
// they are made: the chain is the product and the split, cut into rows,
// each piece splitting its rows; q, k and v are joined from the pieces'.
func.func @main(%x: tensor<1x1024x256xf32> {graph.name = "x"}, %w: tensor<256x768xf32> {graph.name = "w"})
    -> (tensor<1x1024x1xf32>, tensor<1x1024x256xf32>) {
  %y = graph.matmul %x, %w : (tensor<1x1024x256xf32>, tensor<256x768xf32>) -> tensor<1x1024x768xf32> loc("qkv")
  %q:3 = graph.split %y {axis = 2 : i64, sizes = array<i64: 256, 256, 256>} : (tensor<1x1024x768xf32>) -> (tensor<1x1024x256xf32>, tensor<1x1024x256xf32>, tensor<1x1024x256xf32>) loc("q")
  %s = graph.reduce_sum %q#0 {axes = array<i64: 2>, keepdims = true} : (tensor<1x1024x256xf32>) -> tensor<1x1024x1xf32> loc("sum")
  %kv = graph.mul %q#1, %q#2 : (tensor<1x1024x256xf32>, tensor<1x1024x256xf32>) -> tensor<1x1024x256xf32> loc("kv")
  return %s, %kv : tensor<1x1024x1xf32>, tensor<1x1024x256xf32>
}
