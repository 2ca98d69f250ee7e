// Tensor parallelism through an in-place KV-cache append (onnxruntime's
// GroupQueryAttention as dfa imports it: the past buffer padded for the new
// rows and a scatter_nd of the new keys at [b, h, P_b]) and through a fused
// QKV cut by slices (the GenAI builder's and Phi-3's exports): each chip
// appends to its own K/V heads of the cache, the slices are read as one
// split, and nothing is gathered. Then fused QKV products taken apart by
// gathers (Falcon's and BLOOM's).
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=2" | FileCheck %s --check-prefix=TWO
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=4" | FileCheck %s --check-prefix=FOUR
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=2" | FileCheck %s --check-prefix=NOGATHER
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=4" | FileCheck %s --check-prefix=NOGATHER
// NOGATHER-LABEL: func.func @inplace
// NOGATHER-NOT: graph.all_gather
// NOGATHER-LABEL: func.func @tensor_scatter
// NOGATHER-NOT: graph.all_gather
// NOGATHER-LABEL: func.func @dead_queries
// NOGATHER-NOT: graph.all_gather
// NOGATHER-LABEL: func.func @not_iota
// NOGATHER-LABEL: func.func @bloom
// NOGATHER-NOT: graph.all_gather
// NOGATHER-LABEL: func.func @falcon_groups
// NOGATHER-NOT: graph.all_gather
// NOGATHER-LABEL: func.func @gather_nd_batch
// NOGATHER-NOT: graph.all_gather

// Two K/V heads, four query heads of 16: over two chips each holds one K/V
// head and two query heads (32 + 16 + 16 columns of the fused product);
// the cache inputs and results are the chip's head, the scatter's index
// tuples its head's (a slice of the head coordinates 0, 1: its own, 0).
// TWO-LABEL: func.func @inplace(%arg0: tensor<2x1x64xf16> {graph.name = "x"}, %arg1: tensor<2x1x8x16xf16> {graph.name = "past_k"}, %arg2: tensor<2x1x8x16xf16> {graph.name = "past_v"}
// TWO-SAME: -> (tensor<2x1x64xf16>, tensor<2x1x9x16xf16>, tensor<2x1x9x16xf16>)
// TWO: graph.weight "qkv.tp-cols" at ""[0] : tensor<64x64xf16>
// TWO: graph.split %{{.*}} {axis = 2 : i64, sizes = array<i64: 32, 16, 16>} : (tensor<2x1x64xf16>)
// TWO: graph.pad %arg1 {{.*}} : (tensor<2x1x8x16xf16>) -> tensor<2x1x9x16xf16>
// TWO: graph.scatter_nd {{.*}} : (tensor<2x1x9x16xf16>, tensor<2x1x1x3xi64>, tensor<2x1x1x16xf16>) -> tensor<2x1x9x16xf16>
// TWO: graph.attention {{.*}} : (tensor<2x2x1x16xf16>, tensor<2x2x9x16xf16>, tensor<2x2x9x16xf16>) -> tensor<2x2x1x16xf16>
// TWO: graph.weight "o.tp-rows" at ""[0] : tensor<32x64xf16>
// TWO: graph.all_reduce %{{.*}} {chips = 2 : i64}
// TWO-NOT: graph.all_
// TWO: return

