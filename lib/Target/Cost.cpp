//===- Cost.cpp - time of work and transfers on a target --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Target/Cost.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace dfa::target;


double dfa::target::kernelUnits(const Target &t, int64_t planned) {
  return t.caps.placement == Placement::ChipPartition ? t.units.value
                                                      : double(planned);
}

double dfa::target::unitShare(const Target &t, int64_t planned) {
  return std::clamp(kernelUnits(t, std::max<int64_t>(planned, 1)) /
                        std::max(1.0, t.units.value),
                    1e-9, 1.0);
}

std::pair<int64_t, int64_t> dfa::target::peRectangle(const Target &t,
                                                     int64_t pes) {
  int64_t fabricW = 757, fabricH = 996;
  if (const llvm::json::Array *a = t.layout.getArray("fabric_dims"))
    if (a->size() == 2) {
      fabricW = int64_t((*a)[0].getAsNumber().value_or(757));
      fabricH = int64_t((*a)[1].getAsNumber().value_or(996));
    }
  pes = std::max<int64_t>(pes, 1);
  int64_t h = std::min<int64_t>(fabricH, int64_t(std::ceil(std::sqrt(double(pes)))));
  int64_t w = std::min<int64_t>(fabricW, (pes + h - 1) / h);
  return {w, h};
}

int64_t dfa::target::rectangleHops(const Target &t, int64_t units) {
  auto [w, h] = peRectangle(t, units);
  return w + h;
}

double dfa::target::kernelOverheadSeconds(const Target &t, bool layerPipeline,
                                          int64_t units) {
  if (layerPipeline)
    return t.onChip ? double(rectangleHops(t, units)) *
                          t.onChip->latencyNs.value * 1e-9
                    : 0;
  return (t.caps.staticPlan ? t.syncNs.value : t.launchNs.value) * 1e-9;
}

