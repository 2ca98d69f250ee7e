//===- SchedVerify.cpp - sched verifiers ------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Op verifiers, and the program verifier that checks a whole schedule:
/// every buffer fits its level; no two live buffers overlap in one memory
/// (of one unit); every read follows a write it depends on; and, in a static
/// plan, no unit or DMA engine runs two ops at once.
///
//===----------------------------------------------------------------------===//

#include "dialects/Sched/SchedOps.h"

#include "dialects/Graph/GraphInterfaces.h"
#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

#include <limits>

using namespace mlir;
using namespace dfa::sched;

using dfa::graph::tensorBytes;

/// What sched.alloc and sched.weight both check: a unit range that is not
/// empty, a layout that fits the tensor, and room for the whole stored
/// image (padding included) over the units.
static LogicalResult verifyPlacement(PlacedBufferOpInterface op) {
  Operation *o = op.getOperation();
  int64_t units = 1;
  if (op.getUnitEnd()) {
    if (!op.getUnit())
      return o->emitOpError("unit_end needs unit");
    units = int64_t(*op.getUnitEnd()) - int64_t(*op.getUnit());
    if (units <= 0)
      return o->emitOpError("unit range [") << *op.getUnit() << ", "
                                            << *op.getUnitEnd() << ") is empty";
  }
  RankedTensorType t = op.getBuffer().getType().getTensor();
  if (dfa::graph::LayoutAttr l = op.getLayoutAttr()) {
    std::string why = l.invalidFor(t.getRank());
    if (!why.empty())
      return o->emitOpError("layout ") << l << " does not fit " << t << ": " << why;
  }
  auto size = static_cast<int64_t>(op.getSize());
  int64_t stored = storedLayout(op.getBuffer()).bytes;
  if (size < 0 || size * units < stored)
    return o->emitOpError("size ") << size << (units > 1 ? " per unit" : "")
                                   << " is smaller than the " << stored
                                   << " bytes of " << t
                                   << (stored != tensorBytes(t) ? " as stored" : "");
  return success();
}

LogicalResult WeightOp::verify() {
  if (failed(graph::verifyRowPitch(*this, getType().getTensor(), getRowPitch(),
                                    bool(getZstdBytes()))))
    return failure();
  return verifyPlacement(cast<PlacedBufferOpInterface>(getOperation()));
}

LogicalResult AllocOp::verify() {
  auto offset = static_cast<int64_t>(getOffset());
  auto t = getType().getTensor();
  if (offset < 0)
    return emitOpError("offset must be non-negative, got ") << offset;
  if (failed(verifyPlacement(cast<PlacedBufferOpInterface>(getOperation()))))
    return failure();
  if (getInit() && getInit()->getShapedType() != t)
    return emitOpError("init of type ") << getInit()->getShapedType()
                                        << " does not match " << t;
  return success();
}

LogicalResult DmaOp::verify() {
  if (getRows() && *getRows() < 1)
    return emitOpError("streams ") << *getRows() << " rows; expected at least 1";
  auto src = getSource().getType().getTensor();
  auto dst = getDest().getType().getTensor();
  if (src.getElementType() != dst.getElementType())
    return emitOpError("copies between element types ")
           << src.getElementType() << " and " << dst.getElementType();
  ArrayRef<int64_t> so = getSrcOffsets(), dO = getDstOffsets(), sz = getSizes();
  if ((int64_t)so.size() != src.getRank() || (int64_t)dO.size() != dst.getRank() ||
      src.getRank() != dst.getRank() || (int64_t)sz.size() != src.getRank())
    return emitOpError("offsets and sizes must have one entry per dim of both buffers");
  for (int64_t d = 0; d < src.getRank(); ++d) {
    if (sz[d] < 0 || so[d] < 0 || dO[d] < 0)
      return emitOpError("negative offset or size in dim ") << d;
    if (so[d] + sz[d] > src.getDimSize(d))
      return emitOpError("source region [") << so[d] << ", " << so[d] + sz[d]
                                            << ") exceeds dim " << d << " of "
                                            << src;
    if (dO[d] + sz[d] > dst.getDimSize(d))
      return emitOpError("destination region [") << dO[d] << ", " << dO[d] + sz[d]
                                                 << ") exceeds dim " << d << " of "
                                                 << dst;
  }
  return success();
}

