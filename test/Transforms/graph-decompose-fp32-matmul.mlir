// graph-decompose's fp32-matmul option tags every matrix op with f32
// operands (including the ones decompositions make) with the mode; ops on
// other types are left alone, and an unknown mode is an error.
// RUN: dfa-opt %s -graph-decompose=fp32-matmul=tf32 | FileCheck %s
// RUN: dfa-opt %s -graph-decompose | FileCheck %s --check-prefix=IEEE
// RUN: not dfa-opt %s -graph-decompose=fp32-matmul=fp16 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @main
// CHECK: graph.matmul {{.*}}{graph.fp32_matmul = "tf32"} : (tensor<4x8xf32>
// CHECK: graph.conv {{.*}}graph.fp32_matmul = "tf32"
// CHECK: graph.matmul
// CHECK-NOT: graph.fp32_matmul
// CHECK-SAME: tensor<4x8xf16>
// IEEE-NOT: graph.fp32_matmul
// BAD: error: fp32-matmul 'fp16' is not one of ieee, tf32, bf16, bf16x3
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %x: tensor<1x3x5x5xf32>, %w: tensor<2x3x3x3xf32>, %h: tensor<4x8xf16>, %g: tensor<8x4xf16>) -> (tensor<4x4xf32>, tensor<1x2x3x3xf32>, tensor<4x4xf16>) {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = graph.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x5x5xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x3x3xf32>
  %2 = graph.matmul %h, %g : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  return %0, %1, %2 : tensor<4x4xf32>, tensor<1x2x3x3xf32>, tensor<4x4xf16>
}
