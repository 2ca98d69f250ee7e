// The decomposed stage starts with MLIR's cse: what an importer repeated
// (FX gives each layer its own unsqueeze of the shared rotary cos, ONNX
// exporters each layer its own scalar constants) becomes one op, so the
// schedule computes and keeps one tensor where the graph had one a layer.
// RUN: %with_test_targets dfa-compile %s --target test-lpu --emit decomposed | FileCheck %s
// RUN: %with_test_targets dfa-compile %s --target test-lpu --emit fused | FileCheck %s --check-prefix=FUSED
// The schedule computes what the graph does.
// RUN: %with_test_targets dfa-run %s --seed 5 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %s --target test-lpu --seed 5 --outputs %t.lpu > /dev/null
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load('%t.ref/output_%%d.npy' %% i), np.load('%t.lpu/output_%%d.npy' %% i), rtol=1e-6) for i in range(2)]"

// CHECK-LABEL: func.func @main
// CHECK-COUNT-1: graph.constant
// CHECK-NOT: graph.constant
// CHECK: %[[V:.*]] = graph.reshape %arg0
// CHECK-NOT: graph.reshape
// CHECK: graph.mul %arg1, %[[V]]
// CHECK: graph.mul %arg2, %[[V]]
// Two readers of a view that are not the same op stay two.
// CHECK: graph.add
// CHECK: graph.add

// FUSED-COUNT-1: graph.kernel "cos_view"
// FUSED-NOT: graph.kernel "cos_view_1"
func.func @main(%cos: tensor<16x64xf32>, %q: tensor<1x16x64xf32>,
                %k: tensor<1x16x64xf32>) -> (tensor<1x16x64xf32>, tensor<1x16x64xf32>) {
  %c0 = graph.constant dense<2.0> : tensor<f32> loc("two")
  %c1 = graph.constant dense<2.0> : tensor<f32> loc("two_1")
  %v0 = graph.reshape %cos : (tensor<16x64xf32>) -> tensor<1x16x64xf32> loc("cos_view")
  %v1 = graph.reshape %cos : (tensor<16x64xf32>) -> tensor<1x16x64xf32> loc("cos_view_1")
  %a = graph.mul %q, %v0 : (tensor<1x16x64xf32>, tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %b = graph.mul %k, %v1 : (tensor<1x16x64xf32>, tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %x = graph.add %a, %c0 : (tensor<1x16x64xf32>, tensor<f32>) -> tensor<1x16x64xf32>
  %y = graph.add %b, %c1 : (tensor<1x16x64xf32>, tensor<f32>) -> tensor<1x16x64xf32>
  return %x, %y : tensor<1x16x64xf32>, tensor<1x16x64xf32>
}
