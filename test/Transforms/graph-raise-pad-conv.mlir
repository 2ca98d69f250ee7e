// A zero pad of the spatial dims before a convolution (TF-style "same"
// padding written as F.pad, as torch.export writes Hugging Face's
// MobileNetV2) folds into the convolution's own pads, on every target:
// no copy kernel is made of it. A pad of another value, of the channels,
// or a crop stays; a pad another op reads too stays for it. The folded
// graph gives the unfolded one's values.
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-tpu-v4" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-raise -o %t.folded.mlir
// RUN: %python -c "import numpy as np; g = np.random.default_rng(0); np.save('%t.x.npy', g.standard_normal((1, 4, 6, 6)).astype(np.float32)); np.save('%t.w.npy', g.standard_normal((8, 4, 3, 3)).astype(np.float32))"
// RUN: dfa-run %s --inputs %t.x.npy %t.w.npy --outputs %t.graph > /dev/null
// RUN: dfa-run %t.folded.mlir --inputs %t.x.npy %t.w.npy --outputs %t.fold > /dev/null
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t.fold/output_%%d.npy' %% i), np.load('%t.graph/output_%%d.npy' %% i), rtol=1e-6, atol=1e-6) for i in range(5)]; print('same values')" | FileCheck %s --check-prefix=VALUES
// VALUES: same values

func.func @main(%x: tensor<1x4x6x6xf32> {graph.name = "x"}, %w: tensor<8x4x3x3xf32> {graph.name = "w"})
    -> (tensor<1x8x3x3xf32>, tensor<1x8x6x6xf32>, tensor<1x8x4x4xf32>, tensor<1x8x5x5xf32>, tensor<1x4x7x7xf32>) {
  // "same" padding of a stride-2 convolution: (0, 1) on each spatial dim.
  %p0 = graph.pad %x {pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 1>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x7x7xf32> loc("same_pad")
  %c0 = graph.conv %p0, %w {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x7x7xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x3x3xf32> loc("conv0")
  // Added to the convolution's own pads.
  %p1 = graph.pad %x {pads = array<i64: 0, 0, 1, 0, 0, 0, 0, 1>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x7x7xf32>
  %c1 = graph.conv %p1, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 1>} : (tensor<1x4x7x7xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> loc("conv1")
  // Padding with ones is not a convolution's zero padding.
  %p2 = graph.pad %x {pads = array<i64: 0, 0, 0, 0, 0, 0, 0, 0>, value = 1.0} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c2 = graph.conv %p2, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x4x4xf32> loc("conv2")
  // A crop stays a pad.
  %p3 = graph.pad %x {pads = array<i64: 0, 0, 0, 0, 0, 0, 1, -1>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x7x5xf32>
  %c3 = graph.conv %p3, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 1, 0, 1>, dilations = array<i64: 1, 1>} : (tensor<1x4x7x5xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x5x5xf32> loc("conv3")
  return %c0, %c1, %c2, %c3, %p0 : tensor<1x8x3x3xf32>, tensor<1x8x6x6xf32>, tensor<1x8x4x4xf32>, tensor<1x8x5x5xf32>, tensor<1x4x7x7xf32>
}

// CHECK-LABEL: func.func @main
// The first pad is returned too: it stays for the return, and conv0 reads x.
// CHECK: %[[P0:.*]] = graph.pad %arg0 {pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 1>}
// CHECK: %[[C0:.*]] = graph.conv %arg0, %arg1 {{.*}}pads = array<i64: 0, 0, 1, 1>
// CHECK-NOT: graph.pad %arg0 {pads = array<i64: 0, 0, 1, 0, 0, 0, 0, 1>}
// CHECK: %[[C1:.*]] = graph.conv %arg0, %arg1 {{.*}}pads = array<i64: 2, 0, 0, 2>
// CHECK: %[[P2:.*]] = graph.pad %arg0 {{.*}}value = 1.0
// CHECK: graph.conv %[[P2]], %arg1
// CHECK: %[[P3:.*]] = graph.pad %arg0 {pads = array<i64: 0, 0, 0, 0, 0, 0, 1, -1>}
// CHECK: graph.conv %[[P3]], %arg1
// CHECK: return %[[C0]], %[[C1]], {{.*}}, %[[P0]]
