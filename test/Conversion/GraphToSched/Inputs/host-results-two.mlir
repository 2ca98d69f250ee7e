func.func @main(%a: tensor<1280x1xf32> {graph.name = "a"}, %b: tensor<1x64xf32> {graph.name = "b"}) -> (tensor<1280x64xf32>, tensor<1280x64xf32>) {
  %s = graph.add %a, %b : (tensor<1280x1xf32>, tensor<1x64xf32>) -> tensor<1280x64xf32> loc("sum")
  %e = graph.expand %b : (tensor<1x64xf32>) -> tensor<1280x64xf32> loc("rows")
  return %s, %e : tensor<1280x64xf32>, tensor<1280x64xf32>
}
