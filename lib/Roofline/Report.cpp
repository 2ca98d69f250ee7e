//===- Report.cpp - the roofline as a table, JSON and CSV -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Format.h"

#include "dfa/Roofline/Roofline.h"
#include "dfa/Support/DimExpr.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace dfa;
using namespace dfa::roofline;

std::string dfa::roofline::humanSeconds(double s) {
  char buf[32];
  if (s >= 1)
    std::snprintf(buf, sizeof buf, "%.3g s", s);
  else if (s >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
  else if (s >= 1e-6)
    std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.3g ns", s * 1e9);
  return buf;
}

std::string dfa::roofline::humanNumber(double x, const char *unit) {
  static const char *prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int i = 0;
  while (std::abs(x) >= 1000 && i < 6) {
    x /= 1000;
    ++i;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g %s%s", x, prefixes[i], unit);
  return buf;
}

std::string dfa::roofline::mixLine(const Report &r) {
  std::vector<std::pair<double, std::string>> parts;
  for (auto &[name, share] : r.mix)
    parts.push_back({-share, name});
  llvm::sort(parts);
  std::string s;
  for (auto &[share, name] : parts) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s %.0f%%", s.empty() ? "" : ", ",
                  name.c_str(), -share * 100);
    s += buf;
  }
  return s;
}

/// The kernel's intensity at its first (outermost) level with traffic.
static const LevelTraffic *outerLevel(const KernelRoof &k) {
  for (const LevelTraffic &l : k.levels)
    if (l.bytes > 0)
      return &l;
  return nullptr;
}

std::string Report::bucketLabel() const { return formatDims(bucket); }

void dfa::roofline::printTable(const Report &r, llvm::raw_ostream &os,
                               size_t top) {
  os << r.target;
  if (!r.overrides.empty())
    os << " [--set " << target::overridesText(r.overrides) << "]";
  if (!r.bucket.empty())
    os << " [bucket " << r.bucketLabel() << "]";
  os << " (" << (r.simulated ? "simulated" : "analytic") << "): "
     << humanSeconds(r.seconds) << ", " << humanNumber(r.flops, "FLOP")
     << ", " << r.kernels.size() << " kernels; " << mixLine(r) << "\n";
  if (!r.bucket.empty()) {
    std::string from = formatDims(r.bucketSmallest);
    if (std::isnan(r.worstFlopsWaste))
      os << "  padding at the bucket's smallest size (" << from
         << "): - (the model does not import there)\n";
    else
      os << llvm::formatv("  padding at the bucket's smallest size ({0}): "
                          "{1:f1}% of FLOPs, {2:f1}% of bytes\n",
                          from, 100 * r.worstFlopsWaste, 100 * r.worstBytesWaste);
  }
  const char *row = "  {0,-28} {1,-10} {2,+10} {3,+6} {4,+11} {5,+14} {6,+8} "
                    "{7,+10} {8,+14} {9,+5}  {10}\n";
  os << llvm::formatv(row, "kernel", "kind", "time", "share", "FLOPs", "bytes",
                      "AI", "bound", "attained", "eff", "bottleneck");
  size_t n = top ? std::min(top, r.kernels.size()) : r.kernels.size();
  for (size_t i = 0; i < n; ++i) {
    const KernelRoof &k = r.kernels[i];
    const LevelTraffic *l = outerLevel(k);
    std::string name = k.name.size() > 28 ? k.name.substr(0, 27) + "~" : k.name;
    char ai[32] = "-";
    if (l)
      std::snprintf(ai, sizeof ai, "%.3g", k.flops / l->bytes);
    std::string bytes = l ? humanNumber(l->bytes, "B") + " " + l->level : "-";
    std::string why = k.bottleneckName() +
                      (k.reason.empty() ? "" : " (" + k.reason + ")");
    os << llvm::formatv(
        row, name, k.kind, humanSeconds(k.seconds),
        llvm::formatv("{0:f1}%", r.seconds > 0 ? 100 * k.attributed / r.seconds
                                               : 0.0)
            .str(),
        humanNumber(k.flops, ""), bytes, ai, humanSeconds(k.boundSeconds),
        humanNumber(k.seconds > 0 ? k.flops / k.seconds : 0, "FLOP/s"),
        llvm::formatv("{0:f0}%", 100 * k.efficiency()).str(), why);
  }
  if (n < r.kernels.size())
    os << "  ... " << (r.kernels.size() - n) << " more kernels (--top 0 for all)\n";
}

