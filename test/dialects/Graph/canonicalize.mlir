// RUN: dfa-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func @identity_reshape
// CHECK-NOT: graph.reshape
// CHECK: return %arg0
func.func @identity_reshape(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.reshape %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @reshape_chain
// CHECK: %[[R:.*]] = graph.reshape %arg0 : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_chain(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = graph.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.reshape %0 : (tensor<3x2xf32>) -> tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

// CHECK-LABEL: func @reshape_constant
// CHECK: graph.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi64>
// CHECK-NOT: graph.reshape
func.func @reshape_constant() -> tensor<2x2xi64> {
  %0 = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %1 = graph.reshape %0 : (tensor<4xi64>) -> tensor<2x2xi64>
  return %1 : tensor<2x2xi64>
}

// -----

// CHECK-LABEL: func @identity_transpose
// CHECK-NOT: graph.transpose
func.func @identity_transpose(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.transpose %x {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A real permutation stays.
// CHECK-LABEL: func @real_transpose
// CHECK: graph.transpose
func.func @real_transpose(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// A widening cast and its inverse cancel; a narrowing round trip does not.
// CHECK-LABEL: func @casts
// CHECK: %[[N:.*]] = graph.cast %arg1 : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: %[[B:.*]] = graph.cast %[[N]] : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: return %arg0, %[[B]]
func.func @casts(%x: tensor<4xf16>, %y: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>) {
  %0 = graph.cast %x : (tensor<4xf16>) -> tensor<4xf32>
  %1 = graph.cast %0 : (tensor<4xf32>) -> tensor<4xf16>
  %2 = graph.cast %y : (tensor<4xf32>) -> tensor<4xf16>
  %3 = graph.cast %2 : (tensor<4xf16>) -> tensor<4xf32>
  return %1, %3 : tensor<4xf16>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @single_concat
// CHECK-NOT: graph.concat
func.func @single_concat(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.concat %x {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Unused pure ops disappear.
// CHECK-LABEL: func @dead
// CHECK-NOT: graph.exp
func.func @dead(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.exp %x : tensor<2x3xf32>
  return %x : tensor<2x3xf32>
}
