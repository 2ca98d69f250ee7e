// Two attention chains whose head pieces are still too large: each is
// split along the heads, then each piece along the rows (6 splits), on any
// heap (the ops of a chain cut were once left in the tried set, and a
// piece allocated where one had been was skipped).
func.func @main(%q0: tensor<1x2x2048x64xf32>, %k0: tensor<1x2x2048x64xf32>, %v0: tensor<1x2x2048x64xf32>, %q1: tensor<1x2x2048x64xf32>, %k1: tensor<1x2x2048x64xf32>, %v1: tensor<1x2x2048x64xf32>) -> (tensor<1x2x2048x64xf32>, tensor<1x2x2048x64xf32>) {
  %kt0 = graph.transpose %k0 {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x2048x64xf32>) -> tensor<1x2x64x2048xf32>
  %s0 = graph.matmul %q0, %kt0 : (tensor<1x2x2048x64xf32>, tensor<1x2x64x2048xf32>) -> tensor<1x2x2048x2048xf32> loc("scores0")
  %p0 = graph.softmax %s0 {axis = 3 : i64} : tensor<1x2x2048x2048xf32>
  %o0 = graph.matmul %p0, %v0 : (tensor<1x2x2048x2048xf32>, tensor<1x2x2048x64xf32>) -> tensor<1x2x2048x64xf32>
  %kt1 = graph.transpose %k1 {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x2048x64xf32>) -> tensor<1x2x64x2048xf32>
  %s1 = graph.matmul %q1, %kt1 : (tensor<1x2x2048x64xf32>, tensor<1x2x64x2048xf32>) -> tensor<1x2x2048x2048xf32> loc("scores1")
  %p1 = graph.softmax %s1 {axis = 3 : i64} : tensor<1x2x2048x2048xf32>
  %o1 = graph.matmul %p1, %v1 : (tensor<1x2x2048x2048xf32>, tensor<1x2x2048x64xf32>) -> tensor<1x2x2048x64xf32>
  return %o0, %o1 : tensor<1x2x2048x64xf32>, tensor<1x2x2048x64xf32>
}
