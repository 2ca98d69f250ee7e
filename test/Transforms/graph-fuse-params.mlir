// Ops computed from weights alone (a batch norm's scale from its variance,
// a weight's view) form kernels of their own, made first, that no op
// reading an activation joins: a convolution takes the batch norm after it
// as its epilogue (the mean and shift read as stored), where the views of
// the batch norm's parameters used to start kernels that took its
// full-size ops away from the convolution (a torch.export ResNet-50 ran
// 3.36 ms on gpu-h100, 2.10 ms then; the ONNX exporter's folded one 1.83).
// The scale's arithmetic, over [C] where the epilogue writes [N, C, H, W],
// goes into the epilogue too, rather than a kernel of its own each step
// (2.10 -> 1.85 ms). Arithmetic on parameters that two kernels read, or
// that has as many elements as what it feeds, stays a kernel of its own.
// RUN: %with_test_targets dfa-opt %s -graph-decompose="target=test-gpu" -graph-fuse="target=test-gpu" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-decompose="target=test-tpu-v5e" -graph-fuse="target=test-tpu-v5e" | FileCheck %s
// The fused program computes what the ops did:
// RUN: %with_test_targets dfa-opt %s -graph-decompose="target=test-gpu" -graph-fuse="target=test-gpu" -o %t.fused.mlir
// RUN: dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: dfa-run %t.fused.mlir --seed 3 --expect %t.ref/output_0.npy %t.ref/output_1.npy | FileCheck %s --check-prefix=SAME
// SAME: output 0 'y': {{.*}} ok
// SAME: output 1 'z': {{.*}} ok
// The scale computed on [C], then viewed as [C, 1, 1], goes in too:
// RUN: %with_test_targets dfa-opt %S/Inputs/fuse-params-view.mlir -graph-fuse="target=test-gpu" | FileCheck %s --check-prefix=VIEW
// VIEW: graph.kernel {{.*}} kind "conv"
// VIEW: graph.sqrt
// VIEW: graph.div
// VIEW: graph.reshape
// VIEW: graph.mul
// VIEW-NOT: graph.kernel
// RUN: %with_test_targets dfa-opt %S/Inputs/fuse-params-view.mlir -graph-fuse="target=test-gpu" -o %t.view.mlir
// RUN: dfa-run %S/Inputs/fuse-params-view.mlir --seed 3 --outputs %t.viewref > /dev/null
// RUN: dfa-run %t.view.mlir --seed 3 --expect %t.viewref/output_0.npy | FileCheck %s --check-prefix=VIEWSAME
// VIEWSAME: output 0 {{.*}} ok

// CHECK-LABEL: func.func @main
// Parameters' kernels first: the shared gain's arithmetic, and the doubled
// weight (as many elements as the convolution reads):
// CHECK-DAG: graph.kernel {{.*}} kind "pointwise"() : () -> tensor<8x1x1xf32>
// CHECK-DAG: graph.kernel {{.*}} kind "pointwise"({{.*}}) : (tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
// The batch norm's scale in the convolution's epilogue:
// CHECK: graph.kernel {{.*}} kind "conv"
// CHECK: graph.conv
// CHECK: graph.sqrt
// CHECK: graph.div
// CHECK: graph.mul
// CHECK: graph.add
// CHECK: graph.relu
// CHECK: graph.yield
// CHECK: graph.kernel {{.*}} kind "conv"
// CHECK-NOT: graph.sqrt
// CHECK: graph.yield
// CHECK-NOT: graph.kernel
// CHECK: return
func.func @main(%x: tensor<2x8x6x6xf32> {graph.name = "x"}) -> (tensor<2x8x6x6xf32> {graph.name = "y"}, tensor<2x8x6x6xf32> {graph.name = "z"}) {
  %w = graph.constant dense<0.125> : tensor<8x8x3x3xf32>
  %g = graph.constant dense<[1.0, 0.5, 2.0, 1.5, 0.25, 1.0, 0.75, 3.0]> : tensor<8xf32>
  %b = graph.constant dense<[0.1, -0.2, 0.3, 0.0, 0.5, -1.0, 0.2, 0.4]> : tensor<8xf32>
  %m = graph.constant dense<[0.5, 0.1, -0.3, 0.2, 0.0, 0.7, -0.1, 0.3]> : tensor<8xf32>
  %v = graph.constant dense<[1.0, 2.0, 0.5, 4.0, 1.5, 0.25, 3.0, 1.0]> : tensor<8xf32>
  %c = graph.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<2x8x6x6xf32>
  %n = graph.batch_norm %c, %g, %b, %m, %v {epsilon = 1.0e-5 : f64} : (tensor<2x8x6x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8x6x6xf32>
  %y = graph.relu %n : tensor<2x8x6x6xf32>
  // A second convolution, of a doubled weight, whose outputs are scaled
  // and shifted by one gain g * g that both of its adds read.
  %two = graph.constant dense<2.0> : tensor<f32>
  %w2 = graph.mul %w, %two : (tensor<8x8x3x3xf32>, tensor<f32>) -> tensor<8x8x3x3xf32>
  %c2 = graph.conv %x, %w2 {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<2x8x6x6xf32>
  %gg = graph.mul %g, %g : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %gv = graph.reshape %gg : (tensor<8xf32>) -> tensor<8x1x1xf32>
  %s1 = graph.add %c2, %gv : (tensor<2x8x6x6xf32>, tensor<8x1x1xf32>) -> tensor<2x8x6x6xf32>
  %s2 = graph.add %y, %gv : (tensor<2x8x6x6xf32>, tensor<8x1x1xf32>) -> tensor<2x8x6x6xf32>
  %z = graph.mul %s1, %s2 : (tensor<2x8x6x6xf32>, tensor<2x8x6x6xf32>) -> tensor<2x8x6x6xf32>
  return %y, %z : tensor<2x8x6x6xf32>, tensor<2x8x6x6xf32>
}
