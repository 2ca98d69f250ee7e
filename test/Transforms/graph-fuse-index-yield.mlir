// A slice of a product's output that the product refuses as its epilogue
// (a scan step's decay, cut from the matmul that computed every step's)
// starts a group of index ops alone. The state update that reads it, and
// the previous state from an older pointwise group, joins the state's
// group and takes the slice with it: one kernel per scan, the slice read
// where the product wrote it (Inductor indexes the product's buffer). A
// slice that two ops read stays a group of its own, and its readers join it.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" | FileCheck %s
// Fused kernels compute what the ops did:
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" -o %t.gpu.mlir
// RUN: %with_test_targets dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.gpu.mlir --seed 3 --outputs %t.fused > /dev/null
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t.ref/output_%%d.npy' %% i), np.load('%t.fused/output_%%d.npy' %% i)) for i in range(2)]"

// CHECK: graph.kernel "decay" kind "matmul"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.yield
// CHECK: graph.kernel "state" kind "pointwise"(%arg2, %0)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.exp
// CHECK-NEXT: graph.slice
// CHECK-NEXT: graph.mul
// CHECK-NEXT: graph.yield
// CHECK: graph.kernel "step2" kind "pointwise"(%0, %1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.slice
// CHECK-NEXT: graph.mul
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.yield

func.func @main(%x: tensor<4x16xf32> {graph.name = "x"}, %w: tensor<16x8xf32> {graph.name = "w"},
                %h0: tensor<1x8xf32> {graph.name = "h0"}) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %p = graph.matmul %x, %w : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32> loc("decay")
  %h1 = graph.exp %h0 : tensor<1x8xf32> loc("state")
  %s = graph.slice %p {starts = array<i64: 1, 0>, steps = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<1x8xf32> loc("step1")
  %h2 = graph.mul %h1, %s : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32> loc("update1")
  %t = graph.slice %p {starts = array<i64: 2, 0>, steps = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<1x8xf32> loc("step2")
  %h3 = graph.mul %h2, %t : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32> loc("update2")
  %u = graph.add %t, %t : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32> loc("twice")
  return %h3, %u : tensor<1x8xf32>, tensor<1x8xf32>
}
