// Two rows of 300 f16 on Spyre: four whole 64-element sticks and a fifth
// holding 44 values (300 = 4 x 64 + 44).
func.func @main(%x: tensor<2x300xf16> {graph.name = "x"}) -> (tensor<2x300xf16> {graph.name = "y"}) {
  %0 = graph.neg %x : tensor<2x300xf16> loc("neg")
  %1 = graph.relu %0 : tensor<2x300xf16> loc("relu")
  return %1 : tensor<2x300xf16>
}
