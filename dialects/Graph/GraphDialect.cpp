//===- GraphDialect.cpp - graph dialect registration ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphDialect.h"
#include "dialects/Graph/GraphOps.h"
#include "dialects/Graph/GraphInterfaces.h"

using namespace mlir;
using namespace dfa::graph;

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "dialects/Graph/GraphDialect.cpp.inc"
#include "dialects/Graph/GraphInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Graph/GraphAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Graph/GraphTypes.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Graph/GraphOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Graph/GraphAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Graph/GraphTypes.cpp.inc"
      >();
}

bool dfa::graph::isFloatElement(Type t) {
  return isa<FloatType, Float4E2M1FNType, Float6E2M3FNType, Float6E3M2FNType,
             Float8E8M0FNUType>(t);
}

//===----------------------------------------------------------------------===//
// #graph.layout
//===----------------------------------------------------------------------===//

using dfa::target::Layout;

namespace {
/// The keyword of each kind, as written in #graph.layout<...>.
struct LayoutKindName {
  Layout::Kind kind;
  StringLiteral keyword;
};
constexpr LayoutKindName kLayoutKinds[] = {
    {Layout::Kind::Dense, "row_major"}, {Layout::Kind::Slices, "pe_slices"},
    {Layout::Kind::Stick, "stick"},     {Layout::Kind::Vector, "vector"},
    {Layout::Kind::Tile, "tile"}};
} // namespace

LayoutAttr LayoutAttr::get(MLIRContext *context, const Layout::Encoding &e) {
  return get(context, e.kind, e.granule, e.rows, e.pack, e.order);
}

/// The encoding the attribute's parameters spell.
static Layout::Encoding encodingOf(Layout::Kind kind, int64_t granule,
                                   int64_t rows, int64_t pack,
                                   ArrayRef<int64_t> perm) {
  Layout::Encoding e;
  e.kind = kind;
  e.granule = granule;
  e.rows = rows;
  e.pack = pack;
  e.order.assign(perm.begin(), perm.end());
  return e;
}

Layout::Encoding LayoutAttr::getEncoding() const {
  return encodingOf(getKind(), getGranule(), getRows(), getPack(), getPerm());
}

Layout LayoutAttr::apply(ArrayRef<int64_t> shape, int64_t elemBytes) const {
  return Layout::make(getEncoding(), shape, elemBytes);
}

Layout LayoutAttr::apply(ShapedType type) const {
  return apply(type.getShape(), elementBytes(type.getElementType()))
      .packBits(elementBits(type.getElementType()));
}

std::string LayoutAttr::invalidFor(int64_t rank) const {
  return getEncoding().invalidFor(rank);
}

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Layout::Kind kind, int64_t granule,
                                 int64_t rows, int64_t pack,
                                 ArrayRef<int64_t> perm) {
  std::string why = encodingOf(kind, granule, rows, pack, perm).invalidFor(-1);
  if (!why.empty())
    return emitError() << "invalid layout: " << why;
  return success();
}

Attribute LayoutAttr::parse(AsmParser &p, Type) {
  StringRef keyword;
  SMLoc at = p.getCurrentLocation();
  if (p.parseLess() || p.parseKeyword(&keyword))
    return {};
  const LayoutKindName *k = llvm::find_if(
      kLayoutKinds, [&](const LayoutKindName &n) { return n.keyword == keyword; });
  if (k == std::end(kLayoutKinds)) {
    p.emitError(at, "unknown layout '")
        << keyword << "': expected row_major, pe_slices, stick, vector or tile";
    return {};
  }
  Layout::Encoding e;
  e.kind = k->kind;
  if (e.kind == Layout::Kind::Stick || e.kind == Layout::Kind::Vector) {
    if (p.parseInteger(e.granule))
      return {};
  } else if (e.kind == Layout::Kind::Tile) {
    if (p.parseLSquare() || p.parseInteger(e.rows) || p.parseComma() ||
        p.parseInteger(e.granule) || p.parseRSquare())
      return {};
    if (succeeded(p.parseOptionalKeyword("pack")) && p.parseInteger(e.pack))
      return {};
  }
  if (succeeded(p.parseOptionalKeyword("perm"))) {
    auto parseDim = [&]() -> ParseResult {
      return p.parseInteger(e.order.emplace_back());
    };
    if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim))
      return {};
  }
  if (p.parseGreater())
    return {};
  return getChecked([&] { return p.emitError(at); }, p.getContext(), e.kind,
                    e.granule, e.rows, e.pack, ArrayRef<int64_t>(e.order));
}

