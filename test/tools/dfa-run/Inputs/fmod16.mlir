// ONNX's test_mod_mixed_sign_float16: fmod of f16 values.
func.func @main(%x: tensor<6xf16> {graph.name = "x"}, %y: tensor<6xf16> {graph.name = "y"}) -> (tensor<6xf16> {graph.name = "z"}) {
  %0 = graph.mod %x, %y {fmod = true} : (tensor<6xf16>, tensor<6xf16>) -> tensor<6xf16>
  return %0 : tensor<6xf16>
}
