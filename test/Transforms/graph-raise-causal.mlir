// An additive f16 causal mask (0 on and below the diagonal, -1e4 above, as
// bench/make_transformer.py and many exporters write it) raises to a causal
// graph.attention with no mask operand; the values agree within f16.
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu" -o %t.raised.mlir
// RUN: %with_test_targets dfa-run %s --seed 2 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.raised.mlir --seed 2 --outputs %t.raised > /dev/null
// RUN: %python -c "import numpy as np; np.testing.assert_allclose(np.load('%t.raised/output_0.npy').astype(np.float32), np.load('%t.ref/output_0.npy').astype(np.float32), rtol=2e-3, atol=2e-3)"
// A mask with one kept position changed is not causal: it stays a mask.
// RUN: sed 's/\[0.0, 0.0, 0.0\]\]/[0.0, 0.0, -1.0e+04]]/' %s | %with_test_targets dfa-opt -graph-raise="target=test-gpu" | FileCheck %s --check-prefix=MASK

func.func @main(%q: tensor<2x3x8xf16> {graph.name = "q"}, %kt: tensor<2x8x3xf16> {graph.name = "kt"},
                %v: tensor<2x3x8xf16> {graph.name = "v"}) -> tensor<2x3x8xf16> {
  %s = graph.matmul %q, %kt : (tensor<2x3x8xf16>, tensor<2x8x3xf16>) -> tensor<2x3x3xf16> loc("scores")
  %mask = graph.constant dense<[[0.0, -1.0e+04, -1.0e+04], [0.0, 0.0, -1.0e+04], [0.0, 0.0, 0.0]]> : tensor<3x3xf16> loc("mask")
  %c = graph.constant dense<0.35355339> : tensor<f16>
  %d = graph.mul %s, %c : (tensor<2x3x3xf16>, tensor<f16>) -> tensor<2x3x3xf16> loc("scale")
  %a = graph.add %d, %mask : (tensor<2x3x3xf16>, tensor<3x3xf16>) -> tensor<2x3x3xf16> loc("masked")
  %p = graph.softmax %a {axis = 2 : i64} : tensor<2x3x3xf16> loc("softmax")
  %o = graph.matmul %p, %v : (tensor<2x3x3xf16>, tensor<2x3x8xf16>) -> tensor<2x3x8xf16> loc("out")
  return %o : tensor<2x3x8xf16>
}

// k arrives as [.., D, S]: the raise transposes it back.
// CHECK: %[[K:.*]] = graph.transpose %arg1 {perm = array<i64: 0, 2, 1>}
// CHECK: graph.attention %arg0, %[[K]], %arg2 {causal = true, scale = 0.35{{[0-9]+}} : f64} : (tensor<2x3x8xf16>, tensor<2x3x8xf16>, tensor<2x3x8xf16>) -> tensor<2x3x8xf16>
// CHECK-NOT: graph.constant
// CHECK-NOT: graph.softmax

// MASK: %[[M:.*]] = graph.constant {{.*}} : tensor<3x3xf16>
// MASK: graph.attention %arg0, %{{.*}}, %arg2, %[[M]] {scale
