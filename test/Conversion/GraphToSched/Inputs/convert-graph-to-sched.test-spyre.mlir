// The input of a pass test: convert-graph-to-sched.mlir through -dfa-pipeline='target=test-spyre to=laid-out'
// (test/Inputs/make_stage_input.sh).
module attributes {graph.fusions_refused = [], graph.target = "test-spyre"} {
  func.func @main(%arg0: tensor<65xf16> {graph.layout = #graph.layout<stick 64>, graph.name = "x"}) -> tensor<65xf16> {
    %0 = graph.kernel "copy" kind "data"(%arg0) attributes {grid = 2 : i64, layouts = [#graph.layout<stick 64>], pad_bytes = 126 : i64, pad_flops = 0 : i64, span_bytes = 130 : i64, split_dim = 0 : i64, tile = array<i64: 1, 64>, units = 2 : i64} : (tensor<65xf16>) -> tensor<65xf16> {
    ^bb0(%arg1: tensor<65xf16>):
      %1 = graph.reshape %arg1 : (tensor<65xf16>) -> tensor<65xf16>
      graph.yield %1 : tensor<65xf16>
    }
    return %0 : tensor<65xf16>
  }
}

