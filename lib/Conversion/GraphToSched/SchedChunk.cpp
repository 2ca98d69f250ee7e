//===- SchedChunk.cpp - kernels run as chunks through the scratchpad ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A kernel whose operands do not fit half the scratchpad (TPU VMEM, Spyre
// LX) runs as chunks along one dim of its output, as XLA and the Spyre
// compiler tile a loop nest: the operands the split does not touch (a
// weight when the rows are split) are staged once; for each chunk, the
// slices of the others are copied in, the chunk computed and copied out.
// The arena's write-after-read tokens let chunk i+1's copies run while
// chunk i computes, when two chunks fit: double buffering. Where the
// compiler double-buffers every staged kernel (compiler.double_buffering:
// XLA on a TPU pipelines its HBM<->VMEM copies with the MXU's work), a
// kernel that fits whole runs as chunks too, when the pipeline is faster,
// and the count is the one the pipeline runs fastest in: more chunks
// expose less of the first copy-in and the last compute and copy-out, and
// pay each chunk's copy latencies and synchronization once more.
//
//===----------------------------------------------------------------------===//

#include "SchedLowering.h"

#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace dfa;
using namespace dfa::lowering;

/// At most this many chunks per kernel: beyond it the program would be
/// larger than the work it describes.
static constexpr int64_t kMaxChunks = 4096;

/// Seconds of a kernel run as `n` chunks through the scratchpad: the
/// operands every chunk shares copied in first and the last copy-out's
/// latency (`first`), then a pipeline whose steady state is the slower of
/// a chunk's copies (`copy`, in and out) and its compute (`compute`), the
/// first chunk's copy-in and the last one's compute and copy-out exposed,
/// and `perChunk` paid by every chunk (one latency of its copies, which
/// run together and overlap theirs, as the simulator runs them, and its
/// compute's synchronization). n = 1 is the kernel run whole: everything
/// in series.
static double pipelineSeconds(double first, double copy, double compute,
                              double perChunk, int64_t n) {
  return first + double(n - 1) * std::max(copy, compute) + copy + compute +
         double(n) * perChunk;
}

/// The work of one of `count` chunks of a kernel whose whole work is `w`,
/// split as `split` says: its share of the FLOPs and bytes, and of the
/// GEMM dim the split cuts in the product's result (for a matmul: its
/// columns are N, its rows M, as is every leading dim when the right-hand
/// side is shared, other leading dims the batch; a gemm's rows M and
/// columns N; a convolution's output channels N, its other dims M), whose
/// fill and drain each chunk pays again.
static target::Work chunkWork(target::Work w, Block &body,
                              const KernelSplit &split, int64_t count) {
  w.flops /= double(count);
  w.bytes /= double(count);
  if (!w.matrix || w.m == 0)
    return w;
  for (Operation &op : body) {
    if (!gemmShape(&op))
      continue;
    int64_t d = split.dim(op.getResult(0));
    int64_t rank = cast<RankedTensorType>(op.getResult(0).getType()).getRank();
    if (d < 0)
      break;
    if (isa<ConvOp>(op) ? d == 1 : d == rank - 1)
      w.n = ceilDiv(w.n, count);
    else if (isa<MatMulOp>(op) && !sharesRhs(&op) && d < rank - 2)
      w.batch = ceilDiv(w.batch, count);
    else
      w.m = ceilDiv(w.m, count);
    break;
  }
  return w;
}