void dfa::roofline::printCriticalPath(const Report &r, llvm::raw_ostream &os,
                                      size_t top) {
  const CriticalPath &p = r.critical;
  os << r.target << " critical path: " << humanSeconds(p.seconds) << " in "
     << p.steps.size() << " steps;";
  std::vector<std::pair<double, std::string>> parts;
  for (auto &[what, seconds] : p.shares)
    parts.push_back({-seconds, what});
  llvm::sort(parts);
  for (auto [i, part] : llvm::enumerate(parts))
    os << (i ? ", " : " ") << part.second << " "
       << llvm::formatv("{0:f0}%", p.seconds > 0 ? -100 * part.first / p.seconds : 0.0);
  os << "\n";
  // The `top` longest steps, in time order.
  std::vector<size_t> shown(p.steps.size());
  for (size_t i = 0; i < shown.size(); ++i)
    shown[i] = i;
  if (top && shown.size() > top) {
    llvm::stable_sort(shown, [&](size_t a, size_t b) {
      return p.steps[a].seconds > p.steps[b].seconds;
    });
    shown.resize(top);
    llvm::sort(shown);
  }
  const char *row = "  {0,+10} {1,+10} {2,+6}  {3,-8} {4,-7} {5,-28} {6}\n";
  os << llvm::formatv(row, "start", "time", "share", "kind", "via", "kernel",
                      "resource");
  double listed = 0;
  for (size_t i : shown) {
    const CriticalStep &s = p.steps[i];
    listed += s.seconds;
    std::string name = s.kernel.size() > 28 ? s.kernel.substr(0, 27) + "~" : s.kernel;
    os << llvm::formatv(
        row, humanSeconds(s.start), humanSeconds(s.seconds),
        llvm::formatv("{0:f1}%", p.seconds > 0 ? 100 * s.seconds / p.seconds : 0.0).str(),
        s.kind, s.via, name.empty() ? "-" : name,
        s.resource.empty() ? "-" : s.resource);
  }
  if (shown.size() < p.steps.size())
    os << "  ... " << (p.steps.size() - shown.size()) << " shorter steps, "
       << llvm::formatv("{0:f1}%", p.seconds > 0 ? 100 * (p.seconds - listed) / p.seconds : 0.0)
       << " of the path (--top 0 for all)\n";
}

