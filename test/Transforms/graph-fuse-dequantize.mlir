// A product takes into its kernel the dequantization of each operand
// stored as int8 or float8 (ONNX's QDQ form: cast, minus a zero point,
// times a scale) and reads the narrow tensor: a quantize kernel writes the
// activation as i8, the weight is read as i8, and the float copies are
// never written. A scale that varies along K cannot leave the sum: a
// weight-only product (a float activation) still takes that dequantization
// in, applying the scales to each weight tile before it multiplies in
// float, as W4A16 kernels do; an int8 x int8 product cannot, so there that
// weight's dequantization stays a kernel of its own. A dequantization read
// by two products is copied for each (as XLA duplicates cheap producers);
// one also read by an add keeps its original for the add. Every fusion
// policy but the reference's does this.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-tpu-v5e" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-lpu" | FileCheck %s --check-prefix=LPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-cpu" | FileCheck %s --check-prefix=CPU
// Fused kernels compute what the ops did:
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" -o %t.gpu.mlir
// RUN: %with_test_targets dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.gpu.mlir --seed 3 --outputs %t.fused > /dev/null
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t.ref/output_%%d.npy' %% i), np.load('%t.fused/output_%%d.npy' %% i)) for i in range(9)]"

// CHECK: graph.kernel "quantize" kind "pointwise"(%arg0) : (tensor<4x32xf32>) -> tensor<4x32xi8>
// CHECK: graph.kernel "int8" kind "matmul"(%arg1, %{{.*}}) : (tensor<32x8xi8>, tensor<4x32xi8>) -> tensor<4x8xf32>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.cast {{.*}} -> tensor<32x8xf32>
// CHECK-NEXT: graph.mul
// CHECK-NEXT: graph.cast {{.*}} -> tensor<4x32xf32>
// CHECK-NEXT: graph.mul
// CHECK-NEXT: graph.matmul
// CHECK-NOT: graph.kernel "dq_rows"
// CHECK: graph.kernel "rows" kind "matmul"(%arg2, %arg0) : (tensor<32x8xi8>, tensor<4x32xf32>)
// CHECK: graph.kernel "shared" kind "matmul"({{.*}}) : (tensor<32x8xi8>, tensor<4x32xf32>)
// CHECK: graph.kernel "shared2" kind "matmul"({{.*}}) : (tensor<32x8xi8>, tensor<4x32xf32>, tensor<4x8xf32>)
// CHECK: graph.kernel "dq_mixed" kind {{.*}}(%arg2) : (tensor<32x8xi8>)
// CHECK: graph.kernel "mixed" kind "matmul"({{.*}}) : (tensor<32x8xi8>, tensor<4x32xf32>
// A chain that ends in a broadcast (taken in by the broadcast rule) and one
// through a transpose and a reshape: the kernels stay in program order.
// CHECK: graph.kernel "bcast" kind "matmul"({{.*}}) : ({{.*}}tensor<32x8xi8>{{.*}}) -> tensor<2x4x8xf32>
// CHECK: graph.kernel "view" kind "matmul"({{.*}}) : ({{.*}}tensor<8x4x8xi8>{{.*}}) -> tensor<4x8xf32>
// A per-K-row dequantization two weight-only products share is copied for
// each.
// CHECK-NOT: graph.kernel "dq_rows2"
// CHECK: graph.kernel "rows_a" kind "matmul"(%arg2, %arg0) : (tensor<32x8xi8>, tensor<4x32xf32>)
// CHECK-NOT: graph.kernel "dq_rows2"
// CHECK: graph.kernel "rows_b" kind "matmul"(%arg2, %arg0, %{{.*}}) : (tensor<32x8xi8>, tensor<4x32xf32>, tensor<4x8xf32>)
// Per-column parameters stored as they come (an int64 zero point and a
// [N] scale, reshaped and cast to broadcast, as PT2E's dequantize writes
// them): the product reads them as stored, no kernel converts them.
// CHECK-NOT: graph.kernel "dq_params"
// CHECK: graph.kernel "params" kind "matmul"(%arg1, %arg0) : (tensor<32x8xi8>, tensor<4x32xf32>) -> tensor<4x8xf32>
// CHECK: graph.cast {{.*}} : (tensor<1x8xi64>) -> tensor<1x8xf32>
// CHECK: graph.sub
// An int8 activation times a weight scaled per K row: the weight's
// dequantization stays a kernel of its own, the activation is read as i8.
// CHECK: graph.kernel "dq_rows8" kind "pointwise"(%arg2)
// CHECK: graph.kernel "rows8" kind "matmul"({{.*}}) : (tensor<4x32xi8>, tensor<32x8xf32>) -> tensor<4x8xf32>

