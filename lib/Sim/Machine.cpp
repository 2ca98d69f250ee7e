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
#include <algorithm>
#include <memory>

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
    run = std::min(n, kPageBytes - addr % kPageBytes);
    return {level, p.chip, -1};
  }
  int64_t share = std::max<int64_t>(1, p.share);
  int64_t local = at % share;
  addr = p.offset + local;
  run = std::min(n, share - local);
  return {level, p.chip, p.unitBegin + at / share};
}

void Memories::account(int64_t delta) {
  current += delta;
  highest = std::max(highest, current);
}

uint8_t *Memories::pageFor(const Key &key, int64_t addr, bool create) {
  std::tuple<int64_t, int64_t, int64_t> k{key.level, key.chip,
                                          addr / kPageBytes};
  auto it = pages.find(k);
  if (it == pages.end()) {
    if (!create)
      return nullptr;
    it = pages.try_emplace(k).first;
  }
  Page &page = it->second;
  if (!page.data) {
    if (!create)
      return nullptr;
    page.data.reset(new uint8_t[kPageBytes]);
    std::memset(page.data.get(), 0xFF, kPageBytes);
    account(kPageBytes);
  }
  return page.data.get() + addr % kPageBytes;
}

Memories::Image *Memories::imageFor(const Key &key, bool create) {
  std::tuple<int64_t, int64_t, int64_t> k{key.level, key.chip, key.unit};
  auto it = images.find(k);
  if (it != images.end())
    return &it->second;
  return create ? &images.try_emplace(k).first->second : nullptr;
}

void Memories::write(const Placement &p, int64_t at, const uint8_t *src,
                     int64_t n) {
  while (n > 0) {
    int64_t addr, run;
    Key key = locate(p, at, n, addr, run);
    if (key.unit < 0 && key.level >= 0) {
      std::memcpy(pageFor(key, addr, /*create=*/true), src, run);
    } else {
      Image *image = imageFor(key, /*create=*/true);
      if (int64_t(image->data.size()) < addr + run) {
        int64_t before = image->data.capacity();
        image->data.resize(addr + run, 0xFF);
        account(int64_t(image->data.capacity()) - before);
      }
      std::memcpy(image->data.data() + addr, src, run);
    }
    at += run;
    src += run;
    n -= run;
  }
}

void Memories::read(const Placement &p, int64_t at, uint8_t *dst, int64_t n) {
  while (n > 0) {
    int64_t addr, run;
    Key key = locate(p, at, n, addr, run);
    if (key.unit < 0 && key.level >= 0) {
      const uint8_t *page = pageFor(key, addr, /*create=*/false);
      if (page)
        std::memcpy(dst, page, run);
      else
        std::memset(dst, 0xFF, run);
    } else {
      const Image *image = imageFor(key, /*create=*/false);
      int64_t have = image ? int64_t(image->data.size()) - addr : 0;
      int64_t copied = std::clamp<int64_t>(have, 0, run);
      if (copied)
        std::memcpy(dst, image->data.data() + addr, copied);
      std::memset(dst + copied, 0xFF, run - copied);
    }
    at += run;
    dst += run;
    n -= run;
  }
}

Memories::Key Memories::firstImage(const Placement &p, int64_t &end) {
  if (p.space >= 0) {
    end = p.space + 1;
    return {-1, -1, p.space};
  }
  end = p.unitEnd;
  return {levelId(p.level), p.chip, p.unitBegin};
}

void Memories::hold(const Placement &p, int64_t bytes) {
  if (p.space >= 0 || p.perUnit) {
    int64_t end;
    Key key = firstImage(p, end);
    for (; key.unit < end; ++key.unit)
      ++imageFor(key, /*create=*/true)->refs;
    return;
  }
  if (bytes <= 0)
    return;
  int64_t level = levelId(p.level);
  for (int64_t page = p.offset / kPageBytes;
       page <= (p.offset + bytes - 1) / kPageBytes; ++page)
    ++pages[{level, p.chip, page}].refs;
}

