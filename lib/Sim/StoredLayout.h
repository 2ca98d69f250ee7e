//===- StoredLayout.h - where each element of a buffer lives ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Sim. A buffer's `layout` attribute, as convert-graph-to-sched
/// writes it (`row-major`, `stick(64)`, `tile(8,128)`, `tile(8,128)(2,1)`,
/// `vector(320)`, `pe-slices`, each optionally followed by ` perm(...)`),
/// parsed into the byte offset of every logical element. The padded sizes
/// agree with the compiler's (TargetModel's layoutFor), so a buffer's image
/// fills exactly the bytes the compiler planned.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_SIM_STOREDLAYOUT_H
#define LIB_SIM_STOREDLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace dfa::sim {

struct StoredLayout {
  llvm::SmallVector<int64_t, 4> shape;  // logical shape
  llvm::SmallVector<int64_t, 4> order;  // physical order of logical dims
  llvm::SmallVector<int64_t, 4> padded; // padded physical shape
  int64_t tileRows = 0, tileCols = 0;   // 2-D tiles of the two minor dims
  int64_t pack = 1;                     // rows interleaved per sublane
  int64_t elemBytes = 1;
  int64_t bytes = 0;                    // the whole padded image

  /// Byte offset in the image of the element at logical index `idx`.
  int64_t offsetOf(llvm::ArrayRef<int64_t> idx) const;
  /// Whether `o` stores the same shape the same way (same image bytes for
  /// the same element).
  bool sameAs(const StoredLayout &o) const {
    return shape == o.shape && order == o.order && padded == o.padded &&
           tileRows == o.tileRows && tileCols == o.tileCols && pack == o.pack &&
           elemBytes == o.elemBytes;
  }
  /// Whether the elements along the last logical dim are adjacent in the
  /// image (no tiles, and that dim stored minor).
  bool rowsContiguous() const {
    return !tileRows && (shape.empty() || order.back() == int64_t(shape.size()) - 1);
  }
  /// Byte offsets of every element of the region `sizes` at `offsets`, in
  /// row-major order of the region.
  void regionOffsets(llvm::ArrayRef<int64_t> offsets,
                     llvm::ArrayRef<int64_t> sizes,
                     llvm::SmallVectorImpl<int64_t> &out) const;

private:
  llvm::SmallVector<int64_t, 4> strides; // row-major strides of `padded`
  friend std::optional<StoredLayout>
  parseLayout(llvm::StringRef, llvm::ArrayRef<int64_t>, int64_t, std::string &);
};

/// Parses `name` for a tensor of `shape` with `elemBytes`-byte elements.
std::optional<StoredLayout> parseLayout(llvm::StringRef name,
                                        llvm::ArrayRef<int64_t> shape,
                                        int64_t elemBytes, std::string &error);

} // namespace dfa::sim

#endif // LIB_SIM_STOREDLAYOUT_H
