//===- Nodes.cpp - a roofline report by source node -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Fusion puts several source nodes in one kernel; the kernel's time and
/// bytes are what the hardware sees. A node's part is its share of each
/// kernel it is in, by FLOPs (a LayerNorm fused after a MatMul takes its
/// few FLOPs' worth), evenly among the sources of a kernel without FLOPs
/// (pure data movement).
///
//===----------------------------------------------------------------------===//

#include "Format.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace dfa;
using namespace dfa::roofline;

std::vector<NodeRoof> dfa::roofline::byNode(const Report &r) {
  std::vector<NodeRoof> nodes;
  llvm::StringMap<size_t> index;
  std::vector<double> largest; // per node: the most time from one kernel
  // Adds `part` of kernel `k` (and `flops`) to the node `name`.
  auto add = [&](const std::string &name, double flops, double part,
                 const KernelRoof &k) {
    auto [it, added] = index.try_emplace(name, nodes.size());
    if (added) {
      nodes.push_back({});
      nodes.back().name = name;
      largest.push_back(-1);
    }
    NodeRoof &n = nodes[it->second];
    n.flops += flops;
    n.seconds += part * k.attributed;
    n.kernels.push_back(k.name);
    for (const LevelTraffic &l : k.levels) {
      auto at = llvm::find_if(n.bytes, [&](auto &b) { return b.first == l.level; });
      if (at == n.bytes.end())
        n.bytes.push_back({l.level, part * l.bytes});
      else
        at->second += part * l.bytes;
    }
    if (part * k.attributed > largest[it->second]) {
      largest[it->second] = part * k.attributed;
      n.kernel = k.name;
      n.bottleneck = k.bottleneckName();
      n.bound = k.boundName();
    }
  };
  for (const KernelRoof &k : r.kernels) {
    // Copies no kernel claims keep their time, in a row named after their
    // kernel (which is named after a source node: that node's row).
    if (k.sources.empty()) {
      add(k.name, 0, 1.0, k);
      continue;
    }
    double total = 0;
    for (auto &[name, flops] : k.sources)
      total += flops;
    for (auto &[name, flops] : k.sources)
      add(name, flops, total > 0 ? flops / total : 1.0 / double(k.sources.size()), k);
  }
  std::stable_sort(nodes.begin(), nodes.end(), [](const NodeRoof &a, const NodeRoof &b) {
    return a.seconds > b.seconds;
  });
  return nodes;
}

void dfa::roofline::printNodeTable(const Report &r, llvm::raw_ostream &os,
                                   size_t top) {
  std::vector<NodeRoof> nodes = byNode(r);
  os << r.target << " (" << (r.simulated ? "simulated" : "analytic") << "): "
     << humanSeconds(r.seconds) << ", " << nodes.size() << " source nodes in "
     << r.kernels.size() << " kernels; " << mixLine(r) << "\n";
  const char *row = "  {0,-28} {1,+10} {2,+6} {3,+11} {4,+14} {5,+8}  {6,-20} {7}\n";
  os << llvm::formatv(row, "node", "time", "share", "FLOPs", "bytes", "AI",
                      "bottleneck", "kernels");
  size_t n = top ? std::min(top, nodes.size()) : nodes.size();
  for (size_t i = 0; i < n; ++i) {
    const NodeRoof &x = nodes[i];
    std::string name = x.name.size() > 28 ? x.name.substr(0, 27) + "~" : x.name;
    const std::pair<std::string, double> *outer = nullptr;
    for (const auto &b : x.bytes)
      if (b.second > 0) {
        outer = &b;
        break;
      }
    char ai[32] = "-";
    if (outer)
      std::snprintf(ai, sizeof ai, "%.3g", x.flops / outer->second);
    std::string kernels = x.kernels.front();
    if (x.kernels.size() > 1)
      kernels += " +" + std::to_string(x.kernels.size() - 1);
    os << llvm::formatv(
        row, name, humanSeconds(x.seconds),
        llvm::formatv("{0:f1}%", r.seconds > 0 ? 100 * x.seconds / r.seconds : 0.0)
            .str(),
        humanNumber(x.flops, ""),
        outer ? humanNumber(outer->second, "B") + " " + outer->first : "-", ai,
        x.bottleneck, kernels);
  }
  if (n < nodes.size())
    os << "  ... " << (nodes.size() - n) << " more nodes (--top 0 for all)\n";
}