void dfa::roofline::writeJson(llvm::json::OStream &j, const Report &r) {
  j.object([&] {
    j.attribute("target", r.target);
    target::writeOverrides(j, r.overrides);
    j.attribute("family", r.family);
    j.attribute("mode", r.simulated ? "simulated" : "analytic");
    if (r.measured)
      j.attributeObject("measured", [&] {
        const MeasuredReport &m = *r.measured;
        j.attribute("file", m.file);
        j.attribute("clock", m.clock);
        j.attribute("ops", m.ops);
        j.attribute("matched", m.matched);
        j.attribute("matched_fraction", m.matchedFraction());
        j.attribute("views_left_out", m.viewsLeftOut);
        j.attribute("measured_seconds", m.measuredSeconds);
        j.attribute("predicted_seconds", m.predictedSeconds);
        auto row = [&](const MeasuredRow &x, bool matched) {
          j.object([&] {
            j.attribute("op", x.op);
            j.attribute("module", x.module);
            j.attribute("index", x.index);
            j.attribute("measured_seconds", x.measuredSeconds);
            j.attribute("kernels", x.kernels);
            if (!matched)
              return;
            j.attribute("predicted_seconds", x.predictedSeconds);
            double g = x.gap();
            j.attribute("gap", std::isinf(g) ? llvm::json::Value(nullptr)
                                             : llvm::json::Value(g));
            j.attributeArray("nodes", [&] {
              for (const std::string &n : x.nodes)
                j.value(n);
            });
            j.attribute("flops", x.flops);
            j.attribute("bytes", x.bytes);
            j.attribute("achieved_flops_per_second",
                        x.measuredSeconds > 0 ? x.flops / x.measuredSeconds : 0.0);
            j.attribute("achieved_bytes_per_second",
                        x.measuredSeconds > 0 ? x.bytes / x.measuredSeconds : 0.0);
            j.attribute("cause", x.cause);
          });
        };
        j.attributeArray("rows", [&] {
          for (const MeasuredRow &x : m.rows)
            row(x, true);
        });
        j.attributeArray("unmatched", [&] {
          for (const MeasuredRow &x : m.unmatched)
            row(x, false);
        });
      });
    if (!r.bucket.empty())
      j.attributeObject("bucket", [&] {
        j.attributeObject("dims", [&] {
          for (auto &[name, v] : r.bucket)
            j.attribute(name, v);
        });
        j.attributeObject("smallest", [&] {
          for (auto &[name, v] : r.bucketSmallest)
            j.attribute(name, v);
        });
        auto waste = [](double w) {
          return std::isnan(w) ? llvm::json::Value(nullptr) : llvm::json::Value(w);
        };
        j.attribute("worst_padding_waste_flops", waste(r.worstFlopsWaste));
        j.attribute("worst_padding_waste_bytes", waste(r.worstBytesWaste));
      });
    j.attribute("seconds", r.seconds);
    j.attribute("flops", r.flops);
    j.attribute("pad_flops", r.padFlops);
    j.attribute("padding_waste",
                r.flops + r.padFlops > 0 ? r.padFlops / (r.flops + r.padFlops) : 0.0);
    j.attribute("pad_bytes", r.padBytes);
    j.attribute("dtype", r.dtype);
    j.attribute("peak_flops", r.peak);
    j.attributeArray("roofs", [&] {
      for (const LevelRoof &l : r.roofs)
        j.object([&] {
          j.attribute("level", l.name);
          j.attribute("bandwidth", l.bandwidth);
          j.attribute("ridge", r.peak / l.bandwidth);
        });
    });
    j.attributeObject("memory_peaks", [&] {
      for (auto &[level, bytes] : r.memoryPeaks)
        j.attribute(level, bytes);
    });
    j.attributeObject("bottlenecks", [&] {
      for (auto &[name, share] : r.mix)
        j.attribute(name, share);
    });
    j.attributeArray("kernels", [&] {
      for (const KernelRoof &k : r.kernels)
        j.object([&] {
          j.attribute("name", k.name);
          j.attribute("kind", k.kind);
          j.attribute("dtype", k.dtype);
          j.attribute("chip", k.chip);
          j.attribute("units", k.units);
          j.attributeArray("sources", [&] {
            for (auto &[name, flops] : k.sources)
              j.object([&] {
                j.attribute("name", name);
                j.attribute("flops", flops);
              });
          });
          j.attribute("flops", k.flops);
          j.attribute("pad_flops", k.padFlops);
          j.attribute("peak_flops", k.peak);
          j.attributeArray("levels", [&] {
            for (const LevelTraffic &l : k.levels)
              j.object([&] {
                j.attribute("level", l.level);
                j.attribute("bytes", l.bytes);
                j.attribute("bandwidth", l.bandwidth);
                j.attribute("intensity", l.bytes > 0 ? k.flops / l.bytes : 0.0);
                j.attribute("seconds", l.seconds());
              });
          });
          j.attribute("compute_seconds", k.computeSeconds);
          j.attribute("model_compute_seconds", k.modelComputeSeconds);
          j.attribute("compute_cycles", k.computeCycles);
          j.attribute("bound_seconds", k.boundSeconds);
          j.attribute("attainable_flops", k.attainable());
          j.attribute("seconds", k.seconds);
          j.attribute("attributed_seconds", k.attributed);
          j.attribute("share", r.seconds > 0 ? k.attributed / r.seconds : 0.0);
          j.attribute("efficiency", k.efficiency());
          j.attribute("bottleneck", k.bottleneckName());
          if (!k.reason.empty())
            j.attribute("reason", k.reason);
          j.attributeObject("waits", [&] {
            j.attribute("launch", k.waits.launch);
            j.attribute("pipeline_bubbles", k.waits.bubbles);
            j.attribute("dma", k.waits.dma);
            j.attribute("dependencies", k.waits.deps);
            j.attribute("contention", k.waits.contention);
          });
          j.attribute("compute_ops", k.computeOps);
          j.attribute("dmas", k.dmas);
          if (r.simulated) {
            j.attribute("slack_seconds", k.slack);
            j.attribute("critical_seconds", k.criticalSeconds);
          }
        });
    });
    if (r.simulated)
      j.attributeObject("critical_path", [&] {
        const CriticalPath &p = r.critical;
        j.attribute("seconds", p.seconds);
        j.attributeObject("shares", [&] {
          for (auto &[what, seconds] : p.shares)
            j.attribute(what, p.seconds > 0 ? seconds / p.seconds : 0.0);
        });
        j.attributeArray("steps", [&] {
          for (const CriticalStep &s : p.steps)
            j.object([&] {
              j.attribute("kind", s.kind);
              if (!s.kernel.empty())
                j.attribute("kernel", s.kernel);
              j.attribute("via", s.via);
              j.attribute("start", s.start);
              j.attribute("seconds", s.seconds);
              if (!s.resource.empty()) {
                j.attribute("chip", s.chip);
                j.attribute("resource", s.resource);
                j.attribute("source", s.source);
              }
            });
        });
      });
    j.attributeArray("nodes", [&] {
      for (const NodeRoof &n : byNode(r))
        j.object([&] {
          j.attribute("name", n.name);
          j.attribute("flops", n.flops);
          j.attribute("seconds", n.seconds);
          j.attribute("share", r.seconds > 0 ? n.seconds / r.seconds : 0.0);
          j.attributeArray("levels", [&] {
            for (auto &[level, bytes] : n.bytes)
              j.object([&] {
                j.attribute("level", level);
                j.attribute("bytes", bytes);
                j.attribute("intensity", bytes > 0 ? n.flops / bytes : 0.0);
              });
          });
          j.attribute("bottleneck", n.bottleneck);
          j.attributeArray("kernels", [&] {
            for (const std::string &k : n.kernels)
              j.value(k);
          });
        });
    });
  });
}