LogicalResult ComputeOp::verify() {
  if (getRows() && *getRows() < 1)
    return emitOpError("streams ") << *getRows() << " rows; expected at least 1";
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("body takes ") << body.getNumArguments()
                                      << " tensors for " << getInputs().size()
                                      << " input buffers";
  for (auto [arg, in] : llvm::zip(body.getArguments(), getInputs()))
    if (arg.getType() != cast<BufferType>(in.getType()).getTensor())
      return emitOpError("body argument ") << arg.getType()
                                           << " does not match input buffer "
                                           << in.getType();
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError("body must end in sched.yield");
  if (yield.getValues().size() != getOutputs().size())
    return emitOpError("body yields ") << yield.getValues().size()
                                       << " tensors for " << getOutputs().size()
                                       << " output buffers";
  std::optional<ArrayRef<int64_t>> offsets = getOutOffsets();
  if (offsets) {
    size_t ranks = 0;
    for (Value out : getOutputs())
      ranks += size_t(cast<BufferType>(out.getType()).getTensor().getRank());
    if (offsets->size() != ranks)
      return emitOpError("out_offsets holds ")
             << offsets->size() << " offsets for outputs of " << ranks
             << " dims in all (one per dim of each output)";
  }
  size_t at = 0;
  for (auto [i, v, out] : llvm::enumerate(yield.getValues(), getOutputs())) {
    auto whole = cast<BufferType>(out.getType()).getTensor();
    auto piece = dyn_cast<RankedTensorType>(v.getType());
    bool region = offsets && piece && piece.getRank() == whole.getRank() &&
                  piece.getElementType() == whole.getElementType();
    if (!region && v.getType() != whole)
      return emitOpError("yields ") << v.getType() << " into "
                                    << out.getType();
    if (!offsets)
      continue;
    for (int64_t d = 0; d < whole.getRank(); ++d, ++at) {
      int64_t o = (*offsets)[at];
      if (o < 0 || piece.isDynamicDim(d) || o + piece.getDimSize(d) > whole.getDimSize(d))
        return emitOpError("output ")
               << i << "'s region " << v.getType() << " at offset " << o
               << " of dim " << d << " is outside " << out.getType();
    }
  }
  // A kernel reads and writes its own chip's memory; what another chip
  // holds arrives by a sched.dma first. The host's memory is every chip's:
  // each writes it over its own host link.
  int64_t chip = getChip() ? int64_t(*getChip()) : 0;
  for (auto [what, buffers] : {std::pair<StringRef, ValueRange>{"input", getInputs()},
                               {"output", getOutputs()}})
    for (auto [i, b] : llvm::enumerate(buffers))
      if (int64_t at = siteOf(b).chip;
          at != chip && cast<BufferType>(b.getType()).getMemory() != target::kHostLevel)
        return emitOpError(what) << " " << i << " is on chip " << at
                                 << ", the kernel on chip " << chip
                                 << " (another chip's buffer arrives by a sched.dma)";
  if (static_cast<int64_t>(getUnitBegin()) < 0 ||
      static_cast<int64_t>(getUnitEnd()) <= static_cast<int64_t>(getUnitBegin()))
    return emitOpError("unit range [") << getUnitBegin() << ", "
                                       << getUnitEnd() << ") is empty";
  if (std::optional<ArrayRef<int64_t>> pairs = getInPlace()) {
    if (pairs->size() % 2)
      return emitOpError("in_place holds (input, output) pairs; got ")
             << pairs->size() << " indices";
    llvm::SmallDenseSet<int64_t> ins, outs;
    for (size_t i = 0; i < pairs->size(); i += 2) {
      int64_t in = (*pairs)[i], out = (*pairs)[i + 1];
      if (in < 0 || in >= int64_t(getInputs().size()) || out < 0 ||
          out >= int64_t(getOutputs().size()))
        return emitOpError("in_place pair (") << in << ", " << out
                                              << ") names no input or output";
      if (!ins.insert(in).second || !outs.insert(out).second)
        return emitOpError("in_place names input ")
               << in << " or output " << out << " twice";
      if (!writesWhole(*this, out))
        return emitOpError("in_place output ")
               << out << " is written in part (out_offsets): a cache grows whole";
      if (!isCacheAppend(*this, in, out))
        return emitOpError("in_place output ")
               << out << " does not grow input " << in
               << " (a graph.concat after it, or a scatter of rows into it)";
      auto inType = cast<BufferType>(getInputs()[in].getType());
      auto outType = cast<BufferType>(getOutputs()[out].getType());
      if (inType.getMemory() != outType.getMemory() ||
          siteOf(getInputs()[in]).chip != siteOf(getOutputs()[out]).chip)
        return emitOpError("in_place output ")
               << out << " is not where input " << in
               << " is (a cache grows where it lives)";
    }
  }
  return success();
}