// Over four chips each K/V head is held by two chips (replicas): still one
// head of the cache a chip, and one query head.
// FOUR-LABEL: func.func @inplace(%arg0: tensor<2x1x64xf16> {graph.name = "x"}, %arg1: tensor<2x1x8x16xf16> {graph.name = "past_k"}, %arg2: tensor<2x1x8x16xf16> {graph.name = "past_v"}
// FOUR: graph.scatter_nd {{.*}} : (tensor<2x1x9x16xf16>, tensor<2x1x1x3xi64>, tensor<2x1x1x16xf16>) -> tensor<2x1x9x16xf16>
// FOUR: graph.attention {{.*}} : (tensor<2x1x1x16xf16>, tensor<2x1x9x16xf16>, tensor<2x1x9x16xf16>) -> tensor<2x1x1x16xf16>
// FOUR: graph.all_reduce %{{.*}} {chips = 4 : i64}
// FOUR-NOT: graph.all_
// FOUR: return
func.func @inplace(%x: tensor<2x1x64xf16> {graph.name = "x"}, %pk: tensor<2x2x8x16xf16> {graph.name = "past_k"},
                   %pv: tensor<2x2x8x16xf16> {graph.name = "past_v"}, %pos: tensor<2x1x1x1xi64> {graph.name = "pos"})
    -> (tensor<2x1x64xf16>, tensor<2x2x9x16xf16>, tensor<2x2x9x16xf16>) {
  %w = graph.weight "qkv" at "m.bin"[0] : tensor<64x128xf16>
  %qkv = graph.matmul %x, %w : (tensor<2x1x64xf16>, tensor<64x128xf16>) -> tensor<2x1x128xf16>
  %q0 = graph.slice %qkv {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<2x1x128xf16>) -> tensor<2x1x64xf16>
  %k0 = graph.slice %qkv {starts = array<i64: 0, 0, 64>, steps = array<i64: 1, 1, 1>} : (tensor<2x1x128xf16>) -> tensor<2x1x32xf16>
  %v0 = graph.slice %qkv {starts = array<i64: 0, 0, 96>, steps = array<i64: 1, 1, 1>} : (tensor<2x1x128xf16>) -> tensor<2x1x32xf16>
  %q1 = graph.reshape %q0 : (tensor<2x1x64xf16>) -> tensor<2x1x4x16xf16>
  %q = graph.transpose %q1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x4x16xf16>) -> tensor<2x4x1x16xf16>
  %k1 = graph.reshape %k0 : (tensor<2x1x32xf16>) -> tensor<2x1x2x16xf16>
  %k = graph.transpose %k1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x2x16xf16>) -> tensor<2x2x1x16xf16>
  %v1 = graph.reshape %v0 : (tensor<2x1x32xf16>) -> tensor<2x1x2x16xf16>
  %v = graph.transpose %v1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x2x16xf16>) -> tensor<2x2x1x16xf16>
  %cb = graph.constant dense<[[[[0]], [[0]]], [[[1]], [[1]]]]> : tensor<2x2x1x1xi64>
  %ch = graph.constant dense<[[[[0]], [[1]]], [[[0]], [[1]]]]> : tensor<2x2x1x1xi64>
  %cp = graph.expand %pos : (tensor<2x1x1x1xi64>) -> tensor<2x2x1x1xi64>
  %idx = graph.concat %cb, %ch, %cp {axis = 3 : i64} : (tensor<2x2x1x1xi64>, tensor<2x2x1x1xi64>, tensor<2x2x1x1xi64>) -> tensor<2x2x1x3xi64>
  %pk9 = graph.pad %pk {pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 0>} : (tensor<2x2x8x16xf16>) -> tensor<2x2x9x16xf16>
  %nk = graph.scatter_nd %pk9, %idx, %k : (tensor<2x2x9x16xf16>, tensor<2x2x1x3xi64>, tensor<2x2x1x16xf16>) -> tensor<2x2x9x16xf16>
  %pv9 = graph.pad %pv {pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 0>} : (tensor<2x2x8x16xf16>) -> tensor<2x2x9x16xf16>
  %nv = graph.scatter_nd %pv9, %idx, %v : (tensor<2x2x9x16xf16>, tensor<2x2x1x3xi64>, tensor<2x2x1x16xf16>) -> tensor<2x2x9x16xf16>
  %k5 = graph.reshape %nk : (tensor<2x2x9x16xf16>) -> tensor<2x2x1x9x16xf16>
  %ke = graph.expand %k5 : (tensor<2x2x1x9x16xf16>) -> tensor<2x2x2x9x16xf16>
  %kr = graph.reshape %ke : (tensor<2x2x2x9x16xf16>) -> tensor<2x4x9x16xf16>
  %v5 = graph.reshape %nv : (tensor<2x2x9x16xf16>) -> tensor<2x2x1x9x16xf16>
  %ve = graph.expand %v5 : (tensor<2x2x1x9x16xf16>) -> tensor<2x2x2x9x16xf16>
  %vr = graph.reshape %ve : (tensor<2x2x2x9x16xf16>) -> tensor<2x4x9x16xf16>
  %a = graph.attention %q, %kr, %vr {scale = 0.25 : f64} : (tensor<2x4x1x16xf16>, tensor<2x4x9x16xf16>, tensor<2x4x9x16xf16>) -> tensor<2x4x1x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x1x16xf16>) -> tensor<2x1x4x16xf16>
  %a2 = graph.reshape %at : (tensor<2x1x4x16xf16>) -> tensor<2x1x64xf16>
  %wo = graph.weight "o" at "m.bin"[16384] : tensor<64x64xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  return %o, %nk, %nv : tensor<2x1x64xf16>, tensor<2x2x9x16xf16>, tensor<2x2x9x16xf16>
}

