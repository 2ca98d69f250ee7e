// The input of a pass test: convert-graph-to-sched-cpu.mlir through -dfa-pipeline='target=test-cpu to=laid-out'
// (test/Inputs/make_stage_input.sh).
module attributes {graph.fusions_refused = [], graph.target = "test-cpu"} {
  func.func @main(%arg0: tensor<4x8xf32> {graph.layout = #graph.layout<row_major>, graph.name = "x"}) -> tensor<4x8xf32> {
    %0 = graph.weight "w" at ""[0] {graph.layout = #graph.layout<row_major>} : tensor<8x8xf32>
    %1 = graph.kernel "mm" kind "matmul"(%arg0, %0) attributes {grid = 1 : i64, layouts = [#graph.layout<row_major>], pad_bytes = 0 : i64, pad_flops = 0 : i64, tile = array<i64: 32>, units = 1 : i64} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%arg1: tensor<4x8xf32>, %arg2: tensor<8x8xf32>):
      %4 = graph.matmul %arg1, %arg2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
      graph.yield %4 : tensor<4x8xf32>
    }
    %2 = graph.kernel "act" kind "pointwise"(%1) attributes {grid = 1 : i64, layouts = [#graph.layout<row_major>], pad_bytes = 0 : i64, pad_flops = 0 : i64, tile = array<i64: 32>, units = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%arg1: tensor<4x8xf32>):
      %4 = graph.relu %arg1 : tensor<4x8xf32>
      graph.yield %4 : tensor<4x8xf32>
    }
    %3 = graph.kernel "res" kind "pointwise"(%2, %arg0) attributes {grid = 1 : i64, layouts = [#graph.layout<row_major>], pad_bytes = 0 : i64, pad_flops = 0 : i64, tile = array<i64: 32>, units = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>):
      %4 = graph.add %arg1, %arg2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      graph.yield %4 : tensor<4x8xf32>
    }
    return %3 : tensor<4x8xf32>
  }
}