void LayoutAttr::print(AsmPrinter &p) const {
  const LayoutKindName *k = llvm::find_if(
      kLayoutKinds, [&](const LayoutKindName &n) { return n.kind == getKind(); });
  p << "<" << k->keyword;
  if (getKind() == Layout::Kind::Stick || getKind() == Layout::Kind::Vector)
    p << " " << getGranule();
  if (getKind() == Layout::Kind::Tile) {
    p << " [" << getRows() << ", " << getGranule() << "]";
    if (getPack() != 1)
      p << " pack " << getPack();
  }
  if (!getPerm().empty()) {
    p << " perm [";
    llvm::interleaveComma(getPerm(), p);
    p << "]";
  }
  p << ">";
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}

int64_t dfa::graph::tensorElements(Type type) {
  auto shaped = cast<ShapedType>(type);
  return shaped.getNumElements();
}

unsigned dfa::graph::elementBits(Type elementType) {
  return TypeSwitch<Type, unsigned>(elementType)
      .Case<Float4E2M1FNType, Float6E2M3FNType, Float6E3M2FNType,
            Float8E8M0FNUType>([](auto t) { return decltype(t)::kWidth; })
      .Default([](Type t) { return t.getIntOrFloatBitWidth(); });
}

int64_t dfa::graph::elementBytes(Type elementType) {
  int64_t bits = elementBits(elementType);
  return std::max<int64_t>(1, (bits + 7) / 8);
}

int64_t dfa::graph::tensorBytes(Type type) {
  auto shaped = cast<ShapedType>(type);
  // Elements narrower than a byte (int4, fp4) are stored packed; a bool
  // takes a byte.
  if (unsigned bits = elementBits(shaped.getElementType()); bits > 1 && bits < 8)
    return (shaped.getNumElements() * bits + 7) / 8;
  return shaped.getNumElements() * elementBytes(shaped.getElementType());
}

