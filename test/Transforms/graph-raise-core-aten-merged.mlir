// The core-ATen form of attention (graph-raise-core-aten.mlir) without a
// mask or guard, the scale on q alone; a reader of the merged output that
// does not view it back gets a view of the attention's.
// RUN: %with_test_targets dfa-opt %s -graph-raise="target=test-gpu remarks=true" 2>&1 | FileCheck %s

// The merged form without a mask or guard, the scale on q alone; a reader
// of the merged output that does not view it back gets a view of the
// attention's.
// CHECK: remark: raised {{[0-9]+}} ops to 'graph.attention' ({{.*}}), scale 0.125
// CHECK-LABEL: func.func @merged
// CHECK: %[[A:.*]] = graph.attention %arg0, %arg1, %arg2 {scale = 1.250000e-01 : f64}
// CHECK: graph.reshape %[[A]] : (tensor<2x2x3x8xf32>) -> tensor<4x3x8xf32>
func.func @merged(%q: tensor<2x2x3x8xf32> {graph.name = "q"}, %k: tensor<2x2x5x8xf32> {graph.name = "k"},
                  %v: tensor<2x2x5x8xf32> {graph.name = "v"}) -> tensor<4x3x8xf32> {
  %c = graph.constant dense<0.125> : tensor<f32>
  %qs = graph.mul %q, %c : (tensor<2x2x3x8xf32>, tensor<f32>) -> tensor<2x2x3x8xf32>
  %kt = graph.transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x2x5x8xf32>) -> tensor<2x2x8x5xf32>
  %q3 = graph.reshape %qs : (tensor<2x2x3x8xf32>) -> tensor<4x3x8xf32>
  %k3 = graph.reshape %kt : (tensor<2x2x8x5xf32>) -> tensor<4x8x5xf32>
  %s3 = graph.matmul %q3, %k3 : (tensor<4x3x8xf32>, tensor<4x8x5xf32>) -> tensor<4x3x5xf32>
  %s4 = graph.reshape %s3 : (tensor<4x3x5xf32>) -> tensor<2x2x3x5xf32>
  %p = graph.softmax %s4 {axis = 3 : i64} : tensor<2x2x3x5xf32>
  %p3 = graph.reshape %p : (tensor<2x2x3x5xf32>) -> tensor<4x3x5xf32>
  %v3 = graph.reshape %v : (tensor<2x2x5x8xf32>) -> tensor<4x5x8xf32>
  %o3 = graph.matmul %p3, %v3 : (tensor<4x3x5xf32>, tensor<4x5x8xf32>) -> tensor<4x3x8xf32>
  return %o3 : tensor<4x3x8xf32>
}

// torch's guard after a mask filled in (masked_fill, a where) rather than
// added: the rows the bool mask empties are 0, as torch's _safe_softmax
// makes them (found by review: they came out NaN).
// CHECK-LABEL: func.func @filled
// CHECK: graph.attention %arg0, %arg1, %arg2, %arg3 {empty_rows_zero = true, scale = {{.*}}}
func.func @filled(%q: tensor<1x2x4x8xf32> {graph.name = "q"}, %k: tensor<1x2x4x8xf32> {graph.name = "k"},
                  %v: tensor<1x2x4x8xf32> {graph.name = "v"}, %keep: tensor<1x1x4x4xi1> {graph.name = "keep"}) -> tensor<1x2x4x8xf32> {
  %kt = graph.transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x8xf32>) -> tensor<1x2x8x4xf32>
  %q3 = graph.reshape %q : (tensor<1x2x4x8xf32>) -> tensor<2x4x8xf32>
  %k3 = graph.reshape %kt : (tensor<1x2x8x4xf32>) -> tensor<2x8x4xf32>
  %s3 = graph.matmul %q3, %k3 : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  %s4 = graph.reshape %s3 : (tensor<2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = graph.constant dense<0.3> : tensor<f32>
  %ss = graph.mul %s4, %c : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %ninf = graph.constant dense<0xFF800000> : tensor<f32>
  %sm = graph.where %keep, %ss, %ninf : (tensor<1x1x4x4xi1>, tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<1x2x4x4xf32>
  %e = graph.equal %sm, %ninf : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xi1>
  %ne = graph.not %e : tensor<1x2x4x4xi1>
  %nf = graph.cast %ne : (tensor<1x2x4x4xi1>) -> tensor<1x2x4x4xf32>
  %any = graph.reduce_max %nf {axes = array<i64: 3>, keepdims = true} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x1xf32>
  %z = graph.constant dense<0.0> : tensor<f32>
  %gt = graph.greater %any, %z : (tensor<1x2x4x1xf32>, tensor<f32>) -> tensor<1x2x4x1xi1>
  %none = graph.not %gt : tensor<1x2x4x1xi1>
  %zeros = graph.constant dense<0.0> : tensor<1x2x4x4xf32>
  %g = graph.where %none, %zeros, %p : (tensor<1x2x4x1xi1>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %g3 = graph.reshape %g : (tensor<1x2x4x4xf32>) -> tensor<2x4x4xf32>
  %v3 = graph.reshape %v : (tensor<1x2x4x8xf32>) -> tensor<2x4x8xf32>
  %o3 = graph.matmul %g3, %v3 : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = graph.reshape %o3 : (tensor<2x4x8xf32>) -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}