/// A GEMM as a GPU's libraries run it (`compute.matrix_model` "tiled"): the
/// output in CTA tiles (`compute.cta_tiles`), one CTA per SM at a time, each
/// walking K in pipeline stages that fill shared memory. The time follows
/// from the description's quantities alone, for every candidate tile and
/// split of K (the fastest wins, as the library's heuristics aim to):
///  - per k-step, the longest of: the tile's MMAs at the SM's share of the
///    peak; the wave's operand panels from the L2 (a cluster's CTAs share
///    one panel of the operand they have in common); the wave's distinct
///    panels from the outer memory; and the latency-bound rate, a load's
///    round trip over the stages in flight;
///  - tile and wave quantization: whole tiles, whole waves of SMs;
///  - the pipeline fill (the outer memory's latency and the first stage's
///    loads), paid once, and each wave's epilogue (its tiles stored while
///    their SMs wait);
///  - an operand stored MN-major at a width the matrix unit cannot read
///    transposed (Target::readsMnMajor: a Hopper's tf32 or fp8) goes
///    through the SM's registers to be transposed, off the asynchronous
///    copy pipeline: each k-step waits one L2 round trip for it;
///  - a split of K: the slices write their fp32 partial tiles, and the
///    tile's last CTA reads the others back through its SM's share of the
///    L2 (a fixup, as stream-K's and cuBLAS's in-place reduction do);
///  - never faster than the compulsory traffic of the outer memory.
/// Returns nullopt when no tile fits (the caller falls back to the peak).
std::optional<GemmTiling> dfa::target::gemmTiling(const Target &t,
                                                  const Work &w) {
  if (!w.matrix || w.kvLen > 0 || w.m <= 0 || w.n <= 0 || w.k <= 0 ||
      t.caps.matrixModel != MatrixModel::Tiled || !t.ctaTiles)
    return std::nullopt;
  const CtaTiles &tiles = *t.ctaTiles;
  const MemoryLevel *l2 = t.cacheLevel();
  const MemoryLevel &outer = t.outerLevel();
  double sms = std::max(1.0, t.units.value);
  double peakPerSm = peakRate(t, true, w.mathType.empty() ? w.dtype : w.mathType,
                              /*measured=*/false) / sms;
  double l2Bw = l2 ? l2->bandwidthBytesPerS.value : 0;
  double hbmBw = outer.bandwidthBytesPerS.value;
  std::optional<double> smem = t.limit("smem_bytes_per_block_max");
  std::optional<double> regs = t.limit("registers_per_unit");
  if (peakPerSm <= 0 || l2Bw <= 0 || hbmBw <= 0 || !smem || !regs)
    return std::nullopt;
  double eb = std::max(1.0, w.elementBytes),
         ob = w.outputElementBytes > 0 ? w.outputElementBytes : eb;
  double latency = outer.latencyNs.value * 1e-9;
  double l2Latency = (l2 ? l2->latencyNs.value : outer.latencyNs.value) * 1e-9;
  // The width the matrix unit reads from shared memory: TF32's 32 bits,
  // the bf16 emulations of f32 16, a 16- or 8-bit operand its own. IEEE
  // f32 (CUDA cores) and f64 (mma.sync from registers) read no operand
  // through the unit's descriptors: 0, never a wait.
  double mathBits = w.mathType == "tf32"  ? 32
                    : !w.mathType.empty() ? 16
                    : w.elementBytes <= 2 ? 8 * w.elementBytes
                                          : 0;
  double transposeWait =
      w.mnMajorOperand && mathBits > 0 && !t.readsMnMajor(int64_t(mathBits))
          ? l2Latency
          : 0;
  double kt = std::max(1.0, std::floor(double(tiles.kBytes) / eb));
  double b = double(std::max<int64_t>(1, w.batch)), M = double(w.m),
         N = double(w.n), K = double(w.k);
  // IEEE f32 runs on the CUDA cores, with no MMA shape to fill: a product
  // of fewer rows than a tile (a decode step's GEMV) runs as cuBLAS's
  // GEMV-like kernels do, each CTA over all the rows (the next power of
  // two) and a tile's columns, instead of padding its rows to the tile.
  llvm::SmallVector<std::pair<int64_t, int64_t>> shapes(tiles.shapes.begin(),
                                                        tiles.shapes.end());
  if (mathBits == 0 && w.elementBytes == 4)
    for (auto [tmI, tnI] : tiles.shapes)
      if (w.m < tmI)
        shapes.push_back({int64_t(llvm::PowerOf2Ceil(uint64_t(w.m))), tnI});
  std::optional<GemmTiling> best;
  for (auto [tmI, tnI] : shapes) {
    double tm = double(tmI), tn = double(tnI);
    double stageBytes = (tm + tn) * kt * eb;
    double stages = std::floor(*smem / stageBytes);
    // Two stages at least (one loads while one computes); the fp32
    // accumulators in at most half the register file (the rest holds the
    // other consumer's tile, addresses and the epilogue).
    if (stages < 2 || tm * tn * 4 > *regs * 4 / 2)
      continue;
    double mBlocks = std::ceil(M / tm), nBlocks = std::ceil(N / tn);
    double outTiles = b * mBlocks * nBlocks;
    for (double split = 1; split <= 16; split *= 2) {
      double iters = std::ceil(std::ceil(K / split) / kt);
      // A split leaves each CTA a few k-steps at least.
      if (split > 1 && iters < 4)
        break;
      double ctas = outTiles * split;
      double mma = 2 * tm * tn * kt / peakPerSm;
      // One wave of `active` CTAs: its main loop, its MMA time and the
      // bytes it reads from the outer memory. Every full wave is alike.
      struct Wave {
        double main, mma, bytes;
      };
      auto wave = [&](double active) {
        double shared = active >= double(tiles.cluster) ? double(tiles.cluster) : 1;
        double l2Step = active * (tm + tn / shared) * kt * eb / l2Bw;
        // The wave's distinct panels: about a square of its tiles, as long
        // as the tiles have rows (and columns) to make one: a row of tiles
        // (a GEMV's) reads a panel per tile. The K slices of a split are
        // the grid's slowest dim: a wave spans more than one only when
        // every tile of a slice is in it, and each slice reads its own.
        double perSlice = std::min(active, outTiles);
        double slices = std::ceil(active / perSlice);
        double side = std::max(1.0, std::floor(std::sqrt(perSlice)));
        double nDistinct =
            std::min(nBlocks, std::max(side, std::ceil(perSlice / (mBlocks * b))));
        double mDistinct = std::min(mBlocks * b, std::ceil(perSlice / nDistinct));
        double panelBytes = slices * (mDistinct * tm + nDistinct * tn) * kt * eb;
        double outerStep = panelBytes / hbmBw;
        double latencyStep = (latency + std::max(l2Step, outerStep)) / (stages - 1);
        double step = std::max(std::max({mma, l2Step, outerStep}) + transposeWait,
                               latencyStep);
        return Wave{iters * step, iters * mma, iters * panelBytes};
      };
      double fullWaves = std::floor(ctas / sms), rest = ctas - fullWaves * sms;
      Wave full = wave(sms), tail = rest > 0 ? wave(rest) : Wave{0, 0, 0};
      double main = fullWaves * full.main + tail.main;
      double computeOnly = fullWaves * full.mma + tail.mma;
      double outerBytes = fullWaves * full.bytes + tail.bytes;
      double outBytes = b * M * N * ob;
      // A split tile's last CTA to finish reduces it (stream-K's fixup,
      // cuBLAS's in-place scheme): the slices write their fp32 partial
      // tiles at once (one tile's time), then that one SM reads the other
      // split - 1 back, each at its share of the L2's bandwidth, after an
      // L2 round trip to see that they are there. Paid in every wave where
      // tiles finish: each wave, or each tile when a tile spans waves.
      double fixup =
          split > 1 ? split * tm * tn * 4 / (l2Bw / sms) + l2Latency : 0;
      double fill = latency + (tm + tn) * kt * eb * std::min(ctas, sms) / l2Bw;
      // Each wave's epilogue: its tiles leave the SMs together after their
      // main loops, so the wave's output bytes share the outer memory's
      // bandwidth while the tensor cores wait (a CTA holds its SM until
      // its tile is stored). Of a split tile only the last CTA stores it.
      double epilogue = outTiles * tm * tn * ob / hbmBw;
      double memory = (outerBytes + outBytes) / hbmBw;
      double waves = fullWaves + (rest > 0 ? 1 : 0);
      double fixups = split > sms ? outTiles : waves;
      double total =
          std::max(main + fixups * fixup + epilogue, memory) + fill;
      KernelTime k;
      // The compute roof with quantization, fill and epilogue: what the
      // kernel takes when nothing but its MMAs limits it.
      k.compute = computeOnly + fill + epilogue;
      k.memory = total > k.compute * (1 + 1e-9) ? total : memory;
      if (!best || k.seconds() < best->time.seconds())
        best = GemmTiling{int64_t(tm), int64_t(tn), int64_t(kt), int64_t(stages),
                          int64_t(split), int64_t(ctas), k};
    }
  }
  return best;
}

