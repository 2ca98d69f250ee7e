//===- Graph.cpp - the source graph, annotated and drawn --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The source graph comes from the imported module (graph dialect, before
/// any target pass): every op carries the names of the source nodes it came
/// from in its location, so ops fold back into nodes and SSA uses between
/// them are the edges. The annotations come from the roofline report, whose
/// kernels name the same source nodes (byNode). Placement of a drawn node:
/// in the cluster of its kernel when the kernel holds several drawn nodes
/// (that cluster sits in the deepest module group holding all of them),
/// else in its module group. Groups nest by path.
///
//===----------------------------------------------------------------------===//

#include "dfa/Roofline/Graph.h"

#include "Format.h"

#include "dialects/Graph/GraphInterfaces.h"
#include "dialects/Graph/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <graphviz/gvc.h>

#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string_view>

using namespace mlir;
using namespace dfa;
using namespace dfa::roofline;

//===----------------------------------------------------------------------===//
// The source graph
//===----------------------------------------------------------------------===//

std::string dfa::roofline::sourceGroup(Location loc, llvm::StringRef name) {
  auto n = dyn_cast<NameLoc>(loc);
  if (!n)
    return ""; // a file:line
  // FX, and ONNX from torch's dynamo exporter: NameLoc(node, NameLoc(module
  // path, file location)).
  if (auto inner = dyn_cast<NameLoc>(n.getChildLoc()))
    return inner.getName().str();
  // ONNX, named by scope as torch's TorchScript exporter names nodes
  // ("/layers.0/attn/MatMul"), or by a dotted module path
  // ("encoder.layer.0.fc1").
  if (name.starts_with("/")) {
    size_t slash = name.rfind('/');
    return slash == 0 ? "" : name.take_front(slash).str();
  }
  size_t dot = name.rfind('.');
  return dot == llvm::StringRef::npos || dot == 0 ? "" : name.take_front(dot).str();
}

namespace {

/// Each source node of a location with its group, in sourceNames' order.
void sources(Location loc, SmallVectorImpl<std::pair<std::string, std::string>> &out) {
  if (auto f = dyn_cast<FusedLoc>(loc)) {
    for (Location l : f.getLocations())
      sources(l, out);
    return;
  }
  if (auto c = dyn_cast<CallSiteLoc>(loc))
    return sources(c.getCallee(), out);
  SmallVector<std::string, 1> names;
  sourceNames(loc, names);
  for (std::string &n : names)
    out.push_back({n, sourceGroup(loc, n)});
}

/// The name a function argument or result goes by.
std::string ioName(DictionaryAttr attrs, const char *what, unsigned i) {
  if (attrs)
    if (auto n = attrs.getAs<StringAttr>(graph::kNameAttr))
      return n.str();
  return std::string(what) + " " + std::to_string(i);
}

} // namespace

