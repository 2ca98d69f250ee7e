// The core-ATen form of attention (graph-raise-core-aten.mlir) without a
// mask or guard, the scale on q alone; a reader of the merged output that
// does not view it back gets a view of the attention's.
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu remarks=true" 2>&1 | FileCheck %s

// The merged form without a mask or guard, the scale on q alone; a reader
// of the merged output that does not view it back gets a view of the
// attention's.
// CHECK: remark: raised {{[0-9]+}} ops to 'graph.attention' ({{.*}}), scale 0.125
// CHECK-LABEL: func.func @merged
// CHECK: %[[A:.*]] = graph.attention %arg0, %arg1, %arg2 {scale = 1.250000e-01 : f64}
// CHECK: graph.reshape %[[A]] : (tensor<2x2x3x8xf32>) -> tensor<4x3x8xf32>
func.func @merged(%q: tensor<2x2x3x8xf32> {graph.name = "q"}, %k: tensor<2x2x5x8xf32> {graph.name = "k"},
                  %v: tensor<2x2x5x8xf32> {graph.name = "v"}) -> tensor<4x3x8xf32> {
  %c = graph.constant dense<0.125> : tensor<f32>
  %qs = graph.mul %q, %c : (tensor<2x2x3x8xf32>, tensor<f32>) -> tensor<2x2x3x8xf32>
  %kt = graph.transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x2x5x8xf32>) -> tensor<2x2x8x5xf32>
  %q3 = graph.reshape %qs : (tensor<2x2x3x8xf32>) -> tensor<4x3x8xf32>
  %k3 = graph.reshape %kt : (tensor<2x2x8x5xf32>) -> tensor<4x8x5xf32>
  %s3 = graph.matmul %q3, %k3 : (tensor<4x3x8xf32>, tensor<4x8x5xf32>) -> tensor<4x3x5xf32>
  %s4 = graph.reshape %s3 : (tensor<4x3x5xf32>) -> tensor<2x2x3x5xf32>
  %p = graph.softmax %s4 {axis = 3 : i64} : tensor<2x2x3x5xf32>
  %p3 = graph.reshape %p : (tensor<2x2x3x5xf32>) -> tensor<4x3x5xf32>
  %v3 = graph.reshape %v : (tensor<2x2x5x8xf32>) -> tensor<4x5x8xf32>
  %o3 = graph.matmul %p3, %v3 : (tensor<4x3x5xf32>, tensor<4x5x8xf32>) -> tensor<4x3x8xf32>
  return %o3 : tensor<4x3x8xf32>
}