AttentionTile dfa::target::attentionTile(const Target &t, int64_t queries,
                                        int64_t keys, int64_t headDim,
                                        int64_t valueDim, double elementBytes) {
  auto fit = [](int64_t n) {
    return std::min<int64_t>(128, (std::max<int64_t>(n, 1) + 15) / 16 * 16);
  };
  AttentionTile tile{fit(queries), fit(keys), 0};
  double smem = t.limit("smem_bytes_per_block_max").value_or(0);
  double eb = std::max(1.0, elementBytes);
  for (; tile.cols >= 16; tile.cols = tile.cols / 2 / 16 * 16) {
    tile.stages = int64_t(std::floor((smem - double(tile.rows * headDim) * eb) /
                                     (double(tile.cols * (headDim + valueDim)) * eb)));
    if (tile.stages >= 2)
      return tile;
  }
  return {fit(queries), fit(keys), 0};
}

/// Flash attention as a GPU's libraries run it (FlashAttention-2/3,
/// cuDNN), under the tiled model: one CTA per attentionTile() of queries of
/// one (batch, head), one per SM at a time, walking the keys and values in
/// blocks of the tile's columns. Each block is two products on the tensor
/// cores (S = Q K^T, then O += P V) with the block's softmax between them,
/// its exponentials at the special-function rate
/// (`compute.peak_flops_vector.exp`): the softmax of a block depends on its
/// S and feeds its P V, so they add. Each block is also bound by its K and
/// V panels from the L2 and by a load's round trip over the stages in
/// flight; causal attention walks only the blocks up to the diagonal. A
/// decode step's query heads that share a K/V head (`kvGroup`) share one
/// tile. When the (batch, head, query block) CTAs do not fill the SMs the
/// keys are split, as flash decoding does, each split's partial output and
/// softmax statistics written and read back through the L2. Plus the
/// pipeline fill (the outer memory's latency and the query tile) and each
/// wave's output stored. nullopt when the description lacks the
/// quantities or not even 16-key blocks fit two stages.
static std::optional<KernelTime> tiledAttention(const Target &t, const Work &w) {
  const MemoryLevel *l2 = t.cacheLevel();
  const MemoryLevel &outer = t.outerLevel();
  double sms = std::max(1.0, t.units.value);
  double peakPerSm = peakRate(t, true, w.mathType.empty() ? w.dtype : w.mathType,
                              /*measured=*/false) / sms;
  auto exp = t.peakFlopsVector.find("exp");
  double expPerSm = exp != t.peakFlopsVector.end() ? exp->second.value / sms : 0;
  double l2Bw = l2 ? l2->bandwidthBytesPerS.value : 0;
  double hbmBw = outer.bandwidthBytesPerS.value;
  std::optional<double> smem = t.limit("smem_bytes_per_block_max");
  if (peakPerSm <= 0 || l2Bw <= 0 || hbmBw <= 0 || !smem)
    return std::nullopt;
  double eb = std::max(1.0, w.elementBytes),
         ob = w.outputElementBytes > 0 ? w.outputElementBytes : eb;
  double latency = outer.latencyNs.value * 1e-9;
  // A group of query heads sharing one K/V head (GQA) with few queries
  // each (a decode step) packs its queries into one tile, as decode
  // kernels do (FlashAttention-3's PackGQA, TensorRT-LLM's XQA), so each
  // K/V head's blocks are read once for the group.
  double group = double(std::max<int64_t>(1, w.kvGroup));
  bool pack = group > 1 && double(w.m) * group <= 128;
  double sq = double(w.m) * (pack ? group : 1),
         heads = double(std::max<int64_t>(1, w.batch)) / (pack ? group : 1),
         skv = double(w.kvLen), d = double(w.k), dv = double(w.n);
  // A wide head takes narrower key blocks (attentionTile).
  AttentionTile tile = attentionTile(t, int64_t(sq), w.kvLen, w.k, w.n, eb);
  double br = double(tile.rows), bc = double(tile.cols),
         stages = double(tile.stages);
  if (stages < 2)
    return std::nullopt;
  double kvStage = bc * (d + dv) * eb;
  double qBlocks = std::ceil(sq / br), kvBlocks = std::ceil(skv / bc);
  // Key blocks a query block walks, on average: all of them, or (causal:
  // key j for query i when j <= i) those up to its last row.
  double walked = kvBlocks;
  if (w.causal && !pack) {
    double sum = 0;
    for (double i = 0; i < qBlocks; ++i)
      sum += std::ceil(std::min(skv, (i + 1) * br) / bc);
    walked = std::max(1.0, sum / qBlocks);
  } else if (w.causal) {
    walked = std::max(1.0, std::ceil(std::min(skv, double(w.m)) / bc));
  }
  double mma = 2 * br * bc * (d + dv) / peakPerSm;
  double softmax = expPerSm > 0 ? br * bc / expPerSm : 0;
  double outTiles = heads * qBlocks;
  std::optional<KernelTime> best;
  for (double split = 1; split <= 16; split *= 2) {
    double steps = std::ceil(walked / split);
    if (split > 1 && (steps < 4 || outTiles * split / 2 >= sms))
      break;
    double ctas = outTiles * split;
    auto wave = [&](double active) {
      double l2Step = active * kvStage / l2Bw;
      double latencyStep = (latency + l2Step) / (stages - 1);
      return std::pair{steps * std::max({mma + softmax, l2Step, latencyStep}),
                       steps * (mma + softmax)};
    };
    double fullWaves = std::floor(ctas / sms), rest = ctas - fullWaves * sms;
    auto full = wave(sms);
    auto tail = rest > 0 ? wave(rest) : std::pair{0.0, 0.0};
    double main = fullWaves * full.first + tail.first;
    double computeOnly = fullWaves * full.second + tail.second;
    // A split's partial outputs and row statistics (max, sum) in fp32.
    double partials =
        split > 1 ? 2 * (split - 1) * outTiles * br * (dv + 2) * 4 : 0;
    double fill = latency + br * d * eb * std::min(ctas, sms) / l2Bw;
    double epilogue = outTiles * br * dv * ob / hbmBw;
    KernelTime k;
    k.compute = computeOnly + fill + epilogue;
    double total = main + partials / l2Bw + fill + epilogue;
    k.memory = total > k.compute * (1 + 1e-9) ? total : 0;
    if (!best || k.seconds() < best->seconds())
      best = k;
  }
  return best;
}

