// Every kernel family the reference splits over threads, at sizes past the
// split thresholds: a 3x3 convolution (BLAS tiles over 4096 outputs), a
// grouped and a depthwise convolution (strided, padded), a batched matmul,
// one matmul whose batch folds into rows, attention over 4 heads, a
// transposed convolution, and elementwise ops with broadcasting.
func.func @main(%x: tensor<1x32x64x64xf32> {graph.name = "x"},
                %w: tensor<64x32x3x3xf32> {graph.name = "w"},
                %wg: tensor<64x8x3x3xf32> {graph.name = "wg"},
                %wd: tensor<64x1x5x5xf32> {graph.name = "wd"},
                %bias: tensor<64xf32> {graph.name = "bias"},
                %cb: tensor<64x1x1xf32> {graph.name = "cb"},
                %a: tensor<4x256x320xf32> {graph.name = "a"},
                %b: tensor<4x320x288xf32> {graph.name = "b"},
                %q: tensor<4x300x64xf32> {graph.name = "q"},
                %wf: tensor<64x64xf32> {graph.name = "wf"},
                %wt: tensor<32x4x2x2xf32> {graph.name = "wt"})
    -> (tensor<1x64x32x32xf32> {graph.name = "conv"},
        tensor<4x256x288xf32> {graph.name = "mm"},
        tensor<4x300x64xf32> {graph.name = "attn"},
        tensor<4x300x64xf32> {graph.name = "folded"},
        tensor<1x16x128x128xf32> {graph.name = "deconv"}) {
  %c = graph.conv %x, %w, %bias {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x32x64x64xf32>, tensor<64x32x3x3xf32>, tensor<64xf32>) -> tensor<1x64x64x64xf32>
  %s = graph.sigmoid %c : tensor<1x64x64x64xf32>
  %e = graph.erf %s : tensor<1x64x64x64xf32>
  %m = graph.mul %c, %e : (tensor<1x64x64x64xf32>, tensor<1x64x64x64xf32>) -> tensor<1x64x64x64xf32>
  %g = graph.conv %m, %wg {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 8 : i64} : (tensor<1x64x64x64xf32>, tensor<64x8x3x3xf32>) -> tensor<1x64x32x32xf32>
  %d = graph.conv %g, %wd {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 1, 1>, group = 64 : i64} : (tensor<1x64x32x32xf32>, tensor<64x1x5x5xf32>) -> tensor<1x64x32x32xf32>
  %y = graph.add %d, %cb : (tensor<1x64x32x32xf32>, tensor<64x1x1xf32>) -> tensor<1x64x32x32xf32>
  %mm = graph.matmul %a, %b : (tensor<4x256x320xf32>, tensor<4x320x288xf32>) -> tensor<4x256x288xf32>
  %at = graph.attention %q, %q, %q {scale = 0.125 : f64} : (tensor<4x300x64xf32>, tensor<4x300x64xf32>, tensor<4x300x64xf32>) -> tensor<4x300x64xf32>
  %f = graph.matmul %at, %wf : (tensor<4x300x64xf32>, tensor<64x64xf32>) -> tensor<4x300x64xf32>
  %dc = graph.conv_transpose %x, %wt {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 4 : i64} : (tensor<1x32x64x64xf32>, tensor<32x4x2x2xf32>) -> tensor<1x16x128x128xf32>
  return %y, %mm, %at, %f, %dc : tensor<1x64x32x32xf32>, tensor<4x256x288xf32>, tensor<4x300x64xf32>, tensor<4x300x64xf32>, tensor<1x16x128x128xf32>
}
