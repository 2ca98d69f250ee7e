// Regression (review of the assembly, 2026-12-07): a concat kernel whose
// inputs are all pieces but that writes an operand of its own (a constant
// between the pieces) and a second output. It must build a compute for its
// own region and the second output: it was taken for a concat alone (the
// region left unwritten; the second output never placed, a crash).
// The weights are read from head.onnx in the working directory.
module attributes {graph.target = "test-lpu-small"} {
  func.func @main(%arg0: tensor<128x320xf32> {graph.layout = #graph.layout<vector 320>, graph.name = "x"}) -> (tensor<128x448xf32>, tensor<128x64xf32>) {
    %w0 = graph.weight "w.shard0" at "head.onnx"[98] {graph.layout = #graph.layout<vector 320>} : tensor<192x320xf32>
    %w1 = graph.weight "w.shard1" at "head.onnx"[245858] {graph.layout = #graph.layout<vector 320>} : tensor<192x320xf32>
    %p0 = graph.kernel "head" kind "matmul"(%w0, %arg0) attributes {layouts = [#graph.layout<vector 320>], mxm_planes = 1 : i64, units = 1 : i64} : (tensor<192x320xf32>, tensor<128x320xf32>) -> tensor<128x192xf32> {
    ^bb0(%a1: tensor<192x320xf32>, %a2: tensor<128x320xf32>):
      %t = graph.transpose %a1 {perm = array<i64: 1, 0>} : (tensor<192x320xf32>) -> tensor<320x192xf32>
      %m = graph.matmul %a2, %t : (tensor<128x320xf32>, tensor<320x192xf32>) -> tensor<128x192xf32>
      graph.yield %m : tensor<128x192xf32>
    }
    %p1 = graph.kernel "head.1" kind "matmul"(%w1, %arg0) attributes {layouts = [#graph.layout<vector 320>], mxm_planes = 1 : i64, units = 1 : i64} : (tensor<192x320xf32>, tensor<128x320xf32>) -> tensor<128x192xf32> {
    ^bb0(%a1: tensor<192x320xf32>, %a2: tensor<128x320xf32>):
      %t = graph.transpose %a1 {perm = array<i64: 1, 0>} : (tensor<192x320xf32>) -> tensor<320x192xf32>
      %m = graph.matmul %a2, %t : (tensor<128x320xf32>, tensor<320x192xf32>) -> tensor<128x192xf32>
      graph.yield %m : tensor<128x192xf32>
    }
    %r:2 = graph.kernel "join" kind "data"(%p0, %p1) attributes {layouts = [#graph.layout<vector 320>, #graph.layout<vector 320>], units = 1 : i64} : (tensor<128x192xf32>, tensor<128x192xf32>) -> (tensor<128x448xf32>, tensor<128x64xf32>) {
    ^bb0(%b0: tensor<128x192xf32>, %b1: tensor<128x192xf32>):
      %k = graph.constant dense<1.0> : tensor<128x64xf32>
      %c = graph.concat %b0, %k, %b1 {axis = 1 : i64} : (tensor<128x192xf32>, tensor<128x64xf32>, tensor<128x192xf32>) -> tensor<128x448xf32>
      %d = graph.add %k, %k : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32>
      graph.yield %c, %d : tensor<128x448xf32>, tensor<128x64xf32>
    }
    return %r#0, %r#1 : tensor<128x448xf32>, tensor<128x64xf32>
  }
}