// ONNX's TensorScatter (opset 24) appends along the sequence with a
// scatter_elements: each chip writes its heads' rows.
// TWO-LABEL: func.func @tensor_scatter(%arg0: tensor<2x1x64xf16> {graph.name = "x"}, %arg1: tensor<2x2x8x16xf16> {graph.name = "past_k"}
// TWO-SAME: -> (tensor<2x1x64xf16>, tensor<2x2x8x16xf16>)
// TWO: graph.weight "k.tp-cols" at ""[0] : tensor<64x32xf16>
// TWO: graph.scatter_elements {{.*}} : (tensor<2x2x8x16xf16>, tensor<2x2x1x16xi64>, tensor<2x2x1x16xf16>) -> tensor<2x2x8x16xf16>
// TWO: graph.weight "o.tp-rows" at ""[0] : tensor<32x64xf16>
func.func @tensor_scatter(%x: tensor<2x1x64xf16> {graph.name = "x"}, %pk: tensor<2x4x8x16xf16> {graph.name = "past_k"},
                          %at: tensor<2x1x1x1xi64> {graph.name = "at"})
    -> (tensor<2x1x64xf16>, tensor<2x4x8x16xf16>) {
  %w = graph.weight "k" at "m.bin"[0] : tensor<64x64xf16>
  %k0 = graph.matmul %x, %w : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  %k1 = graph.reshape %k0 : (tensor<2x1x64xf16>) -> tensor<2x1x4x16xf16>
  %k = graph.transpose %k1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x4x16xf16>) -> tensor<2x4x1x16xf16>
  %idx = graph.expand %at : (tensor<2x1x1x1xi64>) -> tensor<2x4x1x16xi64>
  %nk = graph.scatter_elements %pk, %idx, %k {axis = 2 : i64} : (tensor<2x4x8x16xf16>, tensor<2x4x1x16xi64>, tensor<2x4x1x16xf16>) -> tensor<2x4x8x16xf16>
  %kt = graph.transpose %nk {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x8x16xf16>) -> tensor<2x4x16x8xf16>
  %s = graph.matmul %k, %kt : (tensor<2x4x1x16xf16>, tensor<2x4x16x8xf16>) -> tensor<2x4x1x8xf16>
  %p = graph.matmul %s, %nk : (tensor<2x4x1x8xf16>, tensor<2x4x8x16xf16>) -> tensor<2x4x1x16xf16>
  %pt = graph.transpose %p {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x1x16xf16>) -> tensor<2x1x4x16xf16>
  %p2 = graph.reshape %pt : (tensor<2x1x4x16xf16>) -> tensor<2x1x64xf16>
  %wo = graph.weight "o" at "m.bin"[8192] : tensor<64x64xf16>
  %o = graph.matmul %p2, %wo : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  return %o, %nk : tensor<2x1x64xf16>, tensor<2x4x8x16xf16>
}

// Slices that leave a range unread (a fused QKV whose queries nothing
// reads) are still a split: the unread piece is one of its results.
// TWO-LABEL: func.func @dead_queries
// TWO: graph.weight "qkv.tp-cols" at ""[0] : tensor<64x64xf16>
// TWO: graph.split %{{.*}} {axis = 2 : i64, sizes = array<i64: 32, 16, 16>}
// TWO: return {{.*}} : tensor<2x1x1x16xf16>, tensor<2x1x1x16xf16>
func.func @dead_queries(%x: tensor<2x1x64xf16> {graph.name = "x"}) -> (tensor<2x1x2x16xf16>, tensor<2x1x2x16xf16>) {
  %w = graph.weight "qkv" at "m.bin"[0] : tensor<64x128xf16>
  %qkv = graph.matmul %x, %w : (tensor<2x1x64xf16>, tensor<64x128xf16>) -> tensor<2x1x128xf16>
  %k0 = graph.slice %qkv {starts = array<i64: 0, 0, 64>, steps = array<i64: 1, 1, 1>} : (tensor<2x1x128xf16>) -> tensor<2x1x32xf16>
  %v0 = graph.slice %qkv {starts = array<i64: 0, 0, 96>, steps = array<i64: 1, 1, 1>} : (tensor<2x1x128xf16>) -> tensor<2x1x32xf16>
  %k = graph.reshape %k0 : (tensor<2x1x32xf16>) -> tensor<2x1x2x16xf16>
  %v = graph.reshape %v0 : (tensor<2x1x32xf16>) -> tensor<2x1x2x16xf16>
  return %k, %v : tensor<2x1x2x16xf16>, tensor<2x1x2x16xf16>
}

