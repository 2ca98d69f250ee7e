//===- Layout.cpp - how a target stores a tensor ---------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Target/Layout.h"

#include "dfa/Support/MathExtras.h"
#include "dfa/Target/Target.h"

using namespace dfa;
using namespace dfa::target;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using llvm::StringRef;

/// Rows of `elemBytes`-byte elements packed into one 32-bit word, as many
/// as fit and divide a tile's `rows`.
static int64_t packedRows(int64_t rows, int64_t elemBytes) {
  int64_t pack = 4 / std::max<int64_t>(1, elemBytes);
  while (pack > 1 && rows % pack != 0)
    pack /= 2;
  return std::max<int64_t>(1, pack);
}

Layout::Encoding Layout::encodingOf(const Target &t, int64_t elemBytes,
                                    ArrayRef<int64_t> order) {
  Encoding e;
  e.order.assign(order.begin(), order.end());
  if (auto stick = t.layoutValue("stick_bytes")) {
    // Spyre: the minor dim is stored in sticks of stick_bytes.
    e.kind = Kind::Stick;
    e.granule = std::max<int64_t>(1, int64_t(*stick) / elemBytes);
  } else if (std::optional<TileShape> tile = t.tileFor(elemBytes)) {
    // TPU: tiles of the two minor dims (the description's tile,
    // tile_16bit, tile_8bit); narrower elements pack consecutive rows into
    // one 32-bit word, XLA's (8,128)(2,1) for 16 bits.
    e.kind = Kind::Tile;
    e.rows = tile->rows;
    e.granule = tile->cols;
    e.pack = elemBytes < 4 ? packedRows(tile->rows, elemBytes) : 1;
  } else if (auto vec = t.layoutValue("vector_elems")) {
    // Groq: the minor dim is spread over vectors of 320 elements.
    e.kind = Kind::Vector;
    e.granule = std::max<int64_t>(1, int64_t(*vec));
  } else if (t.caps.placement == Placement::Spatial) {
    // Spread over the PEs of a rectangle.
    e.kind = Kind::Slices;
  }
  return e;
}

Layout Layout::of(const Target &t, ArrayRef<int64_t> shape, int64_t elemBytes,
                  ArrayRef<int64_t> order) {
  if (order.size() != shape.size())
    order = {};
  Encoding e = encodingOf(t, elemBytes, order);
  int64_t rank = shape.size();
  if (e.kind == Kind::Tile && rank >= 2) {
    // A small second-minor dim takes a smaller tile (XLA's compact
    // second-minor layout: 2 rows for 1-2, 4 for 3-4).
    int64_t second = shape[order.empty() ? rank - 2 : order[rank - 2]];
    if (std::optional<int64_t> rows = t.smallTileRows(second, e.granule);
        rows && *rows < e.rows) {
      e.rows = *rows;
      e.pack = elemBytes < 4 ? packedRows(*rows, elemBytes) : 1;
    }
  }
  return make(e, shape, elemBytes);
}

std::string Layout::Encoding::invalidFor(int64_t rank) const {
  if (granule < 1)
    return "the granule must be at least 1";
  // Far past any machine's stick, vector or tile, and small enough that a
  // padded shape cannot overflow.
  constexpr int64_t kMax = int64_t(1) << 20;
  if (granule > kMax || rows > kMax || pack > kMax)
    return "granule, rows and pack must be at most 2^20";
  if (kind == Kind::Tile && (rows < 1 || pack < 1))
    return "a tile needs at least one row";
  if (kind == Kind::Tile && rows % pack != 0)
    return "a tile's rows must be a multiple of its packing";
  if (kind != Kind::Tile && (rows != 0 || pack != 1))
    return "only a tile has rows and packing";
  if ((kind == Kind::Dense || kind == Kind::Slices) && granule != 1)
    return "only sticks, vectors and tiles have a granule";
  if (order.empty())
    return "";
  if (rank >= 0 && int64_t(order.size()) != rank)
    return "the permutation has " + std::to_string(order.size()) +
           " dims, the tensor " + std::to_string(rank);
  SmallVector<bool, 4> seen(order.size(), false);
  for (int64_t d : order) {
    if (d < 0 || d >= int64_t(order.size()) || seen[d])
      return "not a permutation";
    seen[d] = true;
  }
  return "";
}

Layout Layout::make(const Encoding &e, ArrayRef<int64_t> shape,
                    int64_t elemBytes) {
  Layout l;
  l.kind = e.kind;
  l.shape.assign(shape.begin(), shape.end());
  l.elemBytes = elemBytes;
  if (e.order.size() == shape.size())
    l.order.assign(e.order.begin(), e.order.end());
  else
    for (int64_t i = 0, n = shape.size(); i < n; ++i)
      l.order.push_back(i);
  l.minorGranule = std::max<int64_t>(1, e.granule);
  if (e.kind == Kind::Tile) {
    l.pack = std::max<int64_t>(1, e.pack);
    l.tileRows = std::max<int64_t>(1, e.rows);
    l.tileCols = l.minorGranule;
  }
  l.finish();
  return l;
}

