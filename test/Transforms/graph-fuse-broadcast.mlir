// A broadcast fuses into its reader, not its producer: GQA's repeat of the
// key and value heads (an unsqueeze, an expand over the query heads each
// KV head serves, a reshape) is taken into the attention kernel, which
// then reads the cache once instead of a copy as large as the query
// heads' (the kernel's input is the 2-head cache, not the 4-head one), on
// the GPU's and the TPU's fusion policies alike. A pointwise reader takes
// its broadcast the same way.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-tpu-v5e" | FileCheck %s
// Fused kernels compute what the ops did:
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" -o %t.gpu.mlir
// RUN: %with_test_targets dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.gpu.mlir --seed 3 --outputs %t.fused > /dev/null
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t.ref/output_%%d.npy' %% i), np.load('%t.fused/output_%%d.npy' %% i)) for i in (0, 1)]"

// CHECK: graph.kernel "cache" kind "data"
// CHECK-NOT: graph.expand
// CHECK: graph.yield
// CHECK: graph.kernel "attn" kind "attention"(%0, %arg0) : (tensor<1x2x17x8xf32>, tensor<1x4x1x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.reshape
// CHECK-NEXT: graph.expand {{.*}} -> tensor<1x2x2x17x8xf32>
// CHECK-NEXT: graph.reshape
// CHECK-NEXT: graph.attention
// CHECK: graph.kernel "shared" kind "pointwise"(%arg3) : (tensor<1x1x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.expand
// CHECK-NEXT: graph.add

func.func @main(%q: tensor<1x4x1x8xf32> {graph.name = "q"}, %past: tensor<1x2x16x8xf32> {graph.name = "past"},
                %new: tensor<1x2x1x8xf32> {graph.name = "new"}, %b: tensor<1x1x8xf32> {graph.name = "b"})
    -> (tensor<1x4x1x8xf32>, tensor<3x1x8xf32>) {
  %k = graph.concat %past, %new {axis = 2 : i64} : (tensor<1x2x16x8xf32>, tensor<1x2x1x8xf32>) -> tensor<1x2x17x8xf32> loc("cache")
  %u = graph.reshape %k : (tensor<1x2x17x8xf32>) -> tensor<1x2x1x17x8xf32> loc("unsqueeze")
  %e = graph.expand %u : (tensor<1x2x1x17x8xf32>) -> tensor<1x2x2x17x8xf32> loc("repeat")
  %r = graph.reshape %e : (tensor<1x2x2x17x8xf32>) -> tensor<1x4x17x8xf32> loc("heads")
  %a = graph.attention %q, %r, %r {scale = 0.35 : f64} : (tensor<1x4x1x8xf32>, tensor<1x4x17x8xf32>, tensor<1x4x17x8xf32>) -> tensor<1x4x1x8xf32> loc("attn")
  %s = graph.expand %b : (tensor<1x1x8xf32>) -> tensor<3x1x8xf32> loc("shared")
  %t = graph.add %s, %s : (tensor<3x1x8xf32>, tensor<3x1x8xf32>) -> tensor<3x1x8xf32> loc("twice")
  return %a, %t : tensor<1x4x1x8xf32>, tensor<3x1x8xf32>
}
