// A grouped product (a mixture of experts) whose experts, stored [E, N, K]
// as transformers keeps them and read through a transpose, exceed one chip
// (test/Transforms/graph-shard-experts.test).
func.func @main(%x: tensor<6x128xf32>) -> tensor<6x256xf32> {
  %w = graph.weight "experts" at "experts.bin"[0] : tensor<4x256x128xf32>
  %offs = graph.constant dense<[1, 3, 3, 6]> : tensor<4xi32>
  %t = graph.transpose %w {perm = array<i64: 0, 2, 1>} : (tensor<4x256x128xf32>) -> tensor<4x128x256xf32>
  %0 = graph.grouped_matmul %x, %t, %offs : (tensor<6x128xf32>, tensor<4x128x256xf32>, tensor<4xi32>) -> tensor<6x256xf32>
  return %0 : tensor<6x256xf32>
}
