// RUN: dfa-opt %s | dfa-opt | FileCheck %s
// Round trip of the graph ops: every op prints in a form that parses back.

// CHECK-LABEL: func @elementwise
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x3xi1>) -> tensor<2x3xf32> {
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.relu %{{.*}} : tensor<2x3xf32>
  %1 = graph.relu %0 : tensor<2x3xf32>
  // CHECK: graph.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f64} : tensor<2x3xf32>
  %2 = graph.leaky_relu %1 {alpha = 0.2 : f64} : tensor<2x3xf32>
  // CHECK: graph.clip %{{.*}} {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64}
  %3 = graph.clip %2 {min = 0.0 : f64, max = 6.0 : f64} : tensor<2x3xf32>
  // CHECK: graph.where
  %4 = graph.where %c, %3, %a : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.less {{.*}} -> tensor<2x3xi1>
  %5 = graph.less %4, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: graph.cast {{.*}} -> tensor<2x3xf16>
  %6 = graph.cast %4 : (tensor<2x3xf32>) -> tensor<2x3xf16>
  // CHECK: graph.gelu %{{.*}} {tanh_approx = true}
  %7 = graph.gelu %4 {tanh_approx = true} : tensor<2x3xf32>
  return %7 : tensor<2x3xf32>
}

// CHECK-LABEL: func @sources
func.func @sources() -> (tensor<2xf32>, tensor<64x64xf16>) {
  // CHECK: graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: graph.weight "fc.weight" at "model.onnx"[128] : tensor<64x64xf16>
  %1 = graph.weight "fc.weight" at "model.onnx"[128] : tensor<64x64xf16>
  // A window of columns: rows 256 B apart.
  // CHECK: graph.weight "fc.weight.cols" at "model.onnx"[192] pitch 256 : tensor<64x32xf16>
  %cols = graph.weight "fc.weight.cols" at "model.onnx"[192] pitch 256 : tensor<64x32xf16>
  return %0, %1 : tensor<2xf32>, tensor<64x64xf16>
}

// CHECK-LABEL: func @contractions
func.func @contractions(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %m: tensor<5x2x8xf32>, %n: tensor<8x6xf32>) -> (tensor<1x4x4x4xf32>, tensor<5x2x6xf32>, tensor<2x5xf32>) {
  // CHECK: graph.conv {{.*}} {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
  %0 = graph.conv %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  // CHECK: graph.matmul {{.*}} -> tensor<5x2x6xf32>
  %1 = graph.matmul %m, %n : (tensor<5x2x8xf32>, tensor<8x6xf32>) -> tensor<5x2x6xf32>
  %a = graph.constant dense<1.0> : tensor<5x3xf32>
  %b = graph.constant dense<1.0> : tensor<2x3xf32>
  // CHECK: graph.gemm {{.*}} {trans_b = true}
  %2 = graph.gemm %a, %b {trans_b = true} : (tensor<5x3xf32>, tensor<2x3xf32>) -> tensor<5x2xf32>
  %3 = graph.transpose %2 {perm = array<i64: 1, 0>} : (tensor<5x2xf32>) -> tensor<2x5xf32>
  return %0, %1, %3 : tensor<1x4x4x4xf32>, tensor<5x2x6xf32>, tensor<2x5xf32>
}

// CHECK-LABEL: func @grouped_matmul
func.func @grouped_matmul(%x: tensor<6x8xbf16>, %w: tensor<4x8x16xbf16>, %offs: tensor<4xi32>) -> tensor<6x16xbf16> {
  // CHECK: graph.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<6x8xbf16>, tensor<4x8x16xbf16>, tensor<4xi32>) -> tensor<6x16xbf16>
  %0 = graph.grouped_matmul %x, %w, %offs : (tensor<6x8xbf16>, tensor<4x8x16xbf16>, tensor<4xi32>) -> tensor<6x16xbf16>
  return %0 : tensor<6x16xbf16>
}

