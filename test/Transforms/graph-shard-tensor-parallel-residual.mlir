// A parallel residual, y = x + attn(x) + mlp(x) (GPT-J, GPT-NeoX, Falcon,
// Phi-2, PaLM), is one all-reduce a layer: the two row-parallel products'
// partial sums are added on each chip, the sum reduced once, and the
// replicated addends (the products' biases, the residual) added after it,
// as GPT-NeoX's own library runs it; reducing each branch on its own
// takes two.
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-shard="target=test-gpu tensor-parallel=2" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-shard="target=test-gpu tensor-parallel=2 remarks=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @parallel
// CHECK: %[[O:.*]] = graph.matmul %{{.*}} : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
// CHECK: %[[D:.*]] = graph.matmul %{{.*}} : (tensor<2x8x128xf32>, tensor<128x64xf32>) -> tensor<2x8x64xf32>
// CHECK: %[[S:.*]] = graph.add %[[O]], %[[D]]
// CHECK: %[[R:.*]] = graph.all_reduce %[[S]] {chips = 2 : i64}
// CHECK: %[[B1:.*]] = graph.add %[[R]], %{{.*}} : (tensor<2x8x64xf32>, tensor<64xf32>)
// CHECK: %[[B2:.*]] = graph.add %[[B1]], %{{.*}} : (tensor<2x8x64xf32>, tensor<64xf32>)
// CHECK: graph.add %arg0, %[[B2]]
// CHECK-NOT: graph.all_
// CHECK: return
// REMARK: remark: tensor parallelism over 2 chips: {{[0-9]+}} ops partitioned, 1 collectives
func.func @parallel(%x: tensor<2x8x64xf32> {graph.name = "x"}) -> tensor<2x8x64xf32> {
  %wv = graph.weight "v" at "m.bin"[0] : tensor<64x64xf32>
  %v = graph.matmul %x, %wv : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  %wo = graph.weight "o" at "m.bin"[16384] : tensor<64x64xf32>
  %bo = graph.weight "o.bias" at "m.bin"[32768] : tensor<64xf32>
  %o0 = graph.matmul %v, %wo : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  %o = graph.add %o0, %bo : (tensor<2x8x64xf32>, tensor<64xf32>) -> tensor<2x8x64xf32>
  %wu = graph.weight "up" at "m.bin"[33024] : tensor<64x256xf32>
  %u = graph.matmul %x, %wu : (tensor<2x8x64xf32>, tensor<64x256xf32>) -> tensor<2x8x256xf32>
  %g = graph.gelu %u : tensor<2x8x256xf32>
  %wd = graph.weight "down" at "m.bin"[98560] : tensor<256x64xf32>
  %bd = graph.weight "down.bias" at "m.bin"[164096] : tensor<64xf32>
  %d0 = graph.matmul %g, %wd : (tensor<2x8x256xf32>, tensor<256x64xf32>) -> tensor<2x8x64xf32>
  %d = graph.add %d0, %bd : (tensor<2x8x64xf32>, tensor<64xf32>) -> tensor<2x8x64xf32>
  %s = graph.add %o, %d : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %y = graph.add %x, %s : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  return %y : tensor<2x8x64xf32>
}

// -----

