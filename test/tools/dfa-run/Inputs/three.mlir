// Three kernels on Groq: "a" and "c" on the VXM, "mm" on the MXM after "a"
// ("a" is also a result, so it does not fuse into the matmul's stream).
func.func @main(%x: tensor<64x64xf32> {graph.name = "x"}, %y: tensor<64x64xf32> {graph.name = "y"})
    -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %w = graph.constant dense<0.5> : tensor<64x64xf32>
  %0 = graph.relu %x : tensor<64x64xf32> loc("a")
  %1 = graph.matmul %0, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("mm")
  %2 = graph.sigmoid %y : tensor<64x64xf32> loc("c")
  return %0, %1, %2 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}
