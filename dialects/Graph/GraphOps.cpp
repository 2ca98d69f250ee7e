//===- GraphOps.cpp - graph op verifiers ------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace dfa::graph;

#include "dialects/Graph/GraphEnums.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/Graph/GraphOps.cpp.inc"

bool dfa::graph::isMatrixKind(KernelKind k) {
  return k == KernelKind::Matmul || k == KernelKind::Conv ||
         k == KernelKind::Attention;
}

static RankedTensorType asTensor(Value v) {
  return cast<RankedTensorType>(v.getType());
}

LogicalResult ConstantOp::verify() {
  auto type = dyn_cast<RankedTensorType>(getValue().getType());
  if (!type || !type.hasStaticShape())
    return emitOpError("value must be a statically shaped tensor");
  return success();
}

LogicalResult WeightOp::verify() {
  auto offset = static_cast<int64_t>(getOffset());
  if (offset < 0)
    return emitOpError("offset must be non-negative, got ") << offset;
  if (getSymName().empty())
    return emitOpError("weight needs a name");
  if (getZstdBytes() && static_cast<int64_t>(*getZstdBytes()) <= 0)
    return emitOpError("zstd frame size must be positive");
  return verifyRowPitch(*this, cast<RankedTensorType>(getType()), getRowPitch(),
                        bool(getZstdBytes()));
}

LogicalResult dfa::graph::verifyRowPitch(Operation *op, RankedTensorType type,
                                         std::optional<uint64_t> rowPitch, bool zstd) {
  if (!rowPitch)
    return success();
  auto pitch = static_cast<int64_t>(*rowPitch);
  Type elem = type.getElementType();
  unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 0;
  if (zstd)
    return op->emitOpError("a window of rows (row_pitch) cannot be a zstd frame");
  if (type.getRank() < 1 || !type.hasStaticShape() || bits == 0 || bits % 8 != 0)
    return op->emitOpError("row_pitch needs a static shape of whole-byte elements");
  int64_t row = type.getShape().back() * int64_t(bits / 8);
  if (pitch < row)
    return op->emitOpError("row_pitch ") << pitch << " is shorter than a row of " << row
                                         << " bytes";
  return success();
}

LogicalResult KernelOp::verify() {
  if (!symbolizeKernelKind(getKind()))
    return emitOpError("kind '") << getKind() << "' is not a kernel kind";
  Block &body = getBlock();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("body takes ") << body.getNumArguments()
                                      << " arguments for " << getInputs().size()
                                      << " inputs";
  for (auto [arg, in] : llvm::zip(body.getArguments(), getInputs()))
    if (arg.getType() != in.getType())
      return emitOpError("body argument type ")
             << arg.getType() << " differs from input type " << in.getType();
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError("body must end in graph.yield");
  if (yield.getValues().getTypes() != getOutputs().getTypes())
    return emitOpError("yields ") << yield.getValues().getTypes()
                                  << " but the kernel returns "
                                  << getOutputs().getTypes();
  if (std::optional<ArrayAttr> layouts = getLayouts()) {
    if (layouts->size() != getOutputs().size())
      return emitOpError("has ") << layouts->size() << " layouts for "
                                 << getOutputs().size() << " outputs";
    for (auto [i, l, out] : llvm::enumerate(
             layouts->getAsRange<LayoutAttr>(), getOutputs())) {
      std::string why = l.invalidFor(cast<ShapedType>(out.getType()).getRank());
      if (!why.empty())
        return emitOpError("layout ") << i << " does not fit its output: " << why;
    }
  }
  return success();
}

LayoutAttr dfa::graph::layoutAttrOf(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto fn = dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!fn || arg.getOwner() != &fn.getFunctionBody().front())
      return {};
    return dyn_cast_or_null<LayoutAttr>(
        fn.getArgAttr(arg.getArgNumber(), kLayoutAttr));
  }
  Operation *def = v.getDefiningOp();
  if (auto k = dyn_cast<KernelOp>(def)) {
    std::optional<ArrayAttr> layouts = k.getLayouts();
    unsigned i = cast<OpResult>(v).getResultNumber();
    if (!layouts || i >= layouts->size())
      return {};
    return dyn_cast<LayoutAttr>((*layouts)[i]);
  }
  return def ? def->getAttrOfType<LayoutAttr>(kLayoutAttr) : LayoutAttr();
}

/// Binary ops take operands of one element type (the importer inserts casts
/// where ONNX allows mixed types, such as Pow).
template <typename OpT>
static LogicalResult verifySameElementType(OpT op) {
  if (asTensor(op.getLhs()).getElementType() !=
      asTensor(op.getRhs()).getElementType())
    return op.emitOpError("operand element types differ: ")
           << op.getLhs().getType() << " and " << op.getRhs().getType();
  return success();
}

