//===- Chart.cpp - the roofline as SVG and a self-contained HTML page -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The chart is log-log: arithmetic intensity (FLOP per byte at a level)
/// across, attained FLOP/s up. Each memory level is a roof, AI * bandwidth,
/// that meets the flat compute roof at its ridge point. Each kernel is a
/// point per level it moves bytes at (circle, square, diamond, triangle by
/// level), coloured by its bottleneck and sized by its share of the time;
/// the largest are labelled with their source names. Elements carry classes
/// (`roof`, `ridge`, `point`, `label`) and data attributes for tests and
/// scripts.
///
//===----------------------------------------------------------------------===//

#include "Format.h"

#include "dfa/Roofline/LLM.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace dfa;
using namespace dfa::roofline;

namespace {

const char *colour(Bottleneck b) {
  switch (b) {
  case Bottleneck::Compute:
    return "#d62728";
  case Bottleneck::Memory:
    return "#1f77b4";
  case Bottleneck::Scheduling:
    return "#ff7f0e";
  }
  return "#777";
}

constexpr double W = 640, H = 420, L = 70, R = 20, T = 30, B = 50;
constexpr size_t kLabelled = 6;

struct Axes {
  double x0, x1, y0, y1; // log10 ranges
  double px(double ai) const {
    return L + (std::log10(ai) - x0) / (x1 - x0) * (W - L - R);
  }
  double py(double f) const {
    return H - B - (std::log10(f) - y0) / (y1 - y0) * (H - T - B);
  }
};

Axes axesFor(const Report &r) {
  double xmin = INFINITY, xmax = 0, ymin = INFINITY;
  double peak = std::max(r.peak, 1.0);
  for (const LevelRoof &l : r.roofs) {
    xmin = std::min(xmin, peak / l.bandwidth);
    xmax = std::max(xmax, peak / l.bandwidth);
  }
  for (const KernelRoof &k : r.kernels)
    for (const LevelTraffic &l : k.levels)
      if (l.bytes > 0 && k.flops > 0 && k.seconds > 0) {
        xmin = std::min(xmin, k.flops / l.bytes);
        xmax = std::max(xmax, k.flops / l.bytes);
        ymin = std::min(ymin, k.flops / k.seconds);
      }
  if (!std::isfinite(xmin)) {
    xmin = 0.1;
    xmax = 1000;
  }
  if (!std::isfinite(ymin))
    ymin = peak / 1e4;
  Axes a;
  a.x0 = std::floor(std::log10(xmin)) - 1;
  a.x1 = std::ceil(std::log10(xmax)) + 1;
  a.y1 = std::ceil(std::log10(peak)) + 1;
  a.y0 = std::min(std::floor(std::log10(ymin)), a.y1 - 3) - 1;
  return a;
}

/// Writes the marker of the `level`-th roof at (x, y) with `title` inside.
void shape(llvm::raw_ostream &os, size_t level, double x, double y, double s,
           const std::string &attrs, const std::string &title) {
  const char *tags[] = {"circle", "rect", "polygon", "polygon"};
  switch (level % 4) {
  case 0:
    os << llvm::formatv("<circle {0} cx=\"{1:f1}\" cy=\"{2:f1}\" r=\"{3:f1}\"",
                        attrs, x, y, s);
    break;
  case 1:
    os << llvm::formatv("<rect {0} x=\"{1:f1}\" y=\"{2:f1}\" width=\"{3:f1}\" "
                        "height=\"{3:f1}\"",
                        attrs, x - s, y - s, 2 * s);
    break;
  case 2:
    os << llvm::formatv("<polygon {0} points=\"{1:f1},{2:f1} {3:f1},{4:f1} "
                        "{1:f1},{5:f1} {6:f1},{4:f1}\"",
                        attrs, x, y - s, x + s, y, y + s, x - s);
    break;
  default:
    os << llvm::formatv("<polygon {0} points=\"{1:f1},{2:f1} {3:f1},{4:f1} "
                        "{5:f1},{4:f1}\"",
                        attrs, x, y - s, x + s, y + s, x - s);
  }
  os << "><title>" << title << "</title></" << tags[level % 4] << ">\n";
}
} // namespace

