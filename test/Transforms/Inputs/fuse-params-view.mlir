// A batch norm's scale computed on [C] and then viewed as [C, 1, 1] (torchvision's
// FrozenBatchNorm2d, a hand-folded one): the view passes the arithmetic on
// to its reader's kernel too (found by review).
func.func @main(%x: tensor<2x8x4x4xf32> {graph.name = "x"}) -> (tensor<2x8x4x4xf32>) {
  %w = graph.constant dense<0.125> : tensor<8x8x3x3xf32>
  %g = graph.constant dense<[1.0, 0.5, 2.0, 1.5, 0.25, 1.0, 0.75, 3.0]> : tensor<8xf32>
  %v = graph.constant dense<[1.0, 2.0, 0.5, 4.0, 1.5, 0.25, 3.0, 1.0]> : tensor<8xf32>
  %eps = graph.constant dense<1.0e-5> : tensor<f32>
  %c = graph.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x8x4x4xf32>, tensor<8x8x3x3xf32>) -> tensor<2x8x4x4xf32>
  %ve = graph.add %v, %eps : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %sd = graph.sqrt %ve : tensor<8xf32>
  %sc = graph.div %g, %sd : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %scv = graph.reshape %sc : (tensor<8xf32>) -> tensor<8x1x1xf32>
  %y = graph.mul %c, %scv : (tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}
