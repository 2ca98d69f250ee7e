// What each target fuses (design §6). The same small block: a GEMM with a
// bias-add and relu epilogue, a row softmax (decomposed into reductions and
// elementwise ops), and a transpose of the minor dims feeding a second GEMM.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" | FileCheck %s --check-prefix=GPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-tpu-v5e" | FileCheck %s --check-prefix=TPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-wse" | FileCheck %s --check-prefix=WSE
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-lpu" | FileCheck %s --check-prefix=LPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-spyre" | FileCheck %s --check-prefix=SPYRE
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-cpu" | FileCheck %s --check-prefix=CPU
// Fused kernels compute what the ops did:
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" -o %t.gpu.mlir
// RUN: %with_test_targets dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.gpu.mlir --seed 3 --outputs %t.fused > /dev/null
// RUN: %python -c "import numpy as np; a, b = (np.load('%t.' + s + '/output_0.npy') for s in ('ref', 'fused')); assert np.array_equal(a, b)"

func.func @main(%x: tensor<8x16xf32> {graph.name = "x"}, %w: tensor<16x32xf32> {graph.name = "w"},
                %bias: tensor<32xf32> {graph.name = "bias"}, %v: tensor<8x32xf32> {graph.name = "v"}) -> tensor<32x32xf32> {
  %0 = graph.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> loc("fc")
  %1 = graph.add %0, %bias : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32> loc("fc.bias")
  %2 = graph.relu %1 : tensor<8x32xf32> loc("act")
  %3 = graph.reduce_max %2 {axes = array<i64: 1>, keepdims = true} : (tensor<8x32xf32>) -> tensor<8x1xf32> loc("softmax.max")
  %4 = graph.sub %2, %3 : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32> loc("softmax.sub")
  %5 = graph.exp %4 : tensor<8x32xf32> loc("softmax.exp")
  %6 = graph.reduce_sum %5 {axes = array<i64: 1>, keepdims = true} : (tensor<8x32xf32>) -> tensor<8x1xf32> loc("softmax.sum")
  %7 = graph.div %5, %6 : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32> loc("softmax.div")
  %8 = graph.transpose %7 {perm = array<i64: 1, 0>} : (tensor<8x32xf32>) -> tensor<32x8xf32> loc("t")
  %9 = graph.matmul %8, %v : (tensor<32x8xf32>, tensor<8x32xf32>) -> tensor<32x32xf32> loc("out")
  return %9 : tensor<32x32xf32>
}

// GPU (Inductor-like): the epilogue joins the GEMM; the softmax is one
// reduction kernel; the transpose of the GEMM operand's two dims is a view
// the GEMM reads through (compiler.transpose_folding: cuBLAS's transa), so
// it joins the GEMM's kernel.
// GPU:      graph.kernel "fc" kind "matmul"
// GPU:        graph.matmul
// GPU-NEXT:   graph.add
// GPU-NEXT:   graph.relu
// GPU-NEXT:   graph.yield
// GPU:      graph.kernel "softmax.max" kind "reduction"
// GPU-NOT:    graph.transpose
// GPU:      graph.kernel "out" kind "matmul"
// GPU-NEXT:   ^bb0
// GPU-NEXT:   graph.transpose
// GPU-NEXT:   graph.matmul
// GPU-NOT:  graph.kernel

// TPU (XLA-like): output fusion into the GEMM; a reduction is the root of
// its fusion, so the softmax splits at each reduction; the transpose of the
// GEMM operand's minor dims folds into the GEMM (XLA's TransposeFolding:
// compiler.transpose_folding), which reads the softmax output as stored.
// TPU: graph.kernel "fc" kind "matmul"
// TPU: graph.kernel "softmax.max" kind "reduction"
// TPU: graph.kernel "softmax.sub" kind "reduction"
// TPU: graph.kernel "softmax.div" kind "pointwise"
// TPU: graph.kernel "out" kind "matmul"
// TPU-NEXT: ^bb0
// TPU-NEXT: graph.transpose
// TPU-NEXT: graph.matmul
// TPU-NOT: graph.kernel

// The WSE makes one layer region per anchor.
// WSE: graph.kernel "fc" kind "matmul"
// WSE: graph.reduce_max
// WSE: graph.kernel "out" kind "matmul"
// WSE-NOT: graph.kernel

// The LPU streams chains through single-reader producers; the softmax input
// has two readers, so a chain ends there.
// LPU: graph.kernel "fc" kind "matmul"
// LPU: graph.kernel "softmax.max" kind "reduction"
// LPU: graph.kernel "out" kind "matmul"

// Spyre fuses like the GPU while the working set fits LX; the stick
// transpose is a kernel of its own.
// SPYRE: graph.kernel "fc" kind "matmul"
// SPYRE: graph.kernel "softmax.max" kind "reduction"
// SPYRE: graph.kernel "t" kind "data"
// SPYRE: graph.kernel "out" kind "matmul"

// CPU (the reference): one op per kernel.
// CPU-COUNT-10: graph.kernel
// CPU-NOT: graph.kernel
