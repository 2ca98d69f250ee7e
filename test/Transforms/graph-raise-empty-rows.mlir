// onnxruntime's attention kernels as dfa imports them make a row that the
// mask empties 0 by the mask itself, where(reduce_max(mask) == -inf, 0, p):
// graph-raise reads that form as graph.attention's `empty_rows_zero`, and
// the raised op, its decomposition and the graph agree on such a row.
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu remarks=true" 2>&1 | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu" -o %t.raised.mlir
// RUN: %with_test_targets dfa-opt %t.raised.mlir -graph-decompose="target=test-tpu-v4" -o %t.decomposed.mlir
// RUN: FileCheck %s --check-prefix=DECOMPOSED < %t.decomposed.mlir
// RUN: %python -c "import numpy as np; g = np.random.default_rng(0); [np.save('%t.%%s.npy' %% n, g.standard_normal(s).astype(np.float32)) for n, s in (('q', (1, 4, 2, 8)), ('k', (1, 4, 6, 8)), ('v', (1, 4, 6, 8)))]; m = np.zeros((1, 1, 2, 6), np.float32); m[0, 0, 0] = -np.inf; m[0, 0, 1, 4:] = -np.inf; np.save('%t.m.npy', m)"
// RUN: dfa-run %s --inputs %t.q.npy %t.k.npy %t.v.npy %t.m.npy --outputs %t.graph > /dev/null
// RUN: dfa-run %t.raised.mlir --inputs %t.q.npy %t.k.npy %t.v.npy %t.m.npy --outputs %t.raised > /dev/null
// RUN: dfa-run %t.decomposed.mlir --inputs %t.q.npy %t.k.npy %t.v.npy %t.m.npy --outputs %t.decomposed > /dev/null
// RUN: %python -c "import numpy as np; g, r, d = (np.load('%t.%%s/output_0.npy' %% n) for n in ('graph', 'raised', 'decomposed')); assert not np.isnan(r).any() and (r[0, :, 0] == 0).all() and np.abs(r[0, :, 1]).max() > 0.1; np.testing.assert_allclose(r, g, rtol=1e-6, atol=1e-6); np.testing.assert_allclose(d, g, rtol=1e-6, atol=1e-6); print('agree')" | FileCheck %s --check-prefix=VALUES
// VALUES: agree

// CHECK: remark: raised 8 ops to 'graph.attention' ({{.*}}), rows the mask empties 0, scale 0.35
// CHECK-LABEL: func.func @main
// CHECK: graph.attention %arg0, %arg1, %arg2, %arg3 {empty_rows_zero = true, scale = {{.*}}}
// CHECK-NOT: graph.softmax
// DECOMPOSED: graph.reduce_max %arg3 {axes = array<i64: 3>}
// DECOMPOSED: graph.equal
// DECOMPOSED: graph.where
func.func @main(%q: tensor<1x4x2x8xf32> {graph.name = "q"}, %k: tensor<1x4x6x8xf32> {graph.name = "k"},
                %v: tensor<1x4x6x8xf32> {graph.name = "v"}, %m: tensor<1x1x2x6xf32> {graph.name = "m"}) -> tensor<1x4x2x8xf32> {
  %kt = graph.transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x4x6x8xf32>) -> tensor<1x4x8x6xf32>
  %s = graph.matmul %q, %kt : (tensor<1x4x2x8xf32>, tensor<1x4x8x6xf32>) -> tensor<1x4x2x6xf32>
  %c = graph.constant dense<0.35> : tensor<f32>
  %ss = graph.mul %s, %c : (tensor<1x4x2x6xf32>, tensor<f32>) -> tensor<1x4x2x6xf32>
  %sm = graph.add %ss, %m : (tensor<1x4x2x6xf32>, tensor<1x1x2x6xf32>) -> tensor<1x4x2x6xf32>
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<1x4x2x6xf32>
  %r = graph.reduce_max %m {axes = array<i64: 3>, keepdims = true} : (tensor<1x1x2x6xf32>) -> tensor<1x1x2x1xf32>
  %ninf = graph.constant dense<0xFF800000> : tensor<f32>
  %e = graph.equal %r, %ninf : (tensor<1x1x2x1xf32>, tensor<f32>) -> tensor<1x1x2x1xi1>
  %z = graph.constant dense<0.0> : tensor<f32>
  %g = graph.where %e, %z, %p : (tensor<1x1x2x1xi1>, tensor<f32>, tensor<1x4x2x6xf32>) -> tensor<1x4x2x6xf32>
  %o = graph.matmul %g, %v : (tensor<1x4x2x6xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x2x8xf32>
  return %o : tensor<1x4x2x8xf32>
}

// A row check on another mask than the one added is not the attention's:
// left alone.
// CHECK-LABEL: func.func @other_mask
// CHECK-NOT: graph.attention
// CHECK: graph.softmax
func.func @other_mask(%q: tensor<1x4x2x8xf32>, %kt: tensor<1x4x8x6xf32>, %v: tensor<1x4x6x8xf32>,
                      %m: tensor<1x1x2x6xf32>, %m2: tensor<1x1x2x6xf32>) -> tensor<1x4x2x8xf32> {
  %s = graph.matmul %q, %kt : (tensor<1x4x2x8xf32>, tensor<1x4x8x6xf32>) -> tensor<1x4x2x6xf32>
  %sm = graph.add %s, %m : (tensor<1x4x2x6xf32>, tensor<1x1x2x6xf32>) -> tensor<1x4x2x6xf32>
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<1x4x2x6xf32>
  %r = graph.reduce_max %m2 {axes = array<i64: 3>, keepdims = true} : (tensor<1x1x2x6xf32>) -> tensor<1x1x2x1xf32>
  %ninf = graph.constant dense<0xFF800000> : tensor<f32>
  %e = graph.equal %r, %ninf : (tensor<1x1x2x1xf32>, tensor<f32>) -> tensor<1x1x2x1xi1>
  %z = graph.constant dense<0.0> : tensor<f32>
  %g = graph.where %e, %z, %p : (tensor<1x1x2x1xi1>, tensor<f32>, tensor<1x4x2x6xf32>) -> tensor<1x4x2x6xf32>
  %o = graph.matmul %g, %v : (tensor<1x4x2x6xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x2x8xf32>
  return %o : tensor<1x4x2x8xf32>
}
