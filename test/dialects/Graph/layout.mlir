// RUN: dfa-opt %s | dfa-opt | FileCheck %s
// Round trip of #graph.layout, every kind, on the values graph-layout
// annotates: a function argument, a constant and a kernel's outputs.

// CHECK-LABEL: func.func @layouts
// CHECK-SAME: graph.layout = #graph.layout<stick 64 perm [0, 2, 3, 1]>
func.func @layouts(%x: tensor<1x8x4x4xf16> {graph.layout = #graph.layout<stick 64 perm [0, 2, 3, 1]>}) -> (tensor<16x130xf16>, tensor<2x3xf32>) {
  // CHECK: graph.constant {graph.layout = #graph.layout<tile [8, 128] pack 2>}
  %c = graph.constant {graph.layout = #graph.layout<tile [8, 128] pack 2>} dense<1.0> : tensor<16x130xf16>
  // CHECK: layouts = [#graph.layout<row_major>, #graph.layout<pe_slices>, #graph.layout<vector 320>, #graph.layout<tile [8, 128]>]
  %a:4 = graph.kernel "k" kind "pointwise" (%c) attributes {layouts = [#graph.layout<row_major>, #graph.layout<pe_slices>, #graph.layout<vector 320>, #graph.layout<tile [8, 128]>]} : (tensor<16x130xf16>) -> (tensor<16x130xf16>, tensor<16x130xf16>, tensor<16x130xf16>, tensor<16x130xf16>) {
  ^bb0(%i: tensor<16x130xf16>):
    graph.yield %i, %i, %i, %i : tensor<16x130xf16>, tensor<16x130xf16>, tensor<16x130xf16>, tensor<16x130xf16>
  }
  // CHECK: graph.constant {graph.layout = #graph.layout<row_major perm [1, 0]>}
  %d = graph.constant {graph.layout = #graph.layout<row_major perm [1, 0]>} dense<2.0> : tensor<2x3xf32>
  return %a#0, %d : tensor<16x130xf16>, tensor<2x3xf32>
}
