// The input of a pass test: convert-graph-to-sched.mlir through -dfa-pipeline='target=test-gpu to=laid-out'
// (test/Inputs/make_stage_input.sh).
module attributes {graph.fusions_refused = [], graph.target = "test-gpu"} {
  func.func @main(%arg0: tensor<65xf16> {graph.layout = #graph.layout<row_major>, graph.name = "x"}) -> tensor<65xf16> {
    %0 = graph.kernel "copy" kind "data"(%arg0) attributes {grid = 1 : i64, layouts = [#graph.layout<row_major>], pad_bytes = 0 : i64, pad_flops = 0 : i64, tile = array<i64: 1024>, units = 1 : i64, waves = 1 : i64} : (tensor<65xf16>) -> tensor<65xf16> {
    ^bb0(%arg1: tensor<65xf16>):
      %1 = graph.reshape %arg1 : (tensor<65xf16>) -> tensor<65xf16>
      graph.yield %1 : tensor<65xf16>
    }
    return %0 : tensor<65xf16>
  }
}