#define DFA_VERIFY_BINARY(OP)                                                  \
  LogicalResult OP::verify() { return verifySameElementType(*this); }
DFA_VERIFY_BINARY(AddOp)
DFA_VERIFY_BINARY(SubOp)
DFA_VERIFY_BINARY(MulOp)
DFA_VERIFY_BINARY(DivOp)
DFA_VERIFY_BINARY(PowOp)
DFA_VERIFY_BINARY(MaxOp)
DFA_VERIFY_BINARY(MinOp)
DFA_VERIFY_BINARY(ModOp)
DFA_VERIFY_BINARY(PReluOp)
DFA_VERIFY_BINARY(AndOp)
DFA_VERIFY_BINARY(OrOp)
DFA_VERIFY_BINARY(XorOp)
DFA_VERIFY_BINARY(BitShiftOp)
DFA_VERIFY_BINARY(BitwiseOp)
DFA_VERIFY_BINARY(EqualOp)
DFA_VERIFY_BINARY(LessOp)
DFA_VERIFY_BINARY(LessEqualOp)
DFA_VERIFY_BINARY(GreaterOp)
DFA_VERIFY_BINARY(GreaterEqualOp)
#undef DFA_VERIFY_BINARY

LogicalResult WhereOp::verify() { return verifySameElementType(*this); }

template <typename OpT>
static LogicalResult verifyConvOperands(OpT op, int64_t filterInChannels,
                                        int64_t inChannels) {
  auto in = asTensor(op.getInput()), w = asTensor(op.getFilter());
  int64_t group = op.getGroup();
  if (group < 1 || inChannels % group != 0)
    return op.emitOpError("group ")
           << group << " does not divide " << inChannels << " input channels";
  if (w.getRank() != in.getRank())
    return op.emitOpError("filter rank ")
           << w.getRank() << " differs from input rank " << in.getRank();
  if (filterInChannels * group != inChannels)
    return op.emitOpError("filter expects ")
           << filterInChannels * group << " input channels, input has "
           << inChannels;
  if (in.getElementType() != w.getElementType())
    return op.emitOpError("input and filter element types differ");
  return success();
}

LogicalResult ConvOp::verify() {
  auto in = asTensor(getInput()), w = asTensor(getFilter());
  if (failed(verifyConvOperands(*this, w.getDimSize(1), in.getDimSize(1))))
    return failure();
  if (w.getDimSize(0) % getGroup() != 0)
    return emitOpError("group ") << getGroup() << " does not divide "
                                 << w.getDimSize(0) << " output channels";
  if (Value b = getBias())
    if (asTensor(b).getRank() != 1 ||
        asTensor(b).getDimSize(0) != w.getDimSize(0))
      return emitOpError("bias must have ") << w.getDimSize(0) << " elements";
  return success();
}

LogicalResult ConvTransposeOp::verify() {
  auto in = asTensor(getInput()), w = asTensor(getFilter());
  // Filter layout is [C_in, C_out / group, k...].
  if (w.getDimSize(0) != in.getDimSize(1))
    return emitOpError("filter expects ")
           << w.getDimSize(0) << " input channels, input has "
           << in.getDimSize(1);
  if (failed(verifyConvOperands(*this, in.getDimSize(1) / getGroup(),
                                in.getDimSize(1))))
    return failure();
  int64_t outChannels = w.getDimSize(1) * getGroup();
  if (asTensor(getOutput()).getDimSize(1) != outChannels)
    return emitOpError("result must have ") << outChannels << " channels";
  return success();
}

template <typename OpT> static LogicalResult verifyAxis(OpT op) {
  int64_t rank = asTensor(op.getInput()).getRank();
  int64_t axis = op.getAxis();
  if (axis < 0 || axis >= std::max<int64_t>(rank, 1))
    return op.emitOpError("axis ") << axis << " out of range [0, " << rank
                                   << ")";
  return success();
}

LogicalResult SoftmaxOp::verify() { return verifyAxis(*this); }
LogicalResult LogSoftmaxOp::verify() { return verifyAxis(*this); }
LogicalResult HardmaxOp::verify() { return verifyAxis(*this); }
LogicalResult CumSumOp::verify() { return verifyAxis(*this); }
LogicalResult CumProdOp::verify() { return verifyAxis(*this); }

LogicalResult ReshapeOp::verify() {
  auto in = asTensor(getInput()), out = asTensor(getOutput());
  if (in.getElementType() != out.getElementType())
    return emitOpError("element type changes from ")
           << in.getElementType() << " to " << out.getElementType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("cannot reshape ")
           << in.getNumElements() << " elements into " << out;
  return success();
}

LogicalResult ExpandOp::verify() {
  auto in = asTensor(getInput()), out = asTensor(getOutput());
  if (in.getElementType() != out.getElementType())
    return emitOpError("element type changes");
  auto shape = broadcastShapes(in.getShape(), out.getShape());
  if (failed(shape) || ArrayRef<int64_t>(*shape) != out.getShape())
    return emitOpError("cannot broadcast ") << in << " to " << out;
  return success();
}

