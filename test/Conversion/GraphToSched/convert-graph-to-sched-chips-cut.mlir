// Under chip partition a chip that fills ends where the fewest bytes cross
// to the next one, within a tenth of its weights: eight MLP blocks whose
// hidden layer is four times the residual's width, on chips of 10.5 MB
// (with the weights, 1.6 MB a block, packed greedily, chip 0 would end
// between block 5's up and down projections, and both the hidden layer
// (64x1280) and the residual (64x320) would cross; the cut moves back
// before up5, and only the residual crosses).
// RUN: %with_test_targets dfa-compile %s --target test-lpu-small --set memory.SRAM.capacity_bytes=10500000 -o %t.sched.mlir
// RUN: FileCheck %s < %t.sched.mlir
// CHECK: sched.dma {{.*}}chip = 1 : i64{{.*}}kernel = "up5", sizes = array<i64: 64, 320>
// CHECK-NOT: sched.dma
// The schedule computes what the graph does.
// RUN: dfa-run %s --seed 3 --outputs %t.ref > /dev/null
// RUN: %with_test_targets dfa-run %t.sched.mlir --seed 3 --expect %t.ref/output_0.npy | FileCheck %s --check-prefix=SAME
// SAME: output 0 {{.*}} ok

func.func @main(%x0: tensor<64x320xf16>) -> tensor<64x320xf16> {
  %u0 = graph.constant dense<0.001> : tensor<320x1280xf16> loc("w_up0")
  %d0 = graph.constant dense<0.0005> : tensor<1280x320xf16> loc("w_down0")
  %u1 = graph.constant dense<0.002> : tensor<320x1280xf16> loc("w_up1")
  %d1 = graph.constant dense<0.0010> : tensor<1280x320xf16> loc("w_down1")
  %u2 = graph.constant dense<0.003> : tensor<320x1280xf16> loc("w_up2")
  %d2 = graph.constant dense<0.0015> : tensor<1280x320xf16> loc("w_down2")
  %u3 = graph.constant dense<0.004> : tensor<320x1280xf16> loc("w_up3")
  %d3 = graph.constant dense<0.0020> : tensor<1280x320xf16> loc("w_down3")
  %u4 = graph.constant dense<0.005> : tensor<320x1280xf16> loc("w_up4")
  %d4 = graph.constant dense<0.0025> : tensor<1280x320xf16> loc("w_down4")
  %u5 = graph.constant dense<0.006> : tensor<320x1280xf16> loc("w_up5")
  %d5 = graph.constant dense<0.0030> : tensor<1280x320xf16> loc("w_down5")
  %u6 = graph.constant dense<0.007> : tensor<320x1280xf16> loc("w_up6")
  %d6 = graph.constant dense<0.0035> : tensor<1280x320xf16> loc("w_down6")
  %u7 = graph.constant dense<0.008> : tensor<320x1280xf16> loc("w_up7")
  %d7 = graph.constant dense<0.0040> : tensor<1280x320xf16> loc("w_down7")
  %h0 = graph.matmul %x0, %u0 : (tensor<64x320xf16>, tensor<320x1280xf16>) -> tensor<64x1280xf16> loc("up0")
  %r0 = graph.relu %h0 : tensor<64x1280xf16> loc("relu0")
  %o0 = graph.matmul %r0, %d0 : (tensor<64x1280xf16>, tensor<1280x320xf16>) -> tensor<64x320xf16> loc("down0")
  %x1 = graph.add %x0, %o0 : (tensor<64x320xf16>, tensor<64x320xf16>) -> tensor<64x320xf16> loc("res0")
  %h1 = graph.matmul %x1, %u1 : (tensor<64x320xf16>, tensor<320x1280xf16>) -> tensor<64x1280xf16> loc("up1")
  %r1 = graph.relu %h1 : tensor<64x1280xf16> loc("relu1")
  %o1 = graph.matmul %r1, %d1 : (tensor<64x1280xf16>, tensor<1280x320xf16>) -> tensor<64x320xf16> loc("down1")
  %x2 = graph.add %x1, %o1 : (tensor<64x320xf16>, tensor<64x320xf16>) -> tensor<64x320xf16> loc("res1")
  %h2 = graph.matmul %x2, %u2 : (tensor<64x320xf16>, tensor<320x1280xf16>) -> tensor<64x1280xf16> loc("up2")
  %r2 = graph.relu %h2 : tensor<64x1280xf16> loc("relu2")
  %o2 = graph.matmul %r2, %d2 : (tensor<64x1280xf16>, tensor<1280x320xf16>) -> tensor<64x320xf16> loc("down2")
  %x3 = graph.add %x2, %o2 : (tensor<64x320xf16>, tensor<64x320xf16>) -> tensor<64x320xf16> loc("res2")
  %h3 = graph.matmul %x3, %u3 : (tensor<64x320xf16>, tensor<320x1280xf16>) -> tensor<64x1280xf16> loc("up3")
  %r3 = graph.relu %h3 : tensor<64x1280xf16> loc("relu3")
  %o3 = graph.matmul %r3, %d3 : (tensor<64x1280xf16>, tensor<1280x320xf16>) -> tensor<64x320xf16> loc("down3")
  %x4 = graph.add %x3, %o3 : (tensor<64x320xf16>, tensor<64x320xf16>) -> tensor<64x320xf16> loc("res3")
  %h4 = graph.matmul %x4, %u4 : (tensor<64x320xf16>, tensor<320x1280xf16>) -> tensor<64x1280xf16> loc("up4")
  %r4 = graph.relu %h4 : tensor<64x1280xf16> loc("relu4")
  %o4 = graph.matmul %r4, %d4 : (tensor<64x1280xf16>, tensor<1280x320xf16>) -> tensor<64x320xf16> loc("down4")
  %x5 = graph.add %x4, %o4 : (tensor<64x320xf16>, tensor<64x320xf16>) -> tensor<64x320xf16> loc("res4")
  %h5 = graph.matmul %x5, %u5 : (tensor<64x320xf16>, tensor<320x1280xf16>) -> tensor<64x1280xf16> loc("up5")
  %r5 = graph.relu %h5 : tensor<64x1280xf16> loc("relu5")
  %o5 = graph.matmul %r5, %d5 : (tensor<64x1280xf16>, tensor<1280x320xf16>) -> tensor<64x320xf16> loc("down5")
  %x6 = graph.add %x5, %o5 : (tensor<64x320xf16>, tensor<64x320xf16>) -> tensor<64x320xf16> loc("res5")
  %h6 = graph.matmul %x6, %u6 : (tensor<64x320xf16>, tensor<320x1280xf16>) -> tensor<64x1280xf16> loc("up6")
  %r6 = graph.relu %h6 : tensor<64x1280xf16> loc("relu6")
  %o6 = graph.matmul %r6, %d6 : (tensor<64x1280xf16>, tensor<1280x320xf16>) -> tensor<64x320xf16> loc("down6")
  %x7 = graph.add %x6, %o6 : (tensor<64x320xf16>, tensor<64x320xf16>) -> tensor<64x320xf16> loc("res6")
  %h7 = graph.matmul %x7, %u7 : (tensor<64x320xf16>, tensor<320x1280xf16>) -> tensor<64x1280xf16> loc("up7")
  %r7 = graph.relu %h7 : tensor<64x1280xf16> loc("relu7")
  %o7 = graph.matmul %r7, %d7 : (tensor<64x1280xf16>, tensor<1280x320xf16>) -> tensor<64x320xf16> loc("down7")
  %x8 = graph.add %x7, %o7 : (tensor<64x320xf16>, tensor<64x320xf16>) -> tensor<64x320xf16> loc("res7")
  return %x8 : tensor<64x320xf16>
}