SourceGraph dfa::roofline::sourceGraph(ModuleOp module) {
  SourceGraph g;
  func::FuncOp main;
  for (auto f : module.getOps<func::FuncOp>())
    if (!main || f.getName() == "main")
      main = f;
  if (!main || main.isExternal())
    return g;
  llvm::StringMap<size_t> index[3]; // by kind: a node may share an input's name
  std::vector<double> opFlops;      // per node: the FLOPs of its op
  auto node = [&](const std::string &name, const std::string &group,
                  SourceNode::Kind kind) {
    auto [it, added] = index[kind].try_emplace(name, g.nodes.size());
    if (added) {
      g.nodes.push_back({name, "", group, kind});
      opFlops.push_back(-1);
    }
    return it->second;
  };
  llvm::DenseMap<Value, SmallVector<size_t, 1>> producers;
  for (auto [i, arg] : llvm::enumerate(main.getArguments()))
    producers[arg].push_back(
        node(ioName(main.getArgAttrDict(i), "input", i), "", SourceNode::Input));
  std::set<std::pair<size_t, size_t>> seen;
  auto connect = [&](Value v, ArrayRef<size_t> to) {
    auto it = producers.find(v);
    if (it == producers.end())
      return; // a weight or a constant
    for (size_t from : it->second)
      for (size_t t : to)
        if (from != t && seen.insert({from, t}).second)
          g.edges.push_back({from, t});
  };
  for (Operation &op : main.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
        size_t out = node(ioName(main.getResultAttrDict(i), "output", i), "",
                          SourceNode::Output);
        connect(v, {out});
      }
      continue;
    }
    if (isa<graph::ConstantOp, graph::WeightOp>(op))
      continue;
    SmallVector<std::pair<std::string, std::string>> names;
    sources(op.getLoc(), names);
    if (names.empty()) // no source name: a node of its own
      names.push_back({op.getName().getStringRef().str() + " #" +
                           std::to_string(g.nodes.size()),
                       ""});
    SmallVector<size_t, 1> mine;
    double flops = 0;
    if (auto cost = dyn_cast<graph::CostOpInterface>(op))
      flops = double(cost.getFlops());
    for (auto &[name, group] : names) {
      size_t n = node(name, group, SourceNode::Node);
      if (llvm::is_contained(mine, n))
        continue;
      mine.push_back(n);
      // The op doing most of the node's work names it.
      if (flops > opFlops[n]) {
        opFlops[n] = flops;
        g.nodes[n].op = op.getName().stripDialect().str();
      }
    }
    for (Value v : op.getOperands())
      connect(v, mine);
    for (Value r : op.getResults())
      producers[r] = mine;
  }
  return g;
}

//===----------------------------------------------------------------------===//
// DOT
//===----------------------------------------------------------------------===//

