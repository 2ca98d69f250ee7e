// Heads merged with the batch ([B, H, S, D] to [B*H, S, D], as GPT-2's
// exports run their batched products) keep the heads' split: the merged dim
// holds B blocks of H/N heads on each chip, and the reshape back splits H
// again. Nothing is gathered; the output product is row-parallel, one
// all-reduce.
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-shard="target=test-gpu tensor-parallel=2" | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-NOT: graph.all_gather
// CHECK: graph.reshape %{{.*}} : (tensor<2x2x8x16xf32>) -> tensor<4x8x16xf32>
// CHECK: graph.matmul %{{.*}} : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
// CHECK: graph.reshape %{{.*}} : (tensor<4x8x16xf32>) -> tensor<2x2x8x16xf32>
// CHECK: graph.matmul %{{.*}} : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
// CHECK: graph.all_reduce
// CHECK-NOT: graph.all_

func.func @main(%x: tensor<2x8x64xf32> {graph.name = "x"}) -> tensor<2x8x64xf32> {
  %wq = graph.weight "q" at ""[0] : tensor<64x64xf32>
  %wk = graph.weight "k" at ""[0] : tensor<64x64xf32>
  %wv = graph.weight "v" at ""[0] : tensor<64x64xf32>
  %wo = graph.weight "o" at ""[0] : tensor<64x64xf32>
  %q = graph.matmul %x, %wq : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  %k = graph.matmul %x, %wk : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  %v = graph.matmul %x, %wv : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  %q4 = graph.reshape %q : (tensor<2x8x64xf32>) -> tensor<2x8x4x16xf32>
  %k4 = graph.reshape %k : (tensor<2x8x64xf32>) -> tensor<2x8x4x16xf32>
  %v4 = graph.reshape %v : (tensor<2x8x64xf32>) -> tensor<2x8x4x16xf32>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x4x16xf32>) -> tensor<2x4x8x16xf32>
  %kt = graph.transpose %k4 {perm = array<i64: 0, 2, 3, 1>} : (tensor<2x8x4x16xf32>) -> tensor<2x4x16x8xf32>
  %vt = graph.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x4x16xf32>) -> tensor<2x4x8x16xf32>
  %q3 = graph.reshape %qt : (tensor<2x4x8x16xf32>) -> tensor<8x8x16xf32>
  %k3 = graph.reshape %kt : (tensor<2x4x16x8xf32>) -> tensor<8x16x8xf32>
  %v3 = graph.reshape %vt : (tensor<2x4x8x16xf32>) -> tensor<8x8x16xf32>
  %s = graph.matmul %q3, %k3 : (tensor<8x8x16xf32>, tensor<8x16x8xf32>) -> tensor<8x8x8xf32>
  %p = graph.softmax %s {axis = 2 : i64} : tensor<8x8x8xf32>
  %a = graph.matmul %p, %v3 : (tensor<8x8x8xf32>, tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
  %a4 = graph.reshape %a : (tensor<8x8x16xf32>) -> tensor<2x4x8x16xf32>
  %at = graph.transpose %a4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32>
  %a2 = graph.reshape %at : (tensor<2x8x4x16xf32>) -> tensor<2x8x64xf32>
  %o = graph.matmul %a2, %wo : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  return %o : tensor<2x8x64xf32>
}

// -----

// A whole value read with a block-split one takes its chip's part of each
// block (the blocks as a dim of their own, sliced, merged back); a graph
// input read only so is held as that part (a cache laid out [B*H, S, D]).
// CHECK-LABEL: func.func @main(%arg0: tensor<2x8x64xf32> {graph.name = "x"}, %arg1: tensor<4x16x16xf32> {graph.name = "m"})
// CHECK-NOT: graph.slice
// CHECK: graph.matmul %{{.*}}, %arg1 : (tensor<4x8x16xf32>, tensor<4x16x16xf32>) -> tensor<4x8x16xf32>
// CHECK-NOT: graph.all_gather
// CHECK: graph.all_reduce

func.func @main(%x: tensor<2x8x64xf32> {graph.name = "x"}, %m: tensor<8x16x16xf32> {graph.name = "m"}) -> tensor<2x8x64xf32> {
  %wq = graph.weight "q" at ""[0] : tensor<64x64xf32>
  %wo = graph.weight "o" at ""[0] : tensor<64x64xf32>
  %q = graph.matmul %x, %wq : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  %q4 = graph.reshape %q : (tensor<2x8x64xf32>) -> tensor<2x8x4x16xf32>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x4x16xf32>) -> tensor<2x4x8x16xf32>
  %q3 = graph.reshape %qt : (tensor<2x4x8x16xf32>) -> tensor<8x8x16xf32>
  %y = graph.matmul %q3, %m : (tensor<8x8x16xf32>, tensor<8x16x16xf32>) -> tensor<8x8x16xf32>
  %a4 = graph.reshape %y : (tensor<8x8x16xf32>) -> tensor<2x4x8x16xf32>
  %at = graph.transpose %a4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32>
  %a2 = graph.reshape %at : (tensor<2x8x4x16xf32>) -> tensor<2x8x64xf32>
  %o = graph.matmul %a2, %wo : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  return %o : tensor<2x8x64xf32>
}

// -----

// Read whole as well, the input stays whole and the part is sliced.
// CHECK-LABEL: func.func @main(%arg0: tensor<2x8x64xf32> {graph.name = "x"}, %arg1: tensor<8x16x16xf32> {graph.name = "m"})
// CHECK: %[[G:.*]] = graph.reshape %arg1 : (tensor<8x16x16xf32>) -> tensor<2x4x16x16xf32>
// CHECK: %[[S:.*]] = graph.slice %[[G]] {{.*}} -> tensor<2x2x16x16xf32>
// CHECK: %[[P:.*]] = graph.reshape %[[S]] : (tensor<2x2x16x16xf32>) -> tensor<4x16x16xf32>
// CHECK: graph.matmul %{{.*}}, %[[P]] : (tensor<4x8x16xf32>, tensor<4x16x16xf32>) -> tensor<4x8x16xf32>

func.func @main(%x: tensor<2x8x64xf32> {graph.name = "x"}, %m: tensor<8x16x16xf32> {graph.name = "m"}) -> (tensor<2x8x64xf32>, tensor<8x16x16xf32>) {
  %wq = graph.weight "q" at ""[0] : tensor<64x64xf32>
  %wo = graph.weight "o" at ""[0] : tensor<64x64xf32>
  %q = graph.matmul %x, %wq : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  %q4 = graph.reshape %q : (tensor<2x8x64xf32>) -> tensor<2x8x4x16xf32>
  %qt = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x4x16xf32>) -> tensor<2x4x8x16xf32>
  %q3 = graph.reshape %qt : (tensor<2x4x8x16xf32>) -> tensor<8x8x16xf32>
  %y = graph.matmul %q3, %m : (tensor<8x8x16xf32>, tensor<8x16x16xf32>) -> tensor<8x8x16xf32>
  %a4 = graph.reshape %y : (tensor<8x8x16xf32>) -> tensor<2x4x8x16xf32>
  %at = graph.transpose %a4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32>
  %a2 = graph.reshape %at : (tensor<2x8x4x16xf32>) -> tensor<2x8x64xf32>
  %o = graph.matmul %a2, %wo : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  return %o, %m : tensor<2x8x64xf32>, tensor<8x16x16xf32>
}

