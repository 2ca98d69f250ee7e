// Two streaming kernels side by side on the wafer: k0 fills %e, k1 reads
// %a. A fabric copy then writes %e into %a, reusing k1's input buffer: it
// streams from k0 (it reads what k0 writes) but only orders itself after
// k1 (it overwrites what k1 reads), so it must wait for k1 to finish. The
// plan says so (the copy at cycle 64100, when k1 ends).
module {
  sched.program @main target <name = "test-wse", static_plan = true, units = 850000, levels = {MemoryX = 1500000000000 : i64, "PE-SRAM" = 49152 : i64}> {
  ^bb0(%arg0: !sched.buffer<"MemoryX", tensor<64x256xf16>>, %arg1: !sched.buffer<"MemoryX", tensor<64x256xf16>>):
    %a = sched.alloc {layout = #graph.layout<pe_slices>, offset = 0 : i64, size = 64 : i64, unit = 0 : i64, unit_end = 1000 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %la = sched.dma %arg0 to %a {bytes = 32768 : i64, cycles = 100 : i64, dst_offsets = array<i64: 0, 0>, kernel = "k1", sizes = array<i64: 64, 256>, src_offsets = array<i64: 0, 0>, start = 0 : i64} : !sched.buffer<"MemoryX", tensor<64x256xf16>> -> !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %x = sched.alloc {layout = #graph.layout<pe_slices>, offset = 0 : i64, size = 64 : i64, unit = 1000 : i64, unit_end = 2000 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %lx = sched.dma %arg1 to %x {bytes = 32768 : i64, cycles = 100 : i64, dst_offsets = array<i64: 0, 0>, kernel = "k0", sizes = array<i64: 64, 256>, src_offsets = array<i64: 0, 0>, start = 100 : i64} : !sched.buffer<"MemoryX", tensor<64x256xf16>> -> !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %b = sched.alloc {layout = #graph.layout<pe_slices>, offset = 64 : i64, size = 64 : i64, unit = 0 : i64, unit_end = 1000 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %k1 = sched.compute "k1" ins(%a : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>) outs(%b : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>) after(%la) attributes {cycles = 64000 : i64, kind = "pointwise", rows = 64 : i64, start = 100 : i64, unit_end = 1000 : i64} {
    ^bb0(%in: tensor<64x256xf16>):
      %r = graph.relu %in : tensor<64x256xf16>
      sched.yield %r : tensor<64x256xf16>
    }
    %e = sched.alloc {layout = #graph.layout<pe_slices>, offset = 64 : i64, size = 64 : i64, unit = 1000 : i64, unit_end = 2000 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %k0 = sched.compute "k0" ins(%x : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>) outs(%e : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>) after(%lx) attributes {cycles = 640 : i64, kind = "pointwise", rows = 64 : i64, start = 200 : i64, unit_begin = 1000 : i64, unit_end = 2000 : i64} {
    ^bb0(%in: tensor<64x256xf16>):
      %r = graph.neg %in : tensor<64x256xf16>
      sched.yield %r : tensor<64x256xf16>
    }
    %hop = sched.dma %e to %a after(%k0, %k1) {bytes = 32768 : i64, cycles = 3000 : i64, dst_offsets = array<i64: 0, 0>, engine = 2 : i64, kernel = "k2", rows = 64 : i64, sizes = array<i64: 64, 256>, src_offsets = array<i64: 0, 0>, start = 64100 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>> -> !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %c = sched.alloc {layout = #graph.layout<pe_slices>, offset = 128 : i64, size = 64 : i64, unit = 0 : i64, unit_end = 1000 : i64} : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
    %k2 = sched.compute "k2" ins(%a, %b : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>, !sched.buffer<"PE-SRAM", tensor<64x256xf16>>) outs(%c : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>) after(%hop, %k1) attributes {cycles = 64 : i64, kind = "pointwise", start = 67100 : i64, unit_end = 1000 : i64} {
    ^bb0(%p: tensor<64x256xf16>, %q: tensor<64x256xf16>):
      %r = graph.add %p, %q : (tensor<64x256xf16>, tensor<64x256xf16>) -> tensor<64x256xf16>
      sched.yield %r : tensor<64x256xf16>
    }
    sched.return %c : !sched.buffer<"PE-SRAM", tensor<64x256xf16>>
  }
}
