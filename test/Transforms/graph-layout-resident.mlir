// Where the layout ties to the minor dim (Groq vectors, TPU tiles, Spyre
// sticks), a weight or constant is laid out once, at load, as the compiler
// likes: a size-1 minor dim goes major (a 1x1 convolution's weight read
// through a reshape, [24, 20, 1, 1], would otherwise fill one 320-element
// vector or 128-wide tile row per element), and a minor dim narrower than
// the granule gives its place to the largest dim when that stores at most
// half the bytes (a [96, 2] table of pairs). A value a kernel writes keeps a
// size-1 minor dim (XLA pads a TPU value's trailing 1 to the lanes), and a
// feature map of one channel is not stored channels-last (the spatial dims
// fill the lanes). The GPU keeps row-major. Values through the schedules
// equal the reference's.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-lpu" -graph-layout | FileCheck %s --check-prefix=LPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-tpu-v5e" -graph-layout | FileCheck %s --check-prefix=TPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" -graph-layout | FileCheck %s --check-prefix=GPU
// RUN: %with_test_targets dfa-run %s --seed 5 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %s --target test-lpu --seed 5 --outputs %t.lpu > /dev/null
// RUN: %with_test_targets dfa-run %s --target test-tpu-v5e --seed 5 --outputs %t.tpu > /dev/null
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t.ref/output_%%d.npy' %% i), np.load('%t.%%s/output_%%d.npy' %% (d, i))) for i in (0, 1, 2) for d in ('lpu', 'tpu')]"

// The image of one channel stays NCHW (channels-last would be 1 of 320).
// LPU: %arg0: tensor<1x1x8x8xf32> {graph.layout = #graph.layout<vector 320>
// LPU: graph.constant {graph.layout = #graph.layout<vector 320 perm [2, 3, 0, 1]>} {{.*}} : tensor<24x20x1x1xf32>
// LPU: graph.constant {graph.layout = #graph.layout<vector 320 perm [1, 0]>} {{.*}} : tensor<96x2xf32>
// TPU: graph.constant {graph.layout = #graph.layout<tile [8, 128] perm [2, 3, 0, 1]>} {{.*}} : tensor<24x20x1x1xf32>
// TPU: graph.constant {graph.layout = #graph.layout<tile [2, 128] perm [1, 0]>} {{.*}} : tensor<96x2xf32>
// GPU-NOT: perm [

func.func @main(%img: tensor<1x1x8x8xf32> {graph.name = "img"}, %x: tensor<4x20xf32> {graph.name = "x"},
                %y: tensor<2x96xf32> {graph.name = "y"})
    -> (tensor<1x1x8x8xf32>, tensor<4x24xf32>, tensor<2x2xf32>) {
  %w = graph.constant dense<0.25> : tensor<24x20x1x1xf32>
  %c = graph.constant dense<0.5> : tensor<96x2xf32>
  %k = graph.constant dense<0.125> : tensor<1x1x3x3xf32>
  %0 = graph.conv %img, %k {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x1x8x8xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x8x8xf32> loc("blur")
  %1 = graph.reshape %w : (tensor<24x20x1x1xf32>) -> tensor<24x20xf32> loc("flat")
  %2 = graph.transpose %1 {perm = array<i64: 1, 0>} : (tensor<24x20xf32>) -> tensor<20x24xf32> loc("wt")
  %3 = graph.matmul %x, %2 : (tensor<4x20xf32>, tensor<20x24xf32>) -> tensor<4x24xf32> loc("proj")
  %4 = graph.matmul %y, %c : (tensor<2x96xf32>, tensor<96x2xf32>) -> tensor<2x2xf32> loc("pairs")
  return %0, %3, %4 : tensor<1x1x8x8xf32>, tensor<4x24xf32>, tensor<2x2xf32>
}
