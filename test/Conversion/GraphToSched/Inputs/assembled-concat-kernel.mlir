// The IR the lowering receives for an LM head split into two pieces on
// test-lpu-small (head.onnx of test/Transforms/Inputs/make_shard_models.py,
// laid out by dfa-compile --emit laid-out), with the concatenation of the
// pieces made a kernel of its own ("join", as a policy that does not fuse
// it into the last piece would leave it) and viewed [1, 128, 384]. The
// weights are read from head.onnx in the working directory.
module attributes {graph.target = "test-lpu-small"} {
  func.func @main(%arg0: tensor<128x320xf32> {graph.layout = #graph.layout<vector 320>, graph.name = "x"}) -> (tensor<1x128x384xf32> {graph.name = "y"}) {
    %0 = graph.weight "w.shard0" at "head.onnx"[98] {graph.layout = #graph.layout<vector 320>} : tensor<192x320xf32>
    %1 = graph.weight "w.shard1" at "head.onnx"[245858] {graph.layout = #graph.layout<vector 320>} : tensor<192x320xf32>
    %2 = graph.kernel "head" kind "matmul"(%0, %arg0) attributes {layouts = [#graph.layout<vector 320>], mxm_planes = 1 : i64, units = 1 : i64} : (tensor<192x320xf32>, tensor<128x320xf32>) -> tensor<128x192xf32> {
    ^bb0(%arg1: tensor<192x320xf32>, %arg2: tensor<128x320xf32>):
      %4 = graph.transpose %arg1 {perm = array<i64: 1, 0>} : (tensor<192x320xf32>) -> tensor<320x192xf32>
      %5 = graph.matmul %arg2, %4 : (tensor<128x320xf32>, tensor<320x192xf32>) -> tensor<128x192xf32>
      graph.yield %5 : tensor<128x192xf32>
    }
    %3 = graph.kernel "head.1" kind "matmul"(%1, %arg0) attributes {layouts = [#graph.layout<vector 320>], mxm_planes = 1 : i64, units = 1 : i64} : (tensor<192x320xf32>, tensor<128x320xf32>) -> tensor<128x192xf32> {
    ^bb0(%arg1: tensor<192x320xf32>, %arg2: tensor<128x320xf32>):
      %4 = graph.transpose %arg1 {perm = array<i64: 1, 0>} : (tensor<192x320xf32>) -> tensor<320x192xf32>
      %5 = graph.matmul %arg2, %4 : (tensor<128x320xf32>, tensor<320x192xf32>) -> tensor<128x192xf32>
      graph.yield %5 : tensor<128x192xf32>
    }
    %6 = graph.kernel "join" kind "data"(%2, %3) attributes {layouts = [#graph.layout<vector 320>], units = 1 : i64} : (tensor<128x192xf32>, tensor<128x192xf32>) -> tensor<1x128x384xf32> {
    ^bb0(%arg1: tensor<128x192xf32>, %arg2: tensor<128x192xf32>):
      %4 = graph.concat %arg1, %arg2 {axis = 1 : i64} : (tensor<128x192xf32>, tensor<128x192xf32>) -> tensor<128x384xf32>
      %5 = graph.reshape %4 : (tensor<128x384xf32>) -> tensor<1x128x384xf32>
      graph.yield %5 : tensor<1x128x384xf32>
    }
    return %6 : tensor<1x128x384xf32>
  }
}
