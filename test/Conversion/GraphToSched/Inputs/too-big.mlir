// A 40 GB weight: more than a TPU v5e's 16 GiB of HBM, less than an H100's 80 GB.
func.func @main(%x: tensor<1x100000xf32> {graph.name = "x"}) -> tensor<1x100000xf32> {
  %w = graph.weight "w" at ""[0] : tensor<100000x100000xf32>
  %0 = graph.matmul %x, %w : (tensor<1x100000xf32>, tensor<100000x100000xf32>) -> tensor<1x100000xf32> loc("fc")
  return %0 : tensor<1x100000xf32>
}
