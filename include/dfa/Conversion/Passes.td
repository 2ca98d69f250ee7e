//===- Passes.td - dfa conversion passes -------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Passes that lower one dialect to another, as MLIR's and CIRCT's
// conversions are laid out: lib/Conversion/<From>To<To>.
//
//===----------------------------------------------------------------------===//

#ifndef DFA_CONVERSION_PASSES_TD
#define DFA_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Scheduling
//===----------------------------------------------------------------------===//

def ConvertGraphToSchedPass : Pass<"convert-graph-to-sched", "::mlir::ModuleOp"> {
  let summary = "Lower kernels to a sched.program for the target";
  let description = [{
    Replaces `main` by a `sched.program`: placement (units, PE rectangles,
    LPU chips partitioned by weight bytes), memory planning with live
    ranges (first-fit arenas per memory level; a reused block makes its
    new writer wait for the old readers), DMA insertion (TPU and Spyre
    stage each kernel's operands into VMEM/LX when they fit half of it,
    leaving the other half for the next kernel's prefetch; WSE copies over
    the fabric between rectangles; LPU over chip-to-chip links), issue
    order, and, for static targets, start cycles from a list scheduler over
    the token dependencies, units and DMA engines. Weights become
    `sched.weight` buffers where their first reader runs. The program's
    `stats` record kernels, fusions made and refused, padding, relayouts,
    spills (kernels whose operands stream from off-chip memory), DMAs,
    peak bytes per memory level and chips. A model that fits no memory of
    the target is an error.
  }];
  let dependentDialects = ["::dfa::sched::SchedDialect"];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target description (default: the module's graph.target)">,
    ListOption<"targetDirs", "target-dir", "std::string",
               "Extra directories of target descriptions">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every decision">,
    Option<"inject", "inject", "std::string", /*default=*/"\"\"",
           "A fault to plant for tests and teaching (knownFaults(): "
           "tail-drop, nan@NODE, swap-strides, drop-dep, dma-hang, "
           "accum-f16, ulp1)">,
  ];
}

#endif // DFA_CONVERSION_PASSES_TD
