// A causal mask built by ops, as torch.onnx exports SDPA's is_causal=True
// (both exporters, once the mask is too large to fold: where(equal(trilu(
// ones), 0), -inf, 0)), raises to a causal graph.attention, and the ops
// that built the mask are gone; the values agree with the graph as written.
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-raise="target=test-gpu" | FileCheck %s
// RUN: %with_test_targets dfa-opt %s -split-input-file -graph-raise="target=test-gpu" -o %t.raised.mlir
// The first function, run before and after the raise:
// RUN: sed -n '1,/^\/\/ -----/p' %s > %t.first.mlir
// RUN: %with_test_targets dfa-opt %t.first.mlir -graph-raise="target=test-gpu" -o %t.first.raised.mlir
// RUN: %with_test_targets dfa-run %t.first.mlir --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.first.raised.mlir --seed 3 --outputs %t.raised > /dev/null
// RUN: %python -c "import numpy as np; np.testing.assert_allclose(np.load('%t.raised/output_0.npy'), np.load('%t.ref/output_0.npy'), rtol=1e-5, atol=1e-6)"

func.func @main(%q: tensor<1x2x4x8xf32> {graph.name = "q"}, %kt: tensor<1x2x8x4xf32> {graph.name = "kt"},
                %v: tensor<1x2x4x8xf32> {graph.name = "v"}) -> tensor<1x2x4x8xf32> {
  %one = graph.constant dense<1.0> : tensor<1xf32>
  %ones = graph.expand %one : (tensor<1xf32>) -> tensor<4x4xf32>
  %tril = graph.trilu %ones {upper = false} : tensor<4x4xf32>
  %zero = graph.constant dense<0.0> : tensor<1xf32>
  %above = graph.equal %tril, %zero : (tensor<4x4xf32>, tensor<1xf32>) -> tensor<4x4xi1>
  %ninf = graph.constant dense<0xFF800000> : tensor<1xf32>
  %mask = graph.where %above, %ninf, %zero : (tensor<4x4xi1>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4xf32>
  %s = graph.matmul %q, %kt : (tensor<1x2x4x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32>
  %a = graph.add %s, %mask : (tensor<1x2x4x4xf32>, tensor<4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = graph.softmax %a {axis = 3 : i64} : tensor<1x2x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// CHECK-LABEL: func.func @main
// CHECK-NOT: graph.{{trilu|where|equal|expand|constant}}
// CHECK: graph.attention %arg0, %{{.*}}, %arg2 {causal = true, scale = 1.000000e+00 : f64} :

// -----

// The upper triangle (k = 1) of a masked fill, added: causal too.
func.func @upper(%q: tensor<3x4x8xf16> {graph.name = "q"}, %kt: tensor<3x8x4xf16> {graph.name = "kt"},
                 %v: tensor<3x4x8xf16> {graph.name = "v"}) -> tensor<3x4x8xf16> {
  %fill = graph.constant dense<-1.0e+04> : tensor<4x4xf16>
  %mask = graph.trilu %fill {upper = true, k = 1 : i64} : tensor<4x4xf16>
  %s = graph.matmul %q, %kt : (tensor<3x4x8xf16>, tensor<3x8x4xf16>) -> tensor<3x4x4xf16>
  %a = graph.add %s, %mask : (tensor<3x4x4xf16>, tensor<4x4xf16>) -> tensor<3x4x4xf16>
  %p = graph.softmax %a {axis = 2 : i64} : tensor<3x4x4xf16>
  %o = graph.matmul %p, %v : (tensor<3x4x4xf16>, tensor<3x4x8xf16>) -> tensor<3x4x8xf16>
  return %o : tensor<3x4x8xf16>
}

// CHECK-LABEL: func.func @upper
// CHECK-NOT: graph.trilu
// CHECK: graph.attention %arg0, %{{.*}}, %arg2 {causal = true, scale = 1.000000e+00 : f64} :

// -----

// The lower triangle of ones taken as the masked set (where(tril, -inf,
// 0)) masks the diagonal and below: not causal, it stays a mask.
func.func @inverted(%q: tensor<1x4x8xf32> {graph.name = "q"}, %kt: tensor<1x8x4xf32> {graph.name = "kt"},
                    %v: tensor<1x4x8xf32> {graph.name = "v"}) -> tensor<1x4x8xf32> {
  %one = graph.constant dense<1.0> : tensor<1xf32>
  %ones = graph.expand %one : (tensor<1xf32>) -> tensor<4x4xf32>
  %tril = graph.trilu %ones {upper = false} : tensor<4x4xf32>
  %zero = graph.constant dense<0.0> : tensor<1xf32>
  %keep = graph.equal %tril, %one : (tensor<4x4xf32>, tensor<1xf32>) -> tensor<4x4xi1>
  %ninf = graph.constant dense<0xFF800000> : tensor<1xf32>
  %mask = graph.where %keep, %ninf, %zero : (tensor<4x4xi1>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4xf32>
  %s = graph.matmul %q, %kt : (tensor<1x4x8xf32>, tensor<1x8x4xf32>) -> tensor<1x4x4xf32>
  %a = graph.add %s, %mask : (tensor<1x4x4xf32>, tensor<4x4xf32>) -> tensor<1x4x4xf32>
  %p = graph.softmax %a {axis = 2 : i64} : tensor<1x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<1x4x4xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %o : tensor<1x4x8xf32>
}

// CHECK-LABEL: func.func @inverted
// CHECK: graph.trilu
// CHECK: %[[M:.*]] = graph.where
// CHECK: graph.attention %arg0, %{{.*}}, %arg2, %[[M]] {scale = 1.000000e+00 : f64} :

// -----

// Not causal, each kept as a mask: a triangle broadcast from one row (every
// query would see key 0 only), a lower triangle shifted by k = 1, and a
// triangle of 0.5 cast to an integer (all zeros: everything masked).
func.func @broadcast(%q: tensor<1x4x8xf32> {graph.name = "q"}, %kt: tensor<1x8x4xf32> {graph.name = "kt"},
                     %v: tensor<1x4x8xf32> {graph.name = "v"}) -> tensor<1x4x8xf32> {
  %one = graph.constant dense<1.0> : tensor<1xf32>
  %ones = graph.expand %one : (tensor<1xf32>) -> tensor<1x4xf32>
  %tril = graph.trilu %ones {upper = false} : tensor<1x4xf32>
  %zero = graph.constant dense<0.0> : tensor<4x4xf32>
  %above = graph.equal %tril, %zero : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
  %ninf = graph.constant dense<0xFF800000> : tensor<1xf32>
  %z = graph.constant dense<0.0> : tensor<1xf32>
  %mask = graph.where %above, %ninf, %z : (tensor<4x4xi1>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4xf32>
  %s = graph.matmul %q, %kt : (tensor<1x4x8xf32>, tensor<1x8x4xf32>) -> tensor<1x4x4xf32>
  %a = graph.add %s, %mask : (tensor<1x4x4xf32>, tensor<4x4xf32>) -> tensor<1x4x4xf32>
  %p = graph.softmax %a {axis = 2 : i64} : tensor<1x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<1x4x4xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %o : tensor<1x4x8xf32>
}

// CHECK-LABEL: func.func @broadcast
// CHECK: %[[M:.*]] = graph.where
// CHECK: graph.attention %arg0, %{{.*}}, %arg2, %[[M]] {scale = 1.000000e+00 : f64} :

// -----

func.func @shifted(%q: tensor<1x4x8xf32> {graph.name = "q"}, %kt: tensor<1x8x4xf32> {graph.name = "kt"},
                   %v: tensor<1x4x8xf32> {graph.name = "v"}) -> tensor<1x4x8xf32> {
  %one = graph.constant dense<1.0> : tensor<1xf32>
  %ones = graph.expand %one : (tensor<1xf32>) -> tensor<4x4xf32>
  %tril = graph.trilu %ones {upper = false, k = 1 : i64} : tensor<4x4xf32>
  %zero = graph.constant dense<0.0> : tensor<1xf32>
  %above = graph.equal %tril, %zero : (tensor<4x4xf32>, tensor<1xf32>) -> tensor<4x4xi1>
  %ninf = graph.constant dense<0xFF800000> : tensor<1xf32>
  %mask = graph.where %above, %ninf, %zero : (tensor<4x4xi1>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4xf32>
  %s = graph.matmul %q, %kt : (tensor<1x4x8xf32>, tensor<1x8x4xf32>) -> tensor<1x4x4xf32>
  %a = graph.add %s, %mask : (tensor<1x4x4xf32>, tensor<4x4xf32>) -> tensor<1x4x4xf32>
  %p = graph.softmax %a {axis = 2 : i64} : tensor<1x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<1x4x4xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %o : tensor<1x4x8xf32>
}

// CHECK-LABEL: func.func @shifted
// CHECK: %[[M:.*]] = graph.where
// CHECK: graph.attention %arg0, %{{.*}}, %arg2, %[[M]] {scale = 1.000000e+00 : f64} :

// -----

func.func @castzero(%q: tensor<1x4x8xf32> {graph.name = "q"}, %kt: tensor<1x8x4xf32> {graph.name = "kt"},
                    %v: tensor<1x4x8xf32> {graph.name = "v"}) -> tensor<1x4x8xf32> {
  %half = graph.constant dense<0.5> : tensor<1xf32>
  %halves = graph.expand %half : (tensor<1xf32>) -> tensor<4x4xf32>
  %tril = graph.trilu %halves {upper = false} : tensor<4x4xf32>
  %ints = graph.cast %tril : (tensor<4x4xf32>) -> tensor<4x4xi32>
  %zero = graph.constant dense<0> : tensor<1xi32>
  %above = graph.equal %ints, %zero : (tensor<4x4xi32>, tensor<1xi32>) -> tensor<4x4xi1>
  %ninf = graph.constant dense<0xFF800000> : tensor<1xf32>
  %z = graph.constant dense<0.0> : tensor<1xf32>
  %mask = graph.where %above, %ninf, %z : (tensor<4x4xi1>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4xf32>
  %s = graph.matmul %q, %kt : (tensor<1x4x8xf32>, tensor<1x8x4xf32>) -> tensor<1x4x4xf32>
  %a = graph.add %s, %mask : (tensor<1x4x4xf32>, tensor<4x4xf32>) -> tensor<1x4x4xf32>
  %p = graph.softmax %a {axis = 2 : i64} : tensor<1x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<1x4x4xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %o : tensor<1x4x8xf32>
}

// CHECK-LABEL: func.func @castzero
// CHECK: %[[M:.*]] = graph.where
// CHECK: graph.attention %arg0, %{{.*}}, %arg2, %[[M]] {scale = 1.000000e+00 : f64} :

// -----

// SDPA's export scales q and k^T by sqrt(scale) each: both join the
// attention's scale (0.5 x 0.5), the muls go.
func.func @sqrtscale(%q: tensor<1x4x8xf32> {graph.name = "q"}, %k: tensor<1x4x8xf32> {graph.name = "k"},
                     %v: tensor<1x4x8xf32> {graph.name = "v"}) -> tensor<1x4x8xf32> {
  %c = graph.constant dense<0.5> : tensor<1xf32>
  %qs = graph.mul %q, %c : (tensor<1x4x8xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %kt = graph.transpose %k {perm = array<i64: 0, 2, 1>} : (tensor<1x4x8xf32>) -> tensor<1x8x4xf32>
  %ks = graph.mul %kt, %c : (tensor<1x8x4xf32>, tensor<1xf32>) -> tensor<1x8x4xf32>
  %s = graph.matmul %qs, %ks : (tensor<1x4x8xf32>, tensor<1x8x4xf32>) -> tensor<1x4x4xf32>
  %p = graph.softmax %s {axis = 2 : i64} : tensor<1x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<1x4x4xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %o : tensor<1x4x8xf32>
}

// CHECK-LABEL: func.func @sqrtscale
// CHECK-NOT: graph.{{mul|transpose|constant}}
// CHECK: graph.attention %arg0, %arg1, %arg2 {scale = 2.500000e-01 : f64} :
// CHECK-NOT: graph.mul

// -----

// A scaled q that something else reads too stays as it is (only k^T's
// multiple joins the scale).
func.func @shared(%q: tensor<1x4x8xf32> {graph.name = "q"}, %k: tensor<1x4x8xf32> {graph.name = "k"},
                  %v: tensor<1x4x8xf32> {graph.name = "v"}) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %c = graph.constant dense<0.5> : tensor<1xf32>
  %qs = graph.mul %q, %c : (tensor<1x4x8xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %kt = graph.transpose %k {perm = array<i64: 0, 2, 1>} : (tensor<1x4x8xf32>) -> tensor<1x8x4xf32>
  %ks = graph.mul %kt, %c : (tensor<1x8x4xf32>, tensor<1xf32>) -> tensor<1x8x4xf32>
  %s = graph.matmul %qs, %ks : (tensor<1x4x8xf32>, tensor<1x8x4xf32>) -> tensor<1x4x4xf32>
  %p = graph.softmax %s {axis = 2 : i64} : tensor<1x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<1x4x4xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %o, %qs : tensor<1x4x8xf32>, tensor<1x4x8xf32>
}

// CHECK-LABEL: func.func @shared
// CHECK: %[[QS:.*]] = graph.mul %arg0
// CHECK-NOT: graph.mul
// CHECK: graph.attention %[[QS]], %arg1, %arg2 {scale = 5.000000e-01 : f64} :
