//===- Machine.cpp - memories and values of a simulated target ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "dfa/Support/Progress.h"

#include "dfa/Sim/Sim.h"

#include "dfa/Reference/Evaluator.h"

#include "mlir/IR/Diagnostics.h"

#include <cmath>
#include <cstring>
#include <set>

using namespace mlir;
using namespace dfa;
using namespace dfa::sim;

//===----------------------------------------------------------------------===//
// Memories
//===----------------------------------------------------------------------===//

int64_t Memories::levelId(const std::string &name) {
  return levels.try_emplace(name, int64_t(levels.size())).first->second;
}

Memories::Key Memories::locate(const Placement &p, int64_t at, int64_t n,
                               int64_t &addr, int64_t &run) {
  if (p.space >= 0) {
    addr = at;
    run = n;
    return {-1, -1, p.space};
  }
  int64_t level = levelId(p.level);
  if (!p.perUnit) {
    addr = p.offset + at;
    run = n;
    return {level, p.chip, -1};
  }
  int64_t share = std::max<int64_t>(1, p.share);
  int64_t local = at % share;
  addr = p.offset + local;
  run = std::min(n, share - local);
  return {level, p.chip, p.unitBegin + at / share};
}

uint8_t *Memories::bytes(const Key &key, int64_t addr, int64_t n) {
  std::vector<uint8_t> &s = spaces[{key.level, key.chip, key.unit}];
  if (int64_t(s.size()) < addr + n)
    s.resize(addr + n, 0xFF);
  return s.data() + addr;
}

void Memories::write(const Placement &p, int64_t at, const uint8_t *src,
                     int64_t n) {
  while (n > 0) {
    int64_t addr, run;
    Key key = locate(p, at, n, addr, run);
    std::memcpy(bytes(key, addr, run), src, run);
    at += run;
    src += run;
    n -= run;
  }
}

void Memories::read(const Placement &p, int64_t at, uint8_t *dst, int64_t n) {
  while (n > 0) {
    int64_t addr, run;
    Key key = locate(p, at, n, addr, run);
    std::memcpy(dst, bytes(key, addr, run), run);
    at += run;
    dst += run;
    n -= run;
  }
}

//===----------------------------------------------------------------------===//
// Storage formats
//===----------------------------------------------------------------------===//