bool dfa::sched::isCacheAppend(ComputeOp op, int64_t in, int64_t out) {
  Block &body = op.getBody().front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || in < 0 || in >= int64_t(body.getNumArguments()) || out < 0 ||
      out >= int64_t(yield.getValues().size()))
    return false;
  std::optional<graph::CacheGrowth> g = graph::cacheGrowth(yield.getValues()[out]);
  return g && g->cache == body.getArgument(in);
}

RankedTensorType dfa::sched::writtenType(ComputeOp op, int64_t out) {
  auto yield = dyn_cast<YieldOp>(op.getBody().front().getTerminator());
  if (yield && out < int64_t(yield.getValues().size()))
    if (auto t = dyn_cast<RankedTensorType>(yield.getValues()[out].getType()))
      return t;
  return cast<BufferType>(op.getOutputs()[out].getType()).getTensor();
}

bool dfa::sched::writesWhole(ComputeOp op, int64_t out) {
  return writtenType(op, out) ==
         cast<BufferType>(op.getOutputs()[out].getType()).getTensor();
}

double dfa::sched::hostBytes(ComputeOp op, llvm::StringRef hostLevel) {
  double bytes = 0;
  for (auto [o, v] : llvm::enumerate(op.getOutputs())) {
    if (cast<BufferType>(v.getType()).getMemory() != hostLevel)
      continue;
    // A region counts its share of the stored image (the pieces of a
    // result add up to all of it, padding included).
    double share = 1;
    auto whole = cast<BufferType>(v.getType()).getTensor();
    if (int64_t n = whole.getNumElements(); n > 0)
      share = double(writtenType(op, int64_t(o)).getNumElements()) / double(n);
    bytes += share * double(storedLayout(v).bytes);
  }
  return bytes;
}

SmallVector<std::pair<StringRef, double>>
dfa::sched::levelBytes(ComputeOp op, StringRef hostLevel) {
  SmallVector<std::pair<StringRef, double>> levels;
  auto add = [&](StringRef level, double bytes) {
    auto it = llvm::find_if(levels, [&](auto &l) { return l.first == level; });
    if (it == levels.end())
      levels.push_back({level, bytes});
    else
      it->second += bytes;
  };
  SmallVector<Value> buffers(op.getInputs());
  buffers.append(op.getOutputs().begin(), op.getOutputs().end());
  bool host = false;
  for (auto [v, moved] : llvm::zip(buffers, movedBytes(op))) {
    StringRef level = cast<BufferType>(v.getType()).getMemory();
    if (!hostLevel.empty() && level == hostLevel)
      host = true;
    else
      add(level, moved);
  }
  if (double bytes = host ? hostBytes(op, hostLevel) : 0; bytes > 0)
    add(hostLevel, bytes);
  return levels;
}

