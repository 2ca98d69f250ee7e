// graph-shard-activations.mlir's attention without a mask, with GQA: four
// query heads over two key/value heads, each repeated twice (Llama's
// repeat_kv: unsqueeze, expand, reshape). Split along the heads, each
// piece broadcasts its window of the unrepeated keys and values.
func.func @main(%q: tensor<1x4x1024x64xf32> {graph.name = "q"}, %k: tensor<1x2x1024x64xf32> {graph.name = "k"},
                %v: tensor<1x2x1024x64xf32> {graph.name = "v"}) -> tensor<1x1024x256xf32> {
  %ku = graph.reshape %k : (tensor<1x2x1024x64xf32>) -> tensor<1x2x1x1024x64xf32> loc("k_unsqueeze")
  %ke = graph.expand %ku : (tensor<1x2x1x1024x64xf32>) -> tensor<1x2x2x1024x64xf32> loc("k_repeat")
  %kr = graph.reshape %ke : (tensor<1x2x2x1024x64xf32>) -> tensor<1x4x1024x64xf32> loc("k_heads")
  %kt = graph.transpose %kr {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x4x1024x64xf32>) -> tensor<1x4x64x1024xf32> loc("kt")
  %vu = graph.reshape %v : (tensor<1x2x1024x64xf32>) -> tensor<1x2x1x1024x64xf32> loc("v_unsqueeze")
  %ve = graph.expand %vu : (tensor<1x2x1x1024x64xf32>) -> tensor<1x2x2x1024x64xf32> loc("v_repeat")
  %vr = graph.reshape %ve : (tensor<1x2x2x1024x64xf32>) -> tensor<1x4x1024x64xf32> loc("v_heads")
  %s = graph.matmul %q, %kt : (tensor<1x4x1024x64xf32>, tensor<1x4x64x1024xf32>) -> tensor<1x4x1024x1024xf32> loc("scores")
  %p = graph.softmax %s {axis = 3 : i64} : tensor<1x4x1024x1024xf32> loc("probs")
  %o = graph.matmul %p, %vr : (tensor<1x4x1024x1024xf32>, tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> loc("context")
  %t = graph.transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x1024x64xf32>) -> tensor<1x1024x4x64xf32> loc("heads")
  %r = graph.reshape %t : (tensor<1x1024x4x64xf32>) -> tensor<1x1024x256xf32> loc("merge")
  return %r : tensor<1x1024x256xf32>
}
