// Errors of the per-target passes, reported at the op they concern; each
// split names its target in the module's graph.target.
// RUN: %with_test_targets dfa-opt %s -split-input-file -verify-diagnostics -graph-fuse -graph-tile -graph-layout -convert-graph-to-sched

// A Spyre core addresses at most 256 MB: 18 GB of operands over 32 cores is
// 560 MB each.
module attributes {graph.target = "test-spyre"} {
func.func @span(%x: tensor<32x70000000xf32>) -> tensor<32x70000000xf32> {
  // expected-error @+1 {{per-core span of 560000000 B over 32 cores exceeds the 268431360 B a Spyre core can address}}
  %0 = graph.relu %x : tensor<32x70000000xf32>
  return %0 : tensor<32x70000000xf32>
}
}

// -----

// 40 GB of weight exceeds the 16 GiB of a TPU v5e's HBM.
module attributes {graph.target = "test-tpu-v5e"} {
func.func @main(%x: tensor<1x100000xf32>) -> tensor<1x100000xf32> {
  // expected-error @+1 {{does not fit: HBM of test-tpu-v5e holds 17179869184 B; weight 'w' ('tensor<100000x100000xf32>', stored tile(8,128)) needs 40038400000 B with 0 B already live}}
  %w = graph.weight "w" at ""[0] : tensor<100000x100000xf32>
  %0 = graph.matmul %x, %w : (tensor<1x100000xf32>, tensor<100000x100000xf32>) -> tensor<1x100000xf32>
  return %0 : tensor<1x100000xf32>
}
}

// -----

// One kernel's weights must fit one Groq chip: the partition splits between
// kernels, not inside one.
module attributes {graph.target = "test-lpu"} {
func.func @main(%x: tensor<1x10240xf16>) -> tensor<1x10240xf16> {
  %w = graph.weight "w" at ""[0] : tensor<10240x10240xf16>
  // expected-error @+1 {{does not fit: the weights of kernel}}
  %0 = graph.matmul %x, %w : (tensor<1x10240xf16>, tensor<10240x10240xf16>) -> tensor<1x10240xf16>
  return %0 : tensor<1x10240xf16>
}
}

// -----

// An unknown target in the module attribute.
// expected-error @+1 {{unknown target 'mystery'}}
module attributes {graph.target = "mystery"} {
func.func @unknown(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
}
