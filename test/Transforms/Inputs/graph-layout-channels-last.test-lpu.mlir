// The input of a pass test: graph-layout-channels-last.mlir through -graph-fuse=target=test-lpu -graph-tile
// (test/Inputs/make_stage_input.sh).
module attributes {graph.fusions_refused = [], graph.target = "test-lpu"} {
  func.func @main(%arg0: tensor<1x64x7x7xf32> {graph.name = "x"}) -> tensor<1x64x7x7xf32> {
    %0 = graph.constant dense<1.000000e+00> : tensor<64x64x3x3xf32>
    %1 = graph.kernel "conv" kind "conv"(%arg0, %0) attributes {grid = 10 : i64, tile = array<i64: 320>, units = 1 : i64, vectors = 10 : i64} : (tensor<1x64x7x7xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x7x7xf32> {
    ^bb0(%arg1: tensor<1x64x7x7xf32>, %arg2: tensor<64x64x3x3xf32>):
      %2 = graph.conv %arg1, %arg2 {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x64x7x7xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x7x7xf32>
      %3 = graph.relu %2 : tensor<1x64x7x7xf32>
      graph.yield %3 : tensor<1x64x7x7xf32>
    }
    return %1 : tensor<1x64x7x7xf32>
  }
}