// CHECK-LABEL: func @pooling_and_norms
func.func @pooling_and_norms(%x: tensor<1x2x6x6xf32>, %s: tensor<2xf32>, %t: tensor<4x8xf32>, %g: tensor<8xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>, tensor<1x2x6x6xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: graph.max_pool
  %0 = graph.max_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
  // CHECK: graph.global_avg_pool
  %1 = graph.global_avg_pool %x : (tensor<1x2x6x6xf32>) -> tensor<1x2x1x1xf32>
  // CHECK: graph.batch_norm
  %2 = graph.batch_norm %x, %s, %s, %s, %s {epsilon = 1.0e-3 : f64} : (tensor<1x2x6x6xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x6x6xf32>
  // CHECK: graph.layer_norm
  %3 = graph.layer_norm %t, %g, %g {axis = 1 : i64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: graph.softmax %{{.*}} {axis = 1 : i64} : tensor<4x8xf32>
  %4 = graph.softmax %3 {axis = 1 : i64} : tensor<4x8xf32>
  return %0, %1, %2, %3, %4 : tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>, tensor<1x2x6x6xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func @movement
func.func @movement(%x: tensor<4x6xf32>, %i: tensor<3xi64>) -> (tensor<24xf32>, tensor<2x6xf32>, tensor<4x3xf32>, tensor<3x6xf32>, tensor<6x8xf32>, tensor<4x12xf32>, tensor<8x6xf32>, tensor<1x1xf32>) {
  // CHECK: graph.reshape
  %0 = graph.reshape %x : (tensor<4x6xf32>) -> tensor<24xf32>
  // CHECK: graph.slice {{.*}} {starts = array<i64: 1, 0>, steps = array<i64: 2, 1>}
  %1 = graph.slice %x {starts = array<i64: 1, 0>, steps = array<i64: 2, 1>} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  // CHECK: graph.split
  %2:2 = graph.split %x {axis = 1 : i64, sizes = array<i64: 3, 3>} : (tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  // CHECK: graph.gather
  %3 = graph.gather %x, %i {axis = 0 : i64} : (tensor<4x6xf32>, tensor<3xi64>) -> tensor<3x6xf32>
  // CHECK: graph.pad {{.*}}mode = "reflect"
  %4 = graph.pad %x {pads = array<i64: 1, 1, 1, 1>, mode = "reflect"} : (tensor<4x6xf32>) -> tensor<6x8xf32>
  // CHECK: graph.concat
  %5 = graph.concat %x, %x {axis = 1 : i64} : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x12xf32>
  // CHECK: graph.tile
  %6 = graph.tile %x {repeats = array<i64: 2, 1>} : (tensor<4x6xf32>) -> tensor<8x6xf32>
  // CHECK: graph.reduce_sum {{.*}} {axes = array<i64: 0, 1>}
  %7 = graph.reduce_sum %x {axes = array<i64: 0, 1>} : (tensor<4x6xf32>) -> tensor<1x1xf32>
  return %0, %1, %2#0, %3, %4, %5, %6, %7 : tensor<24xf32>, tensor<2x6xf32>, tensor<4x3xf32>, tensor<3x6xf32>, tensor<6x8xf32>, tensor<4x12xf32>, tensor<8x6xf32>, tensor<1x1xf32>
}

// CHECK-LABEL: func @resampling_and_indexing
func.func @resampling_and_indexing(%x: tensor<1x1x2x2xf32>, %d: tensor<2x2x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x2x3xf32>) -> (tensor<1x1x4x4xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>) {
  // CHECK: graph.resize {{.*}}mode = "linear"{{.*}}scales = array<f64: 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00>
  %0 = graph.resize %x {mode = "linear", coordinate_mode = "half_pixel", scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  // CHECK: graph.gather_nd
  %1 = graph.gather_nd %d, %i : (tensor<2x2x3xf32>, tensor<2x1xi64>) -> tensor<2x2x3xf32>
  // CHECK: graph.scatter_nd {{.*}}reduction = "add"
  %2 = graph.scatter_nd %d, %i, %u {reduction = "add"} : (tensor<2x2x3xf32>, tensor<2x1xi64>, tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  return %0, %1, %2 : tensor<1x1x4x4xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>
}

// CHECK-LABEL: func @attention
func.func @attention(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x10x16xf32>, %v: tensor<2x4x10x32xf32>, %m: tensor<8x10xi1>) -> tensor<2x4x8x32xf32> {
  // CHECK: graph.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {causal = true, scale = 2.500000e-01 : f64}
  %0 = graph.attention %q, %k, %v, %m {scale = 0.25 : f64, causal = true} : (tensor<2x4x8x16xf32>, tensor<2x4x10x16xf32>, tensor<2x4x10x32xf32>, tensor<8x10xi1>) -> tensor<2x4x8x32xf32>
  return %0 : tensor<2x4x8x32xf32>
}

// The minifloats MLIR 19 has no builtin type for: tensors of them move and
// convert; E8M0 casts carry their rounding.
// CHECK-LABEL: func @minifloats
func.func @minifloats(%a: tensor<4x!graph.f4E2M1FN>, %b: tensor<2x!graph.f6E2M3FN>,
                      %c: tensor<2x!graph.f6E3M2FN>, %x: tensor<4xf32>)
    -> (tensor<2x2x!graph.f4E2M1FN>, tensor<4x!graph.f8E8M0FNU>, tensor<4xui8>) {
  // CHECK: graph.reshape %{{.*}} : (tensor<4x!graph.f4E2M1FN>) -> tensor<2x2x!graph.f4E2M1FN>
  %0 = graph.reshape %a : (tensor<4x!graph.f4E2M1FN>) -> tensor<2x2x!graph.f4E2M1FN>
  // CHECK: graph.cast %{{.*}} : (tensor<2x!graph.f6E2M3FN>) -> tensor<2xf32>
  %1 = graph.cast %b : (tensor<2x!graph.f6E2M3FN>) -> tensor<2xf32>
  // CHECK: graph.cast %{{.*}} : (tensor<2x!graph.f6E3M2FN>) -> tensor<2xbf16>
  %2 = graph.cast %c : (tensor<2x!graph.f6E3M2FN>) -> tensor<2xbf16>
  // CHECK: graph.cast %{{.*}} {nonsaturating, round_mode = #graph.e8m0_rounding<down>} : (tensor<4xf32>) -> tensor<4x!graph.f8E8M0FNU>
  %3 = graph.cast %x {round_mode = #graph.e8m0_rounding<down>, nonsaturating} : (tensor<4xf32>) -> tensor<4x!graph.f8E8M0FNU>
  // CHECK: graph.bitcast %{{.*}} : (tensor<4x!graph.f8E8M0FNU>) -> tensor<4xui8>
  %4 = graph.bitcast %3 : (tensor<4x!graph.f8E8M0FNU>) -> tensor<4xui8>
  return %0, %3, %4 : tensor<2x2x!graph.f4E2M1FN>, tensor<4x!graph.f8E8M0FNU>, tensor<4xui8>
}