SmallVector<double> dfa::sched::movedBytes(ComputeOp op) {
  auto bytesOf = [](Value buffer) {
    return double(
        graph::tensorBytes(cast<BufferType>(buffer.getType()).getTensor()));
  };
  SmallVector<double> bytes;
  // An input the body reads only in part (a grouped product's matrices
  // of the groups its rows reach) moves that part.
  Block &args = op.getBody().front();
  for (auto [i, v] : llvm::enumerate(op.getInputs()))
    bytes.push_back(bytesOf(v) *
                    (i < args.getNumArguments()
                         ? graph::readFraction(args.getArgument(i))
                         : 1.0));
  // An output written in part (out_offsets) moves its region.
  for (int64_t o = 0, n = int64_t(op.getOutputs().size()); o < n; ++o)
    bytes.push_back(double(graph::tensorBytes(writtenType(op, o))));
  std::optional<ArrayRef<int64_t>> pairs = op.getInPlace();
  if (!pairs)
    return bytes;
  Block &body = op.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  size_t outputs0 = op.getInputs().size();
  for (size_t i = 0; i + 1 < pairs->size(); i += 2) {
    int64_t in = (*pairs)[i], out = (*pairs)[i + 1];
    double kept = bytesOf(op.getInputs()[in]);
    bytes[outputs0 + out] = std::max(0.0, bytes[outputs0 + out] - kept);
    Value grown = yield.getValues()[out];
    std::optional<graph::CacheGrowth> g = graph::cacheGrowth(grown);
    // A scatter writes its updates' rows, inside the cache or in the room
    // after it.
    if (g && g->updates)
      bytes[outputs0 + out] = std::max(
          bytes[outputs0 + out],
          double(graph::tensorBytes(cast<RankedTensorType>(g->updates.getType()))));
    // The body reads the cache only if something besides the growth (and
    // the yield of the grown value) uses it.
    if (g && g->onlyGrowth &&
        llvm::all_of(grown.getUsers(), [&](Operation *u) { return u == yield; }))
      bytes[in] = 0;
  }
  return bytes;
}

std::optional<dfa::target::Collective> dfa::sched::collectiveOf(ComputeOp op) {
  std::optional<graph::CollectiveOf> c = graph::collectiveOf(op.getBody().front());
  if (!c)
    return std::nullopt;
  dfa::target::Collective work;
  work.kind = c->gather ? dfa::target::Collective::AllGather
                        : dfa::target::Collective::AllReduce;
  work.bytes = double(c->bytes);
  work.chips = c->chips;
  return work;
}

void dfa::sched::accesses(Operation *op, SmallVectorImpl<Value> &reads,
                         SmallVectorImpl<Value> &writes) {
  if (auto d = dyn_cast<DmaOp>(op)) {
    reads.push_back(d.getSource());
    writes.push_back(d.getDest());
  } else if (auto c = dyn_cast<ComputeOp>(op)) {
    reads.append(c.getInputs().begin(), c.getInputs().end());
    writes.append(c.getOutputs().begin(), c.getOutputs().end());
  }
}

/// Whether two buffers may share bytes: the same buffer, or placements in
/// one memory of one chip whose units and bytes intersect (a reuse of an
/// arena's memory is a new buffer at the old one's bytes).
static bool mayAlias(Value a, Value b) {
  if (a == b)
    return true;
  auto pa = a.getDefiningOp<PlacedBufferOpInterface>();
  auto pb = b.getDefiningOp<PlacedBufferOpInterface>();
  if (!pa || !pb)
    return false;
  if (cast<BufferType>(a.getType()).getMemory() !=
      cast<BufferType>(b.getType()).getMemory())
    return false;
  if ((pa.getChip() ? *pa.getChip() : 0) != (pb.getChip() ? *pb.getChip() : 0))
    return false;
  auto units = [](PlacedBufferOpInterface p) -> std::pair<int64_t, int64_t> {
    if (!p.getUnit())
      return {0, std::numeric_limits<int64_t>::max()}; // chip-wide
    int64_t u = int64_t(*p.getUnit());
    return {u, p.getUnitEnd() ? int64_t(*p.getUnitEnd()) : u + 1};
  };
  auto [ua, ua2] = units(pa);
  auto [ub, ub2] = units(pb);
  int64_t oa = int64_t(pa.getOffset()), ob = int64_t(pb.getOffset());
  return ua < ub2 && ub < ua2 && oa < ob + int64_t(pb.getSize()) &&
         ob < oa + int64_t(pa.getSize());
}

bool dfa::sched::feeds(Operation *producer, Operation *consumer) {
  SmallVector<Value> producerReads, writes, reads, consumerWrites;
  accesses(producer, producerReads, writes);
  accesses(consumer, reads, consumerWrites);
  // A consumer that also overwrites what the producer still reads must
  // wait for all of it, whatever else it reads from it.
  for (Value w : consumerWrites)
    for (Value r : producerReads)
      if (mayAlias(w, r))
        return false;
  return llvm::any_of(writes, [&](Value w) { return llvm::is_contained(reads, w); });
}

