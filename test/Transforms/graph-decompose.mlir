// RUN: dfa-opt %s -graph-decompose -split-input-file | FileCheck %s
// RUN: dfa-opt %s -graph-decompose="keep=graph.softmax" -split-input-file | FileCheck %s --check-prefix=KEEP
// RUN: dfa-opt %s -graph-decompose="remarks=true" -split-input-file -verify-diagnostics -o /dev/null

// CHECK-LABEL: func @softmax
// CHECK: %[[M:.*]] = graph.reduce_max %arg0 {axes = array<i64: 1>}
// CHECK: %[[S:.*]] = graph.sub %arg0, %[[M]]
// CHECK: %[[E:.*]] = graph.exp %[[S]]
// CHECK: %[[T:.*]] = graph.reduce_sum %[[E]] {axes = array<i64: 1>}
// CHECK: graph.div %[[E]], %[[T]]
// CHECK-NOT: graph.softmax
// KEEP-LABEL: func @softmax
// KEEP: graph.softmax
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-remark @+1 {{decomposed 'graph.softmax'}}
  %0 = graph.softmax %x {axis = 1 : i64} : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func @layer_norm
// CHECK: graph.reduce_mean %arg0 {axes = array<i64: 1, 2>}
// CHECK: graph.sub
// CHECK: graph.reduce_mean
// CHECK: graph.constant dense<9.99999974E-6> : tensor<f32>
// CHECK: graph.sqrt
// CHECK: graph.div
// CHECK: graph.mul {{.*}}, %arg1
// CHECK: graph.add {{.*}}, %arg2
// CHECK-NOT: graph.layer_norm
func.func @layer_norm(%x: tensor<2x4x8xf32>, %g: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<2x4x8xf32> {
  // expected-remark @+1 {{decomposed 'graph.layer_norm'}}
  %0 = graph.layer_norm %x, %g, %b {axis = 1 : i64} : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// CHECK-LABEL: func @batch_norm
// CHECK: graph.reshape %arg4 : (tensor<3xf32>) -> tensor<3x1x1xf32>
// CHECK: graph.sqrt
// CHECK: graph.sub %arg0
// CHECK: graph.mul
// CHECK: graph.add
// CHECK-NOT: graph.batch_norm
func.func @batch_norm(%x: tensor<1x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-remark @+1 {{decomposed 'graph.batch_norm'}}
  %0 = graph.batch_norm %x, %s, %b, %m, %v : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

// log_softmax(x) = (x - max) - log(sum(exp(x - max))).
// CHECK-LABEL: func @log_softmax
// CHECK: graph.reduce_max
// CHECK: graph.log
// CHECK-NOT: graph.log_softmax
func.func @log_softmax(%x: tensor<5xf32>) -> tensor<5xf32> {
  // expected-remark @+1 {{decomposed 'graph.log_softmax'}}
  %0 = graph.log_softmax %x {axis = 0 : i64} : tensor<5xf32>
  return %0 : tensor<5xf32>
}