namespace {

/// A DOT string literal's contents.
std::string dotEscape(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') { // a centred line break
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

/// The parent of a module group ("" for a top-level one): paths that start
/// with '/' (ONNX scopes) split at '/', others (FX module paths) at '.'.
std::string parentGroup(llvm::StringRef group) {
  size_t at = group.starts_with("/") ? group.rfind('/') : group.rfind('.');
  return at == llvm::StringRef::npos || at == 0 ? "" : group.take_front(at).str();
}

/// Whether `inner` is `outer` or inside it.
bool within(llvm::StringRef inner, llvm::StringRef outer) {
  for (std::string g = inner.str();; g = parentGroup(g)) {
    if (g == outer)
      return true;
    if (g.empty())
      return false;
  }
}

/// The deepest group holding both.
std::string commonGroup(llvm::StringRef a, llvm::StringRef b) {
  for (std::string g = a.str();; g = parentGroup(g))
    if (within(b, g) || g.empty())
      return g;
}

/// A node's name inside the group it is drawn in: the group's path
/// dropped ("/layer0/matmul_1" in /layer0 is "matmul_1").
std::string shortName(llvm::StringRef name, llvm::StringRef group) {
  if (!group.empty() && name.size() > group.size() + 1 && name.starts_with(group) &&
      (name[group.size()] == '/' || name[group.size()] == '.'))
    return name.drop_front(group.size() + 1).str();
  return name.str();
}

/// Fill colours: red for compute-bound; blues, darker for farther levels,
/// for memory-bound (the report's palette).
const char *const kComputeFill = "#f6c9c9";
const char *const kMemoryFills[] = {"#9ecae1", "#c6dbef", "#deebf7", "#eef5fb"};

/// What is drawn for one target: nodes and collapsed groups, with the
/// numbers of the report.
struct Item {
  std::string id, group;   // group: its module group
  std::string name, label; // the label's first line is the name, shortened
                           // in the group it is drawn in
  std::string kernel;           // a multi-node kernel's cluster ("" none)
  std::string bound, bottleneck;
  bool critical = false, io = false, measured = false, shifted = false;
};

class DotWriter {
public:
  DotWriter(const SourceGraph &g, llvm::ArrayRef<Report> reports,
            const GraphOptions &o)
      : g(g), reports(reports.take_front(2)), opts(o) {}

  std::string run(llvm::StringRef title, size_t *drawn);

private:
  void collapse();
  std::string rep(size_t node) const;
  void emitTarget(size_t ti, llvm::raw_ostream &os);
  void emitGroup(const std::string &group, size_t ti,
                 const std::map<std::string, std::vector<const Item *>> &loose,
                 const std::map<std::string, std::vector<const Item *>> &kernels,
                 const std::map<std::string, std::string> &kernelGroup,
                 const std::map<std::string, std::set<std::string>> &children,
                 int depth, llvm::raw_ostream &os);
  void emitItem(const Item &item, llvm::StringRef in, const Report &r,
                llvm::raw_ostream &os, int depth);

  const SourceGraph &g;
  llvm::ArrayRef<Report> reports;
  const GraphOptions &opts;
  /// Each node's outermost folded group ("" when it is drawn itself), and
  /// how many items are drawn a target.
  std::vector<std::string> repOf;
  size_t shownItems = 0;
  std::map<std::string, int> groupIds;
  int groupId(const std::string &group) {
    return groupIds.try_emplace(group, int(groupIds.size())).first->second;
  }
};

std::string DotWriter::rep(size_t node) const { return repOf[node]; }

/// Names in natural order: "/layer9" before "/layer10".
struct NaturalLess {
  bool operator()(const std::string &a, const std::string &b) const {
    return llvm::StringRef(a).compare_numeric(b) < 0;
  }
};

void DotWriter::collapse() {
  // The group tree, by id: 0 is the top (""); parents before children.
  std::map<std::string, int, NaturalLess> ids{{"", 0}};
  for (const SourceNode &n : g.nodes)
    for (std::string grp = n.group; !grp.empty(); grp = parentGroup(grp))
      ids.try_emplace(grp, 0);
  std::vector<std::string> names;
  for (auto &[name, id] : ids) {
    id = int(names.size());
    names.push_back(name);
  }
  size_t count = names.size();
  std::vector<int> parent(count, -1), depth(count, 0);
  std::vector<int64_t> direct(count, 0); // nodes right in it
  for (size_t i = 1; i < count; ++i)
    parent[i] = ids.at(parentGroup(names[i]));
  for (size_t i = 1; i < count; ++i)
    for (int p = parent[i]; p > 0; p = parent[p])
      ++depth[i];
  std::vector<int> nodeGroup(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    nodeGroup[i] = ids.at(g.nodes[i].group);
    ++direct[nodeGroup[i]];
  }
  std::vector<bool> kept(count, false), folded(count, false);
  for (const std::string &e : opts.expand) {
    auto it = ids.find(e);
    for (int p = it == ids.end() ? -1 : it->second; p > 0; p = parent[p])
      kept[p] = true;
  }
  // Deepest first, so children are counted before their parents.
  std::vector<int> bottomUp(count);
  for (size_t i = 0; i < count; ++i)
    bottomUp[i] = int(i);
  llvm::stable_sort(bottomUp, [&](int a, int b) { return depth[a] > depth[b]; });
  std::vector<int64_t> visible(count);
  auto recount = [&] {
    for (int i : bottomUp)
      visible[i] = direct[i];
    for (int i : bottomUp)
      if (i > 0)
        visible[parent[i]] += folded[i] ? 1 : visible[i];
  };
  auto insideFolded = [&](int i) {
    for (int p = parent[i]; p > 0; p = parent[p])
      if (folded[p])
        return true;
    return false;
  };
  int64_t cap = std::max<int64_t>(2, int64_t(opts.maxNodes) / 4);
  for (recount(); visible[0] > int64_t(opts.maxNodes); recount()) {
    // The largest group that fits a quarter of the drawing, else the
    // smallest that does not; later names first, so the first layers of a
    // stack stay open.
    int best = -1;
    bool bestFits = false;
    for (int i = int(count) - 1; i > 0; --i) {
      if (kept[i] || folded[i] || visible[i] < 2 || insideFolded(i))
        continue;
      bool fits = visible[i] <= cap;
      if (best < 0 || (fits && !bestFits) ||
          (fits == bestFits &&
           (fits ? visible[i] > visible[best] : visible[i] < visible[best]))) {
        best = i;
        bestFits = fits;
      }
    }
    if (best < 0)
      break; // nothing left to fold
    // Folding a group subsumes the folded groups inside it.
    for (size_t i = 1; i < count; ++i)
      for (int p = parent[i]; p > 0; p = parent[p])
        if (p == best)
          folded[i] = false;
    folded[best] = true;
  }
  shownItems = size_t(visible[0]);
  // Each node's outermost folded group.
  repOf.assign(g.nodes.size(), "");
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (int p = nodeGroup[i]; p > 0; p = parent[p])
      if (folded[p])
        repOf[i] = names[p];
}

void DotWriter::emitItem(const Item &item, llvm::StringRef in, const Report &r,
                         llvm::raw_ostream &os, int depth) {
  std::string pad(2 * depth, ' ');
  os << pad << "\"" << item.id << "\" [label=\""
     << dotEscape(shortName(item.name, in) + item.label) << "\"";
  if (item.io) {
    os << ", shape=ellipse, style=filled, fillcolor=\"#f0f0f0\"";
  } else if (!item.measured) {
    os << ", style=\"dashed\", color=\"#999999\"";
  } else {
    std::string fill = kComputeFill;
    llvm::StringRef level = item.bound;
    if (level.consume_front("memory:")) {
      size_t i = 0;
      for (const LevelRoof &l : r.roofs)
        if (l.name != level)
          ++i;
        else
          break;
      fill = kMemoryFills[std::min<size_t>(i, std::size(kMemoryFills) - 1)];
    }
    bool scheduling = item.bottleneck == "scheduling";
    os << ", style=\"filled" << (scheduling ? ",dashed" : "")
       << "\", fillcolor=\"" << fill << "\", color=\""
       << (item.critical ? "#111111" : scheduling ? "#ff7f0e" : "#555555") << "\"";
  }
  if (item.critical)
    os << ", penwidth=3";
  if (item.shifted)
    os << ", peripheries=2";
  os << "];\n";
}

void DotWriter::emitGroup(
    const std::string &group, size_t ti,
    const std::map<std::string, std::vector<const Item *>> &loose,
    const std::map<std::string, std::vector<const Item *>> &kernels,
    const std::map<std::string, std::string> &kernelGroup,
    const std::map<std::string, std::set<std::string>> &children, int depth,
    llvm::raw_ostream &os) {
  std::string pad(2 * depth, ' ');
  if (!group.empty()) {
    os << pad << "subgraph \"cluster_t" << ti << "_g" << groupId(group)
       << "\" {\n"
       << pad << "  label=\"" << dotEscape(group) << "\"; labelloc=t; style=\"rounded\"; "
       << "color=\"#bbbbbb\"; fontcolor=\"#666666\";\n";
  }
  for (auto &[kernel, where] : kernelGroup) {
    if (where != group)
      continue;
    os << pad << "  subgraph \"cluster_t" << ti << "_k" << groupId("kernel:" + kernel)
       << "\" {\n"
       << pad << "    label=\"kernel " << dotEscape(kernel)
       << "\"; labelloc=t; style=\"filled,dashed\"; fillcolor=\"#fbfbf3\"; color=\"#8c8c5a\"; "
          "fontcolor=\"#6b6b3a\";\n";
    for (const Item *item : kernels.at(kernel))
      emitItem(*item, group, reports[ti], os, depth + 2);
    os << pad << "  }\n";
  }
  if (auto it = loose.find(group); it != loose.end())
    for (const Item *item : it->second)
      emitItem(*item, group, reports[ti], os, depth + 1);
  if (auto it = children.find(group); it != children.end())
    for (const std::string &child : it->second)
      emitGroup(child, ti, loose, kernels, kernelGroup, children, depth + 1, os);
  if (!group.empty())
    os << pad << "}\n";
}

/// "compute" or "memory" (the level aside): the class the partition shift
/// compares.
llvm::StringRef boundClass(llvm::StringRef bound) {
  return bound.split(':').first;
}

void DotWriter::emitTarget(size_t ti, llvm::raw_ostream &os) {
  const Report &r = reports[ti];
  std::map<std::string, NodeRoof> roofs;
  for (NodeRoof &n : byNode(r))
    roofs.emplace(n.name, std::move(n));
  std::set<std::string> critical;
  for (const KernelRoof &k : r.kernels)
    if (k.criticalSeconds > 0)
      critical.insert(k.name);
  // The other target's bounds, for the partition shift.
  std::map<std::string, std::string> otherBound;
  std::string otherName;
  if (reports.size() == 2) {
    const Report &o = reports[1 - ti];
    otherName = o.target;
    for (const NodeRoof &n : byNode(o))
      otherBound[n.name] = n.bound;
  }
  std::string prefix = "t" + std::to_string(ti) + "_";

  // Items: every node not in a collapsed group, one per collapsed group.
  std::vector<Item> items;
  std::vector<size_t> nodeItem(g.nodes.size()); // each node's item
  std::map<std::string, size_t> groupItem;       // each folded group's
  struct Totals {
    double flops = 0, seconds = 0, most = -1;
    std::map<std::string, double> bytes;
    std::string bound, bottleneck;
    bool critical = false, measured = false;
    size_t nodes = 0;
  };
  std::map<std::string, Totals> folded;
  auto addBytes = [](std::map<std::string, double> &to, const NodeRoof &n) {
    for (auto &[level, b] : n.bytes)
      to[level] += b;
  };
  auto numbers = [&](double flops, const std::map<std::string, double> &bytes,
                     double seconds, llvm::StringRef bound) {
    std::string s = humanNumber(flops, "FLOP");
    double outer = 0;
    std::string outerLevel;
    for (const LevelRoof &l : r.roofs)
      if (auto it = bytes.find(l.name); it != bytes.end() && it->second > 0) {
        outer = it->second;
        outerLevel = l.name;
        break;
      }
    if (outer > 0) {
      char ai[32];
      std::snprintf(ai, sizeof ai, "%.3g", flops / outer);
      s += " | AI " + std::string(ai) + " (" + outerLevel + ")";
    }
    std::string levels;
    for (const LevelRoof &l : r.roofs)
      if (auto it = bytes.find(l.name); it != bytes.end() && it->second > 0)
        levels += (levels.empty() ? "" : " | ") + l.name + " " + humanNumber(it->second, "B");
    for (auto &[level, b] : bytes) // levels the chart has no roof for
      if (b > 0 && llvm::none_of(r.roofs, [&](const LevelRoof &l) { return l.name == level; }))
        levels += (levels.empty() ? "" : " | ") + level + " " + humanNumber(b, "B");
    if (!levels.empty())
      s += "\n" + levels;
    s += "\n" + humanSeconds(seconds) + " | " + bound.str();
    return s;
  };
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const SourceNode &n = g.nodes[i];
    std::string group = rep(i);
    auto roof = roofs.find(n.name);
    bool measured = n.kind == SourceNode::Node && roof != roofs.end();
    if (!group.empty()) {
      Totals &t = folded[group];
      ++t.nodes;
      if (measured) {
        const NodeRoof &nr = roof->second;
        t.flops += nr.flops;
        t.seconds += nr.seconds;
        addBytes(t.bytes, nr);
        t.measured = true;
        t.critical |= critical.count(nr.kernel) > 0;
        if (nr.seconds > t.most) {
          t.most = nr.seconds;
          t.bound = nr.bound;
          t.bottleneck = nr.bottleneck;
        }
      }
      auto [at, added] = groupItem.try_emplace(group, items.size());
      if (added) {
        items.push_back({});
        items.back().id = prefix + "g" + std::to_string(groupId(group));
        items.back().group = parentGroup(group);
      }
      nodeItem[i] = at->second;
      continue;
    }
    Item item;
    item.id = prefix + "n" + std::to_string(i);
    item.group = n.group;
    item.io = n.kind != SourceNode::Node;
    item.name = n.name;
    if (item.io) {
      item.name = (n.kind == SourceNode::Input ? "input " : "output ") + n.name;
    } else if (measured) {
      const NodeRoof &nr = roof->second;
      std::map<std::string, double> bytes;
      addBytes(bytes, nr);
      item.label = (n.op.empty() ? "" : " (" + n.op + ")") + "\n" +
                   numbers(nr.flops, bytes, nr.seconds, nr.bound);
      item.measured = true;
      item.kernel = nr.kernel;
      item.bound = nr.bound;
      item.bottleneck = nr.bottleneck;
      item.critical = critical.count(nr.kernel) > 0;
      if (auto o = otherBound.find(n.name);
          o != otherBound.end() && boundClass(o->second) != boundClass(nr.bound)) {
        item.shifted = true;
        item.label += "\nshift: " + o->second + " on " + otherName;
      }
    } else {
      item.label = (n.op.empty() ? "" : " (" + n.op + ")") +
                   "\nno kernel (folded or a view)";
    }
    nodeItem[i] = items.size();
    items.push_back(std::move(item));
  }
  for (auto &[group, t] : folded) {
    Item &item = items[groupItem.at(group)];
    item.name = group;
    item.label = " (" + std::to_string(t.nodes) + " nodes, folded)";
    if (t.measured) {
      item.label += "\n" + numbers(t.flops, t.bytes, t.seconds, t.bound);
      item.measured = true;
      item.bound = t.bound;
      item.bottleneck = t.bottleneck;
      item.critical = t.critical;
    }
  }
  // Kernel clusters: kernels holding two or more drawn nodes.
  std::map<std::string, std::vector<const Item *>> kernels, loose;
  for (const Item &item : items)
    if (!item.kernel.empty())
      kernels[item.kernel].push_back(&item);
  std::map<std::string, std::string> kernelGroup;
  for (auto it = kernels.begin(); it != kernels.end();) {
    if (it->second.size() < 2) {
      it = kernels.erase(it);
      continue;
    }
    std::string where = it->second.front()->group;
    for (const Item *item : it->second)
      where = commonGroup(where, item->group);
    kernelGroup[it->first] = where;
    ++it;
  }
  std::map<std::string, std::set<std::string>> children;
  std::set<std::string> used;
  for (const Item &item : items) {
    std::string where = !item.kernel.empty() && kernels.count(item.kernel)
                            ? kernelGroup[item.kernel]
                            : item.group;
    if (item.kernel.empty() || !kernels.count(item.kernel))
      loose[where].push_back(&item);
    used.insert(where);
  }
  for (const std::string &u : used)
    for (std::string grp = u; !grp.empty(); grp = parentGroup(grp))
      children[parentGroup(grp)].insert(grp);

  os << "  subgraph \"cluster_t" << ti << "\" {\n"
     << "    label=\"" << dotEscape(r.target) << ": "
     << humanSeconds(r.seconds) << (r.simulated ? "" : " (analytic)")
     << "\"; labelloc=t; fontsize=18; color=\"#dddddd\";\n";
  emitGroup("", ti, loose, kernels, kernelGroup, children, 1, os);
  os << "  }\n";
  std::set<std::pair<size_t, size_t>> drawn;
  for (auto [a, b] : g.edges) {
    size_t ia = nodeItem[a], ib = nodeItem[b];
    if (ia == ib || !drawn.insert({ia, ib}).second)
      continue;
    os << "  \"" << items[ia].id << "\" -> \"" << items[ib].id << "\"";
    if (items[ia].critical && items[ib].critical)
      os << " [penwidth=2.5, color=\"#111111\"]";
    os << ";\n";
  }
}

std::string DotWriter::run(llvm::StringRef title, size_t *drawn) {
  collapse();
  if (drawn)
    *drawn = shownItems;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "digraph \"" << dotEscape(title) << "\" {\n"
     << "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=12, "
        "nodesep=0.25, ranksep=0.35, labelloc=b, label=\""
     << "fill: red compute-bound, blue memory-bound (darker: the outer level); "
        "dashed orange: scheduling-bound; bold: the critical path"
     << (reports.size() == 2 ? "; double border: the bound differs on the other target"
                             : "")
     << "\"];\n"
     << "  node [shape=box, style=filled, fontname=\"Helvetica\", fontsize=10, "
        "margin=\"0.08,0.04\"];\n"
     << "  edge [color=\"#777777\", arrowsize=0.6];\n";
  for (size_t ti = 0; ti < reports.size(); ++ti)
    emitTarget(ti, os);
  os << "}\n";
  return s;
}

} // namespace

