// A gather of a weight's rows at constant positions (a positional
// embedding, x + emb(arange(L))) is computed from parameters alone but
// goes into its reader's kernel, which reads the table as stored: a kernel
// of its own would write the rows its reader reads back (found by review:
// +28% on gpu-h100).
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" | FileCheck %s
// CHECK: graph.kernel {{.*}} kind "{{.*}}"(%{{.*}}, %arg0)
// CHECK: graph.gather
// CHECK: graph.add
// CHECK-NOT: graph.kernel
func.func @main(%x: tensor<2x8x16xf32> {graph.name = "x"}) -> tensor<2x8x16xf32> {
  %t = graph.weight "pos" at ""[0] : tensor<32x16xf32>
  %i = graph.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
  %e = graph.gather %t, %i {axis = 0 : i64} : (tensor<32x16xf32>, tensor<8xi64>) -> tensor<8x16xf32>
  %y = graph.add %x, %e : (tensor<2x8x16xf32>, tensor<8x16xf32>) -> tensor<2x8x16xf32>
  return %y : tensor<2x8x16xf32>
}
