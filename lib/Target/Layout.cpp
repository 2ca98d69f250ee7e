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

namespace {

/// "(a,b,...)" at the front of `s`, consumed.
bool parseInts(StringRef &s, SmallVector<int64_t, 4> &out) {
  if (!s.consume_front("("))
    return false;
  size_t close = s.find(')');
  if (close == StringRef::npos)
    return false;
  StringRef body = s.take_front(close);
  s = s.drop_front(close + 1);
  SmallVector<StringRef, 4> parts;
  body.split(parts, ',');
  for (StringRef p : parts) {
    int64_t v;
    if (p.trim().getAsInteger(10, v) || v < 0)
      return false;
    out.push_back(v);
  }
  return true;
}
} // namespace

Layout Layout::of(const Target &t, ArrayRef<int64_t> shape, int64_t elemBytes,
                  ArrayRef<int64_t> order) {
  Layout l;
  l.shape.assign(shape.begin(), shape.end());
  l.elemBytes = elemBytes;
  if (!order.empty() && order.size() == shape.size())
    l.order.assign(order.begin(), order.end());
  else
    for (int64_t i = 0, e = shape.size(); i < e; ++i)
      l.order.push_back(i);
  if (auto stick = t.layoutValue("stick_bytes")) {
    // Spyre: the minor dim is stored in sticks of stick_bytes.
    l.kind = Kind::Stick;
    l.minorGranule = std::max<int64_t>(1, int64_t(*stick) / elemBytes);
  } else if (std::optional<TileShape> tile = t.tileFor(elemBytes)) {
    // TPU: tiles of the two minor dims; narrower types pack rows into a
    // 32-bit sublane, (8,128)(2,1) for 16 bits, as the description's
    // tile_16bit and tile_8bit say.
    l.kind = Kind::Tile;
    TileShape base = *t.tileFor(4);
    l.tileRows = tile->rows;
    l.tileCols = tile->cols;
    if (elemBytes < 4 && tile->cols == base.cols && tile->rows > base.rows &&
        tile->rows % base.rows == 0)
      l.pack = tile->rows / base.rows;
    l.minorGranule = tile->cols;
  } else if (auto vec = t.layoutValue("vector_elems")) {
    // Groq: the minor dim is spread over vectors of 320 elements.
    l.kind = Kind::Vector;
    l.minorGranule = std::max<int64_t>(1, int64_t(*vec));
  } else if (t.caps.placement == Placement::Spatial) {
    // Spread over the PEs of a rectangle.
    l.kind = Kind::Slices;
  }
  l.finish();
  return l;
}

std::optional<Layout> Layout::parse(StringRef name, ArrayRef<int64_t> shape,
                                    int64_t elemBytes, std::string &error) {
  Layout l;
  l.shape.assign(shape.begin(), shape.end());
  l.elemBytes = elemBytes;
  int64_t rank = shape.size();
  auto bad = [&](const std::string &why) {
    error = "layout '" + name.str() + "': " + why;
    return std::nullopt;
  };
  StringRef base = name, permText;
  if (size_t at = name.find(" perm"); at != StringRef::npos) {
    base = name.take_front(at);
    permText = name.drop_front(at + 5);
    if (!parseInts(permText, l.order) || !permText.empty())
      return bad("expected ' perm(d0,d1,...)'");
    if (int64_t(l.order.size()) != rank)
      return bad("the permutation has " + std::to_string(l.order.size()) +
                 " dims, the tensor " + std::to_string(rank));
    SmallVector<bool, 4> seen(rank, false);
    for (int64_t d : l.order) {
      if (d >= rank || seen[d])
        return bad("not a permutation");
      seen[d] = true;
    }
  } else {
    for (int64_t i = 0; i < rank; ++i)
      l.order.push_back(i);
  }

  SmallVector<int64_t, 4> args;
  if (base == "row-major") {
    l.kind = Kind::Dense;
  } else if (base == "pe-slices") {
    l.kind = Kind::Slices;
  } else if (base.consume_front("stick")) {
    if (!parseInts(base, args) || args.size() != 1 || args[0] < 1 || !base.empty())
      return bad("expected 'stick(N)'");
    l.kind = Kind::Stick;
    l.minorGranule = args[0];
  } else if (base.consume_front("vector")) {
    if (!parseInts(base, args) || args.size() != 1 || args[0] < 1 || !base.empty())
      return bad("expected 'vector(N)'");
    l.kind = Kind::Vector;
    l.minorGranule = args[0];
  } else if (base.consume_front("tile")) {
    if (!parseInts(base, args) || args.size() != 2 || args[0] < 1 || args[1] < 1)
      return bad("expected 'tile(R,C)' or 'tile(R,C)(P,1)'");
    l.kind = Kind::Tile;
    l.tileRows = args[0];
    l.tileCols = args[1];
    if (!base.empty()) {
      SmallVector<int64_t, 4> packing;
      if (!parseInts(base, packing) || packing.size() != 2 || packing[0] < 1 ||
          packing[1] != 1 || !base.empty())
        return bad("expected '(P,1)' after the tile");
      l.pack = packing[0];
      l.tileRows *= l.pack;
    }
    l.minorGranule = l.tileCols;
  } else {
    return bad("unknown layout");
  }
  l.finish();
  return l;
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
  bytes = n * elemBytes;
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
    s = "tile(" + std::to_string(tileRows / pack) + "," +
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
  return n * elemBytes;
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
    return elem * elemBytes;
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
  return elem * elemBytes;
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