std::string dfa::roofline::graphDot(const SourceGraph &g,
                                    llvm::ArrayRef<Report> reports,
                                    llvm::StringRef title,
                                    const GraphOptions &options, size_t *drawn) {
  return DotWriter(g, reports, options).run(title, drawn);
}

std::vector<std::string> dfa::roofline::moduleGroups(const SourceGraph &g) {
  std::set<std::string> groups;
  for (const SourceNode &n : g.nodes)
    for (std::string grp = n.group; !grp.empty(); grp = parentGroup(grp))
      groups.insert(grp);
  return {groups.begin(), groups.end()};
}

//===----------------------------------------------------------------------===//
// Graphviz
//===----------------------------------------------------------------------===//

namespace {
/// Graphviz's object IDs, assigned in the order names first appear.
/// cgraph's default discipline makes a named object's ID the address of its
/// interned name, and keeps subgraphs ordered by ID, so clusters were laid
/// out and written in heap-address order: a drawing changed from run to
/// run (ASLR) for the same DOT. Here a named object's ID is the next even
/// number (cgraph reserves odd IDs for anonymous objects) and the drawing
/// follows the DOT's order.
struct NameIds {
  std::map<std::string, IDTYPE, std::less<>> ids;
  std::vector<std::unique_ptr<std::string>> names; // names[id / 2 - 1]
  IDTYPE anonymous = 1;

