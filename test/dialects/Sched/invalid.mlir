// RUN: dfa-opt %s -split-input-file -verify-diagnostics
// The schedule verifier: capacity, overlapping live buffers, reads before
// writes, missing dependencies and double-booked units in a static plan.

sched.program @capacity target <name = "spyre", static_plan = false, units = 32, levels = {LX = 1024 : i64}> {
  // expected-error @+1 {{'sched.alloc' op bytes [768, 1280) exceed the 1024-byte capacity of LX}}
  %a = sched.alloc {offset = 768, size = 512, unit = 0} : !sched.buffer<"LX", tensor<256xf16>>
}

// -----

sched.program @level target <name = "spyre", static_plan = false, units = 32, levels = {LX = 1024 : i64}> {
  // expected-error @+1 {{'sched.alloc' op memory 'VMEM' is not a level of target 'spyre'}}
  %a = sched.alloc {offset = 0, size = 16} : !sched.buffer<"VMEM", tensor<4xf32>>
}

// -----

sched.program @small target <name = "spyre", static_plan = false, units = 32, levels = {LX = 1024 : i64}> {
  // expected-error @+1 {{'sched.alloc' op size 100 is smaller than the 130 bytes of 'tensor<65xf16>'}}
  %a = sched.alloc {offset = 0, size = 100} : !sched.buffer<"LX", tensor<65xf16>>
}

// -----

sched.program @overlap target <name = "tpu-v5e", static_plan = false, units = 1, levels = {VMEM = 4096 : i64, HBM = 1000000 : i64}> {
^bb0(%in: !sched.buffer<"HBM", tensor<64xf32>>):
  // expected-note @+1 {{the live buffer}}
  %a = sched.alloc {offset = 0, size = 256} : !sched.buffer<"VMEM", tensor<64xf32>>
  // expected-error @+1 {{'sched.alloc' op bytes [128, 384) of VMEM overlap a live buffer at [0, 256)}}
  %b = sched.alloc {offset = 128, size = 256} : !sched.buffer<"VMEM", tensor<64xf32>>
  %t0 = sched.dma %in to %a {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 64>} : !sched.buffer<"HBM", tensor<64xf32>> -> !sched.buffer<"VMEM", tensor<64xf32>>
  %t1 = sched.dma %in to %b {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 64>} : !sched.buffer<"HBM", tensor<64xf32>> -> !sched.buffer<"VMEM", tensor<64xf32>>
  %t2 = sched.dma %a to %in {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 64>} : !sched.buffer<"VMEM", tensor<64xf32>> -> !sched.buffer<"HBM", tensor<64xf32>>
}

// -----

// The same bytes in two units' memories do not overlap.
sched.program @per_unit target <name = "spyre", static_plan = false, units = 32, levels = {LX = 4096 : i64}> {
  %a = sched.alloc {offset = 0, size = 256, unit = 0} : !sched.buffer<"LX", tensor<64xf32>>
  %b = sched.alloc {offset = 0, size = 256, unit = 1} : !sched.buffer<"LX", tensor<64xf32>>
  %t = sched.barrier
  sched.return
}

// -----

// Blocks over ranges of units (PE rectangles): the same bytes of disjoint
// ranges do not overlap; a block over a range crossing both clashes with
// each, and the clash lowest in memory is reported.
sched.program @unit_ranges target <name = "wse-2", static_plan = false, units = 32, levels = {SRAM = 4096 : i64}> {
  // expected-note @+1 {{the live buffer}}
  %a = sched.alloc {offset = 0, size = 256, unit = 0, unit_end = 4} : !sched.buffer<"SRAM", tensor<64xf32>>
  %b = sched.alloc {offset = 64, size = 256, unit = 4, unit_end = 8} : !sched.buffer<"SRAM", tensor<64xf32>>
  %w = sched.alloc {offset = 1024, size = 256, unit = 0, unit_end = 32} : !sched.buffer<"SRAM", tensor<64xf32>>
  // expected-error @+1 {{'sched.alloc' op bytes [128, 384) of SRAM (unit 2) overlap a live buffer at [0, 256)}}
  %c = sched.alloc {offset = 128, size = 256, unit = 2, unit_end = 6} : !sched.buffer<"SRAM", tensor<64xf32>>
  %t0 = sched.dma %w to %a {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 64>} : !sched.buffer<"SRAM", tensor<64xf32>> -> !sched.buffer<"SRAM", tensor<64xf32>>
  %t1 = sched.dma %w to %b {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 64>} : !sched.buffer<"SRAM", tensor<64xf32>> -> !sched.buffer<"SRAM", tensor<64xf32>>
  sched.return
}

