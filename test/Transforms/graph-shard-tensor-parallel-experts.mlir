// A mixture of experts' grouped products split as a dense FFN's are
// (vLLM's and TensorRT-LLM's MoE tensor parallelism): each chip its
// columns of every expert's up matrix and its rows of every expert's down
// matrix, one all-reduce after the down product, the routing (the offsets)
// the same on every chip. onnxruntime's MoE as dfa imports it (GenAI's
// gpt-oss): the up weight stored [E, N, K] and transposed, its SwiGLU
// gate and linear columns interleaved (every other column, each chip's
// part holding whole pairs), a bias gathered by each row's expert.
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=2" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-shard="target=test-gpu tensor-parallel=2 remarks=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @moe
// CHECK: %[[W1:.*]] = graph.weight "up.tp-rows" at ""[0] : tensor<4x32x64xf32>
// CHECK: %[[W1T:.*]] = graph.transpose %[[W1]] {perm = array<i64: 0, 2, 1>} : (tensor<4x32x64xf32>) -> tensor<4x64x32xf32>
// CHECK: %[[W2:.*]] = graph.weight "down.tp-rows" at ""[0] : tensor<4x16x64xf32>
// CHECK: %[[H:.*]] = graph.grouped_matmul %arg0, %[[W1T]], %arg1 : (tensor<6x64xf32>, tensor<4x64x32xf32>, tensor<4xi64>) -> tensor<6x32xf32>
// CHECK: graph.slice %{{.*}} {starts = array<i64: 0, 0>, steps = array<i64: 1, 2>} : (tensor<6x32xf32>) -> tensor<6x16xf32>
// CHECK: graph.slice %{{.*}} {starts = array<i64: 0, 1>, steps = array<i64: 1, 2>} : (tensor<6x32xf32>) -> tensor<6x16xf32>
// CHECK: %[[Y:.*]] = graph.grouped_matmul %{{.*}}, %[[W2]], %arg1 : (tensor<6x16xf32>, tensor<4x16x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
// CHECK: %[[R:.*]] = graph.all_reduce %[[Y]] {chips = 2 : i64} : tensor<6x64xf32>
// CHECK: graph.add %[[R]], %{{.*}} : (tensor<6x64xf32>, tensor<6x64xf32>)
// CHECK-NOT: graph.all_
// CHECK: return
// (one collective each in @moe, @rows_in, @combine, @nonlinear, @batched,
// @batched_right, @halves, @routes_2d, @int_div and @view_and_other)
// REMARK: remark: tensor parallelism over 2 chips: {{[0-9]+}} ops partitioned, 10 collectives
func.func @moe(%x: tensor<6x64xf32> {graph.name = "x"}, %ends: tensor<4xi64> {graph.name = "ends"},
               %expert: tensor<6xi64> {graph.name = "expert"}) -> tensor<6x64xf32> {
  %w1 = graph.weight "up" at "m.bin"[0] : tensor<4x64x64xf32>
  %w1t = graph.transpose %w1 {perm = array<i64: 0, 2, 1>} : (tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %b1 = graph.weight "up.bias" at "m.bin"[65536] : tensor<4x64xf32>
  %w2 = graph.weight "down" at "m.bin"[66560] : tensor<4x32x64xf32>
  %b2 = graph.weight "down.bias" at "m.bin"[99328] : tensor<4x64xf32>
  %h0 = graph.grouped_matmul %x, %w1t, %ends : (tensor<6x64xf32>, tensor<4x64x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
  %hb = graph.gather %b1, %expert {axis = 0 : i64} : (tensor<4x64xf32>, tensor<6xi64>) -> tensor<6x64xf32>
  %h = graph.add %h0, %hb : (tensor<6x64xf32>, tensor<6x64xf32>) -> tensor<6x64xf32>
  %gate = graph.slice %h {starts = array<i64: 0, 0>, steps = array<i64: 1, 2>} : (tensor<6x64xf32>) -> tensor<6x32xf32>
  %lin = graph.slice %h {starts = array<i64: 0, 1>, steps = array<i64: 1, 2>} : (tensor<6x64xf32>) -> tensor<6x32xf32>
  %sig = graph.sigmoid %gate : tensor<6x32xf32>
  %glu = graph.mul %gate, %sig : (tensor<6x32xf32>, tensor<6x32xf32>) -> tensor<6x32xf32>
  %a = graph.mul %glu, %lin : (tensor<6x32xf32>, tensor<6x32xf32>) -> tensor<6x32xf32>
  %y0 = graph.grouped_matmul %a, %w2, %ends : (tensor<6x32xf32>, tensor<4x32x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
  %yb = graph.gather %b2, %expert {axis = 0 : i64} : (tensor<4x64xf32>, tensor<6xi64>) -> tensor<6x64xf32>
  %y = graph.add %y0, %yb : (tensor<6x64xf32>, tensor<6x64xf32>) -> tensor<6x64xf32>
  %z = graph.softmax %y {axis = 1 : i64} : tensor<6x64xf32>
  return %z : tensor<6x64xf32>
}

// A strided slice that starts past its first stride (every other column
// from the third) does not keep the split: the up product stays whole.
// CHECK-LABEL: func.func @late_start
// CHECK: graph.grouped_matmul %arg0, %{{.*}}, %arg1 : (tensor<6x64xf32>, tensor<4x64x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
// CHECK: graph.slice %{{.*}} {starts = array<i64: 0, 2>, steps = array<i64: 1, 2>} : (tensor<6x64xf32>) -> tensor<6x31xf32>
func.func @late_start(%x: tensor<6x64xf32> {graph.name = "x"}, %ends: tensor<4xi64> {graph.name = "ends"}) -> tensor<6x31xf32> {
  %w1 = graph.weight "up" at "m.bin"[0] : tensor<4x64x64xf32>
  %h = graph.grouped_matmul %x, %w1, %ends : (tensor<6x64xf32>, tensor<4x64x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
  %s = graph.slice %h {starts = array<i64: 0, 2>, steps = array<i64: 1, 2>} : (tensor<6x64xf32>) -> tensor<6x31xf32>
  return %s : tensor<6x31xf32>
}

// A grouped product's whole rows (its input split along K) are
// row-parallel without a column-parallel product before it: a partial
// result, reduced for the return.
// CHECK-LABEL: func.func @rows_in
// CHECK: %[[Y:.*]] = graph.grouped_matmul %{{.*}} : (tensor<6x32xf32>, tensor<4x32x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
// CHECK: graph.all_reduce %[[Y]]
func.func @rows_in(%x: tensor<6x64xf32> {graph.name = "x"}, %ends: tensor<4xi64> {graph.name = "ends"}) -> tensor<6x64xf32> {
  %w0 = graph.weight "pre" at "m.bin"[0] : tensor<64x64xf32>
  %p = graph.matmul %x, %w0 : (tensor<6x64xf32>, tensor<64x64xf32>) -> tensor<6x64xf32>
  %g = graph.gelu %p : tensor<6x64xf32>
  %w1 = graph.weight "down" at "m.bin"[16384] : tensor<4x64x64xf32>
  %y = graph.grouped_matmul %g, %w1, %ends : (tensor<6x64xf32>, tensor<4x64x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
  return %y : tensor<6x64xf32>
}

// The experts' partial sums stay partial through the routing weights'
// scaling, the view by top k and the sum over it, and are added to the
// shared expert's: one all-reduce, over the tokens' rows (3), not the
// routes' (6). (Found by a survey of MoE exports.)
// CHECK-LABEL: func.func @combine
// CHECK: graph.grouped_matmul
// CHECK: %[[Y:.*]] = graph.grouped_matmul
// CHECK: graph.mul %[[Y]], %arg2
// CHECK: %[[R:.*]] = graph.reduce_sum
// CHECK: graph.matmul
// CHECK: %[[SD:.*]] = graph.matmul
// CHECK: %[[S:.*]] = graph.add %[[R]], %[[SD]]
// CHECK: graph.all_reduce %[[S]] {chips = 2 : i64} : tensor<3x64xf32>
// CHECK-NOT: graph.all_
// CHECK: return
func.func @combine(%x: tensor<6x64xf32> {graph.name = "x"}, %ends: tensor<4xi64> {graph.name = "ends"},
                   %rw: tensor<6x1xf32> {graph.name = "rw"}, %t: tensor<3x64xf32> {graph.name = "t"}) -> tensor<3x64xf32> {
  %w1 = graph.weight "up" at "m.bin"[0] : tensor<4x64x64xf32>
  %w2 = graph.weight "down" at "m.bin"[65536] : tensor<4x64x64xf32>
  %s1 = graph.weight "sh_up" at "m.bin"[131072] : tensor<64x64xf32>
  %s2 = graph.weight "sh_down" at "m.bin"[147456] : tensor<64x64xf32>
  %h = graph.grouped_matmul %x, %w1, %ends : (tensor<6x64xf32>, tensor<4x64x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
  %a = graph.relu %h : tensor<6x64xf32>
  %y = graph.grouped_matmul %a, %w2, %ends : (tensor<6x64xf32>, tensor<4x64x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
  %yw = graph.mul %y, %rw : (tensor<6x64xf32>, tensor<6x1xf32>) -> tensor<6x64xf32>
  %y3 = graph.reshape %yw : (tensor<6x64xf32>) -> tensor<3x2x64xf32>
  %r = graph.reduce_sum %y3 {axes = array<i64: 1>, keepdims = false} : (tensor<3x2x64xf32>) -> tensor<3x64xf32>
  %sh = graph.matmul %t, %s1 : (tensor<3x64xf32>, tensor<64x64xf32>) -> tensor<3x64xf32>
  %sa = graph.relu %sh : tensor<3x64xf32>
  %sd = graph.matmul %sa, %s2 : (tensor<3x64xf32>, tensor<64x64xf32>) -> tensor<3x64xf32>
  %o = graph.add %r, %sd : (tensor<3x64xf32>, tensor<3x64xf32>) -> tensor<3x64xf32>
  %z = graph.softmax %o {axis = 1 : i64} : tensor<3x64xf32>
  return %z : tensor<3x64xf32>
}

// Not linear in a partial value: a product of two (here the same sum
// squared) and a quotient by one; each is reduced first.
// CHECK-LABEL: func.func @nonlinear
// CHECK: %[[P:.*]] = graph.all_reduce
// CHECK: graph.mul %[[P]], %[[P]]
// CHECK: graph.div %arg1, %[[P]]
// CHECK-NOT: graph.all_
// CHECK: return
func.func @nonlinear(%x: tensor<2x64xf32> {graph.name = "x"}, %r: tensor<2x64xf32> {graph.name = "r"}) -> (tensor<2x64xf32>, tensor<2x64xf32>) {
  %w1 = graph.weight "w1" at "m.bin"[0] : tensor<64x64xf32>
  %h = graph.matmul %x, %w1 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %w2 = graph.weight "w2" at "m.bin"[16384] : tensor<64x64xf32>
  %p = graph.matmul %h, %w2 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %sq = graph.mul %p, %p : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
  %q = graph.div %r, %p : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
  return %sq, %q : tensor<2x64xf32>, tensor<2x64xf32>
}

// The batched form (Hugging Face's batched_mm experts, as torch.onnx
// exports them): each route gathers its expert's matrix, [E, N, K] by
// rows, then a batched product; each chip gathers from its rows of every
// expert's up matrix and its columns of every down matrix. (Found by a
// survey of MoE exports: every ONNX export of an HF MoE kept its experts
// whole.)
// CHECK-LABEL: func.func @batched
// CHECK-DAG: %[[U:.*]] = graph.weight "b_up.tp-rows" at ""[0] : tensor<4x32x64xf32>
// CHECK-DAG: %[[D:.*]] = graph.weight "b_down.tp-cols" at ""[0] : tensor<4x64x16xf32>
// CHECK: graph.gather %[[U]], %arg1 {axis = 0 : i64} : (tensor<4x32x64xf32>, tensor<6xi64>) -> tensor<6x32x64xf32>
// CHECK: graph.split %{{.*}} {axis = 1 : i64, sizes = array<i64: 16, 16>}
// CHECK: %[[G:.*]] = graph.gather %[[D]], %arg1 {axis = 0 : i64} : (tensor<4x64x16xf32>, tensor<6xi64>) -> tensor<6x64x16xf32>
// CHECK: %[[Y:.*]] = graph.matmul %[[G]], %{{.*}} : (tensor<6x64x16xf32>, tensor<6x16x1xf32>) -> tensor<6x64x1xf32>
// CHECK: %[[YR:.*]] = graph.reshape %[[Y]]
// CHECK: graph.all_reduce %[[YR]] {chips = 2 : i64} : tensor<6x64xf32>
// CHECK-NOT: graph.all_
// CHECK: return
func.func @batched(%x: tensor<6x64xf32> {graph.name = "x"}, %expert: tensor<6xi64> {graph.name = "expert"}) -> tensor<6x64xf32> {
  %w1 = graph.weight "b_up" at "m.bin"[0] : tensor<4x64x64xf32>
  %w2 = graph.weight "b_down" at "m.bin"[65536] : tensor<4x64x32xf32>
  %g1 = graph.gather %w1, %expert {axis = 0 : i64} : (tensor<4x64x64xf32>, tensor<6xi64>) -> tensor<6x64x64xf32>
  %x3 = graph.reshape %x : (tensor<6x64xf32>) -> tensor<6x64x1xf32>
  %h3 = graph.matmul %g1, %x3 : (tensor<6x64x64xf32>, tensor<6x64x1xf32>) -> tensor<6x64x1xf32>
  %h = graph.reshape %h3 : (tensor<6x64x1xf32>) -> tensor<6x64xf32>
  %s:2 = graph.split %h {axis = 1 : i64, sizes = array<i64: 32, 32>} : (tensor<6x64xf32>) -> (tensor<6x32xf32>, tensor<6x32xf32>)
  %sig = graph.sigmoid %s#0 : tensor<6x32xf32>
  %glu = graph.mul %s#0, %sig : (tensor<6x32xf32>, tensor<6x32xf32>) -> tensor<6x32xf32>
  %a = graph.mul %glu, %s#1 : (tensor<6x32xf32>, tensor<6x32xf32>) -> tensor<6x32xf32>
  %g2 = graph.gather %w2, %expert {axis = 0 : i64} : (tensor<4x64x32xf32>, tensor<6xi64>) -> tensor<6x64x32xf32>
  %a3 = graph.reshape %a : (tensor<6x32xf32>) -> tensor<6x32x1xf32>
  %y3 = graph.matmul %g2, %a3 : (tensor<6x64x32xf32>, tensor<6x32x1xf32>) -> tensor<6x64x1xf32>
  %y = graph.reshape %y3 : (tensor<6x64x1xf32>) -> tensor<6x64xf32>
  %z = graph.softmax %y {axis = 1 : i64} : tensor<6x64xf32>
  return %z : tensor<6x64xf32>
}

// The same with the matrices [E, K, N] on the right (gpt-oss's
// batched_mm, gathered by gather_nd): each chip its columns of every up
// matrix, its rows of every down matrix.
// CHECK-LABEL: func.func @batched_right
// CHECK-DAG: %[[U:.*]] = graph.weight "r_up.tp-cols" at ""[0] : tensor<4x64x32xf32>
// CHECK-DAG: %[[D:.*]] = graph.weight "r_down.tp-rows" at ""[0] : tensor<4x16x64xf32>
// CHECK: graph.gather_nd %[[U]], %{{.*}} : (tensor<4x64x32xf32>, tensor<6x1xi64>) -> tensor<6x64x32xf32>
// CHECK: graph.gather_nd %[[D]], %{{.*}} : (tensor<4x16x64xf32>, tensor<6x1xi64>) -> tensor<6x16x64xf32>
// CHECK: graph.all_reduce %{{.*}} {chips = 2 : i64} : tensor<6x1x64xf32>
// CHECK-NOT: graph.all_
// CHECK: return
func.func @batched_right(%x: tensor<6x64xf32> {graph.name = "x"}, %expert: tensor<6x1xi64> {graph.name = "expert"}) -> tensor<6x1x64xf32> {
  %w1 = graph.weight "r_up" at "m.bin"[0] : tensor<4x64x64xf32>
  %w2 = graph.weight "r_down" at "m.bin"[65536] : tensor<4x32x64xf32>
  %g1 = graph.gather_nd %w1, %expert : (tensor<4x64x64xf32>, tensor<6x1xi64>) -> tensor<6x64x64xf32>
  %x3 = graph.reshape %x : (tensor<6x64xf32>) -> tensor<6x1x64xf32>
  %h = graph.matmul %x3, %g1 : (tensor<6x1x64xf32>, tensor<6x64x64xf32>) -> tensor<6x1x64xf32>
  %gate = graph.slice %h {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 2>} : (tensor<6x1x64xf32>) -> tensor<6x1x32xf32>
  %lin = graph.slice %h {starts = array<i64: 0, 0, 1>, steps = array<i64: 1, 1, 2>} : (tensor<6x1x64xf32>) -> tensor<6x1x32xf32>
  %sig = graph.sigmoid %gate : tensor<6x1x32xf32>
  %a = graph.mul %sig, %lin : (tensor<6x1x32xf32>, tensor<6x1x32xf32>) -> tensor<6x1x32xf32>
  %g2 = graph.gather_nd %w2, %expert : (tensor<4x32x64xf32>, tensor<6x1xi64>) -> tensor<6x32x64xf32>
  %y = graph.matmul %a, %g2 : (tensor<6x1x32xf32>, tensor<6x32x64xf32>) -> tensor<6x1x64xf32>
  %z = graph.softmax %y {axis = 2 : i64} : tensor<6x1x64xf32>
  return %z : tensor<6x1x64xf32>
}

// A fused gate|up taken apart by two slices (not a split) is read as one
// split, as a dense product's is (slicesAsSplits).
// CHECK-LABEL: func.func @halves
// CHECK: graph.grouped_matmul %{{.*}} -> tensor<6x32xf32>
// CHECK: graph.split %{{.*}} {axis = 1 : i64, sizes = array<i64: 16, 16>}
// CHECK: graph.all_reduce %{{.*}} : tensor<6x64xf32>
func.func @halves(%x: tensor<6x64xf32> {graph.name = "x"}, %ends: tensor<4xi64> {graph.name = "ends"}) -> tensor<6x64xf32> {
  %w1 = graph.weight "h_up" at "m.bin"[0] : tensor<4x64x64xf32>
  %w2 = graph.weight "h_down" at "m.bin"[65536] : tensor<4x32x64xf32>
  %h = graph.grouped_matmul %x, %w1, %ends : (tensor<6x64xf32>, tensor<4x64x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
  %gate = graph.slice %h {starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : (tensor<6x64xf32>) -> tensor<6x32xf32>
  %lin = graph.slice %h {starts = array<i64: 0, 32>, steps = array<i64: 1, 1>} : (tensor<6x64xf32>) -> tensor<6x32xf32>
  %sig = graph.sigmoid %gate : tensor<6x32xf32>
  %glu = graph.mul %gate, %sig : (tensor<6x32xf32>, tensor<6x32xf32>) -> tensor<6x32xf32>
  %a = graph.mul %glu, %lin : (tensor<6x32xf32>, tensor<6x32xf32>) -> tensor<6x32xf32>
  %y = graph.grouped_matmul %a, %w2, %ends : (tensor<6x32xf32>, tensor<4x32x64xf32>, tensor<4xi64>) -> tensor<6x64xf32>
  %z = graph.softmax %y {axis = 1 : i64} : tensor<6x64xf32>
  return %z : tensor<6x64xf32>
}

// Routes indexed [tokens, top k] (indices of rank 2): each chip gathers
// its columns of every up matrix and its rows of every down matrix, the
// dims counted in the gather's result. (Found by review: a crash.)
// CHECK-LABEL: func.func @routes_2d
// CHECK: graph.gather %{{.*}} : (tensor<4x64x32xf32>, tensor<3x2xi64>) -> tensor<3x2x64x32xf32>
// CHECK: graph.gather %{{.*}} : (tensor<4x32x64xf32>, tensor<3x2xi64>) -> tensor<3x2x32x64xf32>
// CHECK: graph.all_reduce %{{.*}} : tensor<3x2x1x64xf32>
func.func @routes_2d(%x: tensor<3x2x1x64xf32> {graph.name = "x"}, %e: tensor<3x2xi64> {graph.name = "e"}) -> tensor<3x2x1x64xf32> {
  %w1 = graph.weight "q_up" at "m.bin"[0] : tensor<4x64x64xf32>
  %w2 = graph.weight "q_down" at "m.bin"[65536] : tensor<4x64x64xf32>
  %g1 = graph.gather %w1, %e {axis = 0 : i64} : (tensor<4x64x64xf32>, tensor<3x2xi64>) -> tensor<3x2x64x64xf32>
  %h = graph.matmul %x, %g1 : (tensor<3x2x1x64xf32>, tensor<3x2x64x64xf32>) -> tensor<3x2x1x64xf32>
  %a = graph.relu %h : tensor<3x2x1x64xf32>
  %g2 = graph.gather %w2, %e {axis = 0 : i64} : (tensor<4x64x64xf32>, tensor<3x2xi64>) -> tensor<3x2x64x64xf32>
  %y = graph.matmul %a, %g2 : (tensor<3x2x1x64xf32>, tensor<3x2x64x64xf32>) -> tensor<3x2x1x64xf32>
  %z = graph.softmax %y {axis = 3 : i64} : tensor<3x2x1x64xf32>
  return %z : tensor<3x2x1x64xf32>
}

// A product of two gathered matrices stays whole: splitting both would
// gather both back. (Found by review.)
// CHECK-LABEL: func.func @two_gathered
// CHECK-NOT: tp-
// CHECK: return
func.func @two_gathered(%e: tensor<6xi64> {graph.name = "e"}) -> tensor<6x64x64xf32> {
  %w1 = graph.weight "t_a" at "m.bin"[0] : tensor<4x64x64xf32>
  %w2 = graph.weight "t_b" at "m.bin"[65536] : tensor<4x64x64xf32>
  %g1 = graph.gather %w1, %e {axis = 0 : i64} : (tensor<4x64x64xf32>, tensor<6xi64>) -> tensor<6x64x64xf32>
  %g2 = graph.gather %w2, %e {axis = 0 : i64} : (tensor<4x64x64xf32>, tensor<6xi64>) -> tensor<6x64x64xf32>
  %y = graph.matmul %g1, %g2 : (tensor<6x64x64xf32>, tensor<6x64x64xf32>) -> tensor<6x64x64xf32>
  %z = graph.softmax %y {axis = 2 : i64} : tensor<6x64x64xf32>
  return %z : tensor<6x64x64xf32>
}

// An integer quotient rounds each summand: the sum is reduced before it.
// (Found by review: floor(1/3) + floor(2/3) is not floor(3/3).)
// CHECK-LABEL: func.func @int_div
// CHECK: %[[R:.*]] = graph.all_reduce
// CHECK: graph.div %[[R]], %{{.*}} : (tensor<2x64xi32>, tensor<i32>) -> tensor<2x64xi32>
func.func @int_div(%x: tensor<2x64xi32> {graph.name = "x"}) -> tensor<2x64xi32> {
  %w1 = graph.weight "i1" at "m.bin"[0] : tensor<64x64xi32>
  %w2 = graph.weight "i2" at "m.bin"[16384] : tensor<64x64xi32>
  %h = graph.matmul %x, %w1 : (tensor<2x64xi32>, tensor<64x64xi32>) -> tensor<2x64xi32>
  %a = graph.relu %h : tensor<2x64xi32>
  %p = graph.matmul %a, %w2 : (tensor<2x64xi32>, tensor<64x64xi32>) -> tensor<2x64xi32>
  %c = graph.constant dense<3> : tensor<i32>
  %q = graph.div %p, %c : (tensor<2x64xi32>, tensor<i32>) -> tensor<2x64xi32>
  %r = graph.relu %q : tensor<2x64xi32>
  return %r : tensor<2x64xi32>
}

// A residual sum read by a view and by another op is reduced once, for
// both. (Found by review: the view carried it, a second reduction.)
// CHECK-LABEL: func.func @view_and_other
// CHECK: graph.all_reduce
// CHECK-NOT: graph.all_
// CHECK: return
func.func @view_and_other(%x: tensor<2x64xf32> {graph.name = "x"}) -> (tensor<2x64xf32>, tensor<128xf32>) {
  %w1 = graph.weight "v1" at "m.bin"[0] : tensor<64x64xf32>
  %w2 = graph.weight "v2" at "m.bin"[16384] : tensor<64x64xf32>
  %h = graph.matmul %x, %w1 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %a = graph.relu %h : tensor<2x64xf32>
  %p = graph.matmul %a, %w2 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %d = graph.add %p, %x : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
  %v = graph.reshape %d : (tensor<2x64xf32>) -> tensor<128xf32>
  %r1 = graph.relu %d : tensor<2x64xf32>
  %r2 = graph.relu %v : tensor<128xf32>
  return %r1, %r2 : tensor<2x64xf32>, tensor<128xf32>
}
