//===- Tile.cpp - choose each kernel's tiles and units ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Per kernel, by the description's tiling scheme (`compiler.tiling`,
// design §6):
//   cta            (GPU) a GEMM's CTA tile, stages and split of K as the
//                  tiled model times them (target::gemmTiling, from
//                  compute.cta_tiles; without them layout.cta_tile shrunk
//                  until two stages fit a block's shared memory), flash
//                  attention's query tile (target::attentionTile), a grid
//                  and its waves over the SMs
//   mxu            (TPU) tiles in multiples of the (8,128) layout tile and
//                  the 128x128 MXU, double-buffered in VMEM
//   pe-rectangles  (WSE) a rectangle of PEs sized to the kernel's share of
//                  the work, and big enough to hold its weights
//   mxm-planes     (LPU) 320x320 MXM weight planes, 320-element vectors
//   core-split     (Spyre) a split over the cores in whole sticks; the
//                  per-core span must stay within max_span_bytes_per_core
//   single         (CPU) one tile on one unit
//
//===----------------------------------------------------------------------===//

#include "dfa/Support/MathExtras.h"
#include "dfa/Target/Cost.h"
#include "dfa/Transforms/TargetModel.h"

#include "dfa/Transforms/Passes.h"

#include "dialects/Graph/GraphOps.h"

#include "mlir/IR/Builders.h"

#include <cmath>

namespace dfa {
#define GEN_PASS_DEF_GRAPHTILEPASS
#include "dfa/Transforms/Passes.h.inc"
} // namespace dfa

using namespace mlir;
using namespace dfa;
using namespace dfa::graph;

namespace {

/// The op that decides a kernel's iteration space: its first anchor, or
/// the producer of its first output.
Operation *anchorOf(KernelOp k) {
  for (Operation &op : k.getBlock())
    if (isAnchor(classify(&op)))
      return &op;
  auto yield = cast<YieldOp>(k.getBlock().getTerminator());
  if (!yield.getValues().empty())
    if (Operation *def = yield.getValues()[0].getDefiningOp())
      return def;
  return nullptr;
}

int64_t outputElements(KernelOp k) {
  int64_t n = 0;
  for (Value v : k.getOutputs())
    n = std::max(n, cast<RankedTensorType>(v.getType()).getNumElements());
  return std::max<int64_t>(n, 1);
}

int64_t ioBytes(KernelOp k) {
  int64_t b = 0;
  for (Value v : k.getInputs())
    b += tensorBytes(v.getType());
  for (Value v : k.getOutputs())
    b += tensorBytes(v.getType());
  return b;
}

int64_t weightBytes(KernelOp k) {
  int64_t b = 0;
  for (Value v : k.getInputs())
    if (isa_and_nonnull<WeightOp, ConstantOp>(v.getDefiningOp()))
      b += tensorBytes(v.getType());
  return b;
}

/// Bytes of one element of the kernel's arithmetic (its product's
/// operands', graph::arithmeticType), which its tiles hold.
int64_t elemBytesOf(KernelOp k) {
  Type t = k.getOutputs().empty()
               ? Type(Float32Type::get(k.getContext()))
               : cast<RankedTensorType>(k.getOutputs()[0].getType()).getElementType();
  return elementBytes(arithmeticType(k.getBlock(), t));
}

struct Tiler {
  const target::Target &t;
  Builder b;
  int64_t units;
  double totalFlops = 1;

  void set(KernelOp k, StringRef name, int64_t v) {
    k->setAttr(name, b.getI64IntegerAttr(v));
  }
  void setArray(KernelOp k, StringRef name, ArrayRef<int64_t> v) {
    k->setAttr(name, b.getDenseI64ArrayAttr(v));
  }

  LogicalResult tile(KernelOp k) {
    Operation *anchor = anchorOf(k);
    std::optional<MatmulShape> mm = anchor ? matmulShape(anchor) : std::nullopt;
    int64_t eb = elemBytesOf(k);
    switch (t.caps.tiling) {
    case target::TilingScheme::CtaTiles:
      return ctaTiles(k, anchor, mm, eb);
    case target::TilingScheme::MxuTiles:
      return mxuTiles(k, mm, eb);
    case target::TilingScheme::PeRectangles:
      return peRectangle(k);
    case target::TilingScheme::MxmPlanes:
      return mxmPlanes(k, mm);
    case target::TilingScheme::CoreSplit:
      return coreSplit(k, mm, eb);
    case target::TilingScheme::Single:
      break;
    }
    setArray(k, "tile", {outputElements(k)});
    set(k, "grid", 1);
    set(k, "units", 1);
    return success();
  }