// The LPU's stream chains: the int8 product reads both i8 tensors.
// LPU: graph.kernel "quantize" kind "pointwise"({{.*}}) -> tensor<4x32xi8>
// LPU: graph.kernel "int8" kind "matmul"({{.*}}) : (tensor<32x8xi8>, tensor<4x32xi8>) -> tensor<4x8xf32>

// The reference runs one op per kernel.
// CPU: graph.kernel "int8" kind "matmul"({{.*}}) : (tensor<4x32xf32>, tensor<32x8xf32>)

func.func @main(%x: tensor<4x32xf32> {graph.name = "x"}, %wq: tensor<32x8xi8> {graph.name = "wq"},
                %wk: tensor<32x8xi8> {graph.name = "wk"}, %xb: tensor<2x4x32xf32> {graph.name = "xb"},
                %wt: tensor<8x4x8xi8> {graph.name = "wt"})
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x4x8xf32>, tensor<4x8xf32>,
        tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = graph.constant dense<0.05> : tensor<f32>
  %lo = graph.constant dense<-128.0> : tensor<f32>
  %hi = graph.constant dense<127.0> : tensor<f32>
  %q0 = graph.div %x, %s : (tensor<4x32xf32>, tensor<f32>) -> tensor<4x32xf32> loc("quantize")
  %q1 = graph.round %q0 : tensor<4x32xf32>
  %q2 = graph.max %q1, %lo : (tensor<4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
  %q3 = graph.min %q2, %hi : (tensor<4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
  %q4 = graph.cast %q3 : (tensor<4x32xf32>) -> tensor<4x32xi8>
  %d0 = graph.cast %q4 : (tensor<4x32xi8>) -> tensor<4x32xf32> loc("dequantize")
  %d1 = graph.mul %d0, %s : (tensor<4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
  %ws = graph.constant dense<[[0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08]]> : tensor<1x8xf32>
  %w0 = graph.cast %wq : (tensor<32x8xi8>) -> tensor<32x8xf32> loc("dq_cols")
  %w1 = graph.mul %w0, %ws : (tensor<32x8xf32>, tensor<1x8xf32>) -> tensor<32x8xf32>
  %y = graph.matmul %d1, %w1 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32> loc("int8")
  %ks = graph.constant dense<0.01> : tensor<32x1xf32>
  %k0 = graph.cast %wk : (tensor<32x8xi8>) -> tensor<32x8xf32> loc("dq_rows")
  %k1 = graph.mul %k0, %ks : (tensor<32x8xf32>, tensor<32x1xf32>) -> tensor<32x8xf32>
  %z = graph.matmul %x, %k1 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32> loc("rows")
  %v0 = graph.cast %wq : (tensor<32x8xi8>) -> tensor<32x8xf32> loc("dq_shared")
  %v1 = graph.mul %v0, %s : (tensor<32x8xf32>, tensor<f32>) -> tensor<32x8xf32>
  %u0 = graph.matmul %x, %v1 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32> loc("shared")
  %u1 = graph.matmul %x, %v1 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32> loc("shared2")
  %u = graph.add %u0, %u1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %m0 = graph.cast %wk : (tensor<32x8xi8>) -> tensor<32x8xf32> loc("dq_mixed")
  %m1 = graph.mul %m0, %s : (tensor<32x8xf32>, tensor<f32>) -> tensor<32x8xf32>
  %m2 = graph.matmul %x, %m1 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32> loc("mixed")
  %m3 = graph.transpose %m1 {perm = array<i64: 1, 0>} : (tensor<32x8xf32>) -> tensor<8x32xf32>
  %m4 = graph.reshape %m3 : (tensor<8x32xf32>) -> tensor<4x8x8xf32>
  %m5 = graph.reduce_sum %m4 {axes = array<i64: 2>, keepdims = false} : (tensor<4x8x8xf32>) -> tensor<4x8xf32>
  %m = graph.add %m2, %m5 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %b0 = graph.cast %wq : (tensor<32x8xi8>) -> tensor<32x8xf32> loc("dq_bcast")
  %b1 = graph.mul %b0, %s : (tensor<32x8xf32>, tensor<f32>) -> tensor<32x8xf32>
  %b2 = graph.expand %b1 : (tensor<32x8xf32>) -> tensor<2x32x8xf32>
  %bm = graph.matmul %xb, %b2 : (tensor<2x4x32xf32>, tensor<2x32x8xf32>) -> tensor<2x4x8xf32> loc("bcast")
  %t0 = graph.cast %wt : (tensor<8x4x8xi8>) -> tensor<8x4x8xf32> loc("dq_view")
  %t1 = graph.mul %t0, %s : (tensor<8x4x8xf32>, tensor<f32>) -> tensor<8x4x8xf32>
  %t2 = graph.transpose %t1 {perm = array<i64: 1, 0, 2>} : (tensor<8x4x8xf32>) -> tensor<4x8x8xf32>
  %t3 = graph.reshape %t2 : (tensor<4x8x8xf32>) -> tensor<32x8xf32>
  %tm = graph.matmul %x, %t3 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32> loc("view")
  %r0 = graph.cast %wk : (tensor<32x8xi8>) -> tensor<32x8xf32> loc("dq_rows2")
  %r1 = graph.mul %r0, %ks : (tensor<32x8xf32>, tensor<32x1xf32>) -> tensor<32x8xf32>
  %ra = graph.matmul %x, %r1 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32> loc("rows_a")
  %rb = graph.matmul %x, %r1 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32> loc("rows_b")
  %r = graph.add %ra, %rb : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %pz = graph.constant dense<[0, 1, 0, 2, 0, 0, 1, 0]> : tensor<8xi64>
  %pz1 = graph.reshape %pz : (tensor<8xi64>) -> tensor<1x8xi64> loc("dq_params")
  %pz2 = graph.cast %pz1 : (tensor<1x8xi64>) -> tensor<1x8xf32>
  %ps = graph.constant dense<[0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08]> : tensor<8xf32>
  %ps1 = graph.reshape %ps : (tensor<8xf32>) -> tensor<1x8xf32>
  %p0 = graph.cast %wq : (tensor<32x8xi8>) -> tensor<32x8xf32>
  %p1 = graph.sub %p0, %pz2 : (tensor<32x8xf32>, tensor<1x8xf32>) -> tensor<32x8xf32>
  %p2 = graph.mul %p1, %ps1 : (tensor<32x8xf32>, tensor<1x8xf32>) -> tensor<32x8xf32>
  %pm = graph.matmul %x, %p2 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32> loc("params")
  %n0 = graph.cast %wk : (tensor<32x8xi8>) -> tensor<32x8xf32> loc("dq_rows8")
  %n1 = graph.mul %n0, %ks : (tensor<32x8xf32>, tensor<32x1xf32>) -> tensor<32x8xf32>
  %nm = graph.matmul %d1, %n1 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32> loc("rows8")
  return %y, %z, %u, %m, %bm, %tm, %r, %pm, %nm : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
