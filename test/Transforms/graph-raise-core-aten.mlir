// Attention as torch.export's core ATen writes it (dfa-export-fx --method
// export): each 4-D product as views merging [B, H] and a bmm, the scale
// on q (and on k^T: SDPA's sqrt(scale) on each), and SDPA's _safe_softmax
// guard, where(not(reduce_max(not(S == -inf)) > 0), 0, softmax(S)), which
// zeroes a row whose scores are all -inf: graph-raise reads it all as one
// graph.attention, the rows the added mask empties made 0 (a survey found
// every FX-exported transformer's attention run as materialized scores,
// 3.4x the flash kernel's time on gpu-h100). The raised graph, its
// decomposition and the original agree, a row the mask empties included.
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu remarks=true" 2>&1 | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu" -o %t.raised.mlir
// RUN: %with_test_targets dfa-opt %t.raised.mlir -graph-decompose="target=test-tpu-v4" -o %t.decomposed.mlir
// RUN: %python -c "import numpy as np; g = np.random.default_rng(0); [np.save('%t.%%s.npy' %% n, g.standard_normal(s).astype(np.float32)) for n, s in (('q', (2, 2, 3, 8)), ('k', (2, 2, 5, 8)), ('v', (2, 2, 5, 8)))]; m = np.zeros((2, 1, 3, 5), np.float32); m[0, 0, 1] = -np.inf; m[1, 0, 2, 3:] = -np.inf; np.save('%t.m.npy', m)"
// RUN: dfa-run %s --inputs %t.q.npy %t.k.npy %t.v.npy %t.m.npy --outputs %t.g1 > /dev/null
// RUN: dfa-run %t.raised.mlir --inputs %t.q.npy %t.k.npy %t.v.npy %t.m.npy --outputs %t.r1 > /dev/null
// RUN: dfa-run %t.decomposed.mlir --inputs %t.q.npy %t.k.npy %t.v.npy %t.m.npy --outputs %t.d1 > /dev/null
// RUN: %python -c "import numpy as np; g, r, d = (np.load('%t.%%s1/output_0.npy' %% n) for n in ('g', 'r', 'd')); assert not np.isnan(g).any() and (r[0, :, 1] == 0).all() and (g[0, :, 1] == 0).all(); np.testing.assert_allclose(r, g, rtol=1e-6, atol=1e-6); np.testing.assert_allclose(d, g, rtol=1e-6, atol=1e-6); print('agree')" | FileCheck %s --check-prefix=VALUES
// VALUES: agree

// CHECK: remark: raised {{[0-9]+}} ops to 'graph.attention' ({{.*}}), rows the mask empties 0, scale 0.125
// CHECK-LABEL: func.func @main
// CHECK: %[[A:.*]] = graph.attention %arg0, %arg1, %arg2, %arg3 {empty_rows_zero = true, scale = {{.*}}} : (tensor<2x2x3x8xf32>, tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>, tensor<2x1x3x5xf32>) -> tensor<2x2x3x8xf32>
// CHECK-NOT: graph.softmax
// CHECK-NOT: graph.matmul
// CHECK: return %[[A]]
func.func @main(%q: tensor<2x2x3x8xf32> {graph.name = "q"}, %k: tensor<2x2x5x8xf32> {graph.name = "k"},
                   %v: tensor<2x2x5x8xf32> {graph.name = "v"}, %m: tensor<2x1x3x5xf32> {graph.name = "m"}) -> tensor<2x2x3x8xf32> {
  %c = graph.constant dense<0.353553385> : tensor<f32>
  %qs = graph.mul %q, %c : (tensor<2x2x3x8xf32>, tensor<f32>) -> tensor<2x2x3x8xf32>
  %kt = graph.transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x2x5x8xf32>) -> tensor<2x2x8x5xf32>
  %ks = graph.mul %kt, %c : (tensor<2x2x8x5xf32>, tensor<f32>) -> tensor<2x2x8x5xf32>
  %q3 = graph.reshape %qs : (tensor<2x2x3x8xf32>) -> tensor<4x3x8xf32>
  %k3 = graph.reshape %ks : (tensor<2x2x8x5xf32>) -> tensor<4x8x5xf32>
  %s3 = graph.matmul %q3, %k3 : (tensor<4x3x8xf32>, tensor<4x8x5xf32>) -> tensor<4x3x5xf32>
  %s4 = graph.reshape %s3 : (tensor<4x3x5xf32>) -> tensor<2x2x3x5xf32>
  %sm = graph.add %s4, %m : (tensor<2x2x3x5xf32>, tensor<2x1x3x5xf32>) -> tensor<2x2x3x5xf32>
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<2x2x3x5xf32>
  %ninf = graph.constant dense<0xFF800000> : tensor<f32>
  %e = graph.equal %sm, %ninf : (tensor<2x2x3x5xf32>, tensor<f32>) -> tensor<2x2x3x5xi1>
  %ne = graph.not %e : tensor<2x2x3x5xi1>
  %nf = graph.cast %ne : (tensor<2x2x3x5xi1>) -> tensor<2x2x3x5xf32>
  %any = graph.reduce_max %nf {axes = array<i64: 3>, keepdims = true} : (tensor<2x2x3x5xf32>) -> tensor<2x2x3x1xf32>
  %z = graph.constant dense<0.0> : tensor<f32>
  %gt = graph.greater %any, %z : (tensor<2x2x3x1xf32>, tensor<f32>) -> tensor<2x2x3x1xi1>
  %none = graph.not %gt : tensor<2x2x3x1xi1>
  %zeros = graph.constant dense<0.0> : tensor<2x2x3x5xf32>
  %g = graph.where %none, %zeros, %p : (tensor<2x2x3x1xi1>, tensor<2x2x3x5xf32>, tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
  %g3 = graph.reshape %g : (tensor<2x2x3x5xf32>) -> tensor<4x3x5xf32>
  %v3 = graph.reshape %v : (tensor<2x2x5x8xf32>) -> tensor<4x5x8xf32>
  %o3 = graph.matmul %g3, %v3 : (tensor<4x3x5xf32>, tensor<4x5x8xf32>) -> tensor<4x3x8xf32>
  %o = graph.reshape %o3 : (tensor<4x3x8xf32>) -> tensor<2x2x3x8xf32>
  return %o : tensor<2x2x3x8xf32>
}