LogicalResult AllReduceOp::verify() {
  if (getChips() < 2)
    return emitOpError("needs at least 2 chips, not ") << getChips();
  return success();
}

LogicalResult AllGatherOp::verify() {
  auto in = asTensor(getInput()), out = asTensor(getOutput());
  int64_t chips = getChips(), axis = getAxis();
  if (chips < 2)
    return emitOpError("needs at least 2 chips, not ") << chips;
  if (in.getElementType() != out.getElementType())
    return emitOpError("element type changes");
  if (axis < 0 || axis >= in.getRank() || out.getRank() != in.getRank())
    return emitOpError("axis ") << axis << " is not a dim of " << in;
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (out.getDimSize(d) != in.getDimSize(d) * (d == axis ? chips : 1))
      return emitOpError("result ") << out << " is not " << chips
                                    << " slices of " << in << " along axis "
                                    << axis;
  return success();
}

LogicalResult SliceOp::verify() {
  auto in = asTensor(getInput()), out = asTensor(getOutput());
  int64_t rank = in.getRank();
  if (out.getRank() != rank || (int64_t)getStarts().size() != rank ||
      (int64_t)getSteps().size() != rank)
    return emitOpError("starts, steps and result must have rank ") << rank;
  if (in.getElementType() != out.getElementType())
    return emitOpError("element type changes");
  for (int64_t d = 0; d < rank; ++d) {
    int64_t start = getStarts()[d], step = getSteps()[d];
    int64_t size = out.getDimSize(d);
    if (step == 0)
      return emitOpError("step of dim ") << d << " is zero";
    if (size == 0)
      continue;
    int64_t last = start + (size - 1) * step;
    if (start < 0 || start >= in.getDimSize(d) || last < 0 ||
        last >= in.getDimSize(d))
      return emitOpError("dim ") << d << " reads [" << start << ", " << last
                                 << "] outside [0, " << in.getDimSize(d)
                                 << ")";
  }
  return success();
}

LogicalResult ResizeOp::verify() {
  auto in = asTensor(getInput()), out = asTensor(getOutput());
  int64_t rank = in.getRank();
  if (out.getRank() != rank || in.getElementType() != out.getElementType())
    return emitOpError("result must have the input's rank and element type");
  if ((int64_t)getScales().size() != rank)
    return emitOpError("expected ") << rank << " scales, got "
                                    << getScales().size();
  if (llvm::any_of(getScales(), [](double s) { return !(s > 0); }))
    return emitOpError("scales must be positive");
  if (getRoi() && (int64_t)getRoi()->size() != 2 * rank)
    return emitOpError("expected ") << 2 * rank << " roi values";
  StringRef mode = getMode(), coord = getCoordinateMode(),
            nearest = getNearestMode();
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return emitOpError("unknown mode '") << mode << "'";
  if (!llvm::is_contained({"half_pixel", "half_pixel_symmetric",
                           "pytorch_half_pixel", "align_corners", "asymmetric",
                           "tf_half_pixel_for_nn", "tf_crop_and_resize"},
                          coord))
    return emitOpError("unknown coordinate mode '") << coord << "'";
  if (!llvm::is_contained(
          {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}, nearest))
    return emitOpError("unknown nearest mode '") << nearest << "'";
  if (coord == "tf_crop_and_resize" && !getRoi())
    return emitOpError("tf_crop_and_resize needs a roi");
  return success();
}

LogicalResult GatherNDOp::verify() {
  auto in = asTensor(getInput()), idx = asTensor(getIndices()),
       out = asTensor(getOutput());
  int64_t b = getBatchDims();
  if (idx.getRank() < 1 || b < 0 || b >= idx.getRank() || b > in.getRank())
    return emitOpError("batch_dims ") << b << " out of range";
  int64_t k = idx.getShape().back();
  if (k < 1 || b + k > in.getRank())
    return emitOpError("index tuples of ") << k << " entries do not fit "
                                           << in;
  SmallVector<int64_t> shape(in.getShape().take_front(b));
  for (int64_t d = 0; d < b; ++d)
    if (idx.getDimSize(d) != in.getDimSize(d))
      return emitOpError("batch dim ") << d << " differs";
  shape.append(idx.getShape().begin() + b, idx.getShape().end() - 1);
  shape.append(in.getShape().begin() + b + k, in.getShape().end());
  if (out.getShape() != ArrayRef<int64_t>(shape) ||
      out.getElementType() != in.getElementType())
    return emitOpError("result must be ")
           << RankedTensorType::get(shape, in.getElementType());
  return success();
}