  LogicalResult ctaTiles(KernelOp k, Operation *anchor, std::optional<MatmulShape> mm,
                    int64_t eb) {
    int64_t smemMax = int64_t(t.limit("smem_bytes_per_block_max").value_or(49152));
    int64_t grid;
    std::optional<target::GemmTiling> g =
        mm ? target::gemmTiling(t, kernelWork(k, k.getBlock())) : std::nullopt;
    if (g) {
      // The tile, stages and split of K the tiled model times
      // (target::gemmTiling): every stage that fits shared memory.
      setArray(k, "tile", {g->rows, g->cols, g->depth});
      set(k, "smem_bytes", g->stages * (g->rows + g->cols) * g->depth * eb);
      if (g->split > 1)
        set(k, "split_k", g->split);
      grid = g->ctas;
    } else if (mm) {
      SmallVector<int64_t> cta = {128, 128, 64};
      if (const llvm::json::Array *a = t.layout.getArray("cta_tile"))
        for (size_t i = 0; i < a->size() && i < 3; ++i)
          cta[i] = int64_t((*a)[i].getAsNumber().value_or(cta[i]));
      int64_t mt = int64_t(t.matrixM ? t.matrixM->value : 16);
      // No wider than the (MMA-padded) problem.
      cta[0] = std::min(cta[0], roundUp(mm->m, mt));
      cta[1] = std::min(cta[1], roundUp(mm->n, 8));
      cta[2] = std::min(cta[2], roundUp(mm->k, 16));
      // Two pipeline stages of the A and B tiles must fit shared memory.
      auto smem = [&] { return 2 * (cta[0] * cta[2] + cta[2] * cta[1]) * eb; };
      while (smem() > smemMax && cta[2] > 16)
        cta[2] /= 2;
      while (smem() > smemMax && cta[1] > 8)
        cta[1] /= 2;
      grid = mm->batch * ceilDiv(mm->m, cta[0]) * ceilDiv(mm->n, cta[1]);
      setArray(k, "tile", cta);
      set(k, "smem_bytes", smem());
    } else if (std::optional<AttentionShape> a = attentionShape(anchor)) {
      // Flash attention: one CTA per tile of queries of one (batch, head)
      // (target::attentionTile, as the tiled model times it).
      target::AttentionTile at = target::attentionTile(
          t, a->queries, a->keys, a->headDim, a->valueDim, double(eb));
      grid = a->heads * ceilDiv(a->queries, at.rows);
      setArray(k, "tile", {at.rows, at.cols, a->headDim});
      set(k, "smem_bytes",
          (at.rows * a->headDim + 2 * at.cols * (a->headDim + a->valueDim)) * eb);
    } else {
      // Pointwise and reductions: 256 threads x 4 elements per CTA.
      int64_t perCta = 1024;
      grid = ceilDiv(outputElements(k), perCta);
      setArray(k, "tile", {perCta});
    }
    set(k, "grid", grid);
    set(k, "units", std::min(grid, units));
    set(k, "waves", ceilDiv(grid, units));
    return success();
  }

  LogicalResult mxuTiles(KernelOp k, std::optional<MatmulShape> mm, int64_t eb) {
    // Tiles are double-buffered in the per-unit scratchpad (VMEM).
    const target::MemoryLevel *vmem = t.scratchLevel();
    int64_t cap = int64_t((vmem ? *vmem : t.outerLevel()).capacityBytes.value);
    int64_t pad = int64_t(t.layoutValue("matmul_pad").value_or(128));
    // Rows come in the rows of a vector register of the element type.
    int64_t sub = t.registerRows(eb);
    int64_t grid;
    if (mm) {
      SmallVector<int64_t> tl = {std::min<int64_t>(512, roundUp(mm->m, sub)),
                                 std::min<int64_t>(512, roundUp(mm->n, pad)),
                                 std::min<int64_t>(2048, roundUp(mm->k, pad))};
      // Double-buffered A and B tiles plus the f32 accumulator in VMEM.
      auto bytes = [&] {
        return 2 * (tl[0] * tl[2] + tl[2] * tl[1]) * eb + tl[0] * tl[1] * 4;
      };
      while (bytes() > cap / 2 && tl[2] > pad)
        tl[2] /= 2;
      while (bytes() > cap / 2 && tl[0] > sub)
        tl[0] /= 2;
      grid = mm->batch * ceilDiv(mm->m, tl[0]) * ceilDiv(mm->n, tl[1]);
      // Megacore: at least one tile per TensorCore where the GEMM allows,
      // splitting the columns first (each core then loads its own weights).
      while (grid < units && (tl[1] >= 2 * pad || tl[0] >= 2 * sub)) {
        if (tl[1] >= 2 * pad)
          tl[1] = roundUp(ceilDiv(tl[1], 2), pad);
        else
          tl[0] = roundUp(ceilDiv(tl[0], 2), sub);
        grid = mm->batch * ceilDiv(mm->m, tl[0]) * ceilDiv(mm->n, tl[1]);
      }
      setArray(k, "tile", tl);
      set(k, "vmem_bytes", bytes());
    } else {
      // Blocks of (8,128) tiles, double-buffered: up to 512 x 1024 elements.
      int64_t n = outputElements(k);
      int64_t block = std::min<int64_t>(n, 512 * 1024);
      grid = ceilDiv(n, block);
      setArray(k, "tile", {block});
      set(k, "vmem_bytes", std::min<int64_t>(2 * ioBytes(k), 4 * block * eb * 2));
    }
    set(k, "grid", grid);
    set(k, "units", std::min(grid, units));
    return success();
  }

