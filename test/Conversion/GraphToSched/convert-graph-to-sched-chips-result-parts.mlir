// A graph result joined from the pieces of a product cut across chips (a
// Llama-3-70B-wide LM head, [64, 8192] x [128256, 8192]^T in f16, 2.1 GB
// of weights over 11 groq-tsp chips) goes to the host from each piece's
// chip where that is sooner than gathering the pieces on one chip over
// its link (Lowering::partsFasterToHost): the 16 MB of logits fit a chip,
// so before they were gathered, ten 1.5 MB copies queued on one link,
// 1.23 ms for a product whose pieces take 67 us (144 us now, below the 287
// us of batch 128, whose 33 MB of logits already went to the host). The
// only chip-to-chip copies left are the input's, one to each piece's chip.
// RUN: dfa-compile %s --target groq-tsp -o - | FileCheck %s
// CHECK: sched.alloc {{.*}} !sched.buffer<"host", tensor<64x128256xf16>>
// CHECK-COUNT-10: sched.dma %arg0 to {{.*}}engine = 2{{.*}}
// CHECK-NOT: engine = 2
// At batch 1 too (256 KB of logits: 26.1 -> 4.83 us).
// RUN: sed -e 's/64x8192/1x8192/g' -e 's/64x128256/1x128256/g' %s > %t.b1.mlir
// RUN: dfa-compile %t.b1.mlir --target groq-tsp -o - | FileCheck %s --check-prefix=B1
// B1: sched.alloc {{.*}} !sched.buffer<"host", tensor<1x128256xf16>>
// A small classifier's parts (3 x 320 f32 each) are still gathered on one
// chip, where their copies over the link are sooner than the host's PCIe
// setup: the result stays in its SRAM.
// Only parts made from weights that take more than half a chip's budget
// each count (the partition has not placed them when this is decided, and
// no two such share a chip): six heads of [512, 512] f32 joined into the
// result all run on one chip, and their result stays in its SRAM (a
// review found them written to the host, 8,160 cycles where 1,394).
// RUN: dfa-compile %S/Inputs/small-heads-result.mlir --target groq-tsp -o - | FileCheck %s --check-prefix=HEADS
// HEADS: chips = 1
// HEADS: sched.alloc {{.*}} !sched.buffer<"SRAM", tensor<4x3072xf32>>
// HEADS-NOT: "host"
// RUN: rm -rf %t.models && %python %S/../../Transforms/Inputs/make_shard_models.py %t.models
// RUN: %with_test_targets dfa-compile %t.models/gemm_tb.onnx --target test-lpu-small -o - | FileCheck %s --check-prefix=SMALL
// SMALL: sched.alloc {{.*}} !sched.buffer<"SRAM", tensor<3x960xf32>>

func.func @main(%x: tensor<64x8192xf16> {graph.name = "x"}) -> tensor<64x128256xf16> {
  %w = graph.weight "w" at ""[0] : tensor<128256x8192xf16> loc("w")
  %y = graph.gemm %x, %w {trans_b = true} : (tensor<64x8192xf16>, tensor<128256x8192xf16>) -> tensor<64x128256xf16> loc("lm_head")
  return %y : tensor<64x128256xf16>
}
