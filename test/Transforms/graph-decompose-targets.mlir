// What each target keeps whole comes from its description's native_ops:
// the GPU keeps attention as one (flash-attention) kernel, the TPU splits
// attention, softmax and layer norm into matmuls, reductions and
// elementwise ops the way XLA does, Spyre keeps its softmax kernel but not
// layer norm or attention and runs cumsum on the host, the WSE and Groq
// split everything composite.
// RUN: %with_test_targets dfa-opt %s -graph-decompose="target=test-gpu" | FileCheck %s --check-prefix=GPU
// RUN: %with_test_targets dfa-opt %s -graph-decompose="target=test-tpu-v5e" | FileCheck %s --check-prefix=TPU
// RUN: %with_test_targets dfa-opt %s -graph-decompose="target=test-spyre" | FileCheck %s --check-prefix=SPYRE
// RUN: %with_test_targets dfa-opt %s -graph-decompose="target=test-wse" | FileCheck %s --check-prefix=SPLIT
// RUN: %with_test_targets dfa-opt %s -graph-decompose="target=test-lpu" | FileCheck %s --check-prefix=SPLIT
// RUN: %with_test_targets dfa-opt %s -graph-decompose="target=test-spyre remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not %with_test_targets dfa-opt %s -graph-decompose="target=nosuchchip" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// The decompositions compute what the composite ops compute:
// RUN: %with_test_targets dfa-opt %s -graph-decompose="target=test-tpu-v5e" -o %t.split.mlir
// RUN: %with_test_targets dfa-run %s --seed 4 --outputs %t.whole > /dev/null
// RUN: %with_test_targets dfa-run %t.split.mlir --seed 4 --outputs %t.split > /dev/null
// RUN: %python -c "import numpy as np; a, b = (np.load('%t.' + s + '/output_0.npy') for s in ('whole', 'split')); assert np.allclose(a, b, rtol=1e-5, atol=1e-6), abs(a - b).max()"

func.func @main(%q: tensor<2x8x16xf32> {graph.name = "q"}, %g: tensor<16xf32> {graph.name = "g"}) -> tensor<2x8x16xf32> {
  %0 = graph.layer_norm %q, %g {axis = 2 : i64} : (tensor<2x8x16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
  %1 = graph.attention %0, %0, %0 {scale = 0.25 : f64, causal = true} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %2 = graph.softmax %1 {axis = 2 : i64} : tensor<2x8x16xf32>
  %3 = graph.cumsum %2 {axis = 1 : i64} : tensor<2x8x16xf32>
  return %3 : tensor<2x8x16xf32>
}

// GPU-NOT: graph.layer_norm
// GPU: graph.attention
// GPU-NOT: graph.softmax
// GPU: graph.reduce_max
// GPU: graph.cumsum

// TPU-NOT: graph.attention
// TPU-NOT: graph.softmax
// TPU-NOT: graph.layer_norm
// TPU: graph.matmul
// TPU: graph.reduce_sum

// SPYRE-NOT: graph.layer_norm
// SPYRE-NOT: graph.attention
// SPYRE: graph.matmul
// SPYRE: graph.softmax
// SPYRE: graph.softmax
// SPYRE: graph.cumsum

// SPLIT-NOT: graph.attention
// SPLIT-NOT: graph.softmax
// SPLIT-NOT: graph.layer_norm

// REMARK-DAG: remark: decomposed 'graph.layer_norm' for test-spyre
// REMARK-DAG: remark: decomposed 'graph.attention' for test-spyre
// REMARK-DAG: remark: 'graph.cumsum' has no test-spyre kernel: it runs on the host
// UNKNOWN: error: unknown target 'nosuchchip'; available: cpu, gpu-h100
