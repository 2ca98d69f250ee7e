//===- Machine.h - memories and values of a simulated target ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Sim. The functional half of dfa-run: every memory level
/// is bytes (pages of a chip-wide level, an image per unit of a per-unit
/// level such as Spyre's LX or a PE's SRAM), poisoned with 0xFF (NaN as
/// floats) until written, and allocated only while a live buffer holds
/// them; a buffer is its layout's image at its offset, a per-unit buffer's
/// image spread over its units in equal shares. A DMA copies exactly the elements of its region; a compute op
/// reads its inputs' elements, runs its body on the CPU reference and
/// writes its outputs rounded to the target's device storage format.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_SIM_MACHINE_H
#define LIB_SIM_MACHINE_H

#include "dfa/Target/Layout.h"

#include "dfa/Reference/Tensor.h"
#include "dfa/Sim/Sim.h"
#include "dfa/Target/Target.h"

#include "dialects/Sched/SchedOps.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <memory>
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

/// The target's memories as the run needs them: only what live buffers
/// hold is allocated. A chip-wide level is pages of 64 KiB, created on
/// first write (poisoned with 0xFF until written) and freed when the last
/// buffer overlapping them dies; a per-unit level (and a program input's
/// private space) is one image per unit, grown to the highest byte written
/// and freed when no live buffer is placed on that unit. A byte read where
/// nothing was written reads as poison.
class Memories {
public:
  /// Copies `n` bytes at image byte `at` of a buffer placed at `p`.
  void write(const Placement &p, int64_t at, const uint8_t *src, int64_t n);
  void read(const Placement &p, int64_t at, uint8_t *dst, int64_t n);
  /// A buffer of `bytes` at `p` comes to life: the memory under it is kept
  /// until release().
  void hold(const Placement &p, int64_t bytes);
  /// The buffer died: memory no live buffer holds any more is freed.
  void release(const Placement &p, int64_t bytes);
  /// A new private space (program inputs live outside every arena).
  int64_t newSpace() { return privateSpaces++; }
  /// Host bytes allocated now, and the most at any time.
  int64_t allocated() const { return current; }
  int64_t peak() const { return highest; }

  static constexpr int64_t kPageBytes = int64_t(64) << 10;

private:
  /// One physical memory: a level of a chip, or of one unit of a chip
  /// (unit -1 for chip-wide levels).
  struct Key {
    int64_t level, chip, unit;
  };
  struct Page {
    std::unique_ptr<uint8_t[]> data;
    int64_t refs = 0;
  };
  struct Image {
    std::vector<uint8_t> data;
    int64_t refs = 0;
  };
  /// Image byte `at` of a buffer: its memory, address and the bytes that
  /// are contiguous there (at most `n`; a chip-wide level's run also ends
  /// at a page boundary).
  Key locate(const Placement &p, int64_t at, int64_t n, int64_t &addr,
             int64_t &run);
  int64_t levelId(const std::string &name);
  /// The image of the first unit a per-unit buffer (or private space) is
  /// placed on; `end` is one past its last unit.
  Key firstImage(const Placement &p, int64_t &end);
  /// The page or image under `key` (created if `create`), or null.
  uint8_t *pageFor(const Key &key, int64_t addr, bool create);
  Image *imageFor(const Key &key, bool create);
  void account(int64_t delta);

  llvm::DenseMap<std::tuple<int64_t, int64_t, int64_t>, Page> pages;
  llvm::DenseMap<std::tuple<int64_t, int64_t, int64_t>, Image> images;
  std::map<std::string, int64_t> levels;
  int64_t privateSpaces = 0;
  int64_t current = 0, highest = 0;
};

class Executor {
public:
  Executor(const target::Target &t,
           Options::Arithmetic arithmetic = Options::Arithmetic::Target)
      : t(t), arithmetic(arithmetic) {}

  /// Runs `program` on `inputs`; fills `outputs`. Errors are emitted at the
  /// op that failed.
  mlir::LogicalResult run(sched::ProgramOp program,
                          llvm::ArrayRef<ref::Tensor> inputs,
                          llvm::SmallVectorImpl<ref::Tensor> &outputs);

  /// Host bytes the run will hold at most: the buffers live at once (in
  /// program order, a weight from its first use), each rounded up to the
  /// pages or unit images under it, and the operands of the largest step.
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
  /// Writes `t` into the region of `b` at `offsets` (a kernel's out_offsets);
  /// the rest of `b`, pads included, keeps what it holds.
  void storeRegion(const Buffer &b, const ref::Tensor &t,
                   llvm::ArrayRef<int64_t> offsets);
  ref::Tensor load(const Buffer &b);
  mlir::LogicalResult dma(sched::DmaOp op);
  mlir::LogicalResult compute(sched::ComputeOp op);
  /// Reads a weight's value into its buffer, the first time an op uses it.
  mlir::LogicalResult materialize(mlir::Value buffer);
  /// For each buffer, the index in the program of the last op that uses
  /// it (its alloc's when none does; -1 for an input no op uses), and the
  /// buffers that die after each op.
  struct Lifetimes {
    llvm::DenseMap<mlir::Value, int64_t> last;
    std::vector<llvm::SmallVector<mlir::Value>> dying;
  };
  Lifetimes lifetimes(mlir::Block &body);

  const target::Target &t;
  Options::Arithmetic arithmetic;
  Memories mem;
  llvm::DenseMap<mlir::Value, Buffer> buffers;
  /// Weights not read yet: they are read at their first use.
  llvm::DenseMap<mlir::Value, sched::WeightOp> pending;
};

} // namespace dfa::sim

#endif // LIB_SIM_MACHINE_H
