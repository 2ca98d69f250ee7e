//===- SchedOps.h - sched dialect operations --------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_SCHED_SCHEDOPS_H
#define DIALECTS_SCHED_SCHEDOPS_H

#include "dialects/Sched/SchedDialect.h"
#include "dfa/Target/Cost.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_TYPEDEF_CLASSES
#include "dialects/Sched/SchedTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Sched/SchedAttrs.h.inc"

#include "dialects/Sched/SchedInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dialects/Sched/SchedOps.h.inc"

namespace dfa::sched {

/// Where a buffer is: its chip and the units it spans in a per-unit memory
/// ([unit, unit_end) of its alloc or weight; [0, 1) for chip-wide buffers
/// and the program's arguments).
struct BufferSite {
  int64_t chip = 0, unitBegin = 0, unitEnd = 1;
  int64_t units() const { return unitEnd - unitBegin; }
};
BufferSite siteOf(mlir::Value buffer);

/// How `buffer` is stored: its alloc's or weight's `layout` applied to the
/// buffer's tensor, `elemBytes` per element (0: the type's own); dense
/// row-major for a program argument or a buffer without one.
target::Layout storedLayout(mlir::Value buffer, int64_t elemBytes = 0);

/// The buffers `op` reads and writes (a copy's source and destination, a
/// kernel's inputs and outputs; nothing for other ops).
void accesses(mlir::Operation *op, llvm::SmallVectorImpl<mlir::Value> &reads,
              llvm::SmallVectorImpl<mlir::Value> &writes);

/// Whether output `out` of `op` yields a `graph.concat` whose first operand
/// is input `in`'s block argument: the shape `in_place` requires.
bool isCacheAppend(ComputeOp op, int64_t in, int64_t out);

/// The tensor kernel `op` writes into output `out`: what its body yields,
/// the whole buffer's tensor or, with `out_offsets`, a region of it.
mlir::RankedTensorType writtenType(ComputeOp op, int64_t out);
/// Whether `op` writes all of output `out` (not a region of it).
bool writesWhole(ComputeOp op, int64_t out);

/// The bytes a kernel moves: one entry per input, then one per output
/// (the region it writes: writtenType), each its tensor bytes, except for the pairs of `in_place`: the
/// output counts only the elements appended to the input, and the input
/// nothing unless the body reads it (or the grown value) for more than
/// the append. The scheduler times kernels by these bytes and the
/// roofline counts them.
llvm::SmallVector<double> movedBytes(ComputeOp op);

/// The bytes kernel `op` streams to the host's memory (the level named
/// `hostLevel`, Target::hostMemory): its outputs there (of a region it
/// writes, the region's share of the elements), as stored (the
/// device's image crosses the link, padding included, as a copy moves
/// it). The scheduler times the host link by it and the roofline counts
/// it.
double hostBytes(ComputeOp op, llvm::StringRef hostLevel);

/// The bytes a kernel moves in each memory level it touches, in the order
/// its buffers first name them: `movedBytes` of the buffers in each level,
/// except the host's memory (the level named `hostLevel`, empty: none),
/// which counts `hostBytes` (and is left out when that is 0: a kernel
/// only reading from it). The scheduler times a kernel by these (the
/// host's at the host link) and the roofline places them on each level's
/// roof.
llvm::SmallVector<std::pair<llvm::StringRef, double>>
levelBytes(ComputeOp op, llvm::StringRef hostLevel);

/// The collective a kernel runs (its body a graph all-reduce or
/// all-gather, graph::collectiveOf) as the cost model's work; nullopt for
/// any other kernel. The scheduler times it and the roofline places it on
/// the chip-to-chip links from this one description.
std::optional<target::Collective> collectiveOf(ComputeOp op);

/// Whether `consumer` may stream from `producer` (sched `rows`): it reads
/// a buffer `producer` writes (a data dependence) and overwrites nothing
/// `producer` reads (no buffer of its writes may share bytes with one of
/// the producer's reads). A token that orders a reuse of memory must be
/// waited for whole.
bool feeds(mlir::Operation *producer, mlir::Operation *consumer);

} // namespace dfa::sched

#endif // DIALECTS_SCHED_SCHEDOPS_H