  static void *open(Agraph_t *, Agdisc_t *) { return new NameIds; }
  static long map(void *state, int, char *str, IDTYPE *id, int create) {
    auto &s = *static_cast<NameIds *>(state);
    if (!str) {
      *id = s.anonymous;
      s.anonymous += 2;
      return 1;
    }
    if (auto it = s.ids.find(std::string_view(str)); it != s.ids.end()) {
      *id = it->second;
      return 1;
    }
    if (!create)
      return 0;
    s.names.push_back(std::make_unique<std::string>(str));
    *id = IDTYPE(2 * s.names.size());
    s.ids.emplace(*s.names.back(), *id);
    return 1;
  }
  static long alloc(void *, int, IDTYPE) { return 0; }
  static void free(void *, int, IDTYPE) {}
  static char *print(void *state, int, IDTYPE id) {
    auto &s = *static_cast<NameIds *>(state);
    if (id % 2 != 0 || id == 0 || id / 2 > s.names.size())
      return nullptr;
    return s.names[id / 2 - 1]->data();
  }
  static void close(void *state) { delete static_cast<NameIds *>(state); }
  static void idregister(void *, int, void *) {}
};

Agiddisc_t nameIdDisc = {NameIds::open,  NameIds::map,   NameIds::alloc,
                         NameIds::free,  NameIds::print, NameIds::close,
                         NameIds::idregister};
} // namespace