void dfa::roofline::writeSvg(const Report &r, llvm::raw_ostream &os) {
  Axes a = axesFor(r);
  double peak = std::max(r.peak, 1.0);
  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                      "class=\"roofline\" data-target=\"{0}\" width=\"{1}\" "
                      "height=\"{2}\" viewBox=\"0 0 {1} {2}\" "
                      "font-family=\"sans-serif\" font-size=\"11\">\n",
                      xmlEscape(r.target), W, H);
  os << llvm::formatv("<text x=\"{0}\" y=\"18\" font-size=\"13\" "
                      "font-weight=\"bold\">{1}: {2}, {3}</text>\n",
                      L, xmlEscape(r.target), humanSeconds(r.seconds),
                      xmlEscape(mixLine(r)));
  // Axes with a tick per decade.
  os << llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
                      "fill=\"none\" stroke=\"#999\"/>\n",
                      L, T, W - L - R, H - T - B);
  for (int e = int(a.x0); e <= int(a.x1); ++e)
    os << llvm::formatv("<text class=\"tick\" x=\"{0:f1}\" y=\"{1}\" "
                        "text-anchor=\"middle\">1e{2}</text>\n",
                        a.px(std::pow(10.0, e)), H - B + 14, e);
  for (int e = int(a.y0); e <= int(a.y1); ++e)
    os << llvm::formatv("<text class=\"tick\" x=\"{0}\" y=\"{1:f1}\" "
                        "text-anchor=\"end\">1e{2}</text>\n",
                        L - 4, a.py(std::pow(10.0, e)) + 4, e);
  os << llvm::formatv("<text x=\"{0:f1}\" y=\"{1}\" text-anchor=\"middle\">"
                      "arithmetic intensity (FLOP/byte)</text>\n",
                      (L + W - R) / 2, H - 12);
  os << llvm::formatv("<text transform=\"translate(14,{0:f1}) rotate(-90)\" "
                      "text-anchor=\"middle\">attained FLOP/s ({1})</text>\n",
                      (T + H - B) / 2, xmlEscape(r.dtype));
  // The roofs, clipped to the plot.
  double xl = std::pow(10.0, a.x0), xr = std::pow(10.0, a.x1);
  for (size_t i = 0; i < r.roofs.size(); ++i) {
    const LevelRoof &l = r.roofs[i];
    double ridge = peak / l.bandwidth;
    double xs = std::max(xl, std::pow(10.0, a.y0) / l.bandwidth);
    os << llvm::formatv("<g class=\"roof\" data-level=\"{0}\" "
                        "data-bandwidth=\"{1:e3}\" data-ridge=\"{2:e3}\">\n",
                        xmlEscape(l.name), l.bandwidth, ridge);
    os << llvm::formatv("<polyline fill=\"none\" stroke=\"#333\" "
                        "stroke-width=\"1.5\" stroke-dasharray=\"{0}\" "
                        "points=\"{1:f1},{2:f1} {3:f1},{4:f1} {5:f1},{4:f1}\"/>\n",
                        i == 0 ? "none" : "5,3", a.px(xs),
                        a.py(xs * l.bandwidth), a.px(ridge), a.py(peak),
                        a.px(xr));
    os << llvm::formatv("<circle class=\"ridge\" cx=\"{0:f1}\" cy=\"{1:f1}\" "
                        "r=\"3\" fill=\"#333\"><title>{2} ridge: {3:g3} "
                        "FLOP/B</title></circle>\n",
                        a.px(ridge), a.py(peak), xmlEscape(l.name), ridge);
    os << llvm::formatv("<text x=\"{0:f1}\" y=\"{1:f1}\" fill=\"#333\">{2} "
                        "{3}</text>\n",
                        a.px(xs) + 4, a.py(xs * l.bandwidth) - 4, xmlEscape(l.name),
                        humanNumber(l.bandwidth, "B/s"));
    os << "</g>\n";
  }
  os << llvm::formatv("<text x=\"{0}\" y=\"{1:f1}\" text-anchor=\"end\" "
                      "fill=\"#333\">peak {2}</text>\n",
                      W - R - 4, a.py(peak) - 4, humanNumber(peak, "FLOP/s"));
  // The kernels, largest last so that small points stay visible under them.
  std::vector<const KernelRoof *> order;
  for (const KernelRoof &k : r.kernels)
    order.push_back(&k);
  std::reverse(order.begin(), order.end());
  for (const KernelRoof *k : order) {
    if (k->flops <= 0 || k->seconds <= 0)
      continue;
    double share = r.seconds > 0 ? k->attributed / r.seconds : 0;
    double y = a.py(k->flops / k->seconds), s = 3 + 10 * std::sqrt(share);
    for (const LevelTraffic &l : k->levels) {
      if (l.bytes <= 0)
        continue;
      size_t li = 0;
      while (li < r.roofs.size() && r.roofs[li].name != l.level)
        ++li;
      std::string attrs = llvm::formatv(
          "class=\"point\" data-kernel=\"{0}\" data-level=\"{1}\" "
          "data-bottleneck=\"{2}\" fill=\"{3}\" fill-opacity=\"0.7\" "
          "stroke=\"#222\" stroke-width=\"0.5\"",
          xmlEscape(k->name), xmlEscape(l.level), xmlEscape(k->bottleneckName()),
          colour(k->bottleneck));
      std::string title = llvm::formatv(
          "{0} ({1}) at {2}: {3}, {4:g3} FLOP/B, {5} of {6}, {7}{8}",
          xmlEscape(k->name), xmlEscape(k->kind), xmlEscape(l.level), humanSeconds(k->seconds),
          k->flops / l.bytes, humanNumber(k->flops / k->seconds, "FLOP/s"),
          humanNumber(k->attainable(), "FLOP/s"), xmlEscape(k->bottleneckName()),
          k->reason.empty() ? "" : " (" + xmlEscape(k->reason) + ")");
      shape(os, li, a.px(k->flops / l.bytes), y, s, attrs, title);
    }
  }
  // Measured ops (--measured): hollow diamonds at dfa's intensity and the
  // FLOP/s the trace's time gives them.
  if (r.measured)
    for (const MeasuredRow &x : r.measured->rows) {
      if (x.flops <= 0 || x.bytes <= 0 || x.measuredSeconds <= 0)
        continue;
      double px = a.px(x.flops / x.bytes), py = a.py(x.flops / x.measuredSeconds);
      os << llvm::formatv(
          "<path class=\"measured\" data-op=\"{0}\" d=\"M{1:f1},{2:f1} l5,5 "
          "l-5,5 l-5,-5 z\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.2\">"
          "<title>measured {0} ({3}): {4}, {5} (dfa: {6})</title></path>\n",
          xmlEscape(x.op), px, py - 5, xmlEscape(x.module), humanSeconds(x.measuredSeconds),
          humanNumber(x.flops / x.measuredSeconds, "FLOP/s"),
          humanSeconds(x.predictedSeconds));
    }
  // Labels: the largest kernels' first source name, at their outer level.
  for (size_t i = 0; i < std::min(kLabelled, r.kernels.size()); ++i) {
    const KernelRoof &k = r.kernels[i];
    auto l = llvm::find_if(k.levels, [](auto &l) { return l.bytes > 0; });
    if (k.flops <= 0 || k.seconds <= 0 || l == k.levels.end())
      continue;
    std::string name = k.sources.empty() ? k.name : k.sources.front().first;
    os << llvm::formatv("<text class=\"label\" x=\"{0:f1}\" y=\"{1:f1}\" "
                        "fill=\"#222\">{2}</text>\n",
                        a.px(k.flops / l->bytes) + 8,
                        a.py(k.flops / k.seconds) + 4, xmlEscape(name));
  }
  // Legend.
  double ly = T + 12;
  for (auto [b, name] : {std::pair{Bottleneck::Compute, "compute"},
                         {Bottleneck::Memory, "memory"},
                         {Bottleneck::Scheduling, "scheduling"}}) {
    os << llvm::formatv("<circle cx=\"{0}\" cy=\"{1}\" r=\"5\" fill=\"{2}\"/>"
                        "<text x=\"{3}\" y=\"{4}\">{5}</text>\n",
                        L + 12, ly, colour(b), L + 22, ly + 4, name);
    ly += 15;
  }
  os << "</svg>\n";
}

