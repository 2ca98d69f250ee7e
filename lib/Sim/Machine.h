//===- Machine.h - memories and values of a simulated target ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Sim. The functional half of dfa-run: every memory level
/// is byte arrays (one per chip for chip-wide levels, one per unit for
/// per-unit levels such as Spyre's LX or a PE's SRAM), poisoned with 0xFF
/// (NaN as floats) until written; a buffer is its layout's image at its
/// offset, a per-unit buffer's image spread over its units in equal
/// shares. A DMA copies exactly the elements of its region; a compute op
/// reads its inputs' elements, runs its body on the CPU reference and
/// writes its outputs rounded to the target's device storage format.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_SIM_MACHINE_H
#define LIB_SIM_MACHINE_H

#include "dfa/Target/Layout.h"

#include "dfa/Reference/Tensor.h"
#include "dfa/Target/Target.h"

#include "dialects/Sched/SchedOps.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <tuple>
#include <vector>

namespace dfa::sim {

/// Where a buffer's image lives.
struct Placement {
  std::string level;
  int64_t chip = 0;
  bool perUnit = false;
  int64_t unitBegin = 0, unitEnd = 1;
  int64_t offset = 0;
  int64_t share = 0; // bytes of the image per unit (per-unit levels)
  int64_t space = -1; // >= 0: a private space (a program input)
};

class Memories {
public:
  /// Copies `n` bytes at image byte `at` of a buffer placed at `p`.
  void write(const Placement &p, int64_t at, const uint8_t *src, int64_t n);
  void read(const Placement &p, int64_t at, uint8_t *dst, int64_t n);
  /// A new private space (program inputs live outside every arena).
  int64_t newSpace() { return privateSpaces++; }

private:
  /// One physical memory: a level of a chip, or of one unit of a chip.
  struct Key {
    int64_t level, chip, unit;
  };
  /// The bytes [addr, addr + n) of a memory, grown (poisoned) as needed.
  uint8_t *bytes(const Key &key, int64_t addr, int64_t n);
  /// Image byte `at` of a buffer: its memory, address and the bytes that
  /// are contiguous there (at most `n`).
  Key locate(const Placement &p, int64_t at, int64_t n, int64_t &addr,
             int64_t &run);
  int64_t levelId(const std::string &name);

  llvm::DenseMap<std::tuple<int64_t, int64_t, int64_t>, std::vector<uint8_t>>
      spaces;
  std::map<std::string, int64_t> levels;
  int64_t privateSpaces = 0;
};

/// Runs a sched.program's values.
class Executor {
public:
  Executor(const target::Target &t) : t(t) {}

  /// Runs `program` on `inputs`; fills `outputs`. Errors are emitted at the
  /// op that failed.
  mlir::LogicalResult run(sched::ProgramOp program,
                          llvm::ArrayRef<ref::Tensor> inputs,
                          llvm::SmallVectorImpl<ref::Tensor> &outputs);

  /// Host bytes the run will hold: the images of the target's memories up
  /// to the highest byte any buffer is placed at, the program's inputs,
  /// and the operands of the largest step.
  mlir::FailureOr<double> hostBytes(sched::ProgramOp program);

private:
  struct Buffer {
    Placement at;
    target::Layout layout;
    ref::DType dtype;
  };
  mlir::FailureOr<Buffer *> describe(mlir::Value buffer);
  /// Writes all of `t` (converted to the device format) into `b`; with
  /// `zeroPads`, the image's padding is zeroed first, as a host runtime
  /// does when it lays a tensor out.
  void store(const Buffer &b, const ref::Tensor &t, bool zeroPads);
  ref::Tensor load(const Buffer &b);
  mlir::LogicalResult dma(sched::DmaOp op);
  mlir::LogicalResult compute(sched::ComputeOp op);

  const target::Target &t;
  Memories mem;
  llvm::DenseMap<mlir::Value, Buffer> buffers;
};

} // namespace dfa::sim

#endif // LIB_SIM_MACHINE_H
