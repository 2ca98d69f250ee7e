// One chip's program gathering the two distinct slices of a value each
// two chips of four hold (test/tools/dfa-run/collective-values.test).
func.func @main(%x: tensor<2x8xf32> {graph.name = "x"}) -> tensor<4x8xf32> {
  %g = graph.all_gather %x {axis = 0 : i64, chips = 2 : i64} : (tensor<2x8xf32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
