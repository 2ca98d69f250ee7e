// One chip's partial sum (test/tools/dfa-run/collective-values.test).
func.func @main(%x: tensor<2x8xf32> {graph.name = "x"}) -> tensor<2x8xf32> {
  %r = graph.all_reduce %x {chips = 4 : i64} : tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}
