// A run-time range check as the ONNX importer writes it (inRange in
// lib/Import/ONNX/ONNXContribOps.cpp): x itself where 0 <= x < 8, else a
// gather off its one-element table, which names x and its bounds.
func.func @main(%x: tensor<2x3xi64> {graph.name = "x"}) -> (tensor<2x3xi64> {graph.name = "y"}) {
  %table = graph.constant dense<0> : tensor<1xi64>
  %lo = graph.constant dense<0> : tensor<i64>
  %hi = graph.constant dense<8> : tensor<i64>
  %below = graph.less %x, %lo : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi1>
  %above = graph.greater_equal %x, %hi : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi1>
  %one = graph.constant dense<1> : tensor<i64>
  %seven = graph.constant dense<7> : tensor<i64>
  %under = graph.sub %x, %one : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi64>
  %over = graph.sub %x, %seven : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi64>
  %zero = graph.constant dense<0> : tensor<i64>
  %off = graph.where %above, %over, %zero : (tensor<2x3xi1>, tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi64>
  %at = graph.where %below, %under, %off : (tensor<2x3xi1>, tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %z = graph.gather %table, %at {axis = 0 : i64, graph.range_check = {value = "position_ids", lo = 0 : i64, hi = 8 : i64, shape = array<i64: 2, 3>}} : (tensor<1xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %y = graph.add %x, %z : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return %y : tensor<2x3xi64>
}
