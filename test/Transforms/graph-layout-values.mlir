// Which dim of a value a kernel writes is minor, where the layout ties to
// the minor dim. On the LPU the compiler chooses every layout and moving
// the minor dim costs no relayout (the switch slices transpose in the
// stream; the description sets no compiler.relayout_minor_dim): a value
// takes the order that stores it in at most half the bytes, as a weight
// does. Attention heads of 64 in 320-element vectors (five times their
// bytes) are stored with the sequence minor: 128 KiB of padding instead of
// 768 KiB. A TPU keeps the head dim minor, as XLA pads a head dim of 64 in
// its 128 lanes (only 8 times over or more moves it there). Values
// through the schedules equal the reference's.
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-lpu" -graph-layout | FileCheck %s --check-prefix=LPU
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-tpu-v5e" -graph-layout | FileCheck %s --check-prefix=TPU
// RUN: %with_test_targets dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %s --target test-lpu --seed 3 --expect %t.ref/output_0.npy | FileCheck %s --check-prefix=VALUES
// RUN: %with_test_targets dfa-run %s --target test-tpu-v5e --seed 3 --expect %t.ref/output_0.npy | FileCheck %s --check-prefix=VALUES

// LPU: graph.kernel "split_heads" kind "data"{{.*}}layouts = [#graph.layout<vector 320 perm [0, 1, 3, 2]>], pad_bytes = 131072
// LPU: graph.kernel "scores" kind "matmul"{{.*}}layouts = [#graph.layout<vector 320>]
// TPU: graph.kernel "split_heads" kind "data"{{.*}}layouts = [#graph.layout<tile [8, 128]>]
// VALUES: output 0 {{.*}} ok

func.func @main(%x: tensor<1x192x256xf32> {graph.name = "x"}) -> tensor<1x192x256xf32> {
  %0 = graph.reshape %x : (tensor<1x192x256xf32>) -> tensor<1x192x4x64xf32> loc("split_heads")
  %1 = graph.transpose %0 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x192x4x64xf32>) -> tensor<1x4x192x64xf32> loc("heads")
  %2 = graph.transpose %1 {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x4x192x64xf32>) -> tensor<1x4x64x192xf32> loc("kt")
  %3 = graph.matmul %1, %2 : (tensor<1x4x192x64xf32>, tensor<1x4x64x192xf32>) -> tensor<1x4x192x192xf32> loc("scores")
  %4 = graph.softmax %3 {axis = 3 : i64} : tensor<1x4x192x192xf32> loc("probs")
  %5 = graph.matmul %4, %1 : (tensor<1x4x192x192xf32>, tensor<1x4x192x64xf32>) -> tensor<1x4x192x64xf32> loc("context")
  %6 = graph.transpose %5 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x192x64xf32>) -> tensor<1x192x4x64xf32> loc("merge")
  %7 = graph.reshape %6 : (tensor<1x192x4x64xf32>) -> tensor<1x192x256xf32> loc("merge_heads")
  return %7 : tensor<1x192x256xf32>
}
