// A fabric copy that both reads a streaming kernel's output and overwrites
// that kernel's input: %a2 is a new buffer at %a's bytes (an arena reused).
// Streaming from k1 would overwrite rows of %a that k1 has not read yet,
// so the copy waits for all of k1. The plan says so (cycle 64100).
module {
  sched.program @main target <name = "test-wse", static_plan = true, units = 850000, levels = {MemoryX = 1500000000000 : i64, "PE-SRAM" = 49152 : i64}> {
  ^bb0(%arg0: !sched.buffer<"MemoryX", tensor<64x256xf16>>):
    %a = sched.alloc {layout = #graph.layout<pe_slices>, offset = 0 : i64, size = 64 : i64, unit = 0 : i64, unit_end = 1000 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %la = sched.dma %arg0 to %a {bytes = 32768 : i64, cycles = 100 : i64, dst_offsets = array<i64: 0, 0>, kernel = "k1", sizes = array<i64: 64, 256>, src_offsets = array<i64: 0, 0>, start = 0 : i64} : !sched.buffer<"MemoryX", tensor<64x256xf16>> -> !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %b = sched.alloc {layout = #graph.layout<pe_slices>, offset = 64 : i64, size = 64 : i64, unit = 0 : i64, unit_end = 1000 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %k1 = sched.compute "k1" ins(%a : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>) outs(%b : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>) after(%la) attributes {cycles = 64000 : i64, kind = "pointwise", rows = 64 : i64, start = 100 : i64, unit_end = 1000 : i64} {
    ^bb0(%in: tensor<64x256xf16>):
      %r = graph.relu %in : tensor<64x256xf16>
      sched.yield %r : tensor<64x256xf16>
    }
    %a2 = sched.alloc {layout = #graph.layout<pe_slices>, offset = 0 : i64, size = 64 : i64, unit = 0 : i64, unit_end = 1000 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %hop = sched.dma %b to %a2 after(%k1) {bytes = 32768 : i64, cycles = 3000 : i64, dst_offsets = array<i64: 0, 0>, engine = 2 : i64, kernel = "k2", rows = 64 : i64, sizes = array<i64: 64, 256>, src_offsets = array<i64: 0, 0>, start = 64100 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>> -> !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %c = sched.alloc {layout = #graph.layout<pe_slices>, offset = 128 : i64, size = 64 : i64, unit = 0 : i64, unit_end = 1000 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %k2 = sched.compute "k2" ins(%a2 : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>) outs(%c : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>) after(%hop) attributes {cycles = 64 : i64, kind = "pointwise", start = 67100 : i64, unit_end = 1000 : i64} {
    ^bb0(%p: tensor<64x256xf16>):
      %r = graph.neg %p : tensor<64x256xf16>
      sched.yield %r : tensor<64x256xf16>
    }
    sched.return %c : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
  }
}
