// SDPA as current torch.onnx exports it (Hugging Face's default attention):
// k^T as a transpose over merged batch dims (reshape to [B*H, S, D],
// transpose, reshape back), q and k^T each scaled by sqrt(scale), a float
// mask added, and torch's safe softmax: where(isnan(p), 0, p), so a row
// whose scores are all masked attends to nothing. It is raised to one
// graph.attention with `safe_softmax`.
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu remarks=true" 2>&1 | FileCheck %s
// The raised program computes the same values, the all-masked row's zeros
// included (NaN would fail the comparison):
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu" -o %t.raised.mlir
// RUN: %with_test_targets dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.raised.mlir --seed 3 --outputs %t.raised > /dev/null
// RUN: %python -c "import numpy as np; a = np.load('%t.raised/output_0.npy'); b = np.load('%t.ref/output_0.npy'); np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6); assert (a[:, :, 0] == 0).all() and (a[:, :, 1:] != 0).any()"
// Decomposed again (a target without a fused kernel), the guard comes back:
// RUN: %with_test_targets dfa-opt %t.raised.mlir -graph-decompose="keep=graph.softmax" | FileCheck %s --check-prefix=DECOMP

// CHECK: remark: {{.*}}raised 8 ops to 'graph.attention' (out, guard, isnan, softmax, mask, scores, qscale, kscale), safe softmax, scale 0.353553
// CHECK: graph.attention %arg0, %arg1, %arg2, %{{.*}} {safe_softmax = true, scale = 0.35355{{[0-9]*}} : f64}
// CHECK-NOT: graph.softmax
// CHECK-NOT: graph.is_nan
// CHECK-NOT: graph.transpose

// DECOMP: %[[P:.*]] = graph.softmax
// DECOMP: %[[N:.*]] = graph.is_nan %[[P]]
// DECOMP: %[[G:.*]] = graph.where %[[N]], %{{.*}}, %[[P]]
// DECOMP: graph.matmul %[[G]], %arg2

func.func @main(%q: tensor<1x2x4x8xf32> {graph.name = "q"}, %k: tensor<1x2x4x8xf32> {graph.name = "k"},
                %v: tensor<1x2x4x8xf32> {graph.name = "v"}) -> tensor<1x2x4x8xf32> {
  %k3 = graph.reshape %k : (tensor<1x2x4x8xf32>) -> tensor<2x4x8xf32>
  %kt3 = graph.transpose %k3 {perm = array<i64: 0, 2, 1>} : (tensor<2x4x8xf32>) -> tensor<2x8x4xf32>
  %kt = graph.reshape %kt3 : (tensor<2x8x4xf32>) -> tensor<1x2x8x4xf32>
  %c = graph.constant dense<0.594603563> : tensor<f32>
  %qs = graph.mul %q, %c : (tensor<1x2x4x8xf32>, tensor<f32>) -> tensor<1x2x4x8xf32> loc("qscale")
  %ks = graph.mul %kt, %c : (tensor<1x2x8x4xf32>, tensor<f32>) -> tensor<1x2x8x4xf32> loc("kscale")
  %s = graph.matmul %qs, %ks : (tensor<1x2x4x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32> loc("scores")
  // Query 0 sees no key (a padded row); the others see keys up to theirs.
  %m = graph.constant dense<[[[[0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0, 0.0]]]]> : tensor<1x1x4x4xf32>
  %sm = graph.add %s, %m : (tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> loc("mask")
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<1x2x4x4xf32> loc("softmax")
  %n = graph.is_nan %p : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xi1> loc("isnan")
  %z = graph.constant dense<0.0> : tensor<f32>
  %g = graph.where %n, %z, %p : (tensor<1x2x4x4xi1>, tensor<f32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> loc("guard")
  %o = graph.matmul %g, %v : (tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> loc("out")
  return %o : tensor<1x2x4x8xf32>
}
