// The input of a pass test: graph-layout.mlir through -graph-fuse=target=test-spyre -graph-tile
// (test/Inputs/make_stage_input.sh).
module attributes {graph.fusions_refused = [], graph.target = "test-spyre"} {
  func.func @main(%arg0: tensor<65xf16> {graph.name = "x"}, %arg1: tensor<10x100xf16> {graph.name = "a"}, %arg2: tensor<100x30xf16> {graph.name = "b"}) -> (tensor<65xf16>, tensor<30x10xf16>) {
    %0 = graph.kernel "copy" kind "data"(%arg0) attributes {grid = 2 : i64, span_bytes = 130 : i64, split_dim = 0 : i64, tile = array<i64: 1, 64>, units = 2 : i64} : (tensor<65xf16>) -> tensor<65xf16> {
    ^bb0(%arg3: tensor<65xf16>):
      %3 = graph.reshape %arg3 : (tensor<65xf16>) -> tensor<65xf16>
      graph.yield %3 : tensor<65xf16>
    }
    %1 = graph.kernel "mm" kind "matmul"(%arg1, %arg2) attributes {grid = 10 : i64, span_bytes = 860 : i64, split_dim = 1 : i64, tile = array<i64: 1, 64>, units = 10 : i64} : (tensor<10x100xf16>, tensor<100x30xf16>) -> tensor<10x30xf16> {
    ^bb0(%arg3: tensor<10x100xf16>, %arg4: tensor<100x30xf16>):
      %3 = graph.matmul %arg3, %arg4 : (tensor<10x100xf16>, tensor<100x30xf16>) -> tensor<10x30xf16>
      graph.yield %3 : tensor<10x30xf16>
    }
    %2 = graph.kernel "t" kind "data"(%1) attributes {grid = 30 : i64, span_bytes = 40 : i64, split_dim = 1 : i64, tile = array<i64: 1, 64>, units = 30 : i64} : (tensor<10x30xf16>) -> tensor<30x10xf16> {
    ^bb0(%arg3: tensor<10x30xf16>):
      %3 = graph.transpose %arg3 {perm = array<i64: 1, 0>} : (tensor<10x30xf16>) -> tensor<30x10xf16>
      graph.yield %3 : tensor<30x10xf16>
    }
    return %0, %2 : tensor<65xf16>, tensor<30x10xf16>
  }
}