// Index tuples whose head coordinate is not the updates' own head (here
// reversed) may write another chip's part: the scatter takes whole
// operands, so the product that makes the keys stays whole (a split would
// need a gather), and overlapping slices are not a split.
// TWO-LABEL: func.func @not_iota
// TWO-NOT: graph.split
// TWO-NOT: tp-cols
// TWO: graph.scatter_nd {{.*}} : (tensor<2x2x9x16xf16>, tensor<2x2x1x3xi64>, tensor<2x2x1x16xf16>) -> tensor<2x2x9x16xf16>
func.func @not_iota(%x: tensor<2x1x64xf16> {graph.name = "x"}, %pk: tensor<2x2x8x16xf16> {graph.name = "past_k"},
                    %pos: tensor<2x1x1x1xi64> {graph.name = "pos"})
    -> (tensor<2x2x9x16xf16>, tensor<2x1x48xf16>) {
  %w = graph.weight "k" at "m.bin"[0] : tensor<64x64xf16>
  %kk = graph.matmul %x, %w : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  %k0 = graph.slice %kk {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<2x1x64xf16>) -> tensor<2x1x32xf16>
  %over = graph.slice %kk {starts = array<i64: 0, 0, 16>, steps = array<i64: 1, 1, 1>} : (tensor<2x1x64xf16>) -> tensor<2x1x48xf16>
  %k1 = graph.reshape %k0 : (tensor<2x1x32xf16>) -> tensor<2x1x2x16xf16>
  %k = graph.transpose %k1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x2x16xf16>) -> tensor<2x2x1x16xf16>
  %cb = graph.constant dense<[[[[0]], [[0]]], [[[1]], [[1]]]]> : tensor<2x2x1x1xi64>
  %ch = graph.constant dense<[[[[1]], [[0]]], [[[1]], [[0]]]]> : tensor<2x2x1x1xi64>
  %cp = graph.expand %pos : (tensor<2x1x1x1xi64>) -> tensor<2x2x1x1xi64>
  %idx = graph.concat %cb, %ch, %cp {axis = 3 : i64} : (tensor<2x2x1x1xi64>, tensor<2x2x1x1xi64>, tensor<2x2x1x1xi64>) -> tensor<2x2x1x3xi64>
  %pk9 = graph.pad %pk {pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 0>} : (tensor<2x2x8x16xf16>) -> tensor<2x2x9x16xf16>
  %nk = graph.scatter_nd %pk9, %idx, %k : (tensor<2x2x9x16xf16>, tensor<2x2x1x3xi64>, tensor<2x2x1x16xf16>) -> tensor<2x2x9x16xf16>
  return %nk, %over : tensor<2x2x9x16xf16>, tensor<2x1x48xf16>
}

