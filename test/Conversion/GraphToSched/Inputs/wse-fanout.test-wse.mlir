// The input of a pass test: convert-graph-to-sched-wse-fanout.mlir through -dfa-pipeline='target=test-wse to=laid-out'
// (test/Inputs/make_stage_input.sh).
module attributes {graph.fusions_refused = [], graph.target = "test-wse"} {
  func.func @main(%arg0: tensor<64x256xf16> {graph.layout = #graph.layout<pe_slices>, graph.name = "x"}) -> tensor<64x256xf16> {
    %0 = graph.weight "w0" at ""[0] {graph.layout = #graph.layout<pe_slices>} : tensor<256x256xf16>
    %1 = graph.weight "w1" at ""[0] {graph.layout = #graph.layout<pe_slices>} : tensor<256x256xf16>
    %2 = graph.kernel "fc1" kind "matmul"(%arg0, %0) attributes {grid = 1 : i64, layouts = [#graph.layout<pe_slices>], pad_bytes = 0 : i64, pad_flops = 0 : i64, pes = 10404 : i64, rect = array<i64: 102, 102>, tile = array<i64: 2>, units = 10404 : i64} : (tensor<64x256xf16>, tensor<256x256xf16>) -> tensor<64x256xf16> {
    ^bb0(%arg1: tensor<64x256xf16>, %arg2: tensor<256x256xf16>):
      %4 = graph.matmul %arg1, %arg2 : (tensor<64x256xf16>, tensor<256x256xf16>) -> tensor<64x256xf16>
      %5 = graph.relu %4 : tensor<64x256xf16>
      graph.yield %5 : tensor<64x256xf16>
    }
    %3 = graph.kernel "fc2" kind "matmul"(%2, %1, %arg0) attributes {grid = 1 : i64, layouts = [#graph.layout<pe_slices>], pad_bytes = 0 : i64, pad_flops = 0 : i64, pes = 10404 : i64, rect = array<i64: 102, 102>, tile = array<i64: 2>, units = 10404 : i64} : (tensor<64x256xf16>, tensor<256x256xf16>, tensor<64x256xf16>) -> tensor<64x256xf16> {
    ^bb0(%arg1: tensor<64x256xf16>, %arg2: tensor<256x256xf16>, %arg3: tensor<64x256xf16>):
      %4 = graph.matmul %arg1, %arg2 : (tensor<64x256xf16>, tensor<256x256xf16>) -> tensor<64x256xf16>
      %5 = graph.add %4, %arg3 : (tensor<64x256xf16>, tensor<64x256xf16>) -> tensor<64x256xf16>
      graph.yield %5 : tensor<64x256xf16>
    }
    return %3 : tensor<64x256xf16>
  }
}