bool dfa::roofline::renderSvg(llvm::StringRef dot, std::string &svg,
                              std::string &error) {
  GVC_t *gvc = gvContext();
  std::string text = dot.str();
  Agraph_t *g = nullptr;
  if (FILE *in = fmemopen(text.data(), text.size(), "r")) {
    Agdisc_t disc = {&AgMemDisc, &nameIdDisc, &AgIoDisc};
    g = agread(in, &disc);
    fclose(in);
    agsetfile(nullptr);
  }
  if (!g) {
    gvFreeContext(gvc);
    error = "Graphviz could not read the graph";
    return false;
  }
  char *data = nullptr;
  unsigned int length = 0;
  bool ok = false;
  if (gvLayout(gvc, g, "dot") != 0)
    error = "Graphviz could not lay the graph out (is its dot layout plugin "
            "installed? Debian's libgvc6)";
  else if (gvRenderData(gvc, g, "svg", &data, &length) != 0)
    error = "Graphviz could not render SVG (is its core plugin installed? "
            "Debian's libgvc6)";
  else
    ok = true;
  if (ok)
    svg.assign(data, length);
  if (data)
    gvFreeRenderData(data);
  gvFreeLayout(gvc, g);
  agclose(g);
  gvFreeContext(gvc);
  return ok;
}