// -----

sched.program @unwritten target <name = "tpu-v5e", static_plan = false, units = 1, levels = {VMEM = 4096 : i64, HBM = 1000000 : i64}> {
^bb0(%out: !sched.buffer<"HBM", tensor<64xf32>>):
  %a = sched.alloc {offset = 0, size = 256} : !sched.buffer<"VMEM", tensor<64xf32>>
  // expected-error @+1 {{'sched.dma' op reads a buffer before anything writes it}}
  %t = sched.dma %a to %out {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 64>} : !sched.buffer<"VMEM", tensor<64xf32>> -> !sched.buffer<"HBM", tensor<64xf32>>
}

// -----

sched.program @no_dep target <name = "tpu-v5e", static_plan = true, units = 1, levels = {VMEM = 4096 : i64, HBM = 1000000 : i64}> {
^bb0(%in: !sched.buffer<"HBM", tensor<64xf32>>, %out: !sched.buffer<"HBM", tensor<64xf32>>):
  %a = sched.alloc {offset = 0, size = 256} : !sched.buffer<"VMEM", tensor<64xf32>>
  // expected-note @+1 {{the writer}}
  %t0 = sched.dma %in to %a {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 64>, start = 0, cycles = 8} : !sched.buffer<"HBM", tensor<64xf32>> -> !sched.buffer<"VMEM", tensor<64xf32>>
  // expected-error @+1 {{'sched.dma' op scheduling conflict: reads a buffer without waiting for the op that writes it}}
  %t1 = sched.dma %a to %out {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 64>, engine = 1, start = 8, cycles = 8} : !sched.buffer<"VMEM", tensor<64xf32>> -> !sched.buffer<"HBM", tensor<64xf32>>
}

// -----

sched.program @double_booked target <name = "groq-tsp", static_plan = true, units = 4, levels = {SRAM = 1000000 : i64}> {
^bb0(%in: !sched.buffer<"SRAM", tensor<8xf32>>):
  %a = sched.alloc {offset = 64, size = 32} : !sched.buffer<"SRAM", tensor<8xf32>>
  %b = sched.alloc {offset = 128, size = 32} : !sched.buffer<"SRAM", tensor<8xf32>>
  // expected-note @+1 {{the other op, 'relu'}}
  %t0 = sched.compute "relu" ins(%in : !sched.buffer<"SRAM", tensor<8xf32>>) outs(%a : !sched.buffer<"SRAM", tensor<8xf32>>) attributes {unit_begin = 0, unit_end = 2, start = 0, cycles = 10} {
  ^bb0(%x: tensor<8xf32>):
    %y = graph.relu %x : tensor<8xf32>
    sched.yield %y : tensor<8xf32>
  }
  // expected-error @+1 {{'sched.compute' op scheduling conflict: units 1..2 busy with 'relu' during cycles [5, 10)}}
  %t1 = sched.compute "neg" ins(%in : !sched.buffer<"SRAM", tensor<8xf32>>) outs(%b : !sched.buffer<"SRAM", tensor<8xf32>>) attributes {unit_begin = 1, unit_end = 3, start = 5, cycles = 10} {
  ^bb0(%x: tensor<8xf32>):
    %y = graph.neg %x : tensor<8xf32>
    sched.yield %y : tensor<8xf32>
  }
}

// -----

sched.program @no_start target <name = "groq-tsp", static_plan = true, units = 4, levels = {SRAM = 1000000 : i64}> {
^bb0(%in: !sched.buffer<"SRAM", tensor<8xf32>>):
  %a = sched.alloc {offset = 64, size = 32} : !sched.buffer<"SRAM", tensor<8xf32>>
  // expected-error @+1 {{'sched.dma' op a static plan needs 'start' and 'cycles'}}
  %t = sched.dma %in to %a {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 8>} : !sched.buffer<"SRAM", tensor<8xf32>> -> !sched.buffer<"SRAM", tensor<8xf32>>
}

// -----

