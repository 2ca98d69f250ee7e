// A chip that fills with activations, not weights, may end up to a tenth
// of the chip's weight budget earlier (a tenth of the weights it holds, as
// before 2026-12-06, is a sliver when they are few): three MLP blocks of a
// 1000-token prompt on 10 MB chips hold 4.8 MB of weights and fill with
// activations in the last block, between up2 and down2, where the hidden
// layer (1000x1280) and the residual would both cross; the cut moves back
// before up2 (one 0.8 MB weight, within the 0.9 MB a tenth of the budget
// allows) and only the residual crosses.
// RUN: %with_test_targets dfa-compile %s --target test-lpu-small --set memory.SRAM.capacity_bytes=10000000 -o %t.sched.mlir
// RUN: FileCheck %s < %t.sched.mlir
// CHECK: sched.dma {{.*}}chip = 1 : i64{{.*}}kernel = "up2", sizes = array<i64: 1000, 320>
// CHECK-NOT: sched.dma
// The schedule computes what the graph does.
// RUN: dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.sched.mlir --seed 3 --expect %t.ref/output_0.npy | FileCheck %s --check-prefix=SAME
// SAME: output 0 {{.*}} ok

func.func @main(%x0: tensor<1000x320xf16>) -> tensor<1000x320xf16> {
  %u0 = graph.constant dense<0.001> : tensor<320x1280xf16> loc("w_up0")
  %d0 = graph.constant dense<0.0005> : tensor<1280x320xf16> loc("w_down0")
  %u1 = graph.constant dense<0.002> : tensor<320x1280xf16> loc("w_up1")
  %d1 = graph.constant dense<0.0006> : tensor<1280x320xf16> loc("w_down1")
  %u2 = graph.constant dense<0.003> : tensor<320x1280xf16> loc("w_up2")
  %d2 = graph.constant dense<0.0007> : tensor<1280x320xf16> loc("w_down2")
  %h0 = graph.matmul %x0, %u0 : (tensor<1000x320xf16>, tensor<320x1280xf16>) -> tensor<1000x1280xf16> loc("up0")
  %a0 = graph.relu %h0 : tensor<1000x1280xf16> loc("act0")
  %y0 = graph.matmul %a0, %d0 : (tensor<1000x1280xf16>, tensor<1280x320xf16>) -> tensor<1000x320xf16> loc("down0")
  %x1 = graph.add %x0, %y0 : (tensor<1000x320xf16>, tensor<1000x320xf16>) -> tensor<1000x320xf16> loc("res0")
  %h1 = graph.matmul %x1, %u1 : (tensor<1000x320xf16>, tensor<320x1280xf16>) -> tensor<1000x1280xf16> loc("up1")
  %a1 = graph.relu %h1 : tensor<1000x1280xf16> loc("act1")
  %y1 = graph.matmul %a1, %d1 : (tensor<1000x1280xf16>, tensor<1280x320xf16>) -> tensor<1000x320xf16> loc("down1")
  %x2 = graph.add %x1, %y1 : (tensor<1000x320xf16>, tensor<1000x320xf16>) -> tensor<1000x320xf16> loc("res1")
  %h2 = graph.matmul %x2, %u2 : (tensor<1000x320xf16>, tensor<320x1280xf16>) -> tensor<1000x1280xf16> loc("up2")
  %a2 = graph.relu %h2 : tensor<1000x1280xf16> loc("act2")
  %y2 = graph.matmul %a2, %d2 : (tensor<1000x1280xf16>, tensor<1280x320xf16>) -> tensor<1000x320xf16> loc("down2")
  %x3 = graph.add %x2, %y2 : (tensor<1000x320xf16>, tensor<1000x320xf16>) -> tensor<1000x320xf16> loc("res2")
  return %x3 : tensor<1000x320xf16>
}
