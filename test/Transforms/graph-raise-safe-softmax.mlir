// torch's _safe_softmax as core ATen writes it (a guard that zeroes a row
// whose scores are all -inf, by its own reduction over the scores) folds
// into the softmax as `empty_rows_zero`, on a target without an attention
// kernel too: the row's test reads the maximum the softmax computes
// anyway. The graph, the folded op and its decomposition agree on such a
// row.
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-tpu-v4" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-raise -o %t.folded.mlir
// RUN: %with_test_targets dfa-opt %t.folded.mlir -graph-decompose="target=test-tpu-v4" -o %t.decomposed.mlir
// RUN: FileCheck %s --check-prefix=DECOMPOSED < %t.decomposed.mlir
// RUN: %python -c "import numpy as np; g = np.random.default_rng(0); np.save('%t.s.npy', g.standard_normal((1, 2, 4, 4)).astype(np.float32)); k = np.ones((1, 1, 4, 4), bool); k[0, 0, 1] = False; k[0, 0, 2, 3] = False; np.save('%t.k.npy', k)"
// RUN: dfa-run %s --inputs %t.s.npy %t.k.npy --outputs %t.graph > /dev/null
// RUN: dfa-run %t.folded.mlir --inputs %t.s.npy %t.k.npy --outputs %t.folded > /dev/null
// RUN: dfa-run %t.decomposed.mlir --inputs %t.s.npy %t.k.npy --outputs %t.decomposed > /dev/null
// RUN: %python -c "import numpy as np; g, f, d = (np.load('%t.%%s/output_0.npy' %% n) for n in ('graph', 'folded', 'decomposed')); assert not np.isnan(f).any() and (f[0, :, 1] == 0).all() and (f[0, :, 2, 3] == 0).all() and np.abs(f[0, :, 2]).max() > 0.1; np.testing.assert_allclose(f, g, rtol=1e-6, atol=1e-7); np.testing.assert_allclose(d, g, rtol=1e-6, atol=1e-7); print('agree')" | FileCheck %s --check-prefix=VALUES
// VALUES: agree

// CHECK-LABEL: func.func @main
// CHECK: %[[S:.*]] = graph.where %arg1, %arg0
// CHECK-NOT: graph.constant
// CHECK-NEXT: %[[P:.*]] = graph.softmax %[[S]] {axis = 3 : i64, empty_rows_zero = true}
// CHECK-NEXT: return %[[P]]
// DECOMPOSED-LABEL: func.func @main
// The decomposition tests the row on its two reductions (a row of -inf
// shifted by 0, its sum of 0 divided by 1), so it fuses as a softmax:
// DECOMPOSED: %[[M:.*]] = graph.reduce_max
// DECOMPOSED: %[[E:.*]] = graph.equal %[[M]]
// DECOMPOSED: graph.where %[[E]]
// DECOMPOSED: %[[S:.*]] = graph.reduce_sum
// DECOMPOSED: %[[Z:.*]] = graph.equal %[[S]]
// DECOMPOSED: %[[D:.*]] = graph.where %[[Z]]
// DECOMPOSED: graph.div %{{.*}}, %[[D]]
// RUN: %with_test_targets dfa-opt %t.folded.mlir -graph-decompose="target=test-tpu-v5e" -graph-fuse="target=test-tpu-v5e" | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @main
// FUSED-COUNT-3: graph.kernel
// FUSED-NOT: graph.kernel
// FUSED: return
func.func @main(%s: tensor<1x2x4x4xf32> {graph.name = "s"}, %keep: tensor<1x1x4x4xi1> {graph.name = "keep"}) -> tensor<1x2x4x4xf32> {
  %ninf = graph.constant dense<0xFF800000> : tensor<f32>
  %sm = graph.where %keep, %s, %ninf : (tensor<1x1x4x4xi1>, tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<1x2x4x4xf32>
  %e = graph.equal %sm, %ninf : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xi1>
  %ne = graph.not %e : tensor<1x2x4x4xi1>
  %nf = graph.cast %ne : (tensor<1x2x4x4xi1>) -> tensor<1x2x4x4xf32>
  %any = graph.reduce_max %nf {axes = array<i64: 3>, keepdims = true} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x1xf32>
  %z = graph.constant dense<0.0> : tensor<f32>
  %gt = graph.greater %any, %z : (tensor<1x2x4x1xf32>, tensor<f32>) -> tensor<1x2x4x1xi1>
  %none = graph.not %gt : tensor<1x2x4x1xi1>
  %zeros = graph.constant dense<0.0> : tensor<1x2x4x4xf32>
  %g = graph.where %none, %zeros, %p : (tensor<1x2x4x1xi1>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %g : tensor<1x2x4x4xf32>
}

// A guard whose test another op also reads stays as written.
// CHECK-LABEL: func.func @shared_test
// CHECK: graph.softmax %{{.*}} {axis = 3 : i64} :
// CHECK: graph.reduce_max
// CHECK: graph.where
func.func @shared_test(%sm: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x1xi1>) {
  %ninf = graph.constant dense<0xFF800000> : tensor<f32>
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<1x2x4x4xf32>
  %e = graph.equal %sm, %ninf : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xi1>
  %ne = graph.not %e : tensor<1x2x4x4xi1>
  %nf = graph.cast %ne : (tensor<1x2x4x4xi1>) -> tensor<1x2x4x4xf32>
  %any = graph.reduce_max %nf {axes = array<i64: 3>, keepdims = true} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x1xf32>
  %z = graph.constant dense<0.0> : tensor<f32>
  %gt = graph.greater %any, %z : (tensor<1x2x4x1xf32>, tensor<f32>) -> tensor<1x2x4x1xi1>
  %none = graph.not %gt : tensor<1x2x4x1xi1>
  %zeros = graph.constant dense<0.0> : tensor<1x2x4x4xf32>
  %g = graph.where %none, %zeros, %p : (tensor<1x2x4x1xi1>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %g, %none : tensor<1x2x4x4xf32>, tensor<1x2x4x1xi1>
}