namespace {
/// A placed buffer: an alloc or a weight.
struct Placement {
  Operation *op;
  BufferType type;
  int64_t offset, size, unit, unitEnd, chip;
};

std::optional<Placement> placementOf(Operation *op) {
  auto o = dyn_cast<PlacedBufferOpInterface>(op);
  if (!o)
    return std::nullopt;
  int64_t unit = o.getUnit() ? int64_t(*o.getUnit()) : -1;
  int64_t unitEnd = o.getUnitEnd() ? int64_t(*o.getUnitEnd()) : unit + 1;
  return Placement{op, o.getBuffer().getType(), int64_t(o.getOffset()),
                   int64_t(o.getSize()), unit, unitEnd,
                   o.getChip() ? int64_t(*o.getChip()) : 0};
}

struct Live {
  Operation *op;
  int64_t first, last, lo, hi, uLo, uHi;
};

ValueRange depsOf(Operation *op) {
  if (auto d = dyn_cast<DmaOp>(op))
    return d.getDeps();
  if (auto c = dyn_cast<ComputeOp>(op))
    return c.getDeps();
  if (auto b = dyn_cast<BarrierOp>(op))
    return b.getDeps();
  return {};
}

/// Does `op` wait (transitively, through tokens) for `writer`?
bool dependsOn(Operation *op, Operation *writer,
               const DenseMap<Operation *, int64_t> &index) {
  // Tokens are SSA values in one block: every dependency comes earlier in
  // program order, so nothing before the writer can lead to it (the search
  // stays between the two ops).
  int64_t floor = index.lookup(writer);
  SmallVector<Operation *> stack{op};
  DenseSet<Operation *> seen;
  while (!stack.empty()) {
    Operation *o = stack.pop_back_val();
    for (Value t : depsOf(o)) {
      Operation *d = t.getDefiningOp();
      if (!d)
        continue;
      if (d == writer)
        return true;
      if (index.lookup(d) < floor || !seen.insert(d).second)
        continue;
      stack.push_back(d);
    }
  }
  return false;
}

/// Fails on the first buffer of `lives` (in allocation order) whose bytes
/// and units overlap those of a buffer still live, in memory `mem`.
///
/// A sweep in allocation order over the live set, indexed by unit range and
/// then by address: a buffer is compared only with live buffers of the unit
/// ranges that overlap its own, from as far back in address as the longest
/// of them reaches. Retiring by end of life keeps the live set small; the
/// range index keeps resident weights, which live from the start at the same
/// addresses of many disjoint unit ranges (PE rectangles), from making the
/// sweep quadratic.
LogicalResult checkOverlaps(StringRef mem, std::vector<Live> &lives) {
  struct Range {
    Range(int64_t lo, int64_t hi) : lo(lo), hi(hi) {}
    int64_t lo, hi, longest = 0;
    std::multimap<int64_t, Live *> byAddress;
    SmallVector<int, 2> overlapping; // ranges sharing a unit, itself included
  };
  std::map<std::pair<int64_t, int64_t>, int> rangeIndex;
  for (const Live &l : lives)
    rangeIndex.try_emplace({l.uLo, l.uHi}, 0);
  std::vector<Range> ranges;
  for (auto &[lohi, idx] : rangeIndex) {
    idx = int(ranges.size());
    ranges.emplace_back(lohi.first, lohi.second);
  }
  // Ranges in order of their first unit; `open` holds those reaching it.
  std::vector<int> open;
  for (int i = 0, e = int(ranges.size()); i < e; ++i) {
    llvm::erase_if(open, [&](int j) { return ranges[j].hi <= ranges[i].lo; });
    ranges[i].overlapping.push_back(i);
    for (int j : open) {
      ranges[i].overlapping.push_back(j);
      ranges[j].overlapping.push_back(i);
    }
    open.push_back(i);
  }
  std::vector<int> rangeOf;
  rangeOf.reserve(lives.size());
  for (const Live &l : lives) {
    rangeOf.push_back(rangeIndex.at({l.uLo, l.uHi}));
    Range &r = ranges[rangeOf.back()];
    r.longest = std::max(r.longest, l.hi - l.lo);
  }

  std::multimap<int64_t, std::pair<int, std::multimap<int64_t, Live *>::iterator>>
      byLast;
  for (size_t n = 0; n < lives.size(); ++n) {
    Live &l = lives[n];
    while (!byLast.empty() && byLast.begin()->first < l.first) {
      auto [r, it] = byLast.begin()->second;
      ranges[r].byAddress.erase(it);
      byLast.erase(byLast.begin());
    }
    // The clash lowest in memory, whatever its range.
    Live *clash = nullptr;
    for (int r : ranges[rangeOf[n]].overlapping) {
      const Range &range = ranges[r];
      for (auto it = range.byAddress.lower_bound(l.lo - range.longest);
           it != range.byAddress.end() && it->first < l.hi; ++it) {
        Live *a = it->second;
        if (l.lo < a->hi && a->lo < l.hi && l.uLo < a->uHi && a->uLo < l.uHi) {
          if (!clash || a->lo < clash->lo)
            clash = a;
          break;
        }
      }
    }
    if (clash) {
      auto diag = l.op->emitOpError("bytes [")
                  << l.lo << ", " << l.hi << ") of " << mem
                  << (l.uLo >= 0 ? " (unit " +
                                       std::to_string(std::max(l.uLo, clash->uLo)) +
                                       ")"
                                 : std::string())
                  << " overlap a live buffer at [" << clash->lo << ", "
                  << clash->hi << ")";
      diag.attachNote(clash->op->getLoc()) << "the live buffer";
      return diag;
    }
    int r = rangeOf[n];
    byLast.emplace(l.last, std::make_pair(r, ranges[r].byAddress.emplace(l.lo, &l)));
  }
  return success();
}

std::optional<std::pair<int64_t, int64_t>> interval(Operation *op) {
  std::optional<uint64_t> start, cycles;
  if (auto d = dyn_cast<DmaOp>(op))
    start = d.getStart(), cycles = d.getCycles();
  else if (auto c = dyn_cast<ComputeOp>(op))
    start = c.getStart(), cycles = c.getCycles();
  if (!start || !cycles)
    return std::nullopt;
  return std::make_pair((int64_t)*start, (int64_t)*start + (int64_t)*cycles);
}
} // namespace