sched.program @region target <name = "spyre", static_plan = false, units = 32, levels = {LX = 4096 : i64, LPDDR5 = 100000 : i64}> {
^bb0(%in: !sched.buffer<"LPDDR5", tensor<65xf16>>):
  %a = sched.alloc {offset = 0, size = 128, unit = 0} : !sched.buffer<"LX", tensor<64xf16>>
  // expected-error @+1 {{'sched.dma' op destination region [0, 65) exceeds dim 0 of 'tensor<64xf16>'}}
  %t = sched.dma %in to %a {src_offsets = array<i64: 0>, dst_offsets = array<i64: 0>, sizes = array<i64: 65>} : !sched.buffer<"LPDDR5", tensor<65xf16>> -> !sched.buffer<"LX", tensor<64xf16>>
}

// -----

sched.program @body target <name = "gpu-h100", static_plan = false, units = 132, levels = {HBM = 100000 : i64}> {
^bb0(%in: !sched.buffer<"HBM", tensor<8xf32>>):
  %a = sched.alloc {offset = 0, size = 32} : !sched.buffer<"HBM", tensor<8xf32>>
  // expected-error @+1 {{'sched.compute' op body argument 'tensor<4xf32>' does not match input buffer '!sched.buffer<"HBM", tensor<8xf32>>'}}
  %t = sched.compute "relu" ins(%in : !sched.buffer<"HBM", tensor<8xf32>>) outs(%a : !sched.buffer<"HBM", tensor<8xf32>>) {
  ^bb0(%x: tensor<4xf32>):
    %y = graph.relu %x : tensor<4xf32>
    sched.yield %y : tensor<4xf32>
  }
}

// -----

// The program's checks read its ops' attributes, so they run after the ops
// verify: an alloc without its offset is the alloc's error, not a crash
// (found by the sched-run fuzzer).
sched.program @no_offset target <name = "spyre", static_plan = false, units = 32, levels = {LX = 1024 : i64}> {
  // expected-error @+1 {{'sched.alloc' op requires attribute 'offset'}}
  %a = sched.alloc {size = 16} : !sched.buffer<"LX", tensor<4xf32>>
}

// -----

