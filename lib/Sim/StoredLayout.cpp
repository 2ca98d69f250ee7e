//===- StoredLayout.cpp - where each element of a buffer lives ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "StoredLayout.h"

#include "dfa/Support/MathExtras.h"

using namespace dfa::sim;
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

std::optional<StoredLayout> dfa::sim::parseLayout(StringRef name,
                                                  ArrayRef<int64_t> shape,
                                                  int64_t elemBytes,
                                                  std::string &error) {
  StoredLayout l;
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
  for (int64_t d : l.order)
    l.padded.push_back(shape[d]);

  SmallVector<int64_t, 4> args;
  if (base == "row-major" || base == "pe-slices") {
    // Dense.
  } else if (base.consume_front("stick")) {
    if (!parseInts(base, args) || args.size() != 1 || args[0] < 1 || !base.empty())
      return bad("expected 'stick(N)'");
    if (rank > 0)
      l.padded.back() = roundUp(l.padded.back(), args[0]);
    else
      l.padded.push_back(args[0]);
  } else if (base.consume_front("vector")) {
    if (!parseInts(base, args) || args.size() != 1 || args[0] < 1 || !base.empty())
      return bad("expected 'vector(N)'");
    if (rank > 0)
      l.padded.back() = roundUp(l.padded.back(), args[0]);
  } else if (base.consume_front("tile")) {
    if (!parseInts(base, args) || args.size() != 2 || args[0] < 1 || args[1] < 1)
      return bad("expected 'tile(R,C)' or 'tile(R,C)(P,1)'");
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
    if (rank >= 1)
      l.padded.back() = roundUp(l.padded.back(), l.tileCols);
    if (rank >= 2)
      l.padded[rank - 2] = roundUp(l.padded[rank - 2], l.tileRows);
    if (rank < 2)
      l.tileRows = l.tileCols = 0; // one row: dense
  } else {
    return bad("unknown layout");
  }
  int64_t n = 1;
  for (int64_t d : l.padded)
    n *= d;
  l.bytes = n * elemBytes;
  l.strides.assign(l.padded.size(), 1);
  for (int64_t i = int64_t(l.padded.size()) - 2; i >= 0; --i)
    l.strides[i] = l.strides[i + 1] * l.padded[i + 1];
  return l;
}

int64_t StoredLayout::offsetOf(ArrayRef<int64_t> idx) const {
  int64_t rank = shape.size();
  if (rank == 0)
    return 0;
  int64_t elem = 0;
  if (!tileRows) {
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

void StoredLayout::regionOffsets(ArrayRef<int64_t> offsets,
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