// A row-parallel Gemm's bias waits, as an add's would, for the first
// reader that needs the value whole.
// CHECK-LABEL: func.func @gemm_bias
// CHECK: %[[P:.*]] = graph.gemm %{{.*}} : (tensor<2x32xf32>, tensor<32x64xf32>) -> tensor<2x64xf32>
// CHECK: %[[R:.*]] = graph.all_reduce %[[P]] {chips = 2 : i64}
// CHECK: %[[B:.*]] = graph.add %[[R]], %{{.*}} : (tensor<2x64xf32>, tensor<64xf32>)
// CHECK: graph.softmax %[[B]]
// CHECK-NOT: graph.all_
// CHECK: return
// REMARK: remark: tensor parallelism over 2 chips: {{[0-9]+}} ops partitioned, 1 collectives
func.func @gemm_bias(%x: tensor<2x64xf32> {graph.name = "x"}) -> tensor<2x64xf32> {
  %w1 = graph.weight "w1" at "m.bin"[0] : tensor<64x64xf32>
  %h = graph.gemm %x, %w1 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %w2 = graph.weight "w2" at "m.bin"[16384] : tensor<64x64xf32>
  %b2 = graph.weight "b2" at "m.bin"[32768] : tensor<64xf32>
  %y = graph.gemm %h, %w2, %b2 : (tensor<2x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
  %z = graph.softmax %y {axis = 1 : i64} : tensor<2x64xf32>
  return %z : tensor<2x64xf32>
}

// -----

// An addend that would broadcast the partial sum ([2, 1, 64] plus
// [2, 8, 64]) is added after the reduction at once: the sum's type is not
// the partial's.
// CHECK-LABEL: func.func @broadcast
// CHECK: %[[P:.*]] = graph.matmul %{{.*}} : (tensor<2x1x128xf32>, tensor<128x64xf32>) -> tensor<2x1x64xf32>
// CHECK: %[[R:.*]] = graph.all_reduce %[[P]] {chips = 2 : i64} : tensor<2x1x64xf32>
// CHECK: graph.add %[[R]], %arg1 : (tensor<2x1x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
// REMARK: remark: tensor parallelism over 2 chips: {{[0-9]+}} ops partitioned, 1 collectives
func.func @broadcast(%x: tensor<2x1x64xf32> {graph.name = "x"}, %r: tensor<2x8x64xf32> {graph.name = "r"}) -> tensor<2x8x64xf32> {
  %wu = graph.weight "up" at "m.bin"[0] : tensor<64x256xf32>
  %u = graph.matmul %x, %wu : (tensor<2x1x64xf32>, tensor<64x256xf32>) -> tensor<2x1x256xf32>
  %wd = graph.weight "down" at "m.bin"[65536] : tensor<256x64xf32>
  %d = graph.matmul %u, %wd : (tensor<2x1x256xf32>, tensor<256x64xf32>) -> tensor<2x1x64xf32>
  %y = graph.add %d, %r : (tensor<2x1x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  return %y : tensor<2x8x64xf32>
}

// -----

// Two partial sums that other readers reduce anyway are not summed before
// a reduction of their own (that would be a third): the sum adds the two
// reduced values. (Found by review.)
// CHECK-LABEL: func.func @both_read
// CHECK: %[[P:.*]] = graph.all_reduce
// CHECK: %[[Q:.*]] = graph.all_reduce
// CHECK: graph.add %[[P]], %[[Q]]
// CHECK-NOT: graph.all_
// CHECK: return
// REMARK: remark: tensor parallelism over 2 chips: {{[0-9]+}} ops partitioned, 2 collectives
func.func @both_read(%x: tensor<2x64xf32> {graph.name = "x"}) -> (tensor<2x64xf32>, tensor<2x64xf32>, tensor<2x64xf32>) {
  %w1 = graph.weight "w1" at "m.bin"[0] : tensor<64x64xf32>
  %h = graph.matmul %x, %w1 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %w2 = graph.weight "w2" at "m.bin"[16384] : tensor<64x64xf32>
  %p = graph.matmul %h, %w2 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %w3 = graph.weight "w3" at "m.bin"[32768] : tensor<64x64xf32>
  %g = graph.matmul %x, %w3 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %w4 = graph.weight "w4" at "m.bin"[49152] : tensor<64x64xf32>
  %q = graph.matmul %g, %w4 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %s = graph.add %p, %q : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
  %a = graph.softmax %s {axis = 1 : i64} : tensor<2x64xf32>
  %b = graph.softmax %p {axis = 1 : i64} : tensor<2x64xf32>
  %c = graph.softmax %q {axis = 1 : i64} : tensor<2x64xf32>
  return %a, %b, %c : tensor<2x64xf32>, tensor<2x64xf32>, tensor<2x64xf32>
}

// -----

// A deferred value's reduction plus its addend, read first by an op that
// wants its chip's part, stays whole for its other readers: the part is a
// local slice of it (splitBack leaves toReplicated's values alone), and
// the second result is returned whole. (Found by review.)
// CHECK-LABEL: func.func @splitback
// CHECK-SAME: -> (tensor<2x64xf32>, tensor<2x64xf32>)
// CHECK: %[[R:.*]] = graph.all_reduce
// CHECK: %[[D:.*]] = graph.add %[[R]], %arg1 : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
// CHECK: graph.slice %[[D]]
// CHECK: graph.neg %[[D]] : tensor<2x64xf32>
// REMARK: remark: tensor parallelism over 2 chips: {{[0-9]+}} ops partitioned, 2 collectives
func.func @splitback(%x: tensor<2x64xf32> {graph.name = "x"}, %r: tensor<2x64xf32> {graph.name = "r"}) -> (tensor<2x64xf32>, tensor<2x64xf32>) {
  %w1 = graph.weight "w1" at "m.bin"[0] : tensor<64x64xf32>
  %h = graph.matmul %x, %w1 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %w2 = graph.weight "w2" at "m.bin"[16384] : tensor<64x64xf32>
  %p = graph.matmul %h, %w2 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %d = graph.add %p, %r : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
  %w3 = graph.weight "w3" at "m.bin"[32768] : tensor<64x64xf32>
  %s = graph.matmul %x, %w3 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %y = graph.mul %d, %s : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
  %w4 = graph.weight "w4" at "m.bin"[49152] : tensor<64x64xf32>
  %o = graph.matmul %y, %w4 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %z = graph.neg %d : tensor<2x64xf32>
  return %o, %z : tensor<2x64xf32>, tensor<2x64xf32>
}