std::optional<Lowering::ChunkChoice>
Lowering::chooseChunks(KernelOp k, const KernelPlan &p, bool fits) {
  if (!scratch || k.getOutputs().size() != 1)
    return std::nullopt;
  Value out = k.getOutputs()[0];
  auto ot = cast<RankedTensorType>(out.getType());
  int64_t units = std::max<int64_t>(1, p.unitEnd - p.unitBegin);
  double cap = scratch->capacityBytes.value;
  // What a buffer takes in the scratchpad's arena: its share of each unit,
  // rounded up to the buffer alignment as the arena places it.
  auto perUnit = [&](int64_t bytes) {
    return t.placedShare(bytes, scratch->scope == "unit" ? units : 1);
  };
  Block &body = k.getBlock();
  // The pipeline's terms (double buffering): copies at the outer memory's
  // pace and latency, compute at the cost model's from the scratchpad.
  bool pipelined = t.caps.doubleBuffering;
  double outerBw = std::max(1.0, target::bandwidthOf(*outer, units));
  double copyLatency = target::transferSeconds(
      t, target::transferPath(t, *outer, units, *scratch, units, false), 0);
  double perChunk = copyLatency + target::kernelOverheadSeconds(t, false, units);
  target::Work work;
  double kernelBytes = 0, wholeCompute = 0;
  if (pipelined) {
    kernelBytes = double(layoutOf(out).bytes);
    for (Value v : k.getInputs())
      kernelBytes += double(layoutOf(v).bytes);
    work = workOf(k, p, body, kernelBytes, *scratch);
    wholeCompute = target::kernelTime(t, work).seconds();
  }
  std::optional<ChunkChoice> best;
  double bestSeconds = 0;
  if (pipelined && fits)
    // Run whole: every copy in series with the compute.
    bestSeconds = pipelineSeconds(copyLatency, kernelBytes / outerBw,
                                  wholeCompute, perChunk, 1);
  for (int64_t d = 0; d < ot.getRank(); ++d) {
    int64_t D = ot.getDimSize(d);
    if (D < 2)
      continue;
    std::optional<KernelSplit> split = splitKernel(k, d);
    if (!split)
      continue;
    int64_t fixed = 0;
    double wholeBytes = 0, slicedBytes = double(layoutOf(out).bytes);
    for (auto [arg, v] : llvm::zip(body.getArguments(), k.getInputs()))
      if (split->dim(arg) < 0) {
        fixed += perUnit(layoutOf(v).bytes);
        wholeBytes += double(layoutOf(v).bytes);
      } else {
        slicedBytes += double(layoutOf(v).bytes);
      }
    auto sliceBytes = [&](Value v, int64_t dim, int64_t e) {
      auto ct = chunkType(cast<RankedTensorType>(v.getType()), dim, e);
      return perUnit(layoutOf(v, ct).bytes);
    };
    // Whole operands plus two chunks in flight.
    auto fitsExtent = [&](int64_t e) {
      int64_t n = sliceBytes(out, d, e);
      for (auto [arg, v] : llvm::zip(body.getArguments(), k.getInputs()))
        if (int64_t dim = split->dim(arg); dim >= 0)
          n += sliceBytes(v, dim, e);
      return double(fixed) + 2.0 * double(n) <= cap;
    };
    int64_t g = layoutOf(out).granule(d);
    auto extent = [&](int64_t granules) { return std::min(granules * g, D); };
    if (!fitsExtent(extent(1)))
      continue;
    // The largest extent that fits (the bytes grow with it), in at least
    // two chunks so that copies overlap compute.
    int64_t lo = 1, hi = std::max<int64_t>(1, ceilDiv(ceilDiv(D, 2), g));
    while (lo < hi) {
      int64_t mid = lo + (hi - lo + 1) / 2;
      if (fitsExtent(extent(mid)))
        lo = mid;
      else
        hi = mid - 1;
    }
    // A split of a matrix kernel's output columns (conv: output channels)
    // wins a tie: each chunk loads only its own weights instead of every
    // chunk reloading all of them.
    bool columns = d == (k.getKindEnum() == KernelKind::Conv ? 1 : ot.getRank() - 1);
    if (!pipelined) {
      // Fewest chunks; on a tie, the columns.
      int64_t e = extent(lo), count = ceilDiv(D, e);
      if (count > kMaxChunks || (best && (count > best->count ||
                                          (count == best->count && !columns))))
        continue;
      best = ChunkChoice{std::move(*split), e, count, columns};
      continue;
    }
    // The count the pipeline runs fastest in, from the fewest chunks that
    // fit (extent lo) to one granule each, in steps of two, and around the
    // optimum of the continuous model, sqrt(exposed / per chunk).
    double copies = slicedBytes / outerBw;
    int64_t fewest = ceilDiv(D, extent(lo)), most = ceilDiv(D, g);
    if (fewest > kMaxChunks)
      continue;
    SmallVector<int64_t> counts{fewest, most};
    for (int64_t n = fewest; n < most; n *= 2)
      counts.push_back(n);
    double exposed = std::min(copies, wholeCompute);
    int64_t ideal = int64_t(std::sqrt(exposed / std::max(perChunk, 1e-12)));
    counts.append({ideal, ideal + 1});
    for (int64_t n : counts) {
      n = std::clamp<int64_t>(n, fewest, std::min(most, kMaxChunks));
      int64_t e = extent(ceilDiv(ceilDiv(D, n), g)), count = ceilDiv(D, e);
      if (count < 2 || count > kMaxChunks)
        continue;
      double compute =
          target::kernelTime(t, chunkWork(work, body, *split, count)).seconds();
      double seconds = pipelineSeconds(wholeBytes / outerBw + copyLatency,
                                       copies / double(count), compute,
                                       perChunk, count);
      bool tie = std::abs(seconds - bestSeconds) <= 1e-9 * bestSeconds;
      bool better = !best || (seconds < bestSeconds && !tie) ||
                    (tie && columns && !best->columns);
      if (fits && !best && seconds >= bestSeconds)
        better = false;
      if (!better)
        continue;
      best = ChunkChoice{*split, e, count, columns};
      bestSeconds = seconds;
    }
  }
  return best;
}