  LogicalResult peRectangle(KernelOp k) {
    // Pipelined: a rectangle sized to the kernel's share of the FLOPs, and
    // at least enough PEs to hold its weights. Weight streaming (weights
    // over on-wafer SRAM): every kernel gets the whole wafer in turn.
    double peSram = t.limit("pe_sram_bytes").value_or(49152);
    int64_t pes;
    auto module = k->getParentOfType<ModuleOp>();
    bool streaming = module->hasAttr(graph::kWeightStreamingAttr);
    if (streaming) {
      pes = units;
    } else {
      auto flops = double(cast<CostOpInterface>(k.getOperation()).getFlops());
      int64_t byWork = int64_t(double(units) * 0.5 * flops / totalFlops);
      // More PEs than R* lose time: the work shrinks as 1/R while the fill
      // across the rectangle (target::kernelOverheadSeconds) grows as
      // 2 sqrt(R) hops, so the time is least at R* = (w / hop)^(2/3), w the
      // kernel's compute time on one PE.
      if (t.onChip && t.onChip->latencyNs.value > 0 && !k.getOutputs().empty()) {
        target::Work one;
        one.flops = flops;
        one.matrix = isMatrixKind(k.getKindEnum());
        Type et = arithmeticType(
            k.getBlock(),
            cast<RankedTensorType>(k.getOutputs()[0].getType()).getElementType());
        llvm::raw_string_ostream(one.dtype) << et;
        one.units = 1;
        double single = target::kernelTime(t, one).compute;
        double best = std::pow(single / (t.onChip->latencyNs.value * 1e-9), 2.0 / 3.0);
        byWork = std::min<int64_t>(byWork, int64_t(best));
      }
      int64_t byWeights = int64_t(std::ceil(double(weightBytes(k)) / (0.5 * peSram)));
      int64_t byIo = int64_t(std::ceil(double(ioBytes(k)) / peSram));
      pes = std::clamp<int64_t>(std::max({byWork, byWeights, byIo, int64_t(1)}), 1,
                                units);
      // Each tensor is spread over the rectangle on its own, as the
      // lowering places it (Target::placedShare): all of them must fit one
      // PE's SRAM.
      SmallVector<int64_t> bytes;
      for (Value v : k.getInputs())
        bytes.push_back(layoutOf(t, v).bytes);
      for (Value v : k.getOutputs())
        bytes.push_back(layoutOf(t, v).bytes);
      auto fits = [&](int64_t n) {
        int64_t sum = 0;
        for (int64_t b : bytes)
          sum += t.placedShare(b, n);
        return double(sum) <= peSram;
      };
      // The share per PE only shrinks as the rectangle grows: the fewest
      // PEs that fit, or the whole wafer (the lowering then says what does
      // not fit).
      if (pes < units && !fits(pes))
        pes = firstTrue(pes + 1, units, fits);
    }
    auto [w, h] = target::peRectangle(t, pes);
    setArray(k, "rect", {w, h});
    set(k, "pes", w * h);
    set(k, "grid", 1);
    set(k, "units", w * h);
    setArray(k, "tile", {ceilDiv(outputElements(k), w * h)});
    return success();
  }

  LogicalResult mxmPlanes(KernelOp k, std::optional<MatmulShape> mm) {
    int64_t vec = int64_t(t.layoutValue("vector_elems").value_or(320));
    if (mm) {
      int64_t planes = ceilDiv(mm->k, vec) * ceilDiv(mm->n, vec);
      setArray(k, "tile", {mm->batch * mm->m, vec, vec});
      set(k, "mxm_planes", planes * mm->batch);
      set(k, "grid", planes * mm->batch);
    } else {
      setArray(k, "tile", {vec});
      set(k, "grid", ceilDiv(outputElements(k), vec));
    }
    set(k, "vectors", ceilDiv(outputElements(k), vec));
    set(k, "units", 1);
    return success();
  }

