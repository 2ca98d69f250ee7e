// Attention written out by an exporter is raised to one graph.attention on
// a target that runs it whole (the GPU's flash-attention kernel), and left
// alone elsewhere.
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu remarks=true" 2>&1 | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-tpu-v4" | FileCheck %s --check-prefix=TPU
// The raised program computes the same values.
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu" -o %t.raised.mlir
// RUN: %with_test_targets dfa-run %s --seed 5 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.raised.mlir --seed 5 --outputs %t.raised > /dev/null
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t.raised/output_%%d.npy' %% i), np.load('%t.ref/output_%%d.npy' %% i), rtol=1e-6, atol=1e-6) for i in range(4)]"

func.func @main(%q: tensor<1x2x4x8xf32> {graph.name = "q"}, %k: tensor<1x4x2x8xf32> {graph.name = "k"},
                %v: tensor<1x2x4x8xf32> {graph.name = "v"}, %m: tensor<1x1x4x4xf32> {graph.name = "m"})
    -> (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x4xf32>) {
  // GPT style: k transposed to [.., D, S] in one go, divided by sqrt(D),
  // masked with -inf above the diagonal (causal), softmax, times v.
  %kt = graph.transpose %k {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x4x2x8xf32>) -> tensor<1x2x8x4xf32> loc("kt")
  %s = graph.matmul %q, %kt : (tensor<1x2x4x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32> loc("scores")
  %c = graph.constant dense<2.0> : tensor<f32>
  %d = graph.div %s, %c : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32> loc("scale")
  %ninf = graph.constant dense<0xFF800000> : tensor<f32>
  %upper = graph.constant dense<[[[[false, true, true, true], [false, false, true, true], [false, false, false, true], [false, false, false, false]]]]> : tensor<1x1x4x4xi1>
  %w = graph.where %upper, %ninf, %d : (tensor<1x1x4x4xi1>, tensor<f32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> loc("mask")
  %p = graph.softmax %w {axis = 3 : i64} : tensor<1x2x4x4xf32> loc("softmax")
  %o = graph.matmul %p, %v : (tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> loc("out")

  // Multiplied scale and an additive float mask, k already [.., D, S].
  %kt2 = graph.transpose %k {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x4x2x8xf32>) -> tensor<1x2x8x4xf32> loc("kt2")
  %kt3 = graph.relu %kt2 : tensor<1x2x8x4xf32> loc("kt3")
  %s2 = graph.matmul %q, %kt3 : (tensor<1x2x4x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32> loc("scores2")
  %c2 = graph.constant dense<0.5> : tensor<f32>
  %d2 = graph.mul %c2, %s2 : (tensor<f32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> loc("scale2")
  %a2 = graph.add %d2, %m : (tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> loc("mask2")
  %p2 = graph.softmax %a2 {axis = 3 : i64} : tensor<1x2x4x4xf32> loc("softmax2")
  %o2 = graph.matmul %p2, %v : (tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> loc("out2")

  // A fill set that is not causal: kept as a mask, its complement.
  %s3 = graph.matmul %q, %kt : (tensor<1x2x4x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32> loc("scores3")
  %other = graph.constant dense<[[[[false, false, true, true], [false, false, true, true], [false, false, false, false], [false, false, false, false]]]]> : tensor<1x1x4x4xi1>
  %w3 = graph.where %other, %ninf, %s3 : (tensor<1x1x4x4xi1>, tensor<f32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> loc("mask3")
  %p3 = graph.softmax %w3 {axis = 3 : i64} : tensor<1x2x4x4xf32> loc("softmax3")
  %o3 = graph.matmul %p3, %v : (tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> loc("out3")

  // The probabilities are returned too: not raised.
  %s4 = graph.matmul %q, %kt : (tensor<1x2x4x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32> loc("scores4")
  %p4 = graph.softmax %s4 {axis = 3 : i64} : tensor<1x2x4x4xf32> loc("softmax4")
  %o4 = graph.matmul %p4, %v : (tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> loc("out4")
  %sum = graph.add %o4, %o3 : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> loc("sum")
  return %o, %o2, %sum, %p4 : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x4xf32>
}

// CHECK: remark: {{.*}}raised 5 ops to 'graph.attention' (out, softmax, mask, scale, scores), causal, scale 0.5
// CHECK: remark: {{.*}}raised 5 ops to 'graph.attention' (out2, softmax2, mask2, scale2, scores2), scale 0.5
// CHECK: remark: {{.*}}raised 4 ops to 'graph.attention' (out3, softmax3, mask3, scores3), scale 1
// CHECK-NOT: remark: {{.*}}raised
// The key transposes of the first raise fold into one [0,2,1,3] transpose.
// CHECK-LABEL: func.func @main
// CHECK: %[[K:.*]] = graph.transpose %arg1 {perm = array<i64: 0, 2, 1, 3>}
// CHECK: graph.attention %arg0, %[[K]], %arg2 {causal = true, scale = 5.000000e-01 : f64}
// CHECK: %[[K2:.*]] = graph.transpose %{{.*}} {perm = array<i64: 0, 1, 3, 2>}
// CHECK: graph.attention %arg0, %[[K2]], %arg2, %arg3 {scale = 5.000000e-01 : f64}
// The fill set is a constant: its complement is folded.
// CHECK: %[[KEEP:.*]] = graph.constant dense<{{\[\[\[\[}}true, true, false, false], [true, true, false, false], [true, true, true, true], [true, true, true, true]]]]> : tensor<1x1x4x4xi1>
// CHECK: graph.attention %arg0, %{{.*}}, %arg2, %[[KEEP]] {scale = 1.000000e+00 : f64}
// CHECK: graph.softmax
// CHECK-NOT: graph.div
// CHECK-NOT: graph.where

// TPU-NOT: graph.attention
