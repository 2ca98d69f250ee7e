// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" | FileCheck %s --check-prefix=ORDER
// RUN: %with_test_targets dfa-opt %s -graph-fuse="target=test-gpu" -o %t.fused.mlir
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(12, dtype=np.int64).reshape(4, 3)); np.save('%t.y.npy', np.arange(20, dtype=np.int64).reshape(4, 5))"
// RUN: dfa-run %s --inputs %t.x.npy %t.y.npy --outputs %t.ref > /dev/null
// RUN: dfa-run %t.fused.mlir --inputs %t.x.npy %t.y.npy --expect %t.ref/output_0.npy %t.ref/output_1.npy | FileCheck %s --check-prefix=SAME
// SAME: output 0 {{.*}} ok
// SAME: output 1 {{.*}} ok

// A group of parameters can take in a view that reads a newer one (the
// concat joins the add's group and takes the expand of the reshapes, which
// another expand also reads): the parameters' kernels come in the order
// they read each other (a torch.export Llama's position ids failed to
// verify, an operand defined after its use).
// ORDER-LABEL: func.func @main
// ORDER: graph.kernel "{{.*}}" kind "data"
// ORDER: graph.kernel "{{.*}}" kind "{{.*}}"
// ORDER: graph.concat
func.func @main(%x: tensor<4x3xi64> {graph.name = "x"}, %y: tensor<4x5xi64> {graph.name = "y"}) -> (tensor<4x3xi64>, tensor<4x5xi64>) {
  %c0 = graph.constant dense<0> : tensor<i64>
  %c1 = graph.constant dense<[[7], [8], [9], [10]]> : tensor<4x1xi64>
  %a = graph.add %c1, %c0 : (tensor<4x1xi64>, tensor<i64>) -> tensor<4x1xi64>
  %c2 = graph.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
  %v1 = graph.reshape %c2 : (tensor<4xi64>) -> tensor<4x1x1xi64>
  %v2 = graph.reshape %v1 : (tensor<4x1x1xi64>) -> tensor<4x1xi64>
  %e1 = graph.expand %v2 : (tensor<4x1xi64>) -> tensor<4x2xi64>
  %cat = graph.concat %a, %e1 {axis = 1 : i64} : (tensor<4x1xi64>, tensor<4x2xi64>) -> tensor<4x3xi64>
  %e2 = graph.expand %v2 : (tensor<4x1xi64>) -> tensor<4x5xi64>
  %r1 = graph.add %x, %cat : (tensor<4x3xi64>, tensor<4x3xi64>) -> tensor<4x3xi64>
  %r2 = graph.add %y, %e2 : (tensor<4x5xi64>, tensor<4x5xi64>) -> tensor<4x5xi64>
  return %r1, %r2 : tensor<4x3xi64>, tensor<4x5xi64>
}
