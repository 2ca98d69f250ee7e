// graph-shard-activations.mlir's attention without a mask: split along the
// heads, every input sliced.
func.func @main(%q: tensor<1x2x1024x64xf32> {graph.name = "q"}, %k: tensor<1x2x1024x64xf32> {graph.name = "k"},
                %v: tensor<1x2x1024x64xf32> {graph.name = "v"}) -> tensor<1x1024x128xf32> {
  %kt = graph.transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x1024x64xf32>) -> tensor<1x2x64x1024xf32> loc("kt")
  %s = graph.matmul %q, %kt : (tensor<1x2x1024x64xf32>, tensor<1x2x64x1024xf32>) -> tensor<1x2x1024x1024xf32> loc("scores")
  %p = graph.softmax %s {axis = 3 : i64} : tensor<1x2x1024x1024xf32> loc("probs")
  %o = graph.matmul %p, %v : (tensor<1x2x1024x1024xf32>, tensor<1x2x1024x64xf32>) -> tensor<1x2x1024x64xf32> loc("context")
  %t = graph.transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x2x1024x64xf32>) -> tensor<1x1024x2x64xf32> loc("heads")
  %r = graph.reshape %t : (tensor<1x1024x2x64xf32>) -> tensor<1x1024x128xf32> loc("merge")
  return %r : tensor<1x1024x128xf32>
}