KernelTime dfa::target::kernelTime(const Target &t, const Work &w) {
  KernelTime time;
  time.memory = w.bandwidth > 0 ? w.bytes / w.bandwidth : 0;
  std::optional<KernelTime> g;
  if (w.kvLen > 0 && w.matrix && w.m > 0 && w.n > 0 && w.k > 0 &&
      t.caps.matrixModel == MatrixModel::Tiled && t.ctaTiles)
    g = tiledAttention(t, w);
  else if (std::optional<GemmTiling> tiling = gemmTiling(t, w))
    g = tiling->time;
  if (g) {
    // Never faster than the kernel's compulsory traffic: its fused
    // operands (a bias, a residual) and per-batch panels count too.
    g->memory = std::max(g->memory, time.memory);
    return *g;
  }
  double share = unitShare(t, w.units);
  // Systolic arrays: weight-stationary folds (SCALE-Sim's closed form).
  // The array is K rows by N columns (`compute.matrix_unit` k and n);
  // `limits.mxu_count` arrays per chip, shared by its units.
  std::optional<double> arraysPerChip = t.limit("mxu_count");
  if (w.matrix && w.kvLen == 0 && w.m > 0 && w.n > 0 && w.k > 0 &&
      t.caps.matrixModel == MatrixModel::Systolic &&
      t.matrixK && t.matrixN && arraysPerChip) {
    double r = t.matrixK->value, c = t.matrixN->value;
    double arrays = std::max(
        1.0, std::floor(*arraysPerChip * share + 0.5));
    // SCALE-Sim v2's stall-free cycles (its COMPUTE_REPORT's total with
    // enough bandwidth): the operands map onto the R x C array as the
    // dataflow says, Sr rows and Sc columns folded over it, T steps each:
    //   ws  Sr = K, Sc = N, T = M: a fold preloads its weights (R), then
    //       streams M rows with skew and drain: 2R + C + M - 2
    //   is  Sr = K, Sc = M, T = N: the inputs stationary, the same form
    //   os  Sr = M, Sc = N, T = K: outputs accumulate in place, no preload:
    //       R + C + K - 2
    // over ceil(Sr/R) * ceil(Sc/C) folds, one after another, less the one
    // cycle SCALE-Sim does not count in a layer: one per product of a
    // batch (a grouped conv's groups are SCALE-Sim's depthwise layers). Pipelined ws: the next fold's weights
    // load while this one streams and rows follow each other through the
    // array, so a fold costs max(R, M) and the fill and drain are paid once.
    double k = double(w.k), n = double(w.n), m = double(w.m);
    double sr = k, sc = n, steps = m, preload = r;
    if (t.systolicModel == "scalesim-is") {
      sc = m;
      steps = n;
    } else if (t.systolicModel == "scalesim-os") {
      sr = m;
      steps = k;
      preload = 0;
    }
    // A math type other than the operands' (--fp32-matmul) runs as
    // several passes of the array, as many as its peak is below theirs:
    // bf16x3 is three bf16 products (XLA's HIGH precision on a TPU).
    double passes = 1;
    if (!w.mathType.empty()) {
      double rate = peakRate(t, true, w.mathType);
      if (rate > 0)
        passes = std::max(1.0, std::round(t.peak(w.dtype) / rate));
    }
    double folds = passes * double(w.batch) * std::ceil(sr / r) * std::ceil(sc / c);
    double perArray = std::ceil(folds / arrays);
    double cycles = t.systolicModel == "pipelined-ws"
                        ? perArray * std::max(r, m) + (r + c - 2)
                        : perArray * (preload + r + c + steps - 2) -
                              std::ceil(passes * double(w.batch) / arrays);
    time.compute = cycles / std::max(1.0, t.clockHz.value);
    return time;
  }
  double peak = peakRate(t, w.matrix,
                         w.matrix && !w.mathType.empty() ? w.mathType : w.dtype);
  time.compute = peak > 0 ? w.flops / (peak * share) : 0;
  return time;
}