Layout::Encoding Layout::encoding() const {
  Encoding e;
  e.kind = kind;
  if (kind == Kind::Stick || kind == Kind::Vector || kind == Kind::Tile)
    e.granule = minorGranule;
  if (kind == Kind::Tile) {
    e.rows = tileRows;
    e.pack = pack;
  }
  if (!identityOrder())
    e.order = order;
  return e;
}

void Layout::finish() {
  int64_t rank = shape.size();
  padded.clear();
  for (int64_t d : order)
    padded.push_back(shape[d]);
  switch (kind) {
  case Kind::Dense:
  case Kind::Slices:
    break;
  case Kind::Stick:
    if (rank > 0)
      padded.back() = roundUp(padded.back(), minorGranule);
    else
      padded.push_back(minorGranule);
    break;
  case Kind::Vector:
    if (rank > 0)
      padded.back() = roundUp(padded.back(), minorGranule);
    break;
  case Kind::Tile:
    if (rank >= 1)
      padded.back() = roundUp(padded.back(), tileCols);
    if (rank >= 2)
      padded[rank - 2] = roundUp(padded[rank - 2], tileRows);
    break;
  }
  int64_t n = 1;
  for (int64_t d : padded)
    n *= d;
  bytes = bytesOf(n);
  strides.assign(padded.size(), 1);
  for (int64_t i = int64_t(padded.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * padded[i + 1];
}

std::string Layout::name() const {
  std::string s;
  switch (kind) {
  case Kind::Dense:
    s = "row-major";
    break;
  case Kind::Slices:
    s = "pe-slices";
    break;
  case Kind::Stick:
    s = "stick(" + std::to_string(minorGranule) + ")";
    break;
  case Kind::Vector:
    s = "vector(" + std::to_string(minorGranule) + ")";
    break;
  case Kind::Tile:
    s = "tile(" + std::to_string(tileRows) + "," +
        std::to_string(tileCols) + ")";
    if (pack > 1)
      s += "(" + std::to_string(pack) + ",1)";
    break;
  }
  if (!identityOrder()) {
    s += " perm(";
    for (size_t i = 0; i < order.size(); ++i)
      s += (i ? "," : "") + std::to_string(order[i]);
    s += ")";
  }
  return s;
}

bool Layout::identityOrder() const {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != int64_t(i))
      return false;
  return true;
}

int64_t Layout::logicalBytes() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return bytesOf(n);
}

Layout &Layout::packBits(unsigned bits) {
  // A bool takes a byte, as torch and ONNX store it.
  if (bits <= 1 || bits >= 8)
    return *this;
  elemBits = bits;
  int64_t n = 1;
  for (int64_t d : padded)
    n *= d;
  bytes = bytesOf(n);
  return *this;
}

int64_t Layout::granule(int64_t dim) const {
  int64_t rank = shape.size();
  if (rank == 0)
    return 1;
  // A chunk boundary must fall on a stick, tile or vector edge.
  if (dim == order[rank - 1] && minorGranule > 1)
    return minorGranule;
  if (rank >= 2 && dim == order[rank - 2] && kind == Kind::Tile)
    return tileRows;
  return 1;
}

int64_t Layout::offsetOf(ArrayRef<int64_t> idx) const {
  int64_t rank = shape.size();
  if (rank == 0)
    return 0;
  int64_t elem = 0;
  if (kind != Kind::Tile || rank < 2) {
    for (int64_t i = 0; i < rank; ++i)
      elem += idx[order[i]] * strides[i];
    return elemBits ? elem * elemBits / 8 : elem * elemBytes;
  }
  // Leading dims row-major over whole (rows x cols) planes; the plane in
  // tiles row-major; a tile row-major with `pack` rows interleaved.
  for (int64_t i = 0; i < rank - 2; ++i)
    elem += idx[order[i]] * strides[i];
  int64_t r = idx[order[rank - 2]], c = idx[order[rank - 1]];
  int64_t tilesPerRow = padded[rank - 1] / tileCols;
  int64_t tile = (r / tileRows) * tilesPerRow + c / tileCols;
  int64_t rr = r % tileRows, cc = c % tileCols;
  int64_t inTile = ((rr / pack) * tileCols + cc) * pack + rr % pack;
  elem += tile * tileRows * tileCols + inTile;
  return elemBits ? elem * elemBits / 8 : elem * elemBytes;
}

void Layout::regionOffsets(ArrayRef<int64_t> offsets,
                                 ArrayRef<int64_t> sizes,
                                 SmallVectorImpl<int64_t> &out) const {
  int64_t rank = sizes.size(), n = 1;
  for (int64_t s : sizes)
    n *= s;
  out.clear();
  if (n == 0)
    return;
  out.reserve(n);
  SmallVector<int64_t, 4> idx(offsets.begin(), offsets.end());
  for (int64_t k = 0; k < n; ++k) {
    out.push_back(offsetOf(idx));
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < offsets[d] + sizes[d])
        break;
      idx[d] = offsets[d];
    }
  }
}
