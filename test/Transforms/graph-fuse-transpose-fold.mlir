// A transpose that only swaps the last two dims of a matmul operand folds
// into the matmul where the target's compiler folds it
// (compiler.transpose_folding: XLA's TransposeFolding on a TPU): decode
// attention's K^T is read by the score matmul from the cache as stored,
// not written by a relayout kernel of its own. graph-layout agrees (no
// relayout op, the kernel stays a matmul). Spyre restickifies instead
// (transpose_folding false): its transpose stays a kernel of its own.
// Transposes that move a batch dim, or that another op reads too, stay
// relayouts on the TPU as well. GQA's key, a broadcast of its one KV head
// over the query heads and then the folded transpose, comes into the score
// matmul whole: the kernel reads the 1-head cache once. So does a K^T
// that a view of its batch dims reaches the product through (torch's
// k.transpose(-2, -1) then a view merging batch and heads before bmm); a
// view that changes the matrices themselves keeps the relayout, and one
// that nothing reads folds into nothing.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-tpu-v5e" | FileCheck %s --check-prefix=TPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-tpu-v5e" -graph-layout | FileCheck %s --check-prefix=LAYOUT
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-spyre" | FileCheck %s --check-prefix=SPYRE
// Fused kernels compute what the ops did:
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-tpu-v5e" -o %t.tpu.mlir
// RUN: %with_test_targets dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.tpu.mlir --seed 3 --outputs %t.fused > /dev/null
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t.ref/output_%%d.npy' %% i), np.load('%t.fused/output_%%d.npy' %% i)) for i in range(6)]"

// TPU: graph.kernel "scores" kind "matmul"(%{{.*}}, %arg0) : (tensor<2x4x17x8xf32>, tensor<2x4x1x8xf32>)
// TPU-NEXT: ^bb0
// TPU-NEXT: graph.transpose {{.*}} -> tensor<2x4x8x17xf32>
// TPU-NEXT: graph.matmul
// TPU: graph.kernel "kt_batch" kind "data"
// TPU: graph.kernel "other" kind "matmul"
// TPU: graph.kernel "kt_shared" kind "data"
// TPU: graph.kernel "twice" kind "matmul"(%arg0, %{{.*}}, %{{.*}}) : (tensor<2x4x1x8xf32>, tensor<2x4x8x17xf32>

// TPU: graph.kernel "gqa" kind "matmul"(%arg3, %arg0) : (tensor<2x1x17x8xf32>, tensor<2x4x1x8xf32>)
// TPU-NEXT: ^bb0
// TPU-NEXT: graph.reshape
// TPU-NEXT: graph.expand
// TPU-NEXT: graph.reshape
// TPU-NEXT: graph.transpose
// TPU-NEXT: graph.matmul

// TPU: graph.kernel "bmm" kind "matmul"(%{{.*}}, %{{.*}}) : (tensor<2x4x17x8xf32>, tensor<8x1x8xf32>)
// TPU-NEXT: ^bb0
// TPU-NEXT: graph.transpose {{.*}} -> tensor<2x4x8x17xf32>
// TPU-NEXT: graph.reshape {{.*}} -> tensor<8x8x17xf32>
// TPU-NEXT: graph.matmul
// TPU: graph.kernel "kt_split" kind "data"
// TPU: graph.kernel "split" kind "matmul"

// LAYOUT: graph.kernel "scores" kind "matmul"
// LAYOUT-NOT: graph.relayout
// LAYOUT: graph.kernel "kt_batch" kind "relayout"
// LAYOUT: graph.kernel "kt_shared" kind "relayout"
// LAYOUT: graph.kernel "bmm" kind "matmul"
// LAYOUT-NOT: graph.relayout
// LAYOUT: graph.kernel "kt_split" kind "relayout"

// SPYRE: graph.kernel "kt" kind "data"
// SPYRE: graph.kernel "scores" kind "matmul"