double dfa::target::peakRate(const Target &t, bool matrix,
                             llvm::StringRef dtype, bool measured) {
  // Vector work runs at the published vector rate where there is one, else
  // at the matrix peak (an optimistic bound; such kernels are memory-bound).
  // bf16x3 (--fp32-matmul) is three bf16 products.
  double peak = matrix && dtype == "bf16x3" ? t.peak("bf16") / 3 : t.peak(dtype);
  if (!matrix) {
    auto it = t.peakFlopsVector.find(peakKey(dtype));
    if (it == t.peakFlopsVector.end())
      it = t.peakFlopsVector.find("f32");
    if (it != t.peakFlopsVector.end())
      peak = it->second.value;
  } else if (measured && t.matrixEfficiency) {
    peak *= t.matrixEfficiency->value;
  }
  return peak;
}

double dfa::target::computeSeconds(const Target &t, const Work &w) {
  return kernelTime(t, w).seconds();
}

double dfa::target::bandwidthOf(const MemoryLevel &m, int64_t units) {
  return m.bandwidthBytesPerS.value *
         (m.scope == "unit" ? double(std::max<int64_t>(units, 1)) : 1.0);
}

TransferPath dfa::target::transferPath(const Target &t, const MemoryLevel &src,
                                       int64_t srcUnits, const MemoryLevel &dst,
                                       int64_t dstUnits, bool crossChip) {
  TransferPath p;
  p.dma = src.kind == "dram" || dst.kind == "dram";
  // The host's memory is reached over the host link of the chip that
  // copies (each chip has its own), whichever chip's buffer it is.
  if (const MemoryLevel *host = t.hostLevel();
      host && (&src == host || &dst == host)) {
    p.kind = TransferPath::Memory;
    p.sourceBound = &src == host;
    p.level = host;
    p.bandwidth = host->bandwidthBytesPerS.value;
    p.latencyNs = host->latencyNs.value;
    return p;
  }
  if (crossChip && t.chipToChip) {
    p.kind = TransferPath::Link;
    p.bandwidth = t.chipToChip->bandwidthBytesPerS.value;
    p.latencyNs = t.chipToChip->latencyNs.value;
    return p;
  }
  if (&src == &dst && t.onChip) {
    p.kind = TransferPath::Fabric;
    p.bandwidth = t.onChip->bandwidthBytesPerS.value;
    p.latencyNs = t.onChip->latencyNs.value;
    return p;
  }
  // A per-unit memory moves its bytes through every unit the buffer spans.
  double a = bandwidthOf(src, srcUnits), b = bandwidthOf(dst, dstUnits);
  p.kind = TransferPath::Memory;
  p.sourceBound = a <= b;
  p.level = p.sourceBound ? &src : &dst;
  p.bandwidth = std::min(a, b);
  // The farther memory's latency, whichever side bounds the bandwidth.
  p.latencyNs = std::max(src.latencyNs.value, dst.latencyNs.value);
  return p;
}

