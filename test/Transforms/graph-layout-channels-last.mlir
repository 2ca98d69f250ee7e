// Feature maps of a convolutional net are stored channels-last on targets
// whose layout is tied to the minor dim: channels, not the 7-wide spatial
// dim, fill Spyre sticks, TPU tiles and Groq vectors. Weights are HWIO.
// Each run starts from what graph-fuse and graph-tile made for its target
// (Inputs/graph-layout-channels-last.<target>.mlir, test/Inputs/make_stage_input.sh).
// RUN: %with_test_targets dfa-opt %S/Inputs/graph-layout-channels-last.test-spyre.mlir -graph-layout | FileCheck %s --check-prefix=SPYRE
// RUN: %with_test_targets dfa-opt %S/Inputs/graph-layout-channels-last.test-tpu-v4.mlir -graph-layout | FileCheck %s --check-prefix=TPU
// RUN: %with_test_targets dfa-opt %S/Inputs/graph-layout-channels-last.test-lpu.mlir -graph-layout | FileCheck %s --check-prefix=LPU
// RUN: %with_test_targets dfa-opt %S/Inputs/graph-layout-channels-last.test-gpu.mlir -graph-layout | FileCheck %s --check-prefix=GPU
// The schedule keeps the layout the pass chose (the weight stored HWIO in vectors).
// RUN: %with_test_targets dfa-opt %S/Inputs/graph-layout-channels-last.test-lpu.mlir -graph-layout -convert-graph-to-sched | FileCheck %s --check-prefix=SCHED

// The graph the inputs were made from:
func.func @main(%x: tensor<1x64x7x7xf32> {graph.name = "x"}) -> tensor<1x64x7x7xf32> {
  %w = graph.constant dense<1.0> : tensor<64x64x3x3xf32> loc("w")
  %0 = graph.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x64x7x7xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x7x7xf32> loc("conv")
  %1 = graph.relu %0 : tensor<1x64x7x7xf32> loc("relu")
  return %1 : tensor<1x64x7x7xf32>
}

// graph-layout records the layout of every value the kernels touch: the
// argument NCHW stored NHWC, the resident weight OIHW stored HWIO.
// LPU-LABEL: func.func @main
// LPU-SAME: graph.layout = #graph.layout<vector 320 perm [0, 2, 3, 1]>
// LPU: graph.constant {graph.layout = #graph.layout<vector 320 perm [2, 3, 1, 0]>}
// GPU-LABEL: func.func @main
// GPU-SAME: graph.layout = #graph.layout<row_major>
// GPU: graph.constant {graph.layout = #graph.layout<row_major>}

// 64 f32 channels are two whole 32-element sticks: no padding at all, where
// NCHW would pad every 7-wide row to 32 (a 4.6x blow-up).
// SPYRE: graph.kernel "conv" kind "conv"
// SPYRE-SAME: layouts = [#graph.layout<stick 32 perm [0, 2, 3, 1]>], pad_bytes = 0 : i64
// The 49 pixels (rows of sticks) are split over the 32 cores.
// SPYRE-SAME: split_dim = 0 : i64, tile = array<i64: 2, 64>, units = 32

// TPU tiles the two minor dims, W (7 -> 8) and C (64 -> 128):
// 7*8*128 - 3136 = 4032 elements of 4 B.
// TPU: graph.kernel "conv" kind "conv"
// TPU-SAME: layouts = [#graph.layout<tile [8, 128] perm [0, 2, 3, 1]>], pad_bytes = 16128 : i64

// Groq pads the 64 channels to one 320-element vector per pixel:
// 49 * (320 - 64) * 4 B.
// LPU: graph.kernel "conv" kind "conv"
// LPU-SAME: layouts = [#graph.layout<vector 320 perm [0, 2, 3, 1]>], pad_bytes = 50176 : i64

// The GPU stores row-major and needs no permutation.
// GPU: graph.kernel "conv" kind "conv"
// GPU-SAME: layouts = [#graph.layout<row_major>], pad_bytes = 0 : i64

// The resident weight is stored HWIO: [3,3,64,64] with 64 -> 320 on Groq,
// 3*3*64*320*4 B.
// SCHED: sched.alloc {{.*}}layout = #graph.layout<vector 320 perm [2, 3, 1, 0]>
// SCHED-SAME: size = 737280