// The size counts the stored image: 65 f16 in 64-element sticks are 256 bytes.
sched.program @padded target <name = "spyre", static_plan = false, units = 32, levels = {LX = 1024 : i64}> {
  // expected-error @+1 {{'sched.alloc' op size 130 is smaller than the 256 bytes of 'tensor<65xf16>' as stored}}
  %a = sched.alloc {offset = 0, size = 130, layout = #graph.layout<stick 64>} : !sched.buffer<"LX", tensor<65xf16>>
}

// -----

sched.program @layout_rank target <name = "spyre", static_plan = false, units = 32, levels = {LX = 1024 : i64}> {
  // expected-error @+1 {{'sched.alloc' op layout #graph.layout<stick 64 perm [1, 0]> does not fit 'tensor<65xf16>': the permutation has 2 dims, the tensor 1}}
  %a = sched.alloc {offset = 0, size = 256, layout = #graph.layout<stick 64 perm [1, 0]>} : !sched.buffer<"LX", tensor<65xf16>>
}

// -----

sched.program @weight_size target <name = "spyre", static_plan = false, units = 32, levels = {LX = 1024 : i64}> {
  // expected-error @+1 {{'sched.weight' op size 8 is smaller than the 16 bytes of 'tensor<4xf32>'}}
  %w = sched.weight "w" at ""[0] {offset = 0, size = 8} : !sched.buffer<"LX", tensor<4xf32>>
}

// -----

// in_place names an output that is not its input grown (by a concat or a scatter).
sched.program @body target <name = "gpu-h100", static_plan = false, units = 132, levels = {HBM = 100000 : i64}> {
^bb0(%in: !sched.buffer<"HBM", tensor<8xf32>>):
  %a = sched.alloc {offset = 0, size = 32} : !sched.buffer<"HBM", tensor<8xf32>>
  // expected-error @+1 {{'sched.compute' op in_place output 0 does not grow input 0 (a graph.concat after it, or a scatter of rows into it)}}
  %t = sched.compute "relu" ins(%in : !sched.buffer<"HBM", tensor<8xf32>>) outs(%a : !sched.buffer<"HBM", tensor<8xf32>>) attributes {in_place = array<i64: 0, 0>} {
  ^bb0(%x: tensor<8xf32>):
    %y = graph.relu %x : tensor<8xf32>
    sched.yield %y : tensor<8xf32>
  }
}

// -----

sched.program @body target <name = "gpu-h100", static_plan = false, units = 132, levels = {HBM = 100000 : i64}> {
^bb0(%in: !sched.buffer<"HBM", tensor<8xf32>>):
  %a = sched.alloc {offset = 0, size = 32} : !sched.buffer<"HBM", tensor<8xf32>>
  // expected-error @+1 {{'sched.compute' op in_place pair (0, 3) names no input or output}}
  %t = sched.compute "relu" ins(%in : !sched.buffer<"HBM", tensor<8xf32>>) outs(%a : !sched.buffer<"HBM", tensor<8xf32>>) attributes {in_place = array<i64: 0, 3>} {
  ^bb0(%x: tensor<8xf32>):
    %y = graph.relu %x : tensor<8xf32>
    sched.yield %y : tensor<8xf32>
  }
}

// -----

sched.program @body target <name = "gpu-h100", static_plan = false, units = 132, levels = {HBM = 100000 : i64}> {
^bb0(%in: !sched.buffer<"HBM", tensor<8xf32>>):
  %a = sched.alloc {offset = 0, size = 32} : !sched.buffer<"HBM", tensor<8xf32>>
  // expected-error @+1 {{'sched.compute' op in_place holds (input, output) pairs; got 1 indices}}
  %t = sched.compute "relu" ins(%in : !sched.buffer<"HBM", tensor<8xf32>>) outs(%a : !sched.buffer<"HBM", tensor<8xf32>>) attributes {in_place = array<i64: 0>} {
  ^bb0(%x: tensor<8xf32>):
    %y = graph.relu %x : tensor<8xf32>
    sched.yield %y : tensor<8xf32>
  }
}

// -----

sched.program @body target <name = "gpu-h100", static_plan = false, units = 132, levels = {HBM = 100000 : i64, L2 = 1000 : i64}> {
^bb0(%in: !sched.buffer<"HBM", tensor<4xf32>>):
  %a = sched.alloc {offset = 0, size = 32} : !sched.buffer<"L2", tensor<8xf32>>
  // expected-error @+1 {{'sched.compute' op in_place output 0 is not where input 0 is (a cache grows where it lives)}}
  %t = sched.compute "append" ins(%in : !sched.buffer<"HBM", tensor<4xf32>>) outs(%a : !sched.buffer<"L2", tensor<8xf32>>) attributes {in_place = array<i64: 0, 0>} {
  ^bb0(%x: tensor<4xf32>):
    %y = graph.concat %x, %x {axis = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    sched.yield %y : tensor<8xf32>
  }
}

// -----

sched.program @body target <name = "gpu-h100", static_plan = false, units = 132, levels = {HBM = 100000 : i64}> {
^bb0(%in: !sched.buffer<"HBM", tensor<4xf32>>):
  %a = sched.alloc {offset = 0, size = 32} : !sched.buffer<"HBM", tensor<8xf32>>
  // expected-error @+1 {{'sched.compute' op in_place names input 0 or output 0 twice}}
  %t = sched.compute "append" ins(%in : !sched.buffer<"HBM", tensor<4xf32>>) outs(%a : !sched.buffer<"HBM", tensor<8xf32>>) attributes {in_place = array<i64: 0, 0, 0, 0>} {
  ^bb0(%x: tensor<4xf32>):
    %y = graph.concat %x, %x {axis = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    sched.yield %y : tensor<8xf32>
  }
}

// -----

// expected-error @+1 {{'sched.program' op input_chips names 1 chips for 2 inputs}}
sched.program @input_count target <name = "groq-tsp", static_plan = true, units = 6, levels = {SRAM = 4096 : i64}> attributes {chips = 2 : i64, input_chips = array<i64: 1>} {
^bb0(%a: !sched.buffer<"SRAM", tensor<4xf32>>, %b: !sched.buffer<"SRAM", tensor<4xf32>>):
  sched.return %a : !sched.buffer<"SRAM", tensor<4xf32>>
}

// -----

// expected-error @+1 {{'sched.program' op input 0 arrives on chip 2, which does not exist (program spans 2)}}
sched.program @input_chip target <name = "groq-tsp", static_plan = true, units = 6, levels = {SRAM = 4096 : i64}> attributes {chips = 2 : i64, input_chips = array<i64: 2>} {
^bb0(%a: !sched.buffer<"SRAM", tensor<4xf32>>):
  sched.return %a : !sched.buffer<"SRAM", tensor<4xf32>>
}

// -----

// A kernel reads its own chip's memory: an input that arrives on chip 1
// is copied to chip 0 before a kernel there reads it.
sched.program @input_elsewhere target <name = "groq-tsp", static_plan = true, units = 6, levels = {SRAM = 4096 : i64}> attributes {chips = 2 : i64, input_chips = array<i64: 1>} {
^bb0(%in: !sched.buffer<"SRAM", tensor<8xf32>>):
  %a = sched.alloc {offset = 0, size = 32, chip = 0} : !sched.buffer<"SRAM", tensor<8xf32>>
  // expected-error @+1 {{'sched.compute' op input 0 is on chip 1, the kernel on chip 0 (another chip's buffer arrives by a sched.dma)}}
  %t0 = sched.compute "relu" ins(%in : !sched.buffer<"SRAM", tensor<8xf32>>) outs(%a : !sched.buffer<"SRAM", tensor<8xf32>>) attributes {chip = 0, start = 0, cycles = 10} {
  ^bb0(%x: tensor<8xf32>):
    %y = graph.relu %x : tensor<8xf32>
    sched.yield %y : tensor<8xf32>
  }
  sched.return %a : !sched.buffer<"SRAM", tensor<8xf32>>
}

// -----

// out_offsets: one offset per dim of each output.
sched.program @regions target <name = "test-lpu", static_plan = false, units = 6, levels = {SRAM = 100000 : i64, host = 100000 : i64}> {
^bb0(%in: !sched.buffer<"SRAM", tensor<2x4xf32>>):
  %a = sched.alloc {offset = 0, size = 64} : !sched.buffer<"host", tensor<2x8xf32>>
  // expected-error @+1 {{'sched.compute' op out_offsets holds 1 offsets for outputs of 2 dims in all (one per dim of each output)}}
  %t = sched.compute "piece" ins(%in : !sched.buffer<"SRAM", tensor<2x4xf32>>) outs(%a : !sched.buffer<"host", tensor<2x8xf32>>) attributes {out_offsets = array<i64: 4>} {
  ^bb0(%x: tensor<2x4xf32>):
    %y = graph.relu %x : tensor<2x4xf32>
    sched.yield %y : tensor<2x4xf32>
  }
}

// -----

// A region that passes its buffer's end.
sched.program @regions target <name = "test-lpu", static_plan = false, units = 6, levels = {SRAM = 100000 : i64, host = 100000 : i64}> {
^bb0(%in: !sched.buffer<"SRAM", tensor<2x4xf32>>):
  %a = sched.alloc {offset = 0, size = 64} : !sched.buffer<"host", tensor<2x8xf32>>
  // expected-error @+1 {{'sched.compute' op output 0's region 'tensor<2x4xf32>' at offset 5 of dim 1 is outside '!sched.buffer<"host", tensor<2x8xf32>>'}}
  %t = sched.compute "piece" ins(%in : !sched.buffer<"SRAM", tensor<2x4xf32>>) outs(%a : !sched.buffer<"host", tensor<2x8xf32>>) attributes {out_offsets = array<i64: 0, 5>} {
  ^bb0(%x: tensor<2x4xf32>):
    %y = graph.relu %x : tensor<2x4xf32>
    sched.yield %y : tensor<2x4xf32>
  }
}

// -----

// A part of the buffer without out_offsets: the body must yield it whole.
sched.program @regions target <name = "test-lpu", static_plan = false, units = 6, levels = {SRAM = 100000 : i64, host = 100000 : i64}> {
^bb0(%in: !sched.buffer<"SRAM", tensor<2x4xf32>>):
  %a = sched.alloc {offset = 0, size = 64} : !sched.buffer<"host", tensor<2x8xf32>>
  // expected-error @+1 {{'sched.compute' op yields 'tensor<2x4xf32>' into '!sched.buffer<"host", tensor<2x8xf32>>'}}
  %t = sched.compute "piece" ins(%in : !sched.buffer<"SRAM", tensor<2x4xf32>>) outs(%a : !sched.buffer<"host", tensor<2x8xf32>>) {
  ^bb0(%x: tensor<2x4xf32>):
    %y = graph.relu %x : tensor<2x4xf32>
    sched.yield %y : tensor<2x4xf32>
  }
}

// -----

// A cache grown in place is written whole.
sched.program @regions target <name = "gpu-h100", static_plan = false, units = 132, levels = {HBM = 100000 : i64}> {
^bb0(%in: !sched.buffer<"HBM", tensor<4xf32>>):
  %a = sched.alloc {offset = 0, size = 64} : !sched.buffer<"HBM", tensor<16xf32>>
  // expected-error @+1 {{'sched.compute' op in_place output 0 is written in part (out_offsets): a cache grows whole}}
  %t = sched.compute "append" ins(%in : !sched.buffer<"HBM", tensor<4xf32>>) outs(%a : !sched.buffer<"HBM", tensor<16xf32>>) attributes {in_place = array<i64: 0, 0>, out_offsets = array<i64: 8>} {
  ^bb0(%x: tensor<4xf32>):
    %y = graph.concat %x, %x {axis = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    sched.yield %y : tensor<8xf32>
  }
}

// -----

// Another chip's memory is read through a copy; the host's is every chip's.
sched.program @regions target <name = "test-lpu", static_plan = false, units = 6, levels = {SRAM = 100000 : i64, host = 100000 : i64}> attributes {chips = 2 : i64} {
^bb0(%in: !sched.buffer<"SRAM", tensor<2x4xf32>>):
  %a = sched.alloc {offset = 0, size = 64} : !sched.buffer<"host", tensor<2x8xf32>>
  %b = sched.alloc {offset = 0, size = 32, chip = 1} : !sched.buffer<"SRAM", tensor<2x4xf32>>
  %t0 = sched.compute "piece" ins(%in : !sched.buffer<"SRAM", tensor<2x4xf32>>) outs(%a : !sched.buffer<"host", tensor<2x8xf32>>) attributes {out_offsets = array<i64: 0, 0>} {
  ^bb0(%x: tensor<2x4xf32>):
    %y = graph.relu %x : tensor<2x4xf32>
    sched.yield %y : tensor<2x4xf32>
  }
  // expected-error @+1 {{'sched.compute' op output 0 is on chip 1, the kernel on chip 0 (another chip's buffer arrives by a sched.dma)}}
  %t1 = sched.compute "other" ins(%in : !sched.buffer<"SRAM", tensor<2x4xf32>>) outs(%b : !sched.buffer<"SRAM", tensor<2x4xf32>>) {
  ^bb0(%x: tensor<2x4xf32>):
    %y = graph.relu %x : tensor<2x4xf32>
    sched.yield %y : tensor<2x4xf32>
  }
}

// -----

// A result assembled from regions is read once every piece is written: a
// reader waits for each writer since the last whole write.
sched.program @regions target <name = "test-lpu", static_plan = true, units = 6, levels = {SRAM = 100000 : i64, host = 100000 : i64}> attributes {chips = 2 : i64} {
^bb0(%in: !sched.buffer<"SRAM", tensor<2x4xf32>>):
  %a = sched.alloc {offset = 0, size = 64} : !sched.buffer<"host", tensor<2x8xf32>>
  %b = sched.alloc {offset = 0, size = 64} : !sched.buffer<"SRAM", tensor<2x8xf32>>
  // expected-note @+1 {{the writer}}
  %t0 = sched.compute "left" ins(%in : !sched.buffer<"SRAM", tensor<2x4xf32>>) outs(%a : !sched.buffer<"host", tensor<2x8xf32>>) attributes {out_offsets = array<i64: 0, 0>, start = 0, cycles = 10} {
  ^bb0(%x: tensor<2x4xf32>):
    %y = graph.relu %x : tensor<2x4xf32>
    sched.yield %y : tensor<2x4xf32>
  }
  %t1 = sched.compute "right" ins(%in : !sched.buffer<"SRAM", tensor<2x4xf32>>) outs(%a : !sched.buffer<"host", tensor<2x8xf32>>) attributes {out_offsets = array<i64: 0, 4>, start = 0, cycles = 10, unit_begin = 1, unit_end = 2} {
  ^bb0(%x: tensor<2x4xf32>):
    %y = graph.relu %x : tensor<2x4xf32>
    sched.yield %y : tensor<2x4xf32>
  }
  // expected-error @+1 {{'sched.dma' op scheduling conflict: reads a buffer without waiting for the op that writes it}}
  %t2 = sched.dma %a to %b after(%t1) {src_offsets = array<i64: 0, 0>, dst_offsets = array<i64: 0, 0>, sizes = array<i64: 2, 8>, start = 10, cycles = 8} : !sched.buffer<"host", tensor<2x8xf32>> -> !sched.buffer<"SRAM", tensor<2x8xf32>>
}

// -----

sched.program @weight_pitch target <name = "spyre", static_plan = false, units = 32, levels = {LX = 1024 : i64}> {
  // expected-error @+1 {{'sched.weight' op row_pitch 8 is shorter than a row of 16 bytes}}
  %w = sched.weight "w" at "f.bin"[0] pitch 8 {offset = 0, size = 32} : !sched.buffer<"LX", tensor<2x4xf32>>
}
