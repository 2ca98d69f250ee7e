//===- GraphEinsum.cpp - einsum as transposes, reshapes and a matmul --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Einsum with one or two operands becomes the ops a compiler would run:
/// letters summed in one operand only are reduced first; then, for two
/// operands, each side is transposed to [batch, free, contracted] order and
/// reshaped to a 3-d matmul, and the result is reshaped and transposed to
/// the output's letter order. A letter repeated within one operand (a trace
/// "ii->", a diagonal "bii->bi") first takes that operand's diagonal: the
/// two dims moved last, flattened, and a gather of the positions i * n + i.
/// Both importers (ONNX Einsum, torch.einsum) build through here.
///
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

namespace {

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// The builder and what went wrong.
struct Emitter {
  OpBuilder &b;
  Location loc;
  BuildError &err;
  llvm::raw_string_ostream os{err.message};
  llvm::raw_ostream &fail(bool unsupported) {
    err.unsupported = unsupported;
    err.message.clear();
    return os;
  }
  Value reshape(Value v, ArrayRef<int64_t> shape) {
    auto t = tensorType(v);
    if (t.getShape() == shape)
      return v;
    return b.create<ReshapeOp>(loc, RankedTensorType::get(shape, t.getElementType()), v);
  }
};


/// One operand's letters, with "..." expanded to the digits 0, 1, ... (which
/// an equation cannot contain) right-aligned over `rank` dims.
FailureOr<std::string> expand(Emitter &c, StringRef term, int64_t rank,
                              int64_t ellipsisRank) {
  for (char ch : term)
    if (!std::isalpha((unsigned char)ch) && ch != '.') {
      c.fail(false) << "invalid character '" << ch << "' in equation term '"
                << term << "'";
      return failure();
    }
  size_t dots = term.find("...");
  std::string letters;
  if (dots == StringRef::npos) {
    letters = term.str();
  } else {
    letters = term.substr(0, dots).str();
    for (int64_t i = 0; i < ellipsisRank; ++i)
      letters += char('0' + i);
    letters += term.substr(dots + 3).str();
  }
  if (rank >= 0 && (int64_t)letters.size() != rank) {
    c.fail(false) << "term '" << term << "' does not match an operand of rank "
              << rank;
    return failure();
  }
  return letters;
}

Value transposeTo(Emitter &c, Value v, StringRef have, StringRef want) {
  SmallVector<int64_t> perm;
  for (char ch : want)
    perm.push_back(have.find(ch));
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity &= perm[i] == (int64_t)i;
  if (identity)
    return v;
  return c.b.create<TransposeOp>(c.loc, v, c.b.getDenseI64ArrayAttr(perm));
}

/// Sums away the letters of `term` not in `keep`.
Value sumOut(Emitter &c, Value v, std::string &term, StringRef keep) {
  SmallVector<int64_t> axes;
  std::string left;
  for (size_t i = 0; i < term.size(); ++i) {
    if (keep.contains(term[i]))
      left += term[i];
    else
      axes.push_back(i);
  }
  if (axes.empty())
    return v;
  term = left;
  return c.b.create<ReduceSumOp>(c.loc, v, c.b.getDenseI64ArrayAttr(axes),
                                 c.b.getBoolAttr(false));
}

int64_t dimOf(Value v, StringRef term, char ch) {
  return tensorType(v).getDimSize(term.find(ch));
}

/// v with every letter repeated in `term` reduced to one dim, its diagonal
/// (the letter then last); `term` updated to match.
FailureOr<Value> takeDiagonals(Emitter &c, Value v, std::string &term) {
  for (size_t p = 0; p < term.size(); ++p) {
    size_t q = term.find(term[p], p + 1);
    if (q == std::string::npos)
      continue;
    auto t = tensorType(v);
    int64_t len = t.getDimSize(p);
    if (t.getDimSize(q) != len) {
      c.fail(false) << "index '" << term[p] << "' repeated over dims of sizes " << len
                    << " and " << t.getDimSize(q);
      return failure();
    }
    SmallVector<int64_t> perm, shape;
    std::string rest;
    for (size_t i = 0; i < term.size(); ++i)
      if (i != p && i != q) {
        perm.push_back(i);
        shape.push_back(t.getDimSize(i));
        rest += term[i];
      }
    perm.append({int64_t(p), int64_t(q)});
    shape.push_back(len * len);
    Value moved = c.b.create<TransposeOp>(c.loc, v, c.b.getDenseI64ArrayAttr(perm));
    SmallVector<int64_t> at;
    for (int64_t i = 0; i < len; ++i)
      at.push_back(i * len + i);
    auto it = RankedTensorType::get({len}, c.b.getI64Type());
    Value idx = c.b.create<ConstantOp>(c.loc, DenseElementsAttr::get(it, ArrayRef<int64_t>(at)));
    v = c.b.create<GatherOp>(c.loc, c.reshape(moved, shape), idx,
                             c.b.getI64IntegerAttr(shape.size() - 1));
    term = rest + term[p];
    p = size_t(-1); // from the start: the term changed
  }
  return v;
}

FailureOr<Value> einsum(Emitter &c, StringRef equation, ValueRange inputs) {
  std::string eq;
  for (char ch : equation)
    if (ch != ' ')
      eq += ch;
  auto [lhsPart, outPart] = StringRef(eq).split("->");
  SmallVector<StringRef> terms;
  lhsPart.split(terms, ',');
  if ((int64_t)terms.size() != (int64_t)inputs.size() || terms.size() > 2) {
    if (terms.size() > 2)
      c.fail(true) << "einsum over more than two operands";
    else
      c.fail(false) << "equation has " << terms.size() << " terms for "
                << inputs.size() << " inputs";
    return failure();
  }
  int64_t ellipsis = 0;
  for (auto [i, t] : llvm::enumerate(terms))
    if (t.contains("..."))
      ellipsis = std::max<int64_t>(ellipsis, tensorType(inputs[i]).getRank() - (t.size() - 3));
  SmallVector<std::string> ops;
  for (auto [i, t] : llvm::enumerate(terms)) {
    int64_t rank = tensorType(inputs[i]).getRank();
    int64_t own = t.contains("...") ? rank - (int64_t)(t.size() - 3) : 0;
    if (own != ellipsis && t.contains("...")) {
      c.fail(true) << "broadcasting '...' of different ranks";
      return failure();
    }
    auto e = expand(c, t, rank, ellipsis);
    if (failed(e))
      return failure();
    ops.push_back(*e);
  }
  SmallVector<Value, 2> operands(inputs.begin(), inputs.end());
  std::string out;
  if (eq.find("->") != std::string::npos) {
    auto e = expand(c, outPart, -1, ellipsis);
    if (failed(e))
      return failure();
    out = *e;
  } else {
    // Implicit output: the ellipsis dims, then letters used once, sorted.
    std::string all = ops[0] + (ops.size() > 1 ? ops[1] : "");
    for (char ch : all)
      if (std::isdigit((unsigned char)ch) && out.find(ch) == std::string::npos)
        out += ch;
    llvm::sort(out);
    std::string once;
    for (char ch : all)
      if (std::isalpha((unsigned char)ch) && llvm::count(all, ch) == 1)
        once += ch;
    llvm::sort(once);
    out += once;
  }
  for (char ch : out)
    if (ops[0].find(ch) == std::string::npos &&
        (ops.size() < 2 || ops[1].find(ch) == std::string::npos)) {
      c.fail(false) << "output letter '" << ch << "' appears in no operand";
      return failure();
    }

  for (size_t i = 0; i < ops.size(); ++i) {
    auto d = takeDiagonals(c, operands[i], ops[i]);
    if (failed(d))
      return failure();
    operands[i] = *d;
  }
  if (ops.size() == 1) {
    Value v = sumOut(c, operands[0], ops[0], out);
    return transposeTo(c, v, ops[0], out);
  }
  // Letters in one operand only and not in the output are summed first.
  std::string keep0 = out + ops[1], keep1 = out + ops[0];
  Value a = sumOut(c, operands[0], ops[0], keep0);
  Value b = sumOut(c, operands[1], ops[1], keep1);
  if (tensorType(a).getElementType() != tensorType(b).getElementType()) {
    c.fail(false) << "operands differ in element type";
    return failure();
  }
  std::string batch, contract, freeA, freeB;
  for (char ch : ops[0]) {
    bool inB = ops[1].find(ch) != std::string::npos;
    bool inOut = out.find(ch) != std::string::npos;
    (inB ? (inOut ? batch : contract) : freeA) += ch;
  }
  for (char ch : ops[1])
    if (ops[0].find(ch) == std::string::npos)
      freeB += ch;
  for (char ch : batch + contract)
    if (dimOf(a, ops[0], ch) != dimOf(b, ops[1], ch)) {
      c.fail(true) << "index '" << ch << "' has different sizes in the "
                      << "two operands (broadcasting)";
      return failure();
    }
  auto size = [&](Value v, StringRef term, StringRef letters) {
    int64_t n = 1;
    for (char ch : letters)
      n *= dimOf(v, term, ch);
    return n;
  };
  int64_t B = size(a, ops[0], batch), M = size(a, ops[0], freeA),
          K = size(a, ops[0], contract), N = size(b, ops[1], freeB);
  Value a3 = c.reshape(transposeTo(c, a, ops[0], batch + freeA + contract), {B, M, K});
  Value b3 = c.reshape(transposeTo(c, b, ops[1], batch + contract + freeB), {B, K, N});
  Value prod = c.b.create<MatMulOp>(c.loc, a3, b3);
  std::string have = batch + freeA + freeB;
  SmallVector<int64_t> shape;
  for (char ch : have)
    shape.push_back(ops[0].find(ch) != std::string::npos ? dimOf(a, ops[0], ch)
                                                         : dimOf(b, ops[1], ch));
  return transposeTo(c, c.reshape(prod, shape), have, out);
}
} // namespace

FailureOr<Value> dfa::graph::buildEinsum(OpBuilder &b, Location loc,
                                         StringRef equation, ValueRange operands,
                                         BuildError &error) {
  Emitter c{b, loc, error};
  return einsum(c, equation, operands);
}