// BLOOM's and Falcon's fused QKV, viewed [B, S, heads, 3, D] and gathered
// along the 3: a column-parallel product holds whole heads' q, k and v, so
// each gather reads the chip's heads.
// TWO-LABEL: func.func @bloom
// TWO: graph.weight "qkv.tp-cols" at ""[0] : tensor<64x96xf16>
// TWO: graph.gather {{.*}} {axis = 3 : i64} : (tensor<2x1x2x3x16xf16>, tensor<i64>) -> tensor<2x1x2x16xf16>
// TWO: graph.attention {{.*}} -> tensor<2x2x1x16xf16>
// TWO: graph.weight "o.tp-rows" at ""[0] : tensor<32x64xf16>
// TWO: graph.all_reduce
// TWO-NOT: graph.all_
// TWO: return
func.func @bloom(%x: tensor<2x1x64xf16> {graph.name = "x"}) -> tensor<2x1x64xf16> {
  %w = graph.weight "qkv" at "m.bin"[0] : tensor<64x192xf16>
  %qkv = graph.matmul %x, %w : (tensor<2x1x64xf16>, tensor<64x192xf16>) -> tensor<2x1x192xf16>
  %r = graph.reshape %qkv : (tensor<2x1x192xf16>) -> tensor<2x1x4x3x16xf16>
  %i0 = graph.constant dense<0> : tensor<i64>
  %i1 = graph.constant dense<1> : tensor<i64>
  %i2 = graph.constant dense<2> : tensor<i64>
  %q0 = graph.gather %r, %i0 {axis = 3 : i64} : (tensor<2x1x4x3x16xf16>, tensor<i64>) -> tensor<2x1x4x16xf16>
  %k0 = graph.gather %r, %i1 {axis = 3 : i64} : (tensor<2x1x4x3x16xf16>, tensor<i64>) -> tensor<2x1x4x16xf16>
  %v0 = graph.gather %r, %i2 {axis = 3 : i64} : (tensor<2x1x4x3x16xf16>, tensor<i64>) -> tensor<2x1x4x16xf16>
  %q = graph.transpose %q0 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x4x16xf16>) -> tensor<2x4x1x16xf16>
  %k = graph.transpose %k0 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x4x16xf16>) -> tensor<2x4x1x16xf16>
  %v = graph.transpose %v0 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x4x16xf16>) -> tensor<2x4x1x16xf16>
  %a = graph.attention %q, %k, %v {scale = 0.25 : f64} : (tensor<2x4x1x16xf16>, tensor<2x4x1x16xf16>, tensor<2x4x1x16xf16>) -> tensor<2x4x1x16xf16>
  %at = graph.transpose %a {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x1x16xf16>) -> tensor<2x1x4x16xf16>
  %a2 = graph.reshape %at : (tensor<2x1x4x16xf16>) -> tensor<2x1x64xf16>
  %wo = graph.weight "o" at "m.bin"[24576] : tensor<64x64xf16>
  %o = graph.matmul %a2, %wo : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  return %o : tensor<2x1x64xf16>
}

