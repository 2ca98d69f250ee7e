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
/// elements. What `make` applies to a shape is the layout's `Encoding` (the
/// kind, its granule or tile, the dim order; `of` picks a small tile for a
/// small second-minor dim, so the encoding is chosen for the shape and then
/// kept, by a chunk of the tensor as by a cache grown in place): the IR carries it as a
/// `#graph.layout` attribute (graph-layout writes it, the lowering, the
/// schedule verifier, the simulator and the bisector read it), and `make`
/// applies it to a shape. `name()` is the short text reports and remarks
/// print (`row-major`, `stick(64)`, `tile(8,128)`, `tile(8,128)(2,1)`,
/// `vector(320)`, `pe-slices`, each optionally followed by ` perm(...)`).
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

  /// What a layout is apart from the shape it is applied to.
  struct Encoding {
    Kind kind = Kind::Dense;
    /// Stick or vector elements; a tile's columns (1 otherwise).
    int64_t granule = 1;
    /// A tile's rows (elements), and how many consecutive rows of narrower
    /// elements pack into one 32-bit word: XLA's T(rows, granule)(pack, 1),
    /// e.g. (8,128)(2,1) for 16-bit elements; `pack` divides `rows`.
    int64_t rows = 0, pack = 1;
    /// Physical order of the logical dims (empty: as they are).
    llvm::SmallVector<int64_t, 4> order;

    /// Why this encoding stores no tensor of rank `rank`, or empty.
    std::string invalidFor(int64_t rank) const;
  };

  /// How `t` stores a tensor of `shape` with `elemBytes`-byte elements, its
  /// dims in physical `order` (empty: as they are). On a tiled target a
  /// small second-minor dim takes the description's smaller tile
  /// (Target::smallTileRows).
  static Layout of(const Target &t, llvm::ArrayRef<int64_t> shape,
                   int64_t elemBytes, llvm::ArrayRef<int64_t> order = {});
  /// The encoding `of` gives `elemBytes`-byte elements on `t` before a
  /// small second-minor dim picks its tile.
  static Encoding encodingOf(const Target &t, int64_t elemBytes,
                             llvm::ArrayRef<int64_t> order = {});
  /// `encoding` applied to `shape` (which `encoding.invalidFor` accepts).
  static Layout make(const Encoding &encoding, llvm::ArrayRef<int64_t> shape,
                     int64_t elemBytes);
  /// A dense row-major layout of `shape`.
  static Layout rowMajor(llvm::ArrayRef<int64_t> shape, int64_t elemBytes) {
    return make(Encoding(), shape, elemBytes);
  }

  /// What this layout is apart from its shape: make(encoding(), shape,
  /// elemBytes) gives it back.
  Encoding encoding() const;

  /// The short text reports and remarks print.
  std::string name() const;

  Kind kind = Kind::Dense;
  llvm::SmallVector<int64_t, 4> shape;  // logical shape
  llvm::SmallVector<int64_t, 4> order;  // physical order of logical dims
  llvm::SmallVector<int64_t, 4> padded; // padded physical shape
  /// The elements of the minor dim stored and moved as one: a stick, a
  /// vector, a tile's width (1: any).
  int64_t minorGranule = 1;
  int64_t tileRows = 0, tileCols = 0;   // 2-D tiles of the two minor dims
  int64_t pack = 1;                     // rows packed per 32-bit word
  int64_t elemBytes = 1;
  /// Bits of an element narrower than a byte (int4, fp4, int2), stored
  /// packed along the physical order; 0 for a whole number of bytes.
  int64_t elemBits = 0;
  int64_t bytes = 0;                    // the whole padded image

  /// Stores elements of `bits` bits packed (a no-op from 8 bits up, and for
  /// a bool, which takes a byte): the
  /// image, its offsets and logicalBytes shrink to bits / 8 of a byte an
  /// element. The type-based entry points (graph::layoutFor,
  /// LayoutAttr::apply, sched::storedLayout) call it.
  Layout &packBits(unsigned bits);
  /// Bytes of `elements` elements as stored.
  int64_t bytesOf(int64_t elements) const {
    return elemBits ? (elements * elemBits + 7) / 8 : elements * elemBytes;
  }

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
           elemBytes == o.elemBytes && elemBits == o.elemBits &&
           tiled == otherTiled &&
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
