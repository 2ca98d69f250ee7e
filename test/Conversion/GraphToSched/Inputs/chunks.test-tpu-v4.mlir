// The input of a pass test: convert-graph-to-sched-chunks.mlir through -graph-fuse=target=test-tpu-v4 -graph-tile -graph-layout
// (test/Inputs/make_stage_input.sh).
module attributes {graph.fusions_refused = [], graph.target = "test-tpu-v4"} {
  func.func @main(%arg0: tensor<128x1024xf32> {graph.layout = #graph.layout<tile [8, 128]>, graph.name = "x"}, %arg1: tensor<8192xf32> {graph.layout = #graph.layout<tile [8, 128]>, graph.name = "b"}, %arg2: tensor<1x8388608xf32> {graph.layout = #graph.layout<tile [2, 128]>, graph.name = "row"}) -> (tensor<128x8192xf32>, tensor<1x8388608xf32>) {
    %0 = graph.weight "w" at ""[0] {graph.layout = #graph.layout<tile [8, 128]>} : tensor<1024x8192xf32>
    %1 = graph.kernel "fc" kind "matmul"(%arg0, %0, %arg1) attributes {grid = 16 : i64, layouts = [#graph.layout<tile [8, 128]>], pad_bytes = 0 : i64, pad_flops = 0 : i64, tile = array<i64: 128, 512, 1024>, units = 2 : i64, vmem_bytes = 5505024 : i64} : (tensor<128x1024xf32>, tensor<1024x8192xf32>, tensor<8192xf32>) -> tensor<128x8192xf32> {
    ^bb0(%arg3: tensor<128x1024xf32>, %arg4: tensor<1024x8192xf32>, %arg5: tensor<8192xf32>):
      %3 = graph.matmul %arg3, %arg4 : (tensor<128x1024xf32>, tensor<1024x8192xf32>) -> tensor<128x8192xf32>
      %4 = graph.add %3, %arg5 : (tensor<128x8192xf32>, tensor<8192xf32>) -> tensor<128x8192xf32>
      graph.yield %4 : tensor<128x8192xf32>
    }
    %2 = graph.kernel "sm" kind "reduction"(%arg2) attributes {grid = 16 : i64, layouts = [#graph.layout<tile [2, 128]>], pad_bytes = 33554432 : i64, pad_flops = 0 : i64, tile = array<i64: 524288>, units = 2 : i64, vmem_bytes = 16777216 : i64} : (tensor<1x8388608xf32>) -> tensor<1x8388608xf32> {
    ^bb0(%arg3: tensor<1x8388608xf32>):
      %3 = graph.softmax %arg3 {axis = 1 : i64} : tensor<1x8388608xf32>
      graph.yield %3 : tensor<1x8388608xf32>
    }
    return %1, %2 : tensor<128x8192xf32>, tensor<1x8388608xf32>
  }
}