ref::Tensor dfa::sim::toDeviceFormat(const target::Target &t,
                                     const ref::Tensor &in) {
  if (!ref::isFloat(in.dtype()))
    return in;
  const char *name = in.dtype() == ref::DType::F16    ? "f16"
                     : in.dtype() == ref::DType::BF16 ? "bf16"
                     : in.dtype() == ref::DType::F32  ? "f32"
                                                      : "f64";
  const target::StorageFormat *f = t.deviceFormat(name);
  if (!f)
    return in;
  ref::Tensor out = in.clone();
  for (int64_t i = 0, n = out.numElements(); i < n; ++i)
    out.setDouble(i, ref::roundToFormat(out.getDouble(i), f->mantissaBits,
                                        f->exponentBits));
  return out;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// Calls `f(i, a, b, bytes)` for runs of the region `sizes`, at `aOff` in
/// layout `la` and at `bOff` in `lb`, that are contiguous in both images:
/// i is the run's first element in region order, a and b its byte offsets.
/// Rows are runs when both layouts keep rows contiguous (one offset
/// computation per row); otherwise every element is placed, and adjacent
/// ones are merged.
template <typename F>
static void forEachRun(const target::Layout &la, ArrayRef<int64_t> aOff,
                       const target::Layout &lb, ArrayRef<int64_t> bOff,
                       ArrayRef<int64_t> sizes, F f) {
  int64_t eb = la.elemBytes, rank = sizes.size(), n = 1;
  for (int64_t s : sizes)
    n *= s;
  if (n == 0)
    return;
  if (rank > 0 && la.rowsContiguous() && lb.rowsContiguous()) {
    int64_t row = sizes.back();
    SmallVector<int64_t> ia(aOff), ib(bOff);
    for (int64_t i = 0; i < n; i += row) {
      f(i, la.offsetOf(ia), lb.offsetOf(ib), row * eb);
      for (int64_t d = rank - 2; d >= 0; --d) {
        ++ia[d];
        ++ib[d];
        if (ia[d] < aOff[d] + sizes[d])
          break;
        ia[d] = aOff[d];
        ib[d] = bOff[d];
      }
    }
    return;
  }
  SmallVector<int64_t> as, bs;
  la.regionOffsets(aOff, sizes, as);
  lb.regionOffsets(bOff, sizes, bs);
  for (int64_t i = 0; i < n;) {
    int64_t j = i + 1;
    while (j < n && as[j] == as[j - 1] + eb && bs[j] == bs[j - 1] + eb)
      ++j;
    f(i, as[i], bs[i], (j - i) * eb);
    i = j;
  }
}

/// The dense host image of a tensor of `layout`'s shape.
static target::Layout hostLayout(const target::Layout &layout) {
  return target::Layout::rowMajor(layout.shape, layout.elemBytes);
}

FailureOr<Executor::Buffer *> Executor::describe(Value v) {
  auto it = buffers.find(v);
  if (it != buffers.end())
    return &it->second;
  auto type = cast<sched::BufferType>(v.getType());
  RankedTensorType tensor = type.getTensor();
  std::optional<ref::DType> dt = ref::dtypeOf(tensor.getElementType());
  if (!dt)
    return emitError(v.getLoc()) << "cannot simulate elements of " << tensor;
  Buffer b;
  b.dtype = *dt;
  b.at.level = type.getMemory().str();
  Operation *def = v.getDefiningOp();
  if (auto op = dyn_cast_or_null<sched::PlacedBufferOpInterface>(def)) {
    b.at.offset = op.getOffset();
    sched::BufferSite site = sched::siteOf(v);
    b.at.chip = site.chip;
    if (op.getUnit()) {
      b.at.perUnit = true;
      b.at.unitBegin = site.unitBegin;
      b.at.unitEnd = site.unitEnd;
    }
  } else {
    b.at.space = mem.newSpace(); // a program input
  }
  // The verifier checked that the layout fits the tensor.
  b.layout = sched::storedLayout(v, int64_t(ref::dtypeSize(*dt)));
  int64_t units = b.at.unitEnd - b.at.unitBegin;
  b.at.share = (b.layout.bytes + units - 1) / std::max<int64_t>(1, units);
  return &buffers.try_emplace(v, std::move(b)).first->second;
}

FailureOr<double> Executor::hostBytes(sched::ProgramOp program) {
  // Per memory (level, chip): the highest byte placed, as Memories grows
  // its images; a per-unit level has an image per unit, grown to the
  // highest byte of the buffers placed on that unit.
  std::map<std::pair<std::string, int64_t>, std::pair<double, double>> images;
  struct Span {
    int64_t begin, end; // units
    double top;         // offset + share
  };
  std::map<std::pair<std::string, int64_t>, std::vector<Span>> spans;
  double inputs = 0, largest = 0;
  auto add = [&](Value v) -> LogicalResult {
    FailureOr<Buffer *> b = describe(v);
    if (failed(b))
      return failure();
    const Placement &p = (*b)->at;
    double bytes = (double)(*b)->layout.bytes;
    largest = std::max(largest, bytes);
    if (p.space >= 0) {
      inputs += bytes;
      return success();
    }
    if (p.perUnit) {
      spans[{p.level, p.chip}].push_back(
          {p.unitBegin, p.unitEnd, (double)p.offset + (double)p.share});
      return success();
    }
    auto &[end, units] = images[{p.level, p.chip}];
    end = std::max(end, (double)p.offset + bytes);
    units = std::max(units, 1.0);
    return success();
  };
  Block &body = program.getBlock();
  for (BlockArgument a : body.getArguments())
    if (failed(add(a)))
      return failure();
  for (Operation &op : body)
    if (isa<sched::AllocOp, sched::WeightOp>(op))
      if (failed(add(op.getResult(0))))
        return failure();
  double total = inputs + 3 * largest;
  for (auto &[key, image] : images)
    total += image.first * image.second;
  // Per-unit images: the sum over units of the highest byte on each, by a
  // sweep over the buffers' unit ranges.
  for (auto &[key, list] : spans) {
    std::vector<std::pair<int64_t, int64_t>> events; // unit, +-(index + 1)
    for (auto [i, sp] : llvm::enumerate(list)) {
      events.push_back({sp.begin, int64_t(i) + 1});
      events.push_back({sp.end, -(int64_t(i) + 1)});
    }
    llvm::sort(events);
    std::multiset<double> open;
    int64_t at = events.empty() ? 0 : events.front().first;
    for (auto [unit, e] : events) {
      if (!open.empty())
        total += double(unit - at) * *open.rbegin();
      at = unit;
      if (e > 0)
        open.insert(list[e - 1].top);
      else
        open.erase(open.find(list[-e - 1].top));
    }
  }
  return total;
}

void Executor::store(const Buffer &b, const ref::Tensor &in, bool zeroPads) {
  ref::Tensor t = toDeviceFormat(this->t, in);
  if (zeroPads) {
    std::vector<uint8_t> zeros(b.layout.bytes, 0);
    mem.write(b.at, 0, zeros.data(), zeros.size());
  }
  SmallVector<int64_t> zero(b.layout.shape.size(), 0);
  target::Layout host = hostLayout(b.layout);
  forEachRun(b.layout, zero, host, zero, b.layout.shape,
             [&](int64_t, int64_t at, int64_t from, int64_t n) {
               mem.write(b.at, at, t.bytes() + from, n);
             });
}

ref::Tensor Executor::load(const Buffer &b) {
  ref::Tensor t(b.dtype, b.layout.shape);
  SmallVector<int64_t> zero(b.layout.shape.size(), 0);
  target::Layout host = hostLayout(b.layout);
  forEachRun(b.layout, zero, host, zero, b.layout.shape,
             [&](int64_t, int64_t at, int64_t to, int64_t n) {
               mem.read(b.at, at, t.bytes() + to, n);
             });
  return t;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult Executor::dma(sched::DmaOp op) {
  FailureOr<Buffer *> src = describe(op.getSource());
  FailureOr<Buffer *> dst = describe(op.getDest());
  if (failed(src) || failed(dst))
    return failure();
  std::vector<uint8_t> staging;
  // A whole tensor between two buffers of one layout: the image, pads and
  // all, in one copy.
  const target::Layout &sl = (*src)->layout;
  bool whole = llvm::all_of(op.getSrcOffsets(), [](int64_t o) { return o == 0; }) &&
               llvm::all_of(op.getDstOffsets(), [](int64_t o) { return o == 0; }) &&
               ArrayRef<int64_t>(op.getSizes()) == ArrayRef<int64_t>(sl.shape);
  if (whole && sl.sameAs((*dst)->layout)) {
    staging.resize(sl.bytes);
    mem.read((*src)->at, 0, staging.data(), sl.bytes);
    mem.write((*dst)->at, 0, staging.data(), sl.bytes);
    return success();
  }
  forEachRun((*src)->layout, op.getSrcOffsets(), (*dst)->layout,
             op.getDstOffsets(), op.getSizes(),
             [&](int64_t, int64_t a, int64_t b, int64_t n) {
               staging.resize(n);
               mem.read((*src)->at, a, staging.data(), n);
               mem.write((*dst)->at, b, staging.data(), n);
             });
  return success();
}

LogicalResult Executor::compute(sched::ComputeOp op) {
  SmallVector<ref::Tensor> args;
  for (Value in : op.getInputs()) {
    FailureOr<Buffer *> b = describe(in);
    if (failed(b))
      return failure();
    args.push_back(load(**b));
  }
  ref::EvalOptions options;
  if (std::optional<StringRef> acc = op.getAccumulator()) {
    std::optional<target::StorageFormat> f = t.floatFormat(*acc);
    if (!f)
      return op.emitOpError("accumulator '")
             << *acc << "' is not a float format of target '" << t.name << "'";
    options.accumulatorMantissaBits = f->mantissaBits;
    options.accumulatorExponentBits = f->exponentBits;
  }
  ref::Evaluator ev(options);
  FailureOr<SmallVector<ref::Tensor>> results =
      ev.runBlock(op.getBody().front(), args);
  if (failed(results))
    return op.emitOpError("kernel '") << op.getKernel() << "' failed";
  for (auto [out, value] : llvm::zip(op.getOutputs(), *results)) {
    FailureOr<Buffer *> b = describe(out);
    if (failed(b))
      return failure();
    store(**b, value, /*zeroPads=*/false);
  }
  return success();
}

LogicalResult Executor::run(sched::ProgramOp program,
                            ArrayRef<ref::Tensor> inputs,
                            SmallVectorImpl<ref::Tensor> &outputs) {
  Block &body = program.getBlock();
  if (inputs.size() != body.getNumArguments())
    return program.emitOpError("takes ")
           << body.getNumArguments() << " inputs, " << inputs.size()
           << " were given";
  for (auto [arg, value] : llvm::zip(body.getArguments(), inputs)) {
    FailureOr<Buffer *> b = describe(arg);
    if (failed(b))
      return failure();
    store(**b, value, /*zeroPads=*/true);
  }
  progress::Task task("simulating values", int64_t(body.getOperations().size()));
  for (Operation &op : body) {
    task.advance();
    LogicalResult r = success();
    if (auto a = dyn_cast<sched::AllocOp>(op)) {
      FailureOr<Buffer *> b = describe(a.getBuffer());
      if (failed(b))
        return failure();
      if (auto init = a.getInit())
        store(**b, ref::tensorFromAttr(*init), /*zeroPads=*/true);
    } else if (auto w = dyn_cast<sched::WeightOp>(op)) {
      FailureOr<Buffer *> b = describe(w.getBuffer());
      if (failed(b))
        return failure();
      ref::Tensor value =
          ref::Tensor::uninitialized((*b)->dtype, (*b)->layout.shape);
      std::string err;
      if (!ref::readWeight(w.getFile(), w.getFileOffset(), w.getZstdBytes(),
                           value, err))
        return w.emitOpError(err);
      store(**b, value, /*zeroPads=*/true);
    } else if (auto d = dyn_cast<sched::DmaOp>(op)) {
      r = dma(d);
    } else if (auto c = dyn_cast<sched::ComputeOp>(op)) {
      r = compute(c);
    } else if (auto ret = dyn_cast<sched::ReturnOp>(op)) {
      for (Value v : ret.getOutputs()) {
        FailureOr<Buffer *> b = describe(v);
        if (failed(b))
          return failure();
        outputs.push_back(load(**b));
      }
    }
    if (failed(r))
      return failure();
  }
  return success();
}
