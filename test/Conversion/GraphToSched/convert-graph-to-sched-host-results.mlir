// On a device with no DRAM (an LPU), a graph result that does not fit a
// chip beside its kernel's operands (here 640 KiB stored, beside a 80 KiB
// input, on test-lpu-small's 512 KiB chips) streams to the host's memory
// as the kernel makes it (Lowering::leavesForHost): its buffer is in the
// level "host", the host link's bandwidth and latency (network.host), it
// takes no chip's SRAM, and the kernel takes at least the link's time:
// 655,360 B (as stored) at 31.5 GB/s plus 1 us is 19,625 cycles at 0.9
// GHz. Before, the result fit no chip (exit 9). A result that fits stays
// in SRAM, as a GPU's stays in its HBM; values equal the CPU reference;
// dfa-roofline puts the kernel on the host's roof.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %with_test_targets dfa-compile %s --target test-lpu-small -o %t/s.sched.mlir
// RUN: FileCheck %s < %t/s.sched.mlir
// CHECK: levels = {SRAM = 524288 : i64, host = 281474976710656 : i64}> attributes {stats = {chips = 1 : i64
// CHECK: %[[BIG:[0-9]+]] = sched.alloc {{.*}} : !sched.buffer<"host", tensor<2560x64xf32>>
// CHECK-NEXT: sched.compute "tile" {{.*}} outs(%[[BIG]] : {{.*}} memory_cycles = 19625 : i64
// CHECK: %[[SUM:[0-9]+]] = sched.alloc {{.*}} : !sched.buffer<"SRAM", tensor<1x64xf32>>
// CHECK: sched.return %[[SUM]], %[[BIG]] :
// RUN: dfa-run %s --seed 3 --outputs %t/ref > /dev/null
// RUN: %with_test_targets dfa-run %t/s.sched.mlir --seed 3 --expect %t/ref/output_0.npy %t/ref/output_1.npy | FileCheck %s --check-prefix=SAME
// SAME-COUNT-2: ok
// RUN: %with_test_targets dfa-roofline %t/s.sched.mlir --target test-lpu-small | FileCheck %s --check-prefix=ROOF
// ROOF: tile {{.*}} 655 kB host {{.*}} memory:host
// Two kernels on one chip (the VXM and the SXM) each stream a result over
// the chip's one host link: the second starts when the first is done
// (327,680 B and 1 us each: 10,479 cycles), not beside it.
// RUN: %with_test_targets dfa-compile %S/Inputs/host-results-two.mlir --target test-lpu-small --set memory.SRAM.capacity_bytes=300000 -o %t/two.sched.mlir
// RUN: FileCheck %s --check-prefix=TWO < %t/two.sched.mlir
// TWO: sched.compute "sum" {{.*}}outs({{.*}}"host"{{.*}} cycles = 10479 : i64{{.*}} start = 0 : i64, unit_begin = 4
// TWO: sched.compute "rows" {{.*}}outs({{.*}}"host"{{.*}} cycles = 10479 : i64{{.*}} start = 10479 : i64, unit_begin = 5
// RUN: dfa-run %S/Inputs/host-results-two.mlir --seed 3 --outputs %t/ref2 > /dev/null
// RUN: %with_test_targets dfa-run %t/two.sched.mlir --seed 3 --expect %t/ref2/output_0.npy %t/ref2/output_1.npy | FileCheck %s --check-prefix=SAME
// A saved schedule whose program does not list the host's memory, or
// lists it smaller than the result, is refused when read (exit 4).
// RUN: sed 's/, host = 281474976710656 : i64//' %t/s.sched.mlir > %t/nohost.sched.mlir
// RUN: not %with_test_targets dfa-run %t/nohost.sched.mlir 2>&1 | FileCheck %s --check-prefix=NOHOST
// RUN: %with_test_targets dfa-run %t/nohost.sched.mlir 2>/dev/null; test $? -eq 4
// NOHOST: error: 'sched.alloc' op memory 'host' is not a level of target 'test-lpu-small'
// RUN: sed 's/host = 281474976710656 : i64/host = 100 : i64/' %t/s.sched.mlir > %t/small.sched.mlir
// RUN: not %with_test_targets dfa-run %t/small.sched.mlir 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: error: 'sched.alloc' op bytes [0, 655360) exceed the 100-byte capacity of host

func.func @main(%x: tensor<64x64xf32> {graph.name = "x"}) -> (tensor<1x64xf32>, tensor<2560x64xf32>) {
  %a = graph.relu %x : tensor<64x64xf32> loc("a")
  %big = graph.concat %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a {axis = 0 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<2560x64xf32> loc("tile")
  %sum = graph.reduce_sum %a {axes = array<i64: 0>} : (tensor<64x64xf32>) -> tensor<1x64xf32> loc("sum")
  return %sum, %big : tensor<1x64xf32>, tensor<2560x64xf32>
}
