// More of torch.onnx's SDPA forms, and what graph-raise leaves alone.
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-raise="target=test-gpu" | FileCheck %s

// GQA: torch merges the repeated 5-D key ([B, Hkv, g, S, D] to
// [B*Hkv*g, S, D]) for k^T; the key folds back to a reshape of the repeat,
// so the attention still reads each K/V head once (its kvGroup).
// CHECK-LABEL: func.func @gqa
// CHECK: %[[E:.*]] = graph.expand %{{.*}} : (tensor<1x2x1x16x8xf32>) -> tensor<1x2x4x16x8xf32>
// CHECK: %[[K:.*]] = graph.reshape %[[E]] : (tensor<1x2x4x16x8xf32>) -> tensor<1x8x16x8xf32>
// CHECK: graph.attention %arg0, %[[K]], %{{.*}} {safe_softmax = true
// CHECK-NOT: graph.transpose
// CHECK: return
func.func @gqa(%q: tensor<1x8x1x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>) -> tensor<1x8x1x8xf32> {
  %k5 = graph.reshape %k : (tensor<1x2x16x8xf32>) -> tensor<1x2x1x16x8xf32>
  %ke = graph.expand %k5 : (tensor<1x2x1x16x8xf32>) -> tensor<1x2x4x16x8xf32>
  %v5 = graph.reshape %v : (tensor<1x2x16x8xf32>) -> tensor<1x2x1x16x8xf32>
  %ve = graph.expand %v5 : (tensor<1x2x1x16x8xf32>) -> tensor<1x2x4x16x8xf32>
  %vr = graph.reshape %ve : (tensor<1x2x4x16x8xf32>) -> tensor<1x8x16x8xf32>
  %k3 = graph.reshape %ke : (tensor<1x2x4x16x8xf32>) -> tensor<8x16x8xf32>
  %kt3 = graph.transpose %k3 {perm = array<i64: 0, 2, 1>} : (tensor<8x16x8xf32>) -> tensor<8x8x16xf32>
  %kt = graph.reshape %kt3 : (tensor<8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %s = graph.matmul %q, %kt : (tensor<1x8x1x8xf32>, tensor<1x8x8x16xf32>) -> tensor<1x8x1x16xf32>
  %c = graph.constant dense<0.35> : tensor<f32>
  %ss = graph.mul %s, %c : (tensor<1x8x1x16xf32>, tensor<f32>) -> tensor<1x8x1x16xf32>
  %p = graph.softmax %ss {axis = 3 : i64} : tensor<1x8x1x16xf32>
  %n = graph.is_nan %p : (tensor<1x8x1x16xf32>) -> tensor<1x8x1x16xi1>
  %z = graph.constant dense<0.0> : tensor<f32>
  %g = graph.where %n, %z, %p : (tensor<1x8x1x16xi1>, tensor<f32>, tensor<1x8x1x16xf32>) -> tensor<1x8x1x16xf32>
  %o = graph.matmul %g, %vr : (tensor<1x8x1x16xf32>, tensor<1x8x16x8xf32>) -> tensor<1x8x1x8xf32>
  return %o : tensor<1x8x1x8xf32>
}

// -----

// A guard whose zero broadcasts the probabilities past their own shape is
// not torch's safe softmax: left alone.
// CHECK-LABEL: func.func @widening_guard
// CHECK-NOT: graph.attention
// CHECK: graph.softmax
func.func @widening_guard(%q: tensor<1x2x4x8xf32>, %kt: tensor<1x2x8x4xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<3x2x4x8xf32> {
  %s = graph.matmul %q, %kt : (tensor<1x2x4x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32>
  %p = graph.softmax %s {axis = 3 : i64} : tensor<1x2x4x4xf32>
  %n = graph.is_nan %p : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xi1>
  %z = graph.constant dense<0.0> : tensor<3x2x4x4xf32>
  %g = graph.where %n, %z, %p : (tensor<1x2x4x4xi1>, tensor<3x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<3x2x4x4xf32>
  %o = graph.matmul %g, %v : (tensor<3x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<3x2x4x8xf32>
  return %o : tensor<3x2x4x8xf32>
}

// -----

// A mask that broadcasts the scores past their own shape is not the
// attention's (it used to abort the raise).
// CHECK-LABEL: func.func @widening_mask
// CHECK-NOT: graph.attention
// CHECK: graph.softmax
func.func @widening_mask(%q: tensor<1x2x4x8xf32>, %kt: tensor<1x2x8x4xf32>, %v: tensor<1x2x4x8xf32>, %m: tensor<3x1x4x4xf32>) -> tensor<3x2x4x8xf32> {
  %s = graph.matmul %q, %kt : (tensor<1x2x4x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32>
  %sm = graph.add %s, %m : (tensor<1x2x4x4xf32>, tensor<3x1x4x4xf32>) -> tensor<3x2x4x4xf32>
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<3x2x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<3x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<3x2x4x8xf32>
  return %o : tensor<3x2x4x8xf32>
}