  LogicalResult coreSplit(KernelOp k, std::optional<MatmulShape> mm, int64_t eb) {
    int64_t stickBytes = int64_t(t.layoutValue("stick_bytes").value_or(128));
    int64_t stick = std::max<int64_t>(1, stickBytes / eb);
    auto out = k.getOutputs().empty()
                   ? RankedTensorType()
                   : cast<RankedTensorType>(k.getOutputs()[0].getType());
    int64_t rank = out ? out.getRank() : 0;
    // The minor dim in the stored layout (channels for NHWC feature maps).
    SmallVector<int64_t> order =
        out ? dimOrder(t, k.getOutputs()[0]) : SmallVector<int64_t>();
    int64_t minor = order.empty() ? std::max<int64_t>(rank - 1, 0) : order.back();
    int64_t last = rank ? out.getDimSize(minor) : 1;
    int64_t rows = rank ? out.getNumElements() / std::max<int64_t>(last, 1) : 1;
    if (mm)
      rows = mm->batch * mm->m;
    int64_t sticks = ceilDiv(std::max<int64_t>(last, 1), stick);
    int64_t used, splitDim;
    SmallVector<int64_t> tl;
    if (rows >= units) {
      // Rows over the cores, whole rows of sticks each.
      used = units;
      splitDim = 0;
      tl = {ceilDiv(rows, used), sticks * stick};
    } else {
      // Few rows (decode): the sticks of the minor dim over the cores.
      used = std::clamp<int64_t>(rows * sticks, 1, units);
      splitDim = minor;
      tl = {1, ceilDiv(rows * sticks, used) * stick};
    }
    int64_t span = ceilDiv(ioBytes(k), used);
    double maxSpan = t.limit("max_span_bytes_per_core").value_or(268431360);
    if (double(span) > maxSpan)
      return k.emitOpError("per-core span of ")
             << span << " B over " << used << " cores exceeds the "
             << int64_t(maxSpan) << " B a Spyre core can address";
    setArray(k, "tile", tl);
    set(k, "split_dim", splitDim);
    set(k, "span_bytes", span);
    set(k, "grid", used);
    set(k, "units", used);
    return success();
  }
};

struct GraphTilePass : dfa::impl::GraphTilePassBase<GraphTilePass>, TargetedPass {
  using GraphTilePassBase::GraphTilePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::Target *t = passTarget(module, targetName, targetDirs);
    if (!t)
      return signalPassFailure();
    Tiler tiler{*t, Builder(&getContext()), std::max<int64_t>(1, int64_t(t->units.value))};
    // WSE: do the weights fit on the wafer?
    int64_t weights = 0;
    double flops = 0;
    module.walk([&](KernelOp k) {
      weights += weightBytes(k);
      flops += double(cast<CostOpInterface>(k.getOperation()).getFlops());
    });
    tiler.totalFlops = std::max(flops, 1.0);
    if (t->streamsWeights(double(weights))) {
      module->setAttr(graph::kWeightStreamingAttr, UnitAttr::get(&getContext()));
      if (remarks)
        emitRemark(module.getLoc())
            << "weights of " << weights << " B exceed half the on-wafer SRAM ("
            << int64_t(t->limit("sram_bytes_total").value_or(0)) << " B): weight streaming";
    }
    bool failedAny = false;
    module.walk([&](KernelOp k) {
      if (failed(tiler.tile(k))) {
        failedAny = true;
        return;
      }
      ++numTiled;
      if (remarks) {
        auto grid = k->getAttrOfType<IntegerAttr>("grid").getInt();
        auto used = k->getAttrOfType<IntegerAttr>("units").getInt();
        auto tl = k->getAttrOfType<DenseI64ArrayAttr>("tile").asArrayRef();
        InFlightDiagnostic d = k->emitRemark();
        d << "kernel '" << k.getSymName() << "': tile [";
        llvm::interleaveComma(tl, d);
        d << "], ";
        if (std::optional<int64_t> split = k.getSplitK())
          d << grid / *split << " tiles, K split " << *split << " ways: "
            << grid << " CTAs";
        else
          d << grid << " tiles";
        d << " on " << used << " " << t->unitName << (used == 1 ? "" : "s");
      }
    });
    if (failedAny) {
      given.fail(Status::DoesNotFit);
      signalPassFailure();
    }
  }
};
} // namespace

std::unique_ptr<Pass> dfa::createGraphTilePass(PassTarget target,
                                    const GraphTilePassOptions &options) {
  return makeTargetedPass<GraphTilePass>(std::move(target), options);
}