func.func @main(%q: tensor<2x4x1x8xf32> {graph.name = "q"}, %past: tensor<2x4x16x8xf32> {graph.name = "past"},
                %k: tensor<2x4x1x8xf32> {graph.name = "k"}, %kv1: tensor<2x1x17x8xf32> {graph.name = "kv1"})
    -> (tensor<2x4x1x17xf32>, tensor<4x2x1x17xf32>, tensor<2x4x8x17xf32>, tensor<2x4x1x17xf32>,
        tensor<8x1x17xf32>, tensor<2x4x1x34xf32>) {
  %cache = graph.concat %past, %k {axis = 2 : i64} : (tensor<2x4x16x8xf32>, tensor<2x4x1x8xf32>) -> tensor<2x4x17x8xf32> loc("cache")
  %kt = graph.transpose %cache {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x17x8xf32>) -> tensor<2x4x8x17xf32> loc("kt")
  %s = graph.matmul %q, %kt : (tensor<2x4x1x8xf32>, tensor<2x4x8x17xf32>) -> tensor<2x4x1x17xf32> loc("scores")
  // Moves a batch dim: [2,4,17,8] -> [4,2,8,17].
  %kb = graph.transpose %cache {perm = array<i64: 1, 0, 3, 2>} : (tensor<2x4x17x8xf32>) -> tensor<4x2x8x17xf32> loc("kt_batch")
  %qb = graph.transpose %q {perm = array<i64: 1, 0, 2, 3>} : (tensor<2x4x1x8xf32>) -> tensor<4x2x1x8xf32> loc("q_batch")
  %sb = graph.matmul %qb, %kb : (tensor<4x2x1x8xf32>, tensor<4x2x8x17xf32>) -> tensor<4x2x1x17xf32> loc("other")
  // Read by a matmul and by an add.
  %ks = graph.transpose %cache {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x17x8xf32>) -> tensor<2x4x8x17xf32> loc("kt_shared")
  %s2 = graph.matmul %q, %ks : (tensor<2x4x1x8xf32>, tensor<2x4x8x17xf32>) -> tensor<2x4x1x17xf32> loc("twice")
  %sum = graph.add %s, %s2 : (tensor<2x4x1x17xf32>, tensor<2x4x1x17xf32>) -> tensor<2x4x1x17xf32> loc("sum")
  %ks2 = graph.add %ks, %ks : (tensor<2x4x8x17xf32>, tensor<2x4x8x17xf32>) -> tensor<2x4x8x17xf32> loc("kt_twice")
  // GQA: one KV head serves the 4 query heads.
  %g1 = graph.reshape %kv1 : (tensor<2x1x17x8xf32>) -> tensor<2x1x1x17x8xf32> loc("gqa.unsqueeze")
  %g2 = graph.expand %g1 : (tensor<2x1x1x17x8xf32>) -> tensor<2x1x4x17x8xf32> loc("gqa.repeat")
  %g3 = graph.reshape %g2 : (tensor<2x1x4x17x8xf32>) -> tensor<2x4x17x8xf32> loc("gqa.heads")
  %g4 = graph.transpose %g3 {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x17x8xf32>) -> tensor<2x4x8x17xf32> loc("gqa.kt")
  %g5 = graph.matmul %q, %g4 : (tensor<2x4x1x8xf32>, tensor<2x4x8x17xf32>) -> tensor<2x4x1x17xf32> loc("gqa")
  // K^T, then a view merging batch and heads, then bmm.
  %v1 = graph.transpose %cache {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x17x8xf32>) -> tensor<2x4x8x17xf32> loc("kt_view")
  %v2 = graph.reshape %v1 : (tensor<2x4x8x17xf32>) -> tensor<8x8x17xf32> loc("kt_view.merge")
  %vq = graph.reshape %q : (tensor<2x4x1x8xf32>) -> tensor<8x1x8xf32> loc("q.merge")
  %v3 = graph.matmul %vq, %v2 : (tensor<8x1x8xf32>, tensor<8x8x17xf32>) -> tensor<8x1x17xf32> loc("bmm")
  // A view that regroups the matrices' own dims: [8, 17] -> [4, 34].
  %w1 = graph.transpose %cache {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x17x8xf32>) -> tensor<2x4x8x17xf32> loc("kt_split")
  %w2 = graph.reshape %w1 : (tensor<2x4x8x17xf32>) -> tensor<2x4x4x34xf32> loc("kt_split.view")
  %wq = graph.slice %q {starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : (tensor<2x4x1x8xf32>) -> tensor<2x4x1x4xf32> loc("q.half")
  %w3 = graph.matmul %wq, %w2 : (tensor<2x4x1x4xf32>, tensor<2x4x4x34xf32>) -> tensor<2x4x1x34xf32> loc("split")
  // A view of K^T that nothing reads.
  %d1 = graph.transpose %cache {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x17x8xf32>) -> tensor<2x4x8x17xf32> loc("kt_dead")
  %d2 = graph.reshape %d1 : (tensor<2x4x8x17xf32>) -> tensor<8x8x17xf32> loc("kt_dead.merge")
  return %sum, %sb, %ks2, %g5, %v3, %w3 : tensor<2x4x1x17xf32>, tensor<4x2x1x17xf32>, tensor<2x4x8x17xf32>, tensor<2x4x1x17xf32>,
         tensor<8x1x17xf32>, tensor<2x4x1x34xf32>
}