void dfa::roofline::writeCsv(llvm::ArrayRef<Report> reports,
                             llvm::raw_ostream &os) {
  os << "target,kernel,kind,dtype,chip,units,flops,pad_flops,peak_flops,"
        "level,bytes,bandwidth,intensity,bound_seconds,seconds,share,efficiency,"
        "bottleneck,reason\n";
  for (const Report &r : reports)
    for (const KernelRoof &k : r.kernels) {
      // One row per level the kernel moves bytes at (one without, if none).
      std::vector<const LevelTraffic *> rows;
      for (const LevelTraffic &l : k.levels)
        rows.push_back(&l);
      if (rows.empty())
        rows.push_back(nullptr);
      for (const LevelTraffic *l : rows)
        os << r.target << "," << csvField(k.name) << "," << k.kind << ","
           << k.dtype << "," << k.chip << "," << k.units << ","
           << llvm::formatv("{0:e6},{1:e6},{2:e6},", k.flops, k.padFlops,
                            k.peak)
           << (l ? l->level : "") << ","
           << llvm::formatv("{0:e6},{1:e6},{2:e6},", l ? l->bytes : 0.0,
                            l ? l->bandwidth : 0.0,
                            l && l->bytes > 0 ? k.flops / l->bytes : 0.0)
           << llvm::formatv("{0:e6},{1:e6},{2:f4},{3:f4},", k.boundSeconds,
                            k.seconds,
                            r.seconds > 0 ? k.attributed / r.seconds : 0.0,
                            k.efficiency())
           << k.bottleneckName() << "," << k.reason << "\n";
    }
}

