// A product's operand broadcast along batch dims the other operand has
// (torch.export's aten.matmul of [B, M, K] by a [K, N] weight: an expand
// and a batched product, Llama's o_proj) is read unbroadcast on every
// target, native attention or not: the product broadcasts it and reads it
// once (a kernel read the weight B times: 3.3x the product's time on
// gpu-h100, 5x on tpu-v5e).
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-raise="target=test-gpu" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-raise="target=test-tpu-v4" | FileCheck %s
// Under tensor parallelism the weight's rule then takes its rows, and the
// attention's heads before it stay split (a survey found FX-exported
// Llamas' attention whole on every chip).
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-raise="target=test-gpu" -graph-shard="target=test-gpu tensor-parallel=2" | FileCheck %s --check-prefix=TP

// CHECK-LABEL: func.func @right
// CHECK-NOT: graph.expand
// CHECK: graph.matmul %arg0, %{{.*}} : (tensor<2x8x64xf32>, tensor<64x32xf32>) -> tensor<2x8x32xf32>
// TP-LABEL: func.func @right
// TP-NOT: graph.all_gather
// TP: %[[W:.*]] = graph.weight "o.tp-cols" at ""[0] : tensor<32x16xf32>
// TP: %[[T:.*]] = graph.transpose %[[W]] {perm = array<i64: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
// TP: %[[P:.*]] = graph.matmul %{{.*}}, %[[T]] : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
// TP: graph.all_reduce %[[P]]
func.func @right(%x: tensor<2x8x64xf32> {graph.name = "x"}) -> tensor<2x8x32xf32> {
  %wv = graph.weight "v" at ""[0] : tensor<64x32xf32>
  %we0 = graph.expand %wv : (tensor<64x32xf32>) -> tensor<2x64x32xf32>
  %v = graph.matmul %x, %we0 : (tensor<2x8x64xf32>, tensor<2x64x32xf32>) -> tensor<2x8x32xf32>
  %g = graph.gelu %v : tensor<2x8x32xf32>
  %wo = graph.weight "o" at ""[0] : tensor<32x32xf32>
  %wt = graph.transpose %wo {perm = array<i64: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %we = graph.expand %wt : (tensor<32x32xf32>) -> tensor<2x32x32xf32>
  %o = graph.matmul %g, %we : (tensor<2x8x32xf32>, tensor<2x32x32xf32>) -> tensor<2x8x32xf32>
  return %o : tensor<2x8x32xf32>
}

// -----

// The left side, from a matrix with a unit batch dim.
// CHECK-LABEL: func.func @left
// CHECK-NOT: graph.expand
// CHECK: graph.matmul %{{.*}}, %arg0 : (tensor<1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<3x4x5xf32>
func.func @left(%x: tensor<3x8x5xf32> {graph.name = "x"}) -> tensor<3x4x5xf32> {
  %w = graph.weight "w" at ""[0] : tensor<1x4x8xf32>
  %we = graph.expand %w : (tensor<1x4x8xf32>) -> tensor<3x4x8xf32>
  %y = graph.matmul %we, %x : (tensor<3x4x8xf32>, tensor<3x8x5xf32>) -> tensor<3x4x5xf32>
  return %y : tensor<3x4x5xf32>
}

// -----

// Kept: a broadcast the other side does not hold (the product's type
// would change) and one that grows a matrix dim.
// CHECK-LABEL: func.func @kept
// CHECK: graph.expand %{{.*}} : (tensor<8x5xf32>) -> tensor<3x8x5xf32>
// CHECK: graph.expand %{{.*}} : (tensor<1x5xf32>) -> tensor<8x5xf32>
func.func @kept(%x: tensor<4x8xf32> {graph.name = "x"}, %w: tensor<8x5xf32> {graph.name = "w"}, %r: tensor<1x5xf32> {graph.name = "r"}) -> (tensor<3x4x5xf32>, tensor<4x5xf32>) {
  %we = graph.expand %w : (tensor<8x5xf32>) -> tensor<3x8x5xf32>
  %y = graph.matmul %x, %we : (tensor<4x8xf32>, tensor<3x8x5xf32>) -> tensor<3x4x5xf32>
  %re = graph.expand %r : (tensor<1x5xf32>) -> tensor<8x5xf32>
  %z = graph.matmul %x, %re : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return %y, %z : tensor<3x4x5xf32>, tensor<4x5xf32>
}
