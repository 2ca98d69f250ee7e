// Tensor parallelism (graph-shard tensor-parallel=N): the module becomes
// one chip's program of N. A transformer block partitions as Megatron-LM
// does: the fused QKV product takes the chip's columns (its heads' q, k
// and v), the heads flow through the reshape, the transposes and the
// attention, the output product takes the chip's rows of its weight and
// makes a partial sum, and one all-reduce joins it before the residual
// add; the MLP's up product is column-parallel, its down product
// row-parallel, then the second all-reduce. Nothing is gathered.
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=4" | FileCheck %s
// The same program on the TPU:
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-tpu-v5e tensor-parallel=4" | FileCheck %s
// One chip is the module as it was:
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=1" | FileCheck %s --check-prefix=ONE
// A remark counts what it did:
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=4 remarks=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=2" | FileCheck %s --check-prefix=NORMED

// Each chip holds its head of the caches (inputs and results):
// CHECK-LABEL: func.func @main(%arg0: tensor<2x8x64xf16> {graph.name = "x"}, %arg1: tensor<2x1x8x16xf16> {graph.name = "past_k"}, %arg2: tensor<2x1x8x16xf16> {graph.name = "past_v"})
// CHECK-SAME: -> (tensor<2x8x64xf16>, tensor<2x1x16x16xf16>, tensor<2x1x16x16xf16>)
// CHECK-NOT: graph.all_gather
// CHECK: graph.weight "qkv.tp-cols" at ""[0] : tensor<64x48xf16>
// CHECK: graph.split %{{.*}} {axis = 2 : i64, sizes = array<i64: 16, 16, 16>} : (tensor<2x8x48xf16>)
// CHECK: graph.concat %arg1, %{{.*}} {axis = 2 : i64} : (tensor<2x1x8x16xf16>, tensor<2x1x8x16xf16>) -> tensor<2x1x16x16xf16>
// CHECK: graph.attention {{.*}} -> tensor<2x1x8x16xf16>
// CHECK: graph.weight "o.tp-rows" at ""[0] : tensor<16x64xf16>
// CHECK: %[[O:.*]] = graph.matmul %{{.*}} : (tensor<2x8x16xf16>, tensor<16x64xf16>) -> tensor<2x8x64xf16>
// CHECK: graph.weight "up.tp-cols" at ""[0] : tensor<64x64xf16>
// The residual add waits for its reader (deferAdd), then reduces:
// CHECK: %[[R:.*]] = graph.all_reduce %[[O]] {chips = 4 : i64} : tensor<2x8x64xf16>
// CHECK: %[[H:.*]] = graph.add %arg0, %[[R]]
// CHECK: graph.matmul %[[H]], %{{.*}} : (tensor<2x8x64xf16>, tensor<64x64xf16>) -> tensor<2x8x64xf16>
// CHECK: graph.gelu %{{.*}} : tensor<2x8x64xf16>
// CHECK: graph.weight "down.tp-rows" at ""[0] : tensor<64x64xf16>
// CHECK: %[[D:.*]] = graph.matmul %{{.*}} : (tensor<2x8x64xf16>, tensor<64x64xf16>) -> tensor<2x8x64xf16>
// CHECK: %[[DR:.*]] = graph.all_reduce %[[D]] {chips = 4 : i64}
// CHECK: graph.add %[[H]], %[[DR]]
// CHECK-NOT: graph.all_
// CHECK: return

// ONE-NOT: graph.all_
// ONE: graph.weight "qkv" at "m.bin"[0] : tensor<64x192xf16>

// (two collectives in @main, one in @normed_qk)
// REMARK: remark: tensor parallelism over 4 chips: {{[0-9]+}} ops partitioned, 3 collectives

