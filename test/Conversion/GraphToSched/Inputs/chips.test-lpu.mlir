// The input of a pass test: convert-graph-to-sched-chips.mlir through -dfa-pipeline='target=test-lpu to=laid-out'
// (test/Inputs/make_stage_input.sh).
module attributes {graph.fusions_refused = [], graph.target = "test-lpu"} {
  func.func @main(%arg0: tensor<16x4096xf32> {graph.layout = #graph.layout<vector 320>, graph.name = "x"}) -> tensor<16x8192xf32> {
    %0 = graph.weight "w0" at ""[0] {graph.layout = #graph.layout<vector 320>} : tensor<4096x8192xf32>
    %1 = graph.weight "w1" at ""[0] {graph.layout = #graph.layout<vector 320>} : tensor<8192x4096xf32>
    %2 = graph.weight "w2" at ""[0] {graph.layout = #graph.layout<vector 320>} : tensor<4096x8192xf32>
    %3 = graph.kernel "l0" kind "matmul"(%arg0, %0) attributes {grid = 338 : i64, layouts = [#graph.layout<vector 320>], mxm_planes = 338 : i64, pad_bytes = 8192 : i64, pad_flops = 33816576 : i64, tile = array<i64: 16, 320, 320>, units = 1 : i64, vectors = 410 : i64} : (tensor<16x4096xf32>, tensor<4096x8192xf32>) -> tensor<16x8192xf32> {
    ^bb0(%arg1: tensor<16x4096xf32>, %arg2: tensor<4096x8192xf32>):
      %6 = graph.matmul %arg1, %arg2 : (tensor<16x4096xf32>, tensor<4096x8192xf32>) -> tensor<16x8192xf32>
      graph.yield %6 : tensor<16x8192xf32>
    }
    %4 = graph.kernel "l1" kind "matmul"(%3, %1) attributes {grid = 338 : i64, layouts = [#graph.layout<vector 320>], mxm_planes = 338 : i64, pad_bytes = 4096 : i64, pad_flops = 33816576 : i64, tile = array<i64: 16, 320, 320>, units = 1 : i64, vectors = 205 : i64} : (tensor<16x8192xf32>, tensor<8192x4096xf32>) -> tensor<16x4096xf32> {
    ^bb0(%arg1: tensor<16x8192xf32>, %arg2: tensor<8192x4096xf32>):
      %6 = graph.matmul %arg1, %arg2 : (tensor<16x8192xf32>, tensor<8192x4096xf32>) -> tensor<16x4096xf32>
      graph.yield %6 : tensor<16x4096xf32>
    }
    %5 = graph.kernel "l2" kind "matmul"(%4, %2) attributes {grid = 338 : i64, layouts = [#graph.layout<vector 320>], mxm_planes = 338 : i64, pad_bytes = 8192 : i64, pad_flops = 33816576 : i64, tile = array<i64: 16, 320, 320>, units = 1 : i64, vectors = 410 : i64} : (tensor<16x4096xf32>, tensor<4096x8192xf32>) -> tensor<16x8192xf32> {
    ^bb0(%arg1: tensor<16x4096xf32>, %arg2: tensor<4096x8192xf32>):
      %6 = graph.matmul %arg1, %arg2 : (tensor<16x4096xf32>, tensor<4096x8192xf32>) -> tensor<16x8192xf32>
      graph.yield %6 : tensor<16x8192xf32>
    }
    return %5 : tensor<16x8192xf32>
  }
}

