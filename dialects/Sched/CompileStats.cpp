//===- CompileStats.cpp - what the compiler decided, declared once --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Sched/CompileStats.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace dfa::sched;

namespace {
int64_t intOf(DictionaryAttr d, StringRef key, int64_t dflt = 0) {
  if (auto a = d.getAs<IntegerAttr>(key))
    return a.getInt();
  return dflt;
}
std::string strOf(DictionaryAttr d, StringRef key) {
  if (auto a = d.getAs<StringAttr>(key))
    return a.str();
  return "";
}
template <typename F>
void forEachDict(DictionaryAttr d, StringRef key, F f) {
  if (auto a = d.getAs<ArrayAttr>(key))
    for (Attribute e : a)
      if (auto entry = dyn_cast<DictionaryAttr>(e))
        f(entry);
}
} // namespace

ArrayAttr CompileStats::refusalsAttr(MLIRContext *ctx,
                                     const std::vector<Refusal> &refused) {
  Builder b(ctx);
  SmallVector<Attribute> out;
  for (const Refusal &r : refused)
    out.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("op", b.getStringAttr(r.op)),
         b.getNamedAttr("kernel", b.getStringAttr(r.kernel)),
         b.getNamedAttr("reason", b.getStringAttr(r.reason))}));
  return b.getArrayAttr(out);
}

std::vector<CompileStats::Refusal> CompileStats::refusalsFrom(ArrayAttr refused) {
  std::vector<Refusal> out;
  if (refused)
    for (Attribute e : refused)
      if (auto d = dyn_cast<DictionaryAttr>(e))
        out.push_back({strOf(d, "op"), strOf(d, "kernel"), strOf(d, "reason")});
  return out;
}

DictionaryAttr CompileStats::toAttr(MLIRContext *ctx) const {
  Builder b(ctx);
  SmallVector<Attribute> spillAttrs, chunkAttrs;
  for (const Spill &s : spills)
    spillAttrs.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("kernel", b.getStringAttr(s.kernel)),
         b.getNamedAttr("reason", b.getStringAttr(s.reason))}));
  for (const Chunking &c : chunked)
    chunkAttrs.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("kernel", b.getStringAttr(c.kernel)),
         b.getNamedAttr("dim", b.getI64IntegerAttr(c.dim)),
         b.getNamedAttr("chunks", b.getI64IntegerAttr(c.chunks)),
         b.getNamedAttr("extent", b.getI64IntegerAttr(c.extent))}));
  SmallVector<NamedAttribute> peaks;
  for (const auto &[level, bytes] : peakBytes)
    peaks.push_back(b.getNamedAttr(level, b.getI64IntegerAttr(bytes)));
  SmallVector<NamedAttribute> s = {
      b.getNamedAttr("kernels", b.getI64IntegerAttr(kernels)),
      b.getNamedAttr("ops", b.getI64IntegerAttr(ops)),
      b.getNamedAttr("fusions", b.getI64IntegerAttr(fusions)),
      b.getNamedAttr("fusions_refused", refusalsAttr(ctx, fusionsRefused)),
      b.getNamedAttr("pad_bytes", b.getI64IntegerAttr(padBytes)),
      b.getNamedAttr("pad_flops", b.getI64IntegerAttr(padFlops)),
      b.getNamedAttr("relayouts", b.getI64IntegerAttr(relayouts)),
      b.getNamedAttr("spills", b.getArrayAttr(spillAttrs)),
      b.getNamedAttr("chunked", b.getArrayAttr(chunkAttrs)),
      b.getNamedAttr("dmas", b.getI64IntegerAttr(dmas)),
      b.getNamedAttr("dma_bytes", b.getI64IntegerAttr(dmaBytes)),
      b.getNamedAttr("peak_bytes", b.getDictionaryAttr(peaks)),
      b.getNamedAttr("chips", b.getI64IntegerAttr(chips)),
      b.getNamedAttr("weight_streaming", b.getBoolAttr(weightStreaming))};
  if (cycles)
    s.push_back(b.getNamedAttr("cycles", b.getI64IntegerAttr(*cycles)));
  return b.getDictionaryAttr(s);
}

CompileStats CompileStats::fromAttr(DictionaryAttr d) {
  CompileStats s;
  if (!d)
    return s;
  s.kernels = intOf(d, "kernels");
  s.ops = intOf(d, "ops");
  s.fusions = intOf(d, "fusions");
  s.fusionsRefused = refusalsFrom(d.getAs<ArrayAttr>("fusions_refused"));
  s.padBytes = intOf(d, "pad_bytes");
  s.padFlops = intOf(d, "pad_flops");
  s.relayouts = intOf(d, "relayouts");
  forEachDict(d, "spills", [&](DictionaryAttr e) {
    s.spills.push_back({strOf(e, "kernel"), strOf(e, "reason")});
  });
  forEachDict(d, "chunked", [&](DictionaryAttr e) {
    s.chunked.push_back({strOf(e, "kernel"), intOf(e, "dim"),
                         intOf(e, "chunks"), intOf(e, "extent")});
  });
  s.dmas = intOf(d, "dmas");
  s.dmaBytes = intOf(d, "dma_bytes");
  if (auto peaks = d.getAs<DictionaryAttr>("peak_bytes"))
    for (NamedAttribute a : peaks)
      if (auto v = dyn_cast<IntegerAttr>(a.getValue()))
        s.peakBytes[a.getName().str()] = v.getInt();
  s.chips = intOf(d, "chips", 1);
  if (auto w = d.getAs<BoolAttr>("weight_streaming"))
    s.weightStreaming = w.getValue();
  if (auto c = d.getAs<IntegerAttr>("cycles"))
    s.cycles = c.getInt();
  return s;
}
