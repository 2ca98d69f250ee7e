// A weight that two layers read (tied or reused) is sliced once: both
// layers' pieces read the same slices, and no weight is placed twice
// (before, each layer made its own six, under the same names).
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-lpu-small" | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-COUNT-6: graph.weight "proj.w.shard{{[0-5]}}" at "m.bin"
// CHECK-NOT: graph.weight "proj.w.shard
// CHECK-NOT: graph.weight "proj.w" at
// CHECK: %[[X:.*]]:6 = graph.split %arg0
// CHECK-COUNT-6: graph.matmul
// CHECK: %[[Z:.*]]:6 = graph.split %arg1
// CHECK-COUNT-6: graph.matmul

func.func @main(%x: tensor<4x960xf32> {graph.name = "x"}, %z: tensor<2x960xf32> {graph.name = "z"})
    -> (tensor<4x640xf32>, tensor<2x640xf32>) {
  %w = graph.weight "proj.w" at "m.bin"[1024] : tensor<960x640xf32> loc("proj.w")
  %0 = graph.matmul %x, %w : (tensor<4x960xf32>, tensor<960x640xf32>) -> tensor<4x640xf32> loc("proj")
  %1 = graph.matmul %z, %w : (tensor<2x960xf32>, tensor<960x640xf32>) -> tensor<2x640xf32> loc("proj_again")
  return %0, %1 : tensor<4x640xf32>, tensor<2x640xf32>
}