LogicalResult ProgramOp::verifyRegions() {
  TargetAttr target = getTarget();
  Block &block = getBlock();
  DenseMap<Operation *, int64_t> index;
  int64_t i = 0;
  for (Operation &op : block)
    index[&op] = i++;

  // Capacity, and live ranges per (memory, chip) over bytes and units.
  int64_t chips = getChips() ? int64_t(*getChips()) : 1;
  if (std::optional<ArrayRef<int64_t>> inputs = getInputChips()) {
    if (int64_t(inputs->size()) != int64_t(block.getNumArguments()))
      return emitOpError("input_chips names ")
             << inputs->size() << " chips for " << block.getNumArguments()
             << " inputs";
    for (auto [n, c] : llvm::enumerate(*inputs))
      if (c < 0 || c >= chips)
        return emitOpError("input ")
               << n << " arrives on chip " << c << ", which does not exist (program spans "
               << chips << ")";
  }
  std::map<std::pair<std::string, int64_t>, std::vector<Live>> groups;
  for (Operation &op : block) {
    std::optional<Placement> p = placementOf(&op);
    if (!p)
      continue;
    StringRef mem = p->type.getMemory();
    auto cap = target.getLevels().getAs<IntegerAttr>(mem);
    if (!cap)
      return op.emitOpError("memory '") << mem << "' is not a level of target '"
                                        << target.getName() << "'";
    int64_t lo = p->offset, hi = lo + p->size;
    if (hi > cap.getInt())
      return op.emitOpError("bytes [")
             << lo << ", " << hi << ") exceed the " << cap.getInt()
             << "-byte capacity of " << mem;
    if (p->unitEnd > target.getUnits() || p->unitEnd <= p->unit)
      return op.emitOpError("units [")
             << p->unit << ", " << p->unitEnd << ") do not exist (target has "
             << target.getUnits() << ")";
    if (p->chip < 0 || p->chip >= chips)
      return op.emitOpError("chip ") << p->chip << " does not exist (program spans "
                                     << chips << ")";
    int64_t last = index[&op];
    for (Operation *user : op.getUsers())
      last = std::max(last, index.lookup(user));
    // Weights and constants are resident from the start.
    bool resident = isa<WeightOp>(op) ||
                    (isa<AllocOp>(op) && cast<AllocOp>(op).getInit());
    int64_t first = resident ? -1 : index[&op];
    groups[{mem.str(), p->chip}].push_back(
        {&op, first, last, lo, hi, p->unit, p->unitEnd});
  }
  for (auto &[key, lives] : groups)
    if (failed(checkOverlaps(key.first, lives)))
      return failure();

  // Every read follows a write; in a static plan, one it waits for: the
  // last op that wrote the whole buffer, and every one that wrote a region
  // of it since (the pieces of a result assembled in place).
  DenseMap<Value, SmallVector<Operation *, 1>> writers;
  for (BlockArgument arg : block.getArguments())
    writers[arg] = {};
  for (Operation &op : block)
    if (isa<WeightOp>(op) || (isa<AllocOp>(op) && cast<AllocOp>(op).getInit()))
      writers[op.getResult(0)] = {};
  bool isStatic = target.getStaticPlan();
  for (Operation &op : block) {
    SmallVector<Value> reads, writes;
    accesses(&op, reads, writes);
    for (Value r : reads) {
      auto it = writers.find(r);
      if (it == writers.end())
        return op.emitOpError("reads a buffer before anything writes it");
      for (Operation *w : it->second)
        if (isStatic && !dependsOn(&op, w, index)) {
          auto diag = op.emitOpError(
              "scheduling conflict: reads a buffer without waiting for the op "
              "that writes it");
          diag.attachNote(w->getLoc()) << "the writer";
          return diag;
        }
    }
    auto c = dyn_cast<ComputeOp>(op);
    for (auto [o, w] : llvm::enumerate(writes)) {
      if (c && !writesWhole(c, int64_t(o))) {
        writers[w].push_back(&op);
        continue;
      }
      writers[w] = {&op};
    }
  }

  if (!isStatic)
    return success();
  // A static plan: every op has a start cycle, and no unit or engine runs
  // two ops at once.
  struct Busy {
    Operation *op;
    int64_t start, end, resLo, resHi;
    bool dma;
    int64_t chip;
  };
  std::vector<Busy> busy;
  for (Operation &op : block) {
    if (!isa<DmaOp, ComputeOp>(op))
      continue;
    auto iv = interval(&op);
    if (!iv)
      return op.emitOpError("a static plan needs 'start' and 'cycles'");
    if (auto d = dyn_cast<DmaOp>(op))
      busy.push_back({&op, iv->first, iv->second, (int64_t)d.getEngine(),
                      (int64_t)d.getEngine() + 1, true,
                      d.getChip() ? int64_t(*d.getChip()) : 0});
    else {
      auto c = cast<ComputeOp>(op);
      busy.push_back({&op, iv->first, iv->second, (int64_t)c.getUnitBegin(),
                      (int64_t)c.getUnitEnd(), false,
                      c.getChip() ? int64_t(*c.getChip()) : 0});
    }
  }
  llvm::stable_sort(busy, [](const Busy &a, const Busy &b) { return a.start < b.start; });
  std::vector<Busy *> running;
  for (Busy &b : busy) {
    llvm::erase_if(running, [&](Busy *r) { return r->end <= b.start; });
    for (Busy *r : running)
      if (r->dma == b.dma && r->chip == b.chip && b.resLo < r->resHi && r->resLo < b.resHi &&
          b.start < r->end) {
        auto name = [](Operation *op) {
          if (auto c = dyn_cast<ComputeOp>(op))
            return "'" + c.getKernel().str() + "'";
          return std::string("a DMA");
        };
        auto diag = b.op->emitOpError("scheduling conflict: ")
                    << (b.dma ? "DMA engine " : "units ") << b.resLo
                    << (b.dma ? "" : ".." + std::to_string(b.resHi - 1))
                    << " busy with " << name(r->op) << " during cycles ["
                    << b.start << ", " << std::min(b.end, r->end) << ")";
        diag.attachNote(r->op->getLoc()) << "the other op, " << name(r->op);
        return diag;
      }
    running.push_back(&b);
  }
  return success();
}
