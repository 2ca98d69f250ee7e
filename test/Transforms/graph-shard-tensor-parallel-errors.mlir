// Tensor parallelism needs chips whose kernels share each chip and links
// between them, and no more chips than connect; each refusal names why.
// RUN: %with_test_targets dfa-opt %s -split-input-file -verify-diagnostics -graph-shard="tensor-parallel=8"
// RUN: %with_test_targets not dfa-opt %s -split-input-file -graph-shard="tensor-parallel=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: %with_test_targets not dfa-opt %s -split-input-file -graph-shard="tensor-parallel=512" 2>&1 | FileCheck %s --check-prefix=POD

// ZERO: tensor-parallel must be at least 1, not 0
// POD: tensor parallelism over 512 chips: at most 256 test-tpu-v5e chips connect

// The LPU partitions a model over chips by itself (chip partition).
// expected-error @+1 {{tensor parallelism needs a target whose kernels share each chip (compiler.placement 'shared'); test-lpu places them 'chip-partition'}}
module attributes {graph.target = "test-lpu"} {
func.func @main(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = graph.relu %x : tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}
}

// -----

// The wafer is one chip of PE rectangles (spatial placement).
// expected-error @+1 {{tensor parallelism needs a target whose kernels share each chip (compiler.placement 'shared'); test-wse places them 'spatial'}}
module attributes {graph.target = "test-wse"} {
func.func @main(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = graph.relu %x : tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}
}

// -----

// Nothing divides among the chips: said (every chip runs the whole model).
// expected-warning @+1 {{tensor parallelism over 8 chips partitions nothing}}
module attributes {graph.target = "test-tpu-v5e"} {
func.func @main(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = graph.relu %x : tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}
}

// -----

// A module partitioned already is not partitioned again.
// expected-error @+1 {{already one chip's program of 4 (graph.tensor_parallel): partitioned once, when it was compiled}}
module attributes {graph.target = "test-gpu", graph.tensor_parallel = 4 : i64} {
func.func @main(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = graph.relu %x : tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}
}