LogicalResult GraphDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  auto fail = [&](const Twine &what) {
    return op->emitError() << "'" << name << "' " << what;
  };
  if (name == kSourceAttr || name == kTargetAttr || name == kNameAttr)
    return isa<StringAttr>(value) ? success() : fail("must be a string");
  if (name == kTargetOverridesAttr) {
    auto a = dyn_cast<ArrayAttr>(value);
    return a && llvm::all_of(a, [](Attribute e) { return isa<StringAttr>(e); })
               ? success()
               : fail("must be an array of KEY=VALUE strings");
  }
  if (name == kOpsetAttr)
    return isa<IntegerAttr>(value) ? success() : fail("must be an integer");
  if (name == kTensorParallelAttr) {
    auto n = dyn_cast<IntegerAttr>(value);
    return n && n.getInt() >= 2 ? success()
                                : fail("must be an integer of at least 2 chips");
  }
  if (name == kGuardsAttr) {
    auto d = dyn_cast<DictionaryAttr>(value);
    if (!d || !llvm::all_of(d, [](NamedAttribute g) {
          return isa<IntegerAttr>(g.getValue()) ||
                 (isa<StringAttr>(g.getValue()) &&
                  cast<StringAttr>(g.getValue()).getValue() == "specialized");
        }))
      return fail("must map each guard to a size or \"specialized\"");
    return success();
  }
  if (name == kWeightStreamingAttr)
    return isa<UnitAttr>(value) ? success() : fail("must be a unit attribute");
  if (name == kFp32MatmulAttr) {
    auto mode = dyn_cast<StringAttr>(value);
    if (!mode || !fp32MatmulNamed(mode.getValue()))
      return fail("must be \"ieee\", \"tf32\", \"bf16\" or \"bf16x3\"");
    OpClass c = classify(op);
    if (c != OpClass::Matmul && c != OpClass::Conv && c != OpClass::Attention)
      return fail("belongs on a matmul, gemm, convolution or attention");
    return success();
  }
  if (name == kLayoutAttr) {
    auto layout = dyn_cast<LayoutAttr>(value);
    if (!layout)
      return fail("must be a #graph.layout");
    if (op->getNumResults() != 1)
      return fail("belongs on an op with one result");
    auto type = dyn_cast<ShapedType>(op->getResult(0).getType());
    if (!type || !type.hasRank())
      return fail("belongs on an op with a ranked result");
    std::string why = layout.invalidFor(type.getRank());
    return why.empty() ? success() : fail("does not fit the result: " + why);
  }
  if (name == kFusionsRefusedAttr) {
    auto list = dyn_cast<ArrayAttr>(value);
    if (!list)
      return fail("must be an array of {op, kernel, reason}");
    for (Attribute e : list) {
      auto d = dyn_cast<DictionaryAttr>(e);
      if (!d || !d.getAs<StringAttr>("op") || !d.getAs<StringAttr>("kernel") ||
          !d.getAs<StringAttr>("reason"))
        return fail("entries must be {op, kernel, reason} strings");
    }
    return success();
  }
  if (name == kRangeCheckAttr) {
    auto d = dyn_cast<DictionaryAttr>(value);
    auto i64 = [&](StringRef key) {
      auto a = d ? d.getAs<IntegerAttr>(key) : IntegerAttr();
      return a && a.getType().isSignlessInteger(64);
    };
    if (!d || !d.getAs<StringAttr>("value") || !i64("lo") || !i64("hi") ||
        !d.getAs<DenseI64ArrayAttr>("shape"))
      return fail("must be {value = string, lo = i64, hi = i64, shape = array<i64>}");
    if (d.getAs<IntegerAttr>("lo").getInt() >= d.getAs<IntegerAttr>("hi").getInt())
      return fail("must have lo < hi");
    auto gather = dyn_cast<GatherOp>(op);
    auto table = gather ? dyn_cast<RankedTensorType>(gather.getInput().getType()) : nullptr;
    if (!table || table.getShape() != ArrayRef<int64_t>{1})
      return fail("belongs on a graph.gather from a one-element table");
    return success();
  }
  return fail("is not an attribute of the graph dialect");
}

/// graph.name on a function's argument or result: the graph input's or
/// output's name.
static LogicalResult verifyNameAttribute(Operation *op, NamedAttribute attr,
                                         StringRef what) {
  if (attr.getName().getValue() == kLayoutAttr && what == "argument") {
    auto layout = dyn_cast<LayoutAttr>(attr.getValue());
    if (!layout)
      return op->emitError() << "'" << kLayoutAttr << "' must be a #graph.layout";
    return success(); // the rank is checked where the argument is known
  }
  if (attr.getName().getValue() != kNameAttr)
    return op->emitError() << "'" << attr.getName().getValue() << "' is not a "
                           << what << " attribute of the graph dialect";
  if (!isa<StringAttr>(attr.getValue()))
    return op->emitError() << "'" << kNameAttr << "' must be a string";
  return success();
}

LogicalResult GraphDialect::verifyRegionArgAttribute(Operation *op,
                                                     unsigned region,
                                                     unsigned index,
                                                     NamedAttribute attr) {
  if (failed(verifyNameAttribute(op, attr, "argument")))
    return failure();
  if (attr.getName().getValue() != kLayoutAttr ||
      op->getNumRegions() <= region || op->getRegion(region).empty())
    return success();
  Block &entry = op->getRegion(region).front();
  if (index >= entry.getNumArguments())
    return success();
  auto type = dyn_cast<ShapedType>(entry.getArgument(index).getType());
  std::string why = !type || !type.hasRank()
                        ? std::string("the argument is not a ranked tensor")
                        : cast<LayoutAttr>(attr.getValue()).invalidFor(type.getRank());
  if (!why.empty())
    return op->emitError() << "'" << kLayoutAttr << "' of argument " << index
                           << " does not fit it: " << why;
  return success();
}

LogicalResult GraphDialect::verifyRegionResultAttribute(Operation *op,
                                                        unsigned, unsigned,
                                                        NamedAttribute attr) {
  return verifyNameAttribute(op, attr, "result");
}
