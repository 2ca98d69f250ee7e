// A pointwise or row-wise kernel writes its output over an input it alone
// reads, when the two are stored alike (Lowering::overwrittenInput): the
// buffer sharing of XLA's buffer assignment and Inductor's in-place
// buffers, and what lets a statically allocated SRAM (an LPU chip) hold a
// softmax of 96 MB beside its scores. The kernel reads each row before it
// writes it. Not overwritten: a graph input (the caller's), an input
// another kernel reads too, the input of a softmax over a dim that is not
// the minor one (a row of the output needs a column of the input), and a
// product's operand.
// RUN: %with_test_targets dfa-compile %s --target test-cpu | FileCheck %s
// Values are those of the graph, on a target that fuses as well:
// RUN: dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %s --target test-cpu --seed 3 --expect %t.ref/output_0.npy | FileCheck %s --check-prefix=SAME
// RUN: %with_test_targets dfa-run %s --target test-lpu --seed 3 --expect %t.ref/output_0.npy | FileCheck %s --check-prefix=SAME
// SAME: output 0 {{.*}} ok

// CHECK: %[[A:[0-9]+]] = sched.alloc
// CHECK: sched.compute "a" ins(%arg0 : {{.*}}) outs(%[[A]] :
// CHECK-NOT: sched.alloc
// CHECK: sched.compute "b" ins(%[[A]] : {{.*}}) outs(%[[A]] :
// CHECK-NOT: sched.alloc
// CHECK: sched.compute "rows" ins(%[[A]] : {{.*}}) outs(%[[A]] :
// CHECK: %[[C:[0-9]+]] = sched.alloc
// CHECK: sched.compute "cols" ins(%[[A]] : {{.*}}) outs(%[[C]] :
// CHECK: %[[U:[0-9]+]] = sched.alloc
// CHECK: sched.compute "u" ins(%[[C]] : {{.*}}) outs(%[[U]] :
// CHECK-NOT: sched.alloc
// CHECK: sched.compute "v" ins(%[[C]], %[[U]] : {{.*}}) outs(%[[U]] :
// CHECK: %[[M:[0-9]+]] = sched.alloc
// CHECK: sched.compute "m" ins(%[[U]], %arg1 : {{.*}}) outs(%[[M]] :

func.func @main(%x: tensor<4x8xf32> {graph.name = "x"}, %w: tensor<8x8xf32> {graph.name = "w"}) -> tensor<4x8xf32> {
  %a = graph.relu %x : tensor<4x8xf32> loc("a")
  %b = graph.exp %a : tensor<4x8xf32> loc("b")
  %s = graph.softmax %b {axis = 1 : i64} : tensor<4x8xf32> loc("rows")
  %c = graph.softmax %s {axis = 0 : i64} : tensor<4x8xf32> loc("cols")
  %u = graph.neg %c : tensor<4x8xf32> loc("u")
  %v = graph.add %c, %u : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("v")
  %m = graph.matmul %v, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("m")
  return %m : tensor<4x8xf32>
}
