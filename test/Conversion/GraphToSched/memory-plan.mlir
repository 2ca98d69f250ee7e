// Buffers are placed first fit as the lowering goes; when that leaves the
// bytes a tensor needs in two holes, the lowering runs again with every
// buffer's lifetime recorded and places them by an offline plan (largest
// first, best fit: planOffsets), as XLA's heap simulator does. Here, in a
// memory of 10 KiB: x1 (2 KiB) and x2 (4 KiB) first fit at 0 and 2 KiB;
// x1 dies and s (1 KiB) takes 0; x3 (5 KiB) finds 1 + 4 KiB free in two
// holes. The plan puts x3 at 0, x2 above it, s at the top.
// RUN: %with_test_targets dfa-compile %s --target test-cpu --set memory.DDR.capacity_bytes=10240 --remarks 2>&1 | FileCheck %s
// CHECK-NOT: remark: chips filled
// CHECK: remark: buffers placed by an offline plan of their lifetimes: first fit left no hole for one
// CHECK-NOT: remark: buffers placed
// CHECK: sched.alloc {offset = 0 : i64, size = 2048 : i64}
// CHECK: sched.alloc {offset = 5120 : i64, size = 4096 : i64}
// CHECK: sched.alloc {offset = 9216 : i64, size = 1024 : i64}
// CHECK: sched.alloc {offset = 0 : i64, size = 5120 : i64}
// The values are the graph's:
// RUN: dfa-run %s --seed 2 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %s --target test-cpu --set memory.DDR.capacity_bytes=10240 --seed 2 --expect %t.ref/output_0.npy | FileCheck %s --check-prefix=SAME
// SAME: output 0 {{.*}} ok
// A byte less fits no plan either: the answer is first fit's error (exit 9).
// RUN: not %with_test_targets dfa-compile %s --target test-cpu --set memory.DDR.capacity_bytes=10239 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFIT
// RUN: %with_test_targets dfa-compile %s --target test-cpu --set memory.DDR.capacity_bytes=10239 -o /dev/null 2>/dev/null; test $? -eq 9
// NOFIT: 'x3': error: does not fit: DDR of test-cpu holds 10239 B; this tensor ('tensor<1280xf32>', stored row-major) needs 5120 B with 5120 B already live
// What is live there, largest first, each named by the node that made it:
// NOFIT-NEXT: 'x2': note: live there: its result ('tensor<1024xf32>', 4096 B stored)
// NOFIT-NEXT: 's': note: live there: its result ('tensor<256xf32>', 1024 B stored)

func.func @main(%x: tensor<512xf32> {graph.name = "x"}) -> tensor<1280xf32> {
  %x1 = graph.neg %x : tensor<512xf32> loc("x1")
  %x2 = graph.concat %x1, %x1 {axis = 0 : i64} : (tensor<512xf32>, tensor<512xf32>) -> tensor<1024xf32> loc("x2")
  %s = graph.slice %x2 {starts = array<i64: 0>, steps = array<i64: 1>} : (tensor<1024xf32>) -> tensor<256xf32> loc("s")
  %x3 = graph.concat %x2, %s {axis = 0 : i64} : (tensor<1024xf32>, tensor<256xf32>) -> tensor<1280xf32> loc("x3")
  return %x3 : tensor<1280xf32>
}
