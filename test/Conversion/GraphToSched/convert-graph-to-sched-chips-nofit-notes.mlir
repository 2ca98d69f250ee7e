// A "does not fit" error names what is live in that memory, largest first,
// each at the node that made it: on chip 1 the wide product's weight and
// the copy of proj4's result that crossed from chip 0 (exit 9). The wide
// product's result is read by two kernels, so it stays on the chip (the
// two results, larger than a chip keeps beside its weights, stream to the
// host).
// RUN: not %with_test_targets dfa-compile %s --target test-lpu-small --set memory.SRAM.capacity_bytes=2000000 -o /dev/null 2>&1 | FileCheck %s
// RUN: %with_test_targets dfa-compile %s --target test-lpu-small --set memory.SRAM.capacity_bytes=2000000 -o /dev/null 2>/dev/null; test $? -eq 9
// CHECK: 'widen': error: does not fit: SRAM of test-lpu-small (chip 1) holds 2000000 B; this tensor ('tensor<400x1280xf16>', stored vector(320)) needs 1024000 B with 1075200 B already live
// CHECK-NEXT: 'w_wide': note: live there: a constant ('tensor<320x1280xf16>', 819200 B stored)
// CHECK-NEXT: 'proj4': note: live there: a copy of its result ('tensor<400x320xf16>', 256000 B stored)
// CHECK-NOT: note:

func.func @main(%x0: tensor<400x320xf16> {graph.name = "x"}) -> (tensor<400x1280xf16>, tensor<400x1280xf16>) {
  %w0 = graph.constant dense<0.001> : tensor<320x320xf16> loc("w0")
  %x1 = graph.matmul %x0, %w0 : (tensor<400x320xf16>, tensor<320x320xf16>) -> tensor<400x320xf16> loc("proj0")
  %w1 = graph.constant dense<0.002> : tensor<320x320xf16> loc("w1")
  %x2 = graph.matmul %x1, %w1 : (tensor<400x320xf16>, tensor<320x320xf16>) -> tensor<400x320xf16> loc("proj1")
  %w2 = graph.constant dense<0.003> : tensor<320x320xf16> loc("w2")
  %x3 = graph.matmul %x2, %w2 : (tensor<400x320xf16>, tensor<320x320xf16>) -> tensor<400x320xf16> loc("proj2")
  %w3 = graph.constant dense<0.004> : tensor<320x320xf16> loc("w3")
  %x4 = graph.matmul %x3, %w3 : (tensor<400x320xf16>, tensor<320x320xf16>) -> tensor<400x320xf16> loc("proj3")
  %w4 = graph.constant dense<0.005> : tensor<320x320xf16> loc("w4")
  %x5 = graph.matmul %x4, %w4 : (tensor<400x320xf16>, tensor<320x320xf16>) -> tensor<400x320xf16> loc("proj4")
  %wide = graph.constant dense<0.002> : tensor<320x1280xf16> loc("w_wide")
  %y = graph.matmul %x5, %wide : (tensor<400x320xf16>, tensor<320x1280xf16>) -> tensor<400x1280xf16> loc("widen")
  %z1 = graph.relu %y : tensor<400x1280xf16> loc("act1")
  %z2 = graph.tanh %y : tensor<400x1280xf16> loc("act2")
  return %z1, %z2 : tensor<400x1280xf16>, tensor<400x1280xf16>
}