std::optional<TransferPath> dfa::target::hostPath(const Target &t) {
  if (!t.host)
    return std::nullopt;
  TransferPath p;
  p.kind = TransferPath::Host;
  p.level = &t.outerLevel();
  p.bandwidth = t.host->bandwidthBytesPerS.value;
  // The link's latency is the whole fixed cost: the device's DMA setup is
  // for its own engines.
  p.latencyNs = t.host->latencyNs.value;
  return p;
}

int64_t dfa::target::collectiveSteps(const Collective &c) {
  int64_t n = std::max<int64_t>(1, c.chips);
  return (c.kind == Collective::AllReduce ? 2 : 1) * (n - 1);
}

double dfa::target::collectiveLinkBytes(const Collective &c) {
  return double(collectiveSteps(c)) * c.bytes /
         double(std::max<int64_t>(1, c.chips));
}

double dfa::target::collectiveBandwidth(const Target &t) {
  if (!t.chipToChip)
    return 0;
  return std::max(1.0, t.chipToChip->collectiveLinks.value) *
         t.chipToChip->bandwidthBytesPerS.value;
}

double dfa::target::collectiveSeconds(const Target &t, const Collective &c) {
  double bw = collectiveBandwidth(t);
  if (c.chips < 2 || bw <= 0)
    return 0;
  return double(collectiveSteps(c)) * t.chipToChip->latencyNs.value * 1e-9 +
         collectiveLinkBytes(c) / bw;
}

double dfa::target::transferSeconds(const Target &t, const TransferPath &path,
                                    double bytes) {
  double s = ((path.dma ? t.dmaSetupNs.value : 0) + path.latencyNs) * 1e-9;
  if (path.bandwidth > 0)
    s += bytes / path.bandwidth;
  return s;
}

int64_t dfa::target::toCycles(const Target &t, double seconds) {
  // A whole number of cycles that went through seconds and back (a
  // systolic model's count) stays that number: ceil would take a rounding
  // error of 1e-13 for one more cycle.
  double cycles = seconds * t.clockHz.value;
  double nearest = std::round(cycles);
  if (std::abs(cycles - nearest) <= std::min(1e-6, 1e-9 * std::max(1.0, nearest)))
    cycles = nearest;
  return std::max<int64_t>(1, int64_t(std::ceil(cycles)));
}
