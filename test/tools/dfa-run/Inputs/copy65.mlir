// A [65] f16 copy: on Spyre, two 64-element sticks, the second holding one
// value and 63 pad elements.
func.func @main(%x: tensor<65xf16> {graph.name = "x"}) -> (tensor<65xf16> {graph.name = "y"}) {
  %0 = graph.reshape %x : (tensor<65xf16>) -> tensor<65xf16> loc("copy")
  return %0 : tensor<65xf16>
}