LogicalResult ScatterNDOp::verify() {
  auto in = asTensor(getInput()), idx = asTensor(getIndices()),
       upd = asTensor(getUpdates());
  if (idx.getRank() < 1)
    return emitOpError("indices need rank >= 1");
  int64_t k = idx.getShape().back();
  if (k < 1 || k > in.getRank())
    return emitOpError("index tuples of ") << k << " entries do not fit "
                                           << in;
  SmallVector<int64_t> shape(idx.getShape().drop_back());
  shape.append(in.getShape().begin() + k, in.getShape().end());
  if (upd.getShape() != ArrayRef<int64_t>(shape))
    return emitOpError("updates must have shape ")
           << RankedTensorType::get(shape, in.getElementType());
  if (upd.getElementType() != in.getElementType())
    return emitOpError("updates and input differ in element type");
  StringRef red = getReduction();
  if (!llvm::is_contained({"none", "add", "mul", "max", "min"}, red))
    return emitOpError("unknown reduction '") << red << "'";
  return success();
}

LogicalResult dfa::graph::verifyTensorSizes(Operation *op) {
  for (Type t : op->getResultTypes()) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt)
      continue;
    double n = 1;
    for (int64_t d : rt.getShape()) {
      if (d < 0)
        return op->emitOpError("result ") << rt << " has a negative dimension";
      n *= (double)d;
    }
    if (n > 1099511627776.0)
      return op->emitOpError("result ") << rt << " has more than 2^40 elements";
  }
  return success();
}

template <typename OpT> static LogicalResult verifyElementIndices(OpT op) {
  auto d = asTensor(op.getInput()), i = asTensor(op.getIndices());
  int64_t axis = op.getAxis();
  if (d.getRank() != i.getRank() || axis < 0 || axis >= d.getRank())
    return op.emitOpError("indices must have the input's rank, axis in range");
  for (int64_t k = 0; k < d.getRank(); ++k)
    if (k != axis && i.getDimSize(k) > d.getDimSize(k))
      return op.emitOpError("indices dim ") << k << " exceeds the input's";
  return success();
}

LogicalResult GatherElementsOp::verify() { return verifyElementIndices(*this); }
LogicalResult ScatterElementsOp::verify() { return verifyElementIndices(*this); }

//===----------------------------------------------------------------------===//
// BitCastOp
//===----------------------------------------------------------------------===//

/// Bits an element takes in memory: a bool takes a byte, as ONNX stores it.
static unsigned storedBits(Type t) {
  return t.isInteger(1) ? 8 : elementBits(t);
}

LogicalResult CastOp::verify() {
  if ((getRoundMode() || getNonsaturating()) &&
      !isa<Float8E8M0FNUType>(getElementTypeOrSelf(getOutput().getType())))
    return emitOpError("round_mode and nonsaturating apply to an f8E8M0FNU "
                       "result only");
  return success();
}

LogicalResult BitCastOp::verify() {
  Type from = getElementTypeOrSelf(getInput().getType());
  Type to = getElementTypeOrSelf(getOutput().getType());
  auto scalar = [](Type t) { return t.isIntOrFloat() || isFloatElement(t); };
  if (!scalar(from) || !scalar(to) || storedBits(from) != storedBits(to) ||
      storedBits(from) % 8)
    return emitOpError("cannot bit-cast ")
           << from << " to " << to << " (the types must take the same whole bytes)";
  return success();
}

//===----------------------------------------------------------------------===//
// GridSampleOp
//===----------------------------------------------------------------------===//

LogicalResult GridSampleOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto grid = cast<RankedTensorType>(getGrid().getType());
  auto out = cast<RankedTensorType>(getOutput().getType());
  int64_t r = in.getRank() - 2;
  if (r < 1 || grid.getRank() != r + 2 || grid.getDimSize(r + 1) != r ||
      grid.getDimSize(0) != in.getDimSize(0))
    return emitOpError("grid ") << grid << " does not fit input " << in
                                << " (it must be [N, O1..Or, r] for r spatial dims)";
  SmallVector<int64_t> want{in.getDimSize(0), in.getDimSize(1)};
  want.append(grid.getShape().begin() + 1, grid.getShape().end() - 1);
  if (out.getShape() != ArrayRef<int64_t>(want) ||
      out.getElementType() != in.getElementType())
    return emitOpError("result ") << out << " must be "
                                  << RankedTensorType::get(want, in.getElementType());
  if (!isa<FloatType>(in.getElementType()) || !isa<FloatType>(grid.getElementType()))
    return emitOpError("samples float tensors at float coordinates");
  StringRef mode = getMode(), pad = getPaddingMode();
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return emitOpError("mode must be nearest, linear or cubic, not '") << mode << "'";
  if (pad != "zeros" && pad != "border" && pad != "reflection")
    return emitOpError("padding_mode must be zeros, border or reflection, not '")
           << pad << "'";
  return success();
}