void dfa::roofline::writeHtml(llvm::ArrayRef<Report> reports,
                              llvm::StringRef title, llvm::raw_ostream &os,
                              const LLMSweep *llm, llvm::StringRef graphSvg) {
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<title>" << xmlEscape(title) << "</title>\n<style>\n"
     << "body{font-family:sans-serif;margin:24px;color:#222}"
        "table{border-collapse:collapse;margin:8px 0 24px}"
        "td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;"
        "vertical-align:top;font-size:13px}th{background:#f4f4f4}"
        "td.num{text-align:right;font-variant-numeric:tabular-nums}"
        ".mix{display:flex;width:220px;height:14px;border:1px solid #999}"
        ".seg{height:100%}.compute{background:#d62728}"
        ".memory{background:#1f77b4}.scheduling{background:#ff7f0e}"
        ".charts{display:flex;flex-wrap:wrap;gap:16px}"
        "section.target{border:1px solid #ddd;padding:8px}\n"
     << "</style>\n</head>\n<body>\n";
  os << "<h1>" << xmlEscape(title) << "</h1>\n";
  os << "<p>The accelerator landscape: one row per target. Bottlenecks are "
        "shares of the time: compute, memory at a level, or scheduling (the "
        "time is more than "
     << llvm::formatv("{0:f2}", kSchedulingFactor)
     << "x the roofline bound: launch overhead, pipeline bubbles, DMA or "
        "dependency waits).</p>\n";
  if (llm)
    writeLLMHtml(*llm, os);
  os << "<table class=\"landscape\">\n<tr><th>target</th><th>family</th>"
        "<th>time</th><th>bottlenecks</th><th>top kernels</th>"
        "<th>padding waste</th><th>memory peaks</th></tr>\n";
  for (const Report &r : reports) {
    os << "<tr class=\"target-row\" data-target=\"" << xmlEscape(r.target) << "\">"
       << "<td><a href=\"#t-" << xmlEscape(r.target) << "\">" << xmlEscape(r.target)
       << "</a></td><td>" << xmlEscape(r.family) << "</td><td class=\"num\">"
       << humanSeconds(r.seconds) << (r.simulated ? "" : " (analytic)")
       << "</td><td><div class=\"mix\" title=\"" << xmlEscape(mixLine(r)) << "\">";
    for (auto &[name, share] : r.mix)
      os << llvm::formatv("<span class=\"seg {0}\" style=\"width:{1:f1}%\">"
                          "</span>",
                          llvm::StringRef(name).split(':').first, 100 * share);
    os << "</div>" << xmlEscape(mixLine(r)) << "</td><td>";
    for (size_t i = 0; i < std::min<size_t>(3, r.kernels.size()); ++i)
      os << (i ? "<br>" : "") << xmlEscape(r.kernels[i].name) << " "
         << llvm::formatv("{0:f0}%", r.seconds > 0
                                         ? 100 * r.kernels[i].attributed / r.seconds
                                         : 0.0)
         << " (" << xmlEscape(r.kernels[i].bottleneckName()) << ")";
    os << "</td><td class=\"num\">"
       << llvm::formatv("{0:f1}% of FLOPs",
                        r.flops + r.padFlops > 0
                            ? 100 * r.padFlops / (r.flops + r.padFlops)
                            : 0.0)
       << "<br>" << humanNumber(double(r.padBytes), "B") << " padded</td><td>";
    bool first = true;
    for (auto &[level, bytes] : r.memoryPeaks) {
      os << (first ? "" : "<br>") << xmlEscape(level) << " "
         << humanNumber(double(bytes), "B");
      first = false;
    }
    os << "</td></tr>\n";
  }
  os << "</table>\n";
  if (!graphSvg.empty()) {
    // Inline: from the <svg> element on (no XML prolog or doctype).
    size_t at = graphSvg.find("<svg");
    os << "<section class=\"graph\" id=\"graph\">\n<h2>The graph</h2>\n"
       << "<div style=\"overflow:auto;max-height:90vh;border:1px solid #ddd\">\n"
       << graphSvg.drop_front(at == llvm::StringRef::npos ? 0 : at)
       << "</div>\n</section>\n";
  }
  os << "<div class=\"charts\">\n";
  for (const Report &r : reports) {
    os << "<section class=\"target\" id=\"t-" << xmlEscape(r.target) << "\">\n<h2>"
       << xmlEscape(r.target) << "</h2>\n";
    writeSvg(r, os);
    os << "<table class=\"kernels\"><tr><th>kernel</th><th>kind</th>"
          "<th>time</th><th>share</th><th>bound</th><th>efficiency</th>"
          "<th>bottleneck</th></tr>\n";
    for (size_t i = 0; i < std::min<size_t>(10, r.kernels.size()); ++i) {
      const KernelRoof &k = r.kernels[i];
      os << "<tr><td>" << xmlEscape(k.name) << "</td><td>" << xmlEscape(k.kind)
         << "</td><td class=\"num\">" << humanSeconds(k.seconds)
         << "</td><td class=\"num\">"
         << llvm::formatv("{0:f1}%", r.seconds > 0 ? 100 * k.attributed / r.seconds
                                                   : 0.0)
         << "</td><td class=\"num\">" << humanSeconds(k.boundSeconds)
         << "</td><td class=\"num\">"
         << llvm::formatv("{0:f0}%", 100 * k.efficiency()) << "</td><td>"
         << xmlEscape(k.bottleneckName())
         << (k.reason.empty() ? "" : " (" + xmlEscape(k.reason) + ")")
         << "</td></tr>\n";
    }
    os << "</table>\n</section>\n";
  }
  os << "</div>\n</body>\n</html>\n";
}
