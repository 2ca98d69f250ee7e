//===- Layout.h - how a target stores a tensor -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The one model of a stored tensor: its dims in physical order, padded to
/// the target's granules (Spyre sticks, TPU (8,128) tiles with their packed
/// 16- and 8-bit forms, Groq vectors), its byte size and the byte offset of
/// every element. `Layout::of` derives it from the description (every tile
/// and granule read from the JSON); graph-layout and the lowering use it to
/// size buffers and count padding, the simulator and the bisector to place
/// elements. A schedule records a buffer's layout as its `name()`
/// (`row-major`, `stick(64)`, `tile(8,128)`, `tile(8,128)(2,1)`,
/// `vector(320)`, `pe-slices`, each optionally followed by ` perm(...)`),
/// which `parse` reads back to the same layout.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_TARGET_LAYOUT_H
#define DFA_TARGET_LAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace dfa::target {

struct Target;

class Layout {
public:
  enum class Kind {
    Dense,  // row-major
    Slices, // pe-slices: dense, spread over the PEs of a rectangle
    Stick,  // the minor dim in sticks of `granule` elements (Spyre)
    Vector, // the minor dim in vectors of `granule` elements (Groq)
    Tile,   // (tileRows x tileCols) tiles of the two minor dims (TPU)
  };

  /// How `t` stores a tensor of `shape` with `elemBytes`-byte elements, its
  /// dims in physical `order` (empty: as they are).
  static Layout of(const Target &t, llvm::ArrayRef<int64_t> shape,
                   int64_t elemBytes, llvm::ArrayRef<int64_t> order = {});
  /// The layout a schedule names; nullopt with `error` set if `name` is not
  /// one `name()` writes, or does not fit `shape`.
  static std::optional<Layout> parse(llvm::StringRef name,
                                     llvm::ArrayRef<int64_t> shape,
                                     int64_t elemBytes, std::string &error);

  /// The text a schedule records it by (parse's input).
  std::string name() const;

  Kind kind = Kind::Dense;
  llvm::SmallVector<int64_t, 4> shape;  // logical shape
  llvm::SmallVector<int64_t, 4> order;  // physical order of logical dims
  llvm::SmallVector<int64_t, 4> padded; // padded physical shape
  /// The elements of the minor dim stored and moved as one: a stick, a
  /// vector, a tile's width (1: any).
  int64_t minorGranule = 1;
  int64_t tileRows = 0, tileCols = 0;   // 2-D tiles of the two minor dims
  int64_t pack = 1;                     // rows interleaved per sublane
  int64_t elemBytes = 1;
  int64_t bytes = 0;                    // the whole padded image

  /// Bytes without the padding.
  int64_t logicalBytes() const;
  /// The granule a split of logical dim `dim` must respect (whole sticks,
  /// tiles or vectors on the dims they cover), else 1.
  int64_t granule(int64_t dim) const;
  /// Whether the dims are stored in their logical order.
  bool identityOrder() const;

  /// Byte offset in the image of the element at logical index `idx`.
  int64_t offsetOf(llvm::ArrayRef<int64_t> idx) const;
  /// Whether `o` stores the same shape the same way (same image bytes for
  /// the same element).
  bool sameAs(const Layout &o) const {
    // Tiles of fewer than two dims are one dense row.
    bool tiled = kind == Kind::Tile && shape.size() >= 2;
    bool otherTiled = o.kind == Kind::Tile && o.shape.size() >= 2;
    return shape == o.shape && order == o.order && padded == o.padded &&
           elemBytes == o.elemBytes && tiled == otherTiled &&
           (!tiled || (tileRows == o.tileRows && tileCols == o.tileCols &&
                       pack == o.pack));
  }
  /// Whether the elements along the last logical dim are adjacent in the
  /// image (no tiles, and that dim stored minor).
  bool rowsContiguous() const {
    return (kind != Kind::Tile || shape.size() < 2) &&
           (shape.empty() || order.back() == int64_t(shape.size()) - 1);
  }
  /// Byte offsets of every element of the region `sizes` at `offsets`, in
  /// row-major order of the region.
  void regionOffsets(llvm::ArrayRef<int64_t> offsets,
                     llvm::ArrayRef<int64_t> sizes,
                     llvm::SmallVectorImpl<int64_t> &out) const;

private:
  /// Pads the minor dims for `kind`, and sets the strides and byte size.
  void finish();
  llvm::SmallVector<int64_t, 4> strides; // row-major strides of `padded`
};

} // namespace dfa::target

#endif // DFA_TARGET_LAYOUT_H