// Falcon's new architecture: [B, S, K/V groups, queries + 2, D], its K
// taken by a gather_nd along a leading dim after a transpose; the groups
// are split.
// TWO-LABEL: func.func @falcon_groups
// TWO: graph.weight "qkv.tp-cols" at ""[0] : tensor<64x96xf16>
// TWO: graph.gather_nd {{.*}} : (tensor<6x2x1x1x16xf16>, tensor<1x1xi64>) -> tensor<1x2x1x1x16xf16>
// TWO: return {{.*}} : tensor<2x1x1x4x16xf16>, tensor<2x1x1x1x16xf16>
func.func @falcon_groups(%x: tensor<2x1x64xf16> {graph.name = "x"}) -> (tensor<2x1x2x4x16xf16>, tensor<2x1x2x1x16xf16>) {
  %w = graph.weight "qkv" at "m.bin"[0] : tensor<64x192xf16>
  %qkv = graph.matmul %x, %w : (tensor<2x1x64xf16>, tensor<64x192xf16>) -> tensor<2x1x192xf16>
  %r = graph.reshape %qkv : (tensor<2x1x192xf16>) -> tensor<2x1x2x6x16xf16>
  %q = graph.slice %r {starts = array<i64: 0, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : (tensor<2x1x2x6x16xf16>) -> tensor<2x1x2x4x16xf16>
  %t = graph.transpose %r {perm = array<i64: 3, 0, 1, 2, 4>} : (tensor<2x1x2x6x16xf16>) -> tensor<6x2x1x2x16xf16>
  %i = graph.constant dense<[[4]]> : tensor<1x1xi64>
  %k0 = graph.gather_nd %t, %i : (tensor<6x2x1x2x16xf16>, tensor<1x1xi64>) -> tensor<1x2x1x2x16xf16>
  %k = graph.transpose %k0 {perm = array<i64: 1, 2, 3, 0, 4>} : (tensor<1x2x1x2x16xf16>) -> tensor<2x1x2x1x16xf16>
  return %q, %k : tensor<2x1x2x4x16xf16>, tensor<2x1x2x1x16xf16>
}

// gather_nd with batch dims: its result is input[:b] + indices[b:-1] +
// input[b + k:], so the heads (input dim 2) land on result dim 1.
// TWO-LABEL: func.func @gather_nd_batch
// TWO: graph.gather_nd {{.*}} {batch_dims = 1 : i64} : (tensor<2x3x2x16xf16>, tensor<2x1xi64>) -> tensor<2x2x16xf16>
func.func @gather_nd_batch(%x: tensor<2x1x64xf16> {graph.name = "x"}) -> tensor<2x4x16xf16> {
  %w = graph.weight "qkv" at "m.bin"[0] : tensor<64x192xf16>
  %qkv = graph.matmul %x, %w : (tensor<2x1x64xf16>, tensor<64x192xf16>) -> tensor<2x1x192xf16>
  %r = graph.reshape %qkv : (tensor<2x1x192xf16>) -> tensor<2x4x3x16xf16>
  %t = graph.transpose %r {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x3x16xf16>) -> tensor<2x3x4x16xf16>
  %i = graph.constant dense<[[0], [1]]> : tensor<2x1xi64>
  %g = graph.gather_nd %t, %i {batch_dims = 1 : i64} : (tensor<2x3x4x16xf16>, tensor<2x1xi64>) -> tensor<2x4x16xf16>
  return %g : tensor<2x4x16xf16>
}

// Refused, each for a reason (whole operands, nothing split wrongly):
// indices smaller than the data on the heads dim would be cut at other
// offsets; slices of a value that is not a weight product's (a constant
// added holds its columns where they are) are not a split; and a diagonal
// (h, h) addresses the unsplit dim by the heads too.
// TWO-LABEL: func.func @gather_elements_fewer
// TWO: graph.gather_elements {{.*}} : (tensor<2x4x8x16xf16>, tensor<2x2x8x16xi64>) -> tensor<2x2x8x16xf16>
// TWO-LABEL: func.func @slices_of_sum
// TWO-NOT: graph.split
// TWO: return
// TWO-LABEL: func.func @diagonal
// TWO: graph.scatter_nd {{.*}} : (tensor<4x4x16xf16>, tensor<4x2xi64>, tensor<4x16xf16>) -> tensor<4x4x16xf16>
func.func @gather_elements_fewer(%x: tensor<2x8x64xf16> {graph.name = "x"}, %idx: tensor<2x2x8x16xi64> {graph.name = "idx"}) -> tensor<2x2x8x16xf16> {
  %w = graph.weight "k" at "m.bin"[0] : tensor<64x64xf16>
  %k0 = graph.matmul %x, %w : (tensor<2x8x64xf16>, tensor<64x64xf16>) -> tensor<2x8x64xf16>
  %k1 = graph.reshape %k0 : (tensor<2x8x64xf16>) -> tensor<2x8x4x16xf16>
  %k = graph.transpose %k1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x4x16xf16>) -> tensor<2x4x8x16xf16>
  %g = graph.gather_elements %k, %idx {axis = 2 : i64} : (tensor<2x4x8x16xf16>, tensor<2x2x8x16xi64>) -> tensor<2x2x8x16xf16>
  return %g : tensor<2x2x8x16xf16>
}
func.func @slices_of_sum(%x: tensor<2x1x64xf16> {graph.name = "x"}, %c: tensor<64xf16> {graph.name = "c"}) -> tensor<2x1x32xf16> {
  %w = graph.weight "w" at "m.bin"[0] : tensor<64x64xf16>
  %y = graph.matmul %x, %w : (tensor<2x1x64xf16>, tensor<64x64xf16>) -> tensor<2x1x64xf16>
  %z = graph.add %y, %c : (tensor<2x1x64xf16>, tensor<64xf16>) -> tensor<2x1x64xf16>
  %a = graph.slice %z {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<2x1x64xf16>) -> tensor<2x1x32xf16>
  %b = graph.slice %z {starts = array<i64: 0, 0, 32>, steps = array<i64: 1, 1, 1>} : (tensor<2x1x64xf16>) -> tensor<2x1x32xf16>
  %s = graph.mul %a, %b : (tensor<2x1x32xf16>, tensor<2x1x32xf16>) -> tensor<2x1x32xf16>
  return %s : tensor<2x1x32xf16>
}
func.func @diagonal(%x: tensor<1x64xf16> {graph.name = "x"}, %d: tensor<4x4x16xf16> {graph.name = "d"}) -> tensor<4x4x16xf16> {
  %w = graph.weight "w" at "m.bin"[0] : tensor<64x64xf16>
  %u0 = graph.matmul %x, %w : (tensor<1x64xf16>, tensor<64x64xf16>) -> tensor<1x64xf16>
  %u = graph.reshape %u0 : (tensor<1x64xf16>) -> tensor<4x16xf16>
  %i = graph.constant dense<[[0, 0], [1, 1], [2, 2], [3, 3]]> : tensor<4x2xi64>
  %s = graph.scatter_nd %d, %i, %u : (tensor<4x4x16xf16>, tensor<4x2xi64>, tensor<4x16xf16>) -> tensor<4x4x16xf16>
  return %s : tensor<4x4x16xf16>
}