func.func @main(%x: tensor<2x8x64xf16> {graph.name = "x"}, %pk: tensor<2x4x8x16xf16> {graph.name = "past_k"},
                %pv: tensor<2x4x8x16xf16> {graph.name = "past_v"})
    -> (tensor<2x8x64xf16>, tensor<2x4x16x16xf16>, tensor<2x4x16x16xf16>) {
  %wqkv = graph.weight "qkv" at "m.bin"[0] : tensor<64x192xf16>
  %qkv = graph.matmul %x, %wqkv : (tensor<2x8x64xf16>, tensor<64x192xf16>) -> tensor<2x8x192xf16> loc("qkv")
  %q, %k, %v = graph.split %qkv {axis = 2 : i64, sizes = array<i64: 64, 64, 64>} : (tensor<2x8x192xf16>) -> (tensor<2x8x64xf16>, tensor<2x8x64xf16>, tensor<2x8x64xf16>)
  %q4 = graph.reshape %q : (tensor<2x8x64xf16>) -> tensor<2x8x4x16xf16>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x4x16xf16>) -> tensor<2x4x8x16xf16>
  %k4 = graph.reshape %k : (tensor<2x8x64xf16>) -> tensor<2x8x4x16xf16>
  %kt = graph.transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x4x16xf16>) -> tensor<2x4x8x16xf16>
  %kc = graph.concat %pk, %kt {axis = 2 : i64} : (tensor<2x4x8x16xf16>, tensor<2x4x8x16xf16>) -> tensor<2x4x16x16xf16>
  %v4 = graph.reshape %v : (tensor<2x8x64xf16>) -> tensor<2x8x4x16xf16>
  %vt = graph.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x4x16xf16>) -> tensor<2x4x8x16xf16>
  %vc = graph.concat %pv, %vt {axis = 2 : i64} : (tensor<2x4x8x16xf16>, tensor<2x4x8x16xf16>) -> tensor<2x4x16x16xf16>
  %a = graph.attention %qt, %kc, %vc {scale = 0.25 : f64} : (tensor<2x4x8x16xf16>, tensor<2x4x16x16xf16>, tensor<2x4x16x16xf16>) -> tensor<2x4x8x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x8x16xf16>) -> tensor<2x8x4x16xf16>
  %a2 = graph.reshape %at : (tensor<2x8x4x16xf16>) -> tensor<2x8x64xf16>
  %wo = graph.weight "o" at "m.bin"[24576] : tensor<64x64xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x8x64xf16>, tensor<64x64xf16>) -> tensor<2x8x64xf16> loc("o")
  %h = graph.add %x, %o : (tensor<2x8x64xf16>, tensor<2x8x64xf16>) -> tensor<2x8x64xf16>
  %wu = graph.weight "up" at "m.bin"[32768] : tensor<64x256xf16>
  %u = graph.matmul %h, %wu : (tensor<2x8x64xf16>, tensor<64x256xf16>) -> tensor<2x8x256xf16> loc("up")
  %g = graph.gelu %u : tensor<2x8x256xf16>
  %wd = graph.weight "down" at "m.bin"[65536] : tensor<256x64xf16>
  %d = graph.matmul %g, %wd : (tensor<2x8x256xf16>, tensor<256x64xf16>) -> tensor<2x8x64xf16> loc("down")
  %y = graph.add %h, %d : (tensor<2x8x64xf16>, tensor<2x8x64xf16>) -> tensor<2x8x64xf16>
  return %y, %kc, %vc : tensor<2x8x64xf16>, tensor<2x4x16x16xf16>, tensor<2x4x16x16xf16>
}

// Queries and keys normalised across every head before the heads are
// split (OLMo2's q_norm and k_norm) stay whole; the values split, and the
// attention takes the chip's heads of the whole queries and keys locally
// rather than gathering the values.
// NORMED-LABEL: func.func @normed_qk
// NORMED: graph.weight "v.tp-cols" at ""[0] : tensor<64x32xf16>
// NORMED: graph.attention {{.*}} : (tensor<2x2x1x16xf16>, tensor<2x2x1x16xf16>, tensor<2x2x1x16xf16>) -> tensor<2x2x1x16xf16>
// NORMED: graph.weight "o.tp-rows" at ""[0] : tensor<32x64xf16>
// NORMED-NOT: graph.all_gather
// NORMED: return
func.func @normed_qk(%x: tensor<2x1x64xf16> {graph.name = "x"}) -> tensor<2x1x64xf16> {
  %wq = graph.weight "q" at "m.bin"[0] : tensor<64x64xf16>
  %wk = graph.weight "k" at "m.bin"[8192] : tensor<64x64xf16>
  %wv = graph.weight "v" at "m.bin"[16384] : tensor<64x64xf16>
  %q0 = graph.matmul %x, %wq : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  %qs = graph.reduce_mean %q0 {axes = array<i64: 2>} : (tensor<2x1x64xf16>) -> tensor<2x1x1xf16>
  %qn = graph.div %q0, %qs : (tensor<2x1x64xf16>, tensor<2x1x1xf16>) -> tensor<2x1x64xf16>
  %k0 = graph.matmul %x, %wk : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  %ks = graph.reduce_mean %k0 {axes = array<i64: 2>} : (tensor<2x1x64xf16>) -> tensor<2x1x1xf16>
  %kn = graph.div %k0, %ks : (tensor<2x1x64xf16>, tensor<2x1x1xf16>) -> tensor<2x1x64xf16>
  %v0 = graph.matmul %x, %wv : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  %q1 = graph.reshape %qn : (tensor<2x1x64xf16>) -> tensor<2x1x4x16xf16>
  %q = graph.transpose %q1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x4x16xf16>) -> tensor<2x4x1x16xf16>
  %k1 = graph.reshape %kn : (tensor<2x1x64xf16>) -> tensor<2x1x4x16xf16>
  %k = graph.transpose %k1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x4x16xf16>) -> tensor<2x4x1x16xf16>
  %v1 = graph.reshape %v0 : (tensor<2x1x64xf16>) -> tensor<2x1x4x16xf16>
  %v = graph.transpose %v1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x4x16xf16>) -> tensor<2x4x1x16xf16>
  %a = graph.attention %q, %k, %v {scale = 0.25 : f64} : (tensor<2x4x1x16xf16>, tensor<2x4x1x16xf16>, tensor<2x4x1x16xf16>) -> tensor<2x4x1x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x1x16xf16>) -> tensor<2x1x4x16xf16>
  %a2 = graph.reshape %at : (tensor<2x1x4x16xf16>) -> tensor<2x1x64xf16>
  %wo = graph.weight "o" at "m.bin"[24576] : tensor<64x64xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  return %o : tensor<2x1x64xf16>
}