void Memories::release(const Placement &p, int64_t bytes) {
  if (p.space >= 0 || p.perUnit) {
    int64_t end;
    for (Key key = firstImage(p, end); key.unit < end; ++key.unit) {
      auto it = images.find({key.level, key.chip, key.unit});
      if (it == images.end() || --it->second.refs > 0)
        continue;
      account(-int64_t(it->second.data.capacity()));
      images.erase(it);
    }
    return;
  }
  if (bytes <= 0)
    return;
  int64_t level = levelId(p.level);
  for (int64_t page = p.offset / kPageBytes;
       page <= (p.offset + bytes - 1) / kPageBytes; ++page) {
    auto it = pages.find({level, p.chip, page});
    if (it == pages.end() || --it->second.refs > 0)
      continue;
    if (it->second.data)
      account(-kPageBytes);
    pages.erase(it);
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
/// computation per row); otherwise a row's elements are placed one by one
/// and adjacent ones merged (a tile's row, a stick).
template <typename F>
static void forEachRun(const target::Layout &la, ArrayRef<int64_t> aOff,
                       const target::Layout &lb, ArrayRef<int64_t> bOff,
                       ArrayRef<int64_t> sizes, F f) {
  int64_t eb = la.elemBytes, rank = sizes.size(), n = 1;
  for (int64_t s : sizes)
    n *= s;
  if (n == 0)
    return;
  if (rank == 0) {
    f(0, la.offsetOf({}), lb.offsetOf({}), eb);
    return;
  }
  bool rows = la.rowsContiguous() && lb.rowsContiguous();
  int64_t row = sizes.back();
  SmallVector<int64_t> ia(aOff), ib(bOff), as(rows ? 0 : row), bs(rows ? 0 : row);
  for (int64_t i = 0; i < n; i += row) {
    if (rows) {
      f(i, la.offsetOf(ia), lb.offsetOf(ib), row * eb);
    } else {
      for (int64_t j = 0; j < row; ++j) {
        ia.back() = aOff.back() + j;
        ib.back() = bOff.back() + j;
        as[j] = la.offsetOf(ia);
        bs[j] = lb.offsetOf(ib);
      }
      ia.back() = aOff.back();
      ib.back() = bOff.back();
      for (int64_t j = 0; j < row;) {
        int64_t k = j + 1;
        while (k < row && as[k] == as[k - 1] + eb && bs[k] == bs[k - 1] + eb)
          ++k;
        f(i + j, as[j], bs[j], (k - j) * eb);
        j = k;
      }
    }
    for (int64_t d = rank - 2; d >= 0; --d) {
      ++ia[d];
      ++ib[d];
      if (ia[d] < aOff[d] + sizes[d])
        break;
      ia[d] = aOff[d];
      ib[d] = bOff[d];
    }
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
  // The schedule places elements narrower than a byte (int4, fp4) packed;
  // the values here are held a byte each, so such a buffer's image lives
  // in a private space, where it overlaps no other buffer's bytes.
  if (unsigned bits = ref::dtypeBits(*dt);
      bits > 1 && bits < 8) {
    b.at = Placement();
    b.at.level = type.getMemory().str();
    b.at.space = mem.newSpace();
  }
  int64_t units = b.at.unitEnd - b.at.unitBegin;
  b.at.share = (b.layout.bytes + units - 1) / std::max<int64_t>(1, units);
  return &buffers.try_emplace(v, std::move(b)).first->second;
}

/// The buffers `op` reads (a return's outputs included) and writes.
static void buffersOf(Operation &op, SmallVectorImpl<Value> &reads,
                      SmallVectorImpl<Value> &writes) {
  reads.clear();
  writes.clear();
  sched::accesses(&op, reads, writes);
  if (auto ret = dyn_cast<sched::ReturnOp>(op))
    reads.append(ret.getOutputs().begin(), ret.getOutputs().end());
}

Executor::Lifetimes Executor::lifetimes(Block &body) {
  Lifetimes l;
  for (BlockArgument a : body.getArguments())
    l.last[a] = -1;
  SmallVector<Value> reads, writes;
  for (auto [i, op] : llvm::enumerate(body)) {
    if (isa<sched::AllocOp, sched::WeightOp>(op))
      l.last[op.getResult(0)] = int64_t(i);
    buffersOf(op, reads, writes);
    for (Value v : llvm::concat<Value>(reads, writes))
      l.last[v] = int64_t(i);
  }
  l.dying.resize(body.getOperations().size());
  for (auto [v, i] : l.last)
    if (i >= 0)
      l.dying[i].push_back(v);
  return l;
}

FailureOr<double> Executor::hostBytes(sched::ProgramOp program) {
  // A walk in program order: a buffer counts from its alloc (a weight from
  // its first use, an input from the start) to its last use, as run()
  // holds it; each takes whole pages of a chip-wide level, or on each of
  // its units the image up to its top byte.
  Block &body = program.getBlock();
  Lifetimes life = lifetimes(body);
  DenseMap<Value, double> live;
  double now = 0, peak = 0, largest = 0;
  auto bytesOf = [&](Value v) -> FailureOr<double> {
    FailureOr<Buffer *> b = describe(v);
    if (failed(b))
      return failure();
    const Placement &p = (*b)->at;
    double bytes = (double)(*b)->layout.bytes;
    largest = std::max(largest, bytes);
    if (p.space >= 0)
      return bytes;
    if (p.perUnit)
      return double(p.unitEnd - p.unitBegin) * double(p.offset + p.share);
    double page = double(Memories::kPageBytes);
    return (std::floor((p.offset + bytes - 1) / page) -
            std::floor(p.offset / page) + 1) * page;
  };
  auto birth = [&](Value v) -> LogicalResult {
    if (live.count(v))
      return success();
    FailureOr<double> bytes = bytesOf(v);
    if (failed(bytes))
      return failure();
    live[v] = *bytes;
    now += *bytes;
    peak = std::max(peak, now);
    return success();
  };
  auto death = [&](Value v) {
    auto it = live.find(v);
    if (it == live.end())
      return;
    now -= it->second;
    live.erase(it);
  };
  for (BlockArgument a : body.getArguments())
    if (failed(birth(a)))
      return failure();
  SmallVector<Value> reads, writes;
  for (auto [i, op] : llvm::enumerate(body)) {
    if (isa<sched::AllocOp>(op) && failed(birth(op.getResult(0))))
      return failure();
    buffersOf(op, reads, writes);
    for (Value v : llvm::concat<Value>(reads, writes))
      if (failed(birth(v)))
        return failure();
    for (Value v : life.dying[i])
      death(v);
  }
  for (BlockArgument a : body.getArguments())
    if (life.last.lookup(a) < 0)
      death(a);
  return peak + 3 * largest;
}

void Executor::store(const Buffer &b, const ref::Tensor &in, bool zeroPads) {
  ref::Tensor t = toDeviceFormat(this->t, in);
  target::Layout host = hostLayout(b.layout);
  if (b.layout.sameAs(host)) { // the host bytes are the image
    mem.write(b.at, 0, t.bytes(), b.layout.bytes);
    return;
  }
  // The image is laid out on the host and written in one pass: zeroed pads
  // (as a host runtime lays a tensor out), or the pads the memory holds.
  std::unique_ptr<uint8_t[]> image(new uint8_t[b.layout.bytes]);
  if (zeroPads)
    std::memset(image.get(), 0, b.layout.bytes);
  else
    mem.read(b.at, 0, image.get(), b.layout.bytes);
  SmallVector<int64_t> zero(b.layout.shape.size(), 0);
  forEachRun(b.layout, zero, host, zero, b.layout.shape,
             [&](int64_t, int64_t at, int64_t from, int64_t n) {
               std::memcpy(image.get() + at, t.bytes() + from, n);
             });
  mem.write(b.at, 0, image.get(), b.layout.bytes);
}

void Executor::storeRegion(const Buffer &b, const ref::Tensor &in,
                           ArrayRef<int64_t> offsets) {
  ref::Tensor t = toDeviceFormat(this->t, in);
  target::Layout piece = target::Layout::rowMajor(t.shape(), b.layout.elemBytes);
  SmallVector<int64_t> zero(offsets.size(), 0);
  forEachRun(b.layout, offsets, piece, zero, t.shape(),
             [&](int64_t, int64_t at, int64_t from, int64_t n) {
               mem.write(b.at, at, t.bytes() + from, n);
             });
}

ref::Tensor Executor::load(const Buffer &b) {
  ref::Tensor t = ref::Tensor::uninitialized(b.dtype, b.layout.shape);
  target::Layout host = hostLayout(b.layout);
  if (b.layout.sameAs(host)) {
    mem.read(b.at, 0, t.bytes(), b.layout.bytes);
    return t;
  }
  std::unique_ptr<uint8_t[]> image(new uint8_t[b.layout.bytes]);
  mem.read(b.at, 0, image.get(), b.layout.bytes);
  SmallVector<int64_t> zero(b.layout.shape.size(), 0);
  forEachRun(b.layout, zero, host, zero, b.layout.shape,
             [&](int64_t, int64_t at, int64_t to, int64_t n) {
               std::memcpy(t.bytes() + to, image.get() + at, n);
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
  options.fp64Accumulate = options.ieeeMatmul =
      arithmetic == Options::Arithmetic::Oracle;
  if (std::optional<StringRef> acc = op.getAccumulator();
      acc && arithmetic == Options::Arithmetic::Target) {
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
  std::optional<ArrayRef<int64_t>> offsets = op.getOutOffsets();
  size_t at = 0;
  for (auto [out, value] : llvm::zip(op.getOutputs(), *results)) {
    FailureOr<Buffer *> b = describe(out);
    if (failed(b))
      return failure();
    size_t rank = (*b)->layout.shape.size();
    if (offsets && !(value.shape() == ArrayRef<int64_t>((*b)->layout.shape)))
      storeRegion(**b, value, offsets->slice(at, rank));
    else
      store(**b, value, /*zeroPads=*/false);
    at += rank;
  }
  return success();
}

LogicalResult Executor::materialize(Value buffer) {
  auto it = pending.find(buffer);
  if (it == pending.end())
    return success();
  sched::WeightOp w = it->second;
  pending.erase(it);
  FailureOr<Buffer *> b = describe(buffer);
  if (failed(b))
    return failure();
  mem.hold((*b)->at, (*b)->layout.bytes);
  ref::Tensor value =
      ref::Tensor::uninitialized((*b)->dtype, (*b)->layout.shape);
  std::string err;
  if (!ref::readWeight(w.getFile(), w.getFileOffset(), w.getZstdBytes(),
                       w.getRowPitch(), value, err))
    return w.emitOpError(err);
  store(**b, value, /*zeroPads=*/true);
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
  // Each buffer's memory is held from its alloc (a weight's from its first
  // use, when it is read) to its last use.
  Lifetimes life = lifetimes(body);
  auto release = [&](Value v) {
    auto it = buffers.find(v);
    if (it != buffers.end() && !pending.erase(v))
      mem.release(it->second.at, it->second.layout.bytes);
  };
  for (auto [arg, value] : llvm::zip(body.getArguments(), inputs)) {
    FailureOr<Buffer *> b = describe(arg);
    if (failed(b))
      return failure();
    mem.hold((*b)->at, (*b)->layout.bytes);
    store(**b, value, /*zeroPads=*/true);
    if (life.last.lookup(arg) < 0)
      release(arg);
  }
  progress::Task task("simulating values", int64_t(body.getOperations().size()));
  SmallVector<Value> reads, writes;
  for (auto [i, opRef] : llvm::enumerate(body)) {
    Operation &op = opRef;
    task.advance();
    buffersOf(op, reads, writes);
    for (Value v : reads)
      if (failed(materialize(v)))
        return failure();
    // A weight is read before an op writes it too: a write that covers
    // only part of it keeps the rest of its bytes.
    for (Value v : writes)
      if (failed(materialize(v)))
        return failure();
    LogicalResult r = success();
    if (auto a = dyn_cast<sched::AllocOp>(op)) {
      FailureOr<Buffer *> b = describe(a.getBuffer());
      if (failed(b))
        return failure();
      mem.hold((*b)->at, (*b)->layout.bytes);
      if (auto init = a.getInit())
        store(**b, ref::tensorFromAttr(*init), /*zeroPads=*/true);
    } else if (auto w = dyn_cast<sched::WeightOp>(op)) {
      if (failed(describe(w.getBuffer())))
        return failure();
      pending[w.getBuffer()] = w;
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
    for (Value v : life.dying[i])
      release(v);
  }
  return success();
}