LogicalResult Lowering::emitChunked(KernelOp k, const KernelPlan &p,
                                    const ChunkChoice &c,
                                    const DenseMap<Value, int64_t> &lastUse,
                                    int64_t index) {
  Location loc = k.getLoc();
  Value out = k.getOutputs()[0];
  auto ot = cast<RankedTensorType>(out.getType());
  int64_t d = c.split.outDim, D = ot.getDimSize(d);
  Block &body = k.getBlock();
  if (opts.remarks)
    emitRemark(loc) << "kernel '" << k.getSymName() << "': " << c.count
                    << " chunks of " << c.extent << " along dim " << d
                    << " through " << scratch->name;

  // Operands the split does not touch: staged once for every chunk.
  SmallVector<Value> whole(k.getInputs().size()), wholeDeps;
  SmallVector<std::pair<Home, Value>> temps;
  for (auto [i, arg, v] :
       llvm::enumerate(body.getArguments(), k.getInputs())) {
    if (c.split.dim(arg) >= 0)
      continue;
    llvm::SaveAndRestore<double> part(operandPart, graph::readFraction(arg));
    FailureOr<Value> buf = operand(loc, v, p, wholeDeps, temps, true);
    if (failed(buf))
      return failure();
    whole[i] = *buf;
  }
  SmallVector<Value> outReuse;
  FailureOr<Home> result =
      place(loc, resultLevel(k, 0), out, p.chip, p.unitBegin, p.unitEnd,
            outReuse);
  if (failed(result))
    return failure();

  Value lastStore;
  SmallVector<Value> computes;
  // A chunk's buffers are freed only once the next chunk's are placed, so
  // the two never share bytes: chunk j+1's copies run during chunk j.
  SmallVector<Home> previous;
  for (int64_t j = 0; j < c.count; ++j) {
    int64_t start = j * c.extent, ext = std::min(c.extent, D - start);
    SmallVector<Value> deps(wholeDeps), ins;
    SmallVector<Home> slices;
    for (auto [i, arg, v] :
         llvm::enumerate(body.getArguments(), k.getInputs())) {
      int64_t dim = c.split.dim(arg);
      if (dim < 0) {
        ins.push_back(whole[i]);
        continue;
      }
      Home &src = homeFor(v, p);
      auto ct = chunkType(cast<RankedTensorType>(v.getType()), dim, ext);
      TensorLayout layout = layoutOf(v, ct);
      SmallVector<Value> dmaDeps;
      FailureOr<Home> h = placeType(loc, *scratch, ct, layout, p.chip,
                                    p.unitBegin, p.unitEnd, dmaDeps);
      if (failed(h))
        return failure();
      if (src.token)
        dmaDeps.push_back(src.token);
      SmallVector<int64_t> from(ct.getRank(), 0), to(ct.getRank(), 0);
      SmallVector<int64_t> sizes(ct.getShape());
      plantFaults(ct, layout, sizes);
      from[dim] = start;
      Value done = dmaRegion(
          loc, src.buffer, h->buffer, from, to, sizes,
          int64_t(std::ceil(double(layout.bytes) * graph::readFraction(arg))), dmaDeps,
          kLoadEngine, p.chip);
      src.readers.push_back(done);
      h->token = done;
      deps.push_back(done);
      ins.push_back(h->buffer);
      slices.push_back(*h);
    }
    auto oct = chunkType(ot, d, ext);
    TensorLayout olayout = layoutOf(out, oct);
    FailureOr<Home> oh = placeType(loc, *scratch, oct, olayout, p.chip,
                                   p.unitBegin, p.unitEnd, deps);
    if (failed(oh))
      return failure();
    for (Home &h : previous)
      release(h);
    previous.clear();
    auto compute = buildCompute(k, p, ins, oh->buffer, deps, &c.split, ext);
    compute->setAttr("chunk", b.getI64IntegerAttr(j));
    compute->setAttr("chunks", b.getI64IntegerAttr(c.count));
    timeKernel(k, p, compute, *scratch, double(ext) / double(D));
    Value done = compute.getDone();
    computes.push_back(done);
    for (Home &h : slices) {
      h.readers.push_back(done);
      previous.push_back(h);
    }
    // Stores chain, so the last one's token says the whole result is home.
    SmallVector<Value> storeDeps{done};
    if (lastStore)
      storeDeps.push_back(lastStore);
    else
      storeDeps.append(outReuse.begin(), outReuse.end());
    SmallVector<int64_t> from(oct.getRank(), 0), to(oct.getRank(), 0);
    SmallVector<int64_t> sizes(oct.getShape());
    plantFaults(oct, olayout, sizes);
    to[d] = start;
    lastStore = dmaRegion(loc, oh->buffer, result->buffer, from, to, sizes,
                          olayout.bytes, storeDeps,
                          kStoreEngine, p.chip);
    oh->token = done;
    oh->readers.push_back(lastStore);
    previous.push_back(*oh);
  }
  for (Home &h : previous)
    release(h);
  for (auto &[tmp, unused] : temps) {
    tmp.readers.append(computes.begin(), computes.end());
    release(tmp);
  }
  result->token = lastStore;
  homes[out] = *result;
  stats.chunked.push_back({k.getSymName().str(), d, c.count, c.extent});
  releaseDead(k, lastUse, index);
  return success();
}
