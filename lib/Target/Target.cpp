//===- Target.cpp - machine descriptions ------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Target/Target.h"
#include "dfa/Target/SCALESim.h"

#include "dfa/Target/Layout.h"

#include "dfa/Support/Limits.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace dfa;
using namespace dfa::target;
namespace json = llvm::json;

namespace {
/// Reads fields and records the first problem with its key path.
class Reader {
public:
  Reader(llvm::StringRef file, std::string &error) : file(file), error(error) {}
  bool ok = true;

  bool fail(const std::string &path, const std::string &what) {
    if (ok)
      error = file.str() + ": key '" + path + "': " + what;
    ok = false;
    return false;
  }

  const json::Object *object(const json::Object &o, llvm::StringRef key,
                             const std::string &path, bool required) {
    const json::Value *v = o.get(key);
    if (!v) {
      if (required)
        fail(path, "missing (expected an object)");
      return nullptr;
    }
    if (!v->getAsObject())
      fail(path, "expected an object");
    return v->getAsObject();
  }

  std::string string(const json::Object &o, llvm::StringRef key,
                     const std::string &path, bool required,
                     llvm::ArrayRef<llvm::StringRef> allowed = {}) {
    const json::Value *v = o.get(key);
    if (!v) {
      if (required)
        fail(path, "missing (expected a string)");
      return "";
    }
    auto s = v->getAsString();
    if (!s) {
      fail(path, "expected a string");
      return "";
    }
    if (!allowed.empty() && !llvm::is_contained(allowed, *s)) {
      std::string list;
      for (llvm::StringRef a : allowed)
        list += (list.empty() ? "" : ", ") + a.str();
      fail(path, "'" + s->str() + "' is not one of " + list);
    }
    return s->str();
  }

  /// {"value": number >= 0, "source": non-empty string}
  std::optional<Sourced> sourced(const json::Object &o, llvm::StringRef key,
                                 const std::string &path, bool required) {
    const json::Value *v = o.get(key);
    if (!v) {
      if (required)
        fail(path, "missing (expected {\"value\": number, \"source\": string})");
      return std::nullopt;
    }
    return sourcedValue(*v, path);
  }

  std::optional<Sourced> sourcedValue(const json::Value &v,
                                      const std::string &path) {
    const json::Object *obj = v.getAsObject();
    auto value = obj ? obj->getNumber("value") : std::nullopt;
    auto source = obj ? obj->getString("source") : std::nullopt;
    if (!obj || !value || !source) {
      fail(path, "expected {\"value\": number, \"source\": string}");
      return std::nullopt;
    }
    if (!std::isfinite(*value) || *value < 0) {
      fail(path + ".value", "expected a finite non-negative number");
      return std::nullopt;
    }
    if (source->trim().empty()) {
      fail(path + ".source", "every number needs its source");
      return std::nullopt;
    }
    return Sourced{*value, source->str()};
  }

  /// An array of `n` positive integers, e.g. "tile": [8, 128].
  void intArray(const json::Object &o, llvm::StringRef key,
                const std::string &path, size_t n, bool required,
                llvm::StringRef why) {
    const json::Value *v = o.get(key);
    if (!v) {
      if (required)
        fail(path, "missing (expected an array of " + std::to_string(n) +
                       " positive integers; " + why.str() + ")");
      return;
    }
    const json::Array *a = v->getAsArray();
    bool good = a && a->size() == n;
    for (size_t i = 0; good && i < n; ++i) {
      auto x = (*a)[i].getAsInteger();
      good = x && *x > 0;
    }
    if (!good)
      fail(path, "expected an array of " + std::to_string(n) + " positive integers");
  }

  /// An array of arrays of `n` positive integers, e.g.
  /// "small_second_minor_tiles": [[2, 128], [4, 128]].
  void intArrays(const json::Object &o, llvm::StringRef key,
                 const std::string &path, size_t n) {
    const json::Value *v = o.get(key);
    if (!v)
      return;
    const json::Array *a = v->getAsArray();
    if (!a) {
      fail(path, "expected an array of arrays of " + std::to_string(n) +
                     " positive integers");
      return;
    }
    for (size_t i = 0; i < a->size(); ++i) {
      const json::Array *e = (*a)[i].getAsArray();
      bool good = e && e->size() == n;
      for (size_t j = 0; good && j < n; ++j) {
        auto x = (*e)[j].getAsInteger();
        good = x && *x > 0;
      }
      if (!good)
        fail(path + "[" + std::to_string(i) + "]",
             "expected an array of " + std::to_string(n) + " positive integers");
    }
  }

  /// A positive sourced number the passes of a family rely on.
  void positive(const json::Object &o, llvm::StringRef key,
                const std::string &path, bool required, llvm::StringRef why) {
    if (!o.get(key)) {
      if (required)
        fail(path, "missing (expected {\"value\": number, \"source\": string}; " +
                       why.str() + ")");
      return;
    }
    if (auto v = sourced(o, key, path, true); v && v->value <= 0)
      fail(path + ".value", "expected a positive number");
  }

private:
  llvm::StringRef file;
  std::string &error;
};

const llvm::StringRef kKinds[] = {"dram", "sram", "cache", "scratchpad", "registers"};
const llvm::StringRef kScopes[] = {"chip", "unit"};
const llvm::StringRef kManaged[] = {"hardware", "software"};

std::optional<Link> readLink(Reader &r, const json::Object &o,
                             llvm::StringRef key, const std::string &path) {
  const json::Object *l = r.object(o, key, path, false);
  if (!l)
    return std::nullopt;
  Link link;
  link.kind = r.string(*l, "kind", path + ".kind", true);
  if (link.kind == "none") // e.g. a single-socket host
    return std::nullopt;
  if (auto v = r.sourced(*l, "bandwidth_bytes_per_s", path + ".bandwidth_bytes_per_s", true))
    link.bandwidthBytesPerS = *v;
  if (auto v = r.sourced(*l, "latency_ns", path + ".latency_ns", false))
    link.latencyNs = *v;
  if (auto v = r.sourced(*l, "links", path + ".links", false))
    link.links = *v;
  link.collectiveLinks = link.links;
  if (auto v = r.sourced(*l, "collective_links", path + ".collective_links", false))
    link.collectiveLinks = *v;
  if (link.collectiveLinks.value > std::max(1.0, link.links.value))
    r.fail(path + ".collective_links",
           "a collective drives at most the chip's " +
               std::to_string(int64_t(std::max(1.0, link.links.value))) + " links");
  return link;
}
/// The layout and limit keys the passes read: required where a property of
/// the target makes a decision depend on them, checked for shape wherever
/// present.
void checkCapabilityKeys(Reader &r, const json::Object &root, const Target &t) {
  static const json::Object empty;
  const json::Object *layout = root.getObject("layout");
  const json::Object *limits = root.getObject("limits");
  const json::Object &lay = layout ? *layout : empty;
  const json::Object &lim = limits ? *limits : empty;
  const Capabilities &c = t.caps;
  bool cta = c.tiling == TilingScheme::CtaTiles;
  bool mxu = c.tiling == TilingScheme::MxuTiles;
  bool planes = c.tiling == TilingScheme::MxmPlanes;
  bool cores = c.tiling == TilingScheme::CoreSplit;
  bool rects = c.tiling == TilingScheme::PeRectangles;
  r.intArray(lay, "cta_tile", "layout.cta_tile", 3, cta,
             "compiler.tiling 'cta' tiles by the CTA tile [m, n, k]");
  r.intArray(lay, "mma_tile", "layout.mma_tile", 3, cta,
             "compiler.tiling 'cta' pads to the tensor-core instruction shape [m, n, k]");
  r.intArray(lay, "tile", "layout.tile", 2, mxu,
             "compiler.tiling 'mxu' tiles by the (sublane, lane) tile of the two minor dims");
  r.intArray(lay, "tile_16bit", "layout.tile_16bit", 2, false, "");
  r.intArray(lay, "tile_8bit", "layout.tile_8bit", 2, false, "");
  r.intArrays(lay, "small_second_minor_tiles", "layout.small_second_minor_tiles", 2);
  // A small tile replaces the large one's rows only: it is as wide.
  if (const json::Array *tile = lay.getArray("tile"), *small = lay.getArray("small_second_minor_tiles");
      tile && small && tile->size() == 2)
    for (size_t i = 0; i < small->size(); ++i)
      if (const json::Array *s = (*small)[i].getAsArray();
          s && s->size() == 2 && (*s)[1].getAsInteger() != (*tile)[1].getAsInteger())
        r.fail("layout.small_second_minor_tiles[" + std::to_string(i) + "]",
               "a small tile must be as wide as layout.tile");
  r.intArrays(lay, "sublanes_by_bits", "layout.sublanes_by_bits", 2);
  r.intArray(lay, "mxm_plane", "layout.mxm_plane", 2, planes,
             "compiler.tiling 'mxm-planes' needs the matrix plane [rows, cols]");
  r.intArray(lay, "fabric_dims", "layout.fabric_dims", 2, false, "");
  r.positive(lay, "vector_elems", "layout.vector_elems", planes,
             "compiler.tiling 'mxm-planes' needs the vector length");
  r.positive(lay, "stick_bytes", "layout.stick_bytes", cores,
             "compiler.tiling 'core-split' splits in whole sticks");
  r.positive(lay, "matmul_pad", "layout.matmul_pad", false, "");
  r.positive(lay, "alignment_bytes", "layout.alignment_bytes", false, "");
  r.positive(lim, "smem_bytes_per_block_max", "limits.smem_bytes_per_block_max",
             cta || c.matrixModel == MatrixModel::Tiled,
             "compiler.tiling 'cta' and compute.matrix_model 'tiled' size tiles "
             "and pipeline stages to shared memory per CTA");
  r.positive(lim, "usable_lx_bytes_per_core", "limits.usable_lx_bytes_per_core",
             cores, "compiler.tiling 'core-split' bounds a fusion's working set per core");
  r.positive(lim, "max_span_bytes_per_core", "limits.max_span_bytes_per_core",
             cores, "compiler.tiling 'core-split' checks a core's addressable span");
  r.positive(lim, "sram_bytes_total", "limits.sram_bytes_total",
             c.weightStreaming, "compiler.weight_streaming compares the weights with it");
  r.positive(lim, "pe_sram_bytes", "limits.pe_sram_bytes", rects,
             "compiler.tiling 'pe-rectangles' sizes rectangles to hold weights");
  bool tiled = c.matrixModel == MatrixModel::Tiled;
  r.positive(lim, "registers_per_unit", "limits.registers_per_unit", tiled,
             "compute.matrix_model 'tiled' keeps a CTA's accumulators in registers");
  if (tiled && r.ok) {
    if (!t.ctaTiles)
      r.fail("compute.cta_tiles",
             "missing (expected {\"shapes\": [[M, N], ...], \"source\": "
             "string}; compute.matrix_model 'tiled' chooses among these CTA tiles)");
    else if (!t.cacheLevel())
      r.fail("memory", "no chip-wide level of kind 'cache' (compute.matrix_model "
                       "'tiled' loads the operand panels from the L2)");
  }
}

/// What the compiler of each shipped family does (docs/targets.md).
std::optional<Capabilities> familyDefaults(llvm::StringRef family) {
  Capabilities c;
  if (family == "gpu") {
    c.fusion = FusionPolicy::Inductor;
    c.tiling = TilingScheme::CtaTiles;
    c.matrixModel = MatrixModel::Tiled;
    c.transposeFolding = true;
  } else if (family == "tpu") {
    c.fusion = FusionPolicy::XLA;
    c.tiling = TilingScheme::MxuTiles;
    c.staticPlan = c.staging = c.doubleBuffering = true;
    c.relayoutMinorDim = c.transposeFolding = true;
    c.matrixModel = MatrixModel::Systolic;
  } else if (family == "wse") {
    c.fusion = FusionPolicy::Layer;
    c.tiling = TilingScheme::PeRectangles;
    c.placement = Placement::Spatial;
    c.staticPlan = c.weightStreaming = true;
  } else if (family == "lpu") {
    c.fusion = FusionPolicy::Stream;
    c.tiling = TilingScheme::MxmPlanes;
    c.placement = Placement::ChipPartition;
    c.staticPlan = c.cycleExact = true;
  } else if (family == "spyre") {
    c.fusion = FusionPolicy::Inductor;
    c.tiling = TilingScheme::CoreSplit;
    c.staticPlan = c.staging = c.relayoutMinorDim = true;
  } else if (family == "cpu") {
    c.reference = true;
  } else {
    return std::nullopt;
  }
  return c;
}

/// One enumerated property: its value in the description, or the default.
/// `missing` is the error when the key is absent ("": it may be).
template <typename E>
void readEnum(Reader &r, const json::Object *o, llvm::StringRef key,
              const std::string &path, const std::string &missing,
              llvm::ArrayRef<E> values, E &out) {
  if (!o || !o->get(key)) {
    if (!missing.empty())
      r.fail(path, missing);
    return;
  }
  llvm::SmallVector<llvm::StringRef> names;
  for (E v : values)
    names.push_back(name(v));
  std::string s = r.string(*o, key, path, true, names);
  for (E v : values)
    if (s == name(v))
      out = v;
}

void readBool(Reader &r, const json::Object *o, llvm::StringRef key,
              const std::string &path, bool &out) {
  const json::Value *v = o ? o->get(key) : nullptr;
  if (!v)
    return;
  if (auto b = v->getAsBoolean())
    out = *b;
  else
    r.fail(path, "expected true or false");
}

/// The compiler properties: the family's defaults, then the description's
/// `compiler` object.
void readCapabilities(Reader &r, const json::Object &root, Target &t) {
  std::optional<Capabilities> defaults = familyDefaults(t.family);
  bool known = defaults.has_value();
  t.caps = defaults.value_or(Capabilities());
  const json::Object *c = r.object(root, "compiler", "compiler", false);
  // A misspelt property would silently keep the family's default.
  static const llvm::StringRef kCompilerKeys[] = {
      "fusion", "tiling", "placement", "plan", "timing", "staging",
      "double_buffering", "relayout_minor_dim", "transpose_folding", "weight_streaming", "reference"};
  if (c)
    for (const auto &kv : *c) {
      llvm::StringRef key = kv.first;
      if (!llvm::is_contained(kCompilerKeys, key) && key != "notes" &&
          !key.ends_with("_source")) {
        std::string list;
        for (llvm::StringRef k : kCompilerKeys)
          list += (list.empty() ? "" : ", ") + k.str();
        r.fail("compiler." + key.str(), "unknown property (known: " + list + ")");
      }
    }
  Capabilities &caps = t.caps;
  std::string missing =
      known ? ""
            : "missing: family '" + t.family +
                  "' is not one dfa ships (gpu, tpu, wse, lpu, spyre, cpu), "
                  "so the description gives every compiler property "
                  "(docs/targets.md)";
  readEnum<FusionPolicy>(r, c, "fusion", "compiler.fusion", missing,
                         {FusionPolicy::None, FusionPolicy::Inductor,
                          FusionPolicy::XLA, FusionPolicy::Layer,
                          FusionPolicy::Stream},
                         caps.fusion);
  readEnum<TilingScheme>(r, c, "tiling", "compiler.tiling", missing,
                         {TilingScheme::Single, TilingScheme::CtaTiles,
                          TilingScheme::MxuTiles, TilingScheme::PeRectangles,
                          TilingScheme::MxmPlanes, TilingScheme::CoreSplit},
                         caps.tiling);
  readEnum<Placement>(r, c, "placement", "compiler.placement", missing,
                      {Placement::Shared, Placement::Spatial,
                       Placement::ChipPartition},
                      caps.placement);
  if (c && c->get("plan"))
    caps.staticPlan = r.string(*c, "plan", "compiler.plan", true,
                               {"static", "dynamic"}) == "static";
  else if (!known)
    r.fail("compiler.plan", missing);
  if (c && c->get("timing"))
    caps.cycleExact = r.string(*c, "timing", "compiler.timing", true,
                               {"events", "cycle-exact"}) == "cycle-exact";
  readBool(r, c, "staging", "compiler.staging", caps.staging);
  readBool(r, c, "double_buffering", "compiler.double_buffering",
           caps.doubleBuffering);
  readBool(r, c, "relayout_minor_dim", "compiler.relayout_minor_dim",
           caps.relayoutMinorDim);
  readBool(r, c, "transpose_folding", "compiler.transpose_folding",
           caps.transposeFolding);
  readBool(r, c, "weight_streaming", "compiler.weight_streaming",
           caps.weightStreaming);
  readBool(r, c, "reference", "compiler.reference", caps.reference);
  if (r.ok && caps.cycleExact && !caps.staticPlan)
    r.fail("compiler.timing", "'cycle-exact' checks a static plan: set "
                              "compiler.plan to 'static'");
  if (r.ok && caps.cycleExact && caps.placement == Placement::Spatial)
    r.fail("compiler.timing", "'cycle-exact' checks ops at their planned "
                              "cycles, and a layer pipeline (placement "
                              "'spatial') streams: use 'events'");
  if (const json::Object *compute = root.getObject("compute"))
    readEnum<MatrixModel>(r, compute, "matrix_model", "compute.matrix_model",
                          "", {MatrixModel::Throughput, MatrixModel::Systolic,
                               MatrixModel::Tiled},
                          caps.matrixModel);
}
} // namespace

/// A description's text as JSON, or nullopt with `error` naming the file.
static std::optional<json::Value> parseJson(llvm::StringRef file,
                                            llvm::StringRef text,
                                            std::string &error) {
  // llvm::json parses recursively: refuse what would overflow the stack.
  if (limits::nestingDepth(text, /*lineComments=*/false, limits::kMaxNesting) >
      limits::kMaxNesting) {
    error = file.str() + ": nests deeper than " +
            std::to_string(limits::kMaxNesting) + " levels";
    return std::nullopt;
  }
  auto parsed = json::parse(text);
  if (!parsed) {
    error = file.str() + ": not valid JSON: " + llvm::toString(parsed.takeError());
    return std::nullopt;
  }
  return std::move(*parsed);
}

std::optional<Target> dfa::target::parseTarget(llvm::StringRef file,
                                               llvm::StringRef text,
                                               std::string &error) {
  std::optional<json::Value> parsed = parseJson(file, text, error);
  if (!parsed)
    return std::nullopt;
  return parseTargetValue(file, *parsed, error);
}

std::optional<Target> dfa::target::parseTargetValue(llvm::StringRef file,
                                               const json::Value &value,
                                               std::string &error) {
  const json::Object *root = value.getAsObject();
  if (!root) {
    error = file.str() + ": expected a JSON object";
    return std::nullopt;
  }
  Reader r(file, error);
  Target t;
  t.file = file.str();
  std::string schema = r.string(*root, "schema", "schema", true);
  if (r.ok && schema != "dfa.target/1")
    r.fail("schema", "'" + schema + "' is not 'dfa.target/1'");
  t.name = r.string(*root, "name", "name", true);
  llvm::StringRef stem = llvm::sys::path::stem(file);
  if (r.ok && t.name != stem)
    r.fail("name", "'" + t.name + "' differs from the file name '" + stem.str() + "'");
  t.family = r.string(*root, "family", "family", true);
  if (r.ok && t.family.empty())
    r.fail("family", "expected a non-empty name");
  t.description = r.string(*root, "description", "description", false);
  if (auto v = r.sourced(*root, "clock_hz", "clock_hz", true))
    t.clockHz = *v;
  if (r.ok && t.clockHz.value <= 0)
    r.fail("clock_hz.value", "expected a positive number");

  if (const json::Object *c = r.object(*root, "compute", "compute", true)) {
    t.unitName = r.string(*c, "unit_name", "compute.unit_name", true);
    if (auto v = r.sourced(*c, "units", "compute.units", true))
      t.units = *v;
    if (r.ok && t.units.value < 1)
      r.fail("compute.units.value", "expected at least 1");
    else if (r.ok && (t.units.value != std::floor(t.units.value) ||
                      t.units.value > 1e8))
      r.fail("compute.units.value", "expected a whole number of units, at most 1e8");
    if (const json::Object *p = r.object(*c, "peak_flops", "compute.peak_flops", true)) {
      for (const auto &kv : *p)
        if (auto v = r.sourcedValue(kv.second, "compute.peak_flops." + kv.first.str()))
          t.peakFlops[kv.first.str()] = *v;
      if (r.ok && t.peakFlops.empty())
        r.fail("compute.peak_flops", "expected at least one element type");
    }
    if (const json::Object *p =
            r.object(*c, "peak_flops_vector", "compute.peak_flops_vector", false))
      for (const auto &kv : *p)
        if (kv.second.getAsObject())
          if (auto v = r.sourcedValue(kv.second,
                                      "compute.peak_flops_vector." + kv.first.str()))
            t.peakFlopsVector[kv.first.str()] = *v;
    if (const json::Object *m = r.object(*c, "matrix_unit", "compute.matrix_unit", false)) {
      t.matrixM = r.sourced(*m, "m", "compute.matrix_unit.m", true);
      t.matrixN = r.sourced(*m, "n", "compute.matrix_unit.n", true);
      t.matrixK = r.sourced(*m, "k", "compute.matrix_unit.k", false);
      for (auto [key, v] : {std::pair<const char *, std::optional<Sourced> *>{
                                "m", &t.matrixM},
                            {"n", &t.matrixN},
                            {"k", &t.matrixK}})
        if (r.ok && *v &&
            ((*v)->value < 1 || (*v)->value > 65536 ||
             (*v)->value != std::floor((*v)->value)))
          r.fail(std::string("compute.matrix_unit.") + key + ".value",
                 "expected a whole number from 1 to 65536");
      if (const json::Value *v = m->get("mn_major_bits")) {
        const json::Object *o = v->getAsObject();
        const json::Array *bits = o ? o->getArray("value") : nullptr;
        std::optional<llvm::StringRef> source = o ? o->getString("source") : std::nullopt;
        std::vector<int64_t> widths;
        bool good = bits && source && !source->trim().empty();
        for (size_t i = 0; good && i < bits->size(); ++i) {
          std::optional<int64_t> b = (*bits)[i].getAsInteger();
          good = b && llvm::is_contained({4, 8, 16, 32, 64}, *b);
          if (good)
            widths.push_back(*b);
        }
        if (!good)
          r.fail("compute.matrix_unit.mn_major_bits",
                 "expected {\"value\": [bits, ...], \"source\": string}, each "
                 "width one of 4, 8, 16, 32, 64");
        else
          t.matrixMnMajorBits = std::move(widths);
      }
    }
    t.vectorWidth = r.sourced(*c, "vector_width", "compute.vector_width", false);
    t.matrixEfficiency =
        r.sourced(*c, "matrix_efficiency", "compute.matrix_efficiency", false);
    if (r.ok && t.matrixEfficiency &&
        (t.matrixEfficiency->value <= 0 || t.matrixEfficiency->value > 1))
      r.fail("compute.matrix_efficiency.value", "expected a fraction in (0, 1]");
    std::string systolic =
        r.string(*c, "systolic_model", "compute.systolic_model", false);
    if (!systolic.empty() && systolic != "scalesim-ws" &&
        systolic != "scalesim-os" && systolic != "scalesim-is" &&
        systolic != "pipelined-ws")
      r.fail("compute.systolic_model", "'" + systolic +
                                           "' is not one of scalesim-ws, "
                                           "scalesim-os, scalesim-is, "
                                           "pipelined-ws");
    else if (!systolic.empty())
      t.systolicModel = systolic;
    if (const json::Object *ct = r.object(*c, "cta_tiles", "compute.cta_tiles", false)) {
      CtaTiles tiles;
      const json::Array *shapes = ct->getArray("shapes");
      if (!shapes || shapes->empty())
        r.fail("compute.cta_tiles.shapes", "expected a non-empty array of [M, N] tiles");
      else
        for (const json::Value &v : *shapes) {
          const json::Array *pair = v.getAsArray();
          std::optional<int64_t> m, n;
          if (pair && pair->size() == 2) {
            m = (*pair)[0].getAsInteger();
            n = (*pair)[1].getAsInteger();
          }
          if (!m || !n || *m < 1 || *n < 1 || *m > 65536 || *n > 65536) {
            r.fail("compute.cta_tiles.shapes",
                   "expected [M, N] pairs of integers from 1 to 65536");
            break;
          }
          tiles.shapes.push_back({*m, *n});
        }
      for (auto [key, field] : {std::pair<const char *, int64_t *>{"k_bytes", &tiles.kBytes},
                                {"cluster", &tiles.cluster}})
        if (const json::Value *v = ct->get(key)) {
          std::optional<int64_t> i = v->getAsInteger();
          if (!i || *i < 1 || *i > (1 << 20))
            r.fail(std::string("compute.cta_tiles.") + key,
                   "expected an integer from 1 to 1048576");
          else
            *field = *i;
        }
      tiles.source = r.string(*ct, "source", "compute.cta_tiles.source", true);
      if (r.ok)
        t.ctaTiles = std::move(tiles);
    }
    std::string acc = r.string(*c, "accumulator", "compute.accumulator", false);
    if (!acc.empty())
      t.accumulator = acc;
    static const llvm::StringRef kPartialSums[] = {"activation", "accumulator"};
    t.partialSumsInAccumulator =
        r.string(*c, "partial_sums", "compute.partial_sums", false, kPartialSums) ==
        "accumulator";
  }

  const json::Array *mem = root->getArray("memory");
  if (!mem || mem->empty()) {
    r.fail("memory", "expected a non-empty array of memory levels");
  } else {
    llvm::StringSet<> names;
    for (size_t i = 0; i < mem->size(); ++i) {
      std::string path = "memory[" + std::to_string(i) + "]";
      const json::Object *m = (*mem)[i].getAsObject();
      if (!m) {
        r.fail(path, "expected an object");
        break;
      }
      MemoryLevel l;
      l.name = r.string(*m, "name", path + ".name", true);
      if (r.ok && !names.insert(l.name).second)
        r.fail(path + ".name", "'" + l.name + "' appears twice");
      l.kind = r.string(*m, "kind", path + ".kind", true, kKinds);
      l.scope = r.string(*m, "scope", path + ".scope", true, kScopes);
      l.managed = r.string(*m, "managed", path + ".managed", true, kManaged);
      if (auto v = r.sourced(*m, "capacity_bytes", path + ".capacity_bytes", true))
        l.capacityBytes = *v;
      if (auto v = r.sourced(*m, "bandwidth_bytes_per_s", path + ".bandwidth_bytes_per_s", true))
        l.bandwidthBytesPerS = *v;
      if (r.ok && l.capacityBytes.value <= 0)
        r.fail(path + ".capacity_bytes.value", "expected a positive number");
      if (r.ok && l.bandwidthBytesPerS.value <= 0)
        r.fail(path + ".bandwidth_bytes_per_s.value", "expected a positive number");
      if (auto v = r.sourced(*m, "latency_ns", path + ".latency_ns", false))
        l.latencyNs = *v;
      t.memory.push_back(l);
    }
  }

  if (const json::Object *n = r.object(*root, "network", "network", false)) {
    t.onChip = readLink(r, *n, "on_chip", "network.on_chip");
    t.chipToChip = readLink(r, *n, "chip_to_chip", "network.chip_to_chip");
    t.host = readLink(r, *n, "host", "network.host");
  }
  if (const json::Object *l = r.object(*root, "layout", "layout", false))
    t.layout = *l;
  if (const json::Value *ops = root->get("native_ops")) {
    const json::Array *arr = ops->getAsArray();
    if (!arr)
      r.fail("native_ops", "expected an array of op names");
    else
      for (const auto &op : *arr) {
        if (auto s = op.getAsString())
          t.nativeOps.push_back(s->str());
        else
          r.fail("native_ops", "expected op names (strings)");
      }
  }
  if (const json::Array *fb = root->getArray("host_fallback_ops"))
    for (const auto &op : *fb)
      if (auto s = op.getAsString())
        t.hostFallbackOps.push_back(s->str());
  if (const json::Object *o = r.object(*root, "overheads", "overheads", true)) {
    if (auto v = r.sourced(*o, "launch_ns", "overheads.launch_ns", true))
      t.launchNs = *v;
    if (auto v = r.sourced(*o, "dma_setup_ns", "overheads.dma_setup_ns", true))
      t.dmaSetupNs = *v;
    if (auto v = r.sourced(*o, "sync_ns", "overheads.sync_ns", true))
      t.syncNs = *v;
  }
  if (const json::Object *s = r.object(*root, "storage_formats", "storage_formats", false)) {
    for (const auto &kv : *s) {
      std::string path = "storage_formats." + kv.first.str();
      const json::Object *f = kv.second.getAsObject();
      if (f && f->getInteger("bits")) // an integer format: nothing to round
        continue;
      auto mant = f ? f->getInteger("mantissa_bits") : std::nullopt;
      auto exp = f ? f->getInteger("exponent_bits") : std::nullopt;
      if (!f || !mant || !exp || *mant < 1 || *mant > 52 || *exp < 2 ||
          *exp > 11) {
        r.fail(path, "expected {\"mantissa_bits\": int, \"exponent_bits\": "
                     "int, \"source\": string} (or {\"bits\": int} for an integer)");
        break;
      }
      t.storageFormats[kv.first.str()] =
          StorageFormat{(int)*mant, (int)*exp, f->getString("source").value_or("").str(),
                        f->getString("device").value_or("").str()};
    }
    // A host format stored on the device in another: that one must exist.
    for (auto &[name, f] : t.storageFormats)
      if (r.ok && !f.device.empty() && !t.storageFormats.count(f.device))
        r.fail("storage_formats." + name + ".device",
               "'" + f.device + "' is not a float format of this target");
  }
  if (const json::Object *l = r.object(*root, "limits", "limits", false))
    for (const auto &kv : *l)
      if (auto v = r.sourcedValue(kv.second, "limits." + kv.first.str()))
        t.limits[kv.first.str()] = *v;
  if (r.ok && !t.floatFormat(t.accumulator))
    r.fail("compute.accumulator",
           "expected a float format: f16, bf16, tf32, f32, f64 or one of "
           "storage_formats");
  if (r.ok)
    readCapabilities(r, *root, t);
  if (r.ok)
    checkCapabilityKeys(r, *root, t);
  // A device with no off-chip memory of its own (the LPU: on-chip SRAM
  // alone) hands its results to the host as it makes them: the host's
  // memory, reached over network.host, is where they land.
  if (r.ok && t.host &&
      llvm::none_of(t.memory, [](const MemoryLevel &m) { return m.kind == "dram"; })) {
    if (t.level(kHostLevel))
      r.fail("memory", "'" + std::string(kHostLevel) +
                           "' names the host's memory on a device without "
                           "DRAM: a level of the device needs another name");
    MemoryLevel h;
    h.name = kHostLevel;
    h.kind = "host";
    h.scope = "chip"; // each chip's own link (a card's PCIe)
    h.managed = "software";
    h.capacityBytes = {double(int64_t(1) << 48),
                       "not bounded here: the host's memory is outside the "
                       "description"};
    h.bandwidthBytesPerS = t.host->bandwidthBytesPerS;
    h.latencyNs = t.host->latencyNs;
    t.hostMemory = h;
  }
  if (!r.ok)
    return std::nullopt;
  return t;
}

std::string dfa::target::peakKey(llvm::StringRef dtype) {
  // Element types as MLIR prints them: every float8 variant (f8E4M3FN,
  // f8E5M2, f8E4M3FNUZ, ...; not f80) is "f8", whichever of them the chip
  // has; an unsigned integer takes its signed width's rate.
  if (dtype.starts_with("f8E"))
    return "f8";
  if (dtype.starts_with("ui"))
    return dtype.drop_front(1).str();
  return dtype.str();
}

double Target::peak(llvm::StringRef dtype) const {
  auto it = peakFlops.find(peakKey(dtype));
  if (it != peakFlops.end())
    return it->second.value;
  // 16-bit types share the matrix units; fall back between them, then f32.
  for (llvm::StringRef alt : {"bf16", "f16", "f32", "tf32"})
    if ((it = peakFlops.find(alt.str())) != peakFlops.end())
      return it->second.value;
  return peakFlops.empty() ? 0 : peakFlops.begin()->second.value;
}

const StorageFormat *Target::deviceFormat(llvm::StringRef dtype) const {
  auto it = storageFormats.find(dtype.str());
  if (it == storageFormats.end() || it->second.device.empty())
    return nullptr;
  auto dev = storageFormats.find(it->second.device);
  return dev == storageFormats.end() ? nullptr : &dev->second;
}

std::optional<StorageFormat> Target::floatFormat(llvm::StringRef name) const {
  auto it = storageFormats.find(name.str());
  if (it != storageFormats.end())
    return it->second;
  static const struct {
    const char *name;
    int mantissa, exponent;
  } ieee[] = {{"f16", 10, 5}, {"bf16", 7, 8}, {"tf32", 10, 8},
              {"f32", 23, 8}, {"f64", 52, 11}};
  for (const auto &f : ieee)
    if (name == f.name)
      return StorageFormat{f.mantissa, f.exponent, "IEEE 754", ""};
  return std::nullopt;
}

const MemoryLevel *Target::level(llvm::StringRef name) const {
  for (const MemoryLevel &l : memory)
    if (l.name == name)
      return &l;
  if (hostMemory && hostMemory->name == name)
    return &*hostMemory;
  return nullptr;
}

std::optional<double> Target::layoutValue(llvm::StringRef key) const {
  const json::Value *v = layout.get(key);
  if (!v)
    return std::nullopt;
  if (auto n = v->getAsNumber())
    return *n;
  if (const json::Object *o = v->getAsObject())
    return o->getNumber("value");
  return std::nullopt;
}

std::optional<TileShape> Target::tileFor(int64_t elementBytes) const {
  auto pair = [&](llvm::StringRef key) -> std::optional<TileShape> {
    const json::Array *a = layout.getArray(key);
    if (!a || a->size() != 2)
      return std::nullopt;
    auto r = (*a)[0].getAsInteger(), c = (*a)[1].getAsInteger();
    if (!r || !c || *r < 1 || *c < 1)
      return std::nullopt;
    return TileShape{*r, *c};
  };
  std::optional<TileShape> base = pair("tile");
  if (!base)
    return std::nullopt;
  if (elementBytes == 2)
    return pair("tile_16bit").value_or(*base);
  if (elementBytes == 1)
    return pair("tile_8bit").value_or(*base);
  return base;
}

bool Target::readsMnMajor(int64_t bits) const {
  return !matrixMnMajorBits || llvm::is_contained(*matrixMnMajorBits, bits);
}

int64_t Target::registerRows(int64_t elementBytes) const {
  if (const json::Array *pairs = layout.getArray("sublanes_by_bits"))
    for (const json::Value &v : *pairs)
      if (const json::Array *a = v.getAsArray(); a && a->size() == 2)
        if ((*a)[0].getAsInteger() == elementBytes * 8)
          if (std::optional<int64_t> rows = (*a)[1].getAsInteger(); rows && *rows > 0)
            return *rows;
  std::optional<TileShape> tile = tileFor(elementBytes);
  return tile ? tile->rows : 1;
}

std::optional<int64_t> Target::smallTileRows(int64_t secondMinor,
                                             int64_t cols) const {
  const json::Array *tiles = layout.getArray("small_second_minor_tiles");
  if (!tiles)
    return std::nullopt;
  std::optional<int64_t> best;
  for (const json::Value &v : *tiles) {
    const json::Array *a = v.getAsArray();
    if (!a || a->size() != 2)
      continue;
    std::optional<int64_t> r = (*a)[0].getAsInteger(), c = (*a)[1].getAsInteger();
    if (r && c && *c == cols && *r >= secondMinor && (!best || *r < *best))
      best = *r;
  }
  return best;
}

int64_t Target::bufferAlignment() const {
  if (std::optional<double> stick = layoutValue("stick_bytes"))
    return std::max<int64_t>(1, int64_t(*stick));
  return std::max<int64_t>(1, int64_t(layoutValue("alignment_bytes").value_or(64)));
}

int64_t Target::placedShare(int64_t bytes, int64_t units) const {
  int64_t align = bufferAlignment();
  int64_t share = (bytes + std::max<int64_t>(1, units) - 1) / std::max<int64_t>(1, units);
  return (share + align - 1) / align * align;
}

int64_t Target::minorGranule(int64_t elementBytes, std::string *name) const {
  // What Layout::of pads the minor dim of a vector to (its order of
  // preference, sticks then tiles then vectors, differs from the one this
  // function had only for a description with more than one: none ships).
  Layout l = Layout::of(*this, {1}, std::max<int64_t>(1, elementBytes));
  if (name)
    *name = l.kind == Layout::Kind::Stick    ? "stick"
            : l.kind == Layout::Kind::Vector ? "vector"
            : l.kind == Layout::Kind::Tile   ? "tile"
                                             : "element";
  return std::max<int64_t>(1, l.minorGranule);
}

llvm::StringRef dfa::target::name(FusionPolicy p) {
  switch (p) {
  case FusionPolicy::None: return "none";
  case FusionPolicy::Inductor: return "inductor";
  case FusionPolicy::XLA: return "xla";
  case FusionPolicy::Layer: return "layer";
  case FusionPolicy::Stream: return "stream";
  }
  return "none";
}

llvm::StringRef dfa::target::name(TilingScheme s) {
  switch (s) {
  case TilingScheme::Single: return "single";
  case TilingScheme::CtaTiles: return "cta";
  case TilingScheme::MxuTiles: return "mxu";
  case TilingScheme::PeRectangles: return "pe-rectangles";
  case TilingScheme::MxmPlanes: return "mxm-planes";
  case TilingScheme::CoreSplit: return "core-split";
  }
  return "single";
}

llvm::StringRef dfa::target::name(Placement p) {
  switch (p) {
  case Placement::Shared: return "shared";
  case Placement::Spatial: return "spatial";
  case Placement::ChipPartition: return "chip-partition";
  }
  return "shared";
}

llvm::StringRef dfa::target::name(MatrixModel m) {
  switch (m) {
  case MatrixModel::Systolic: return "systolic";
  case MatrixModel::Tiled: return "tiled";
  case MatrixModel::Throughput: break;
  }
  return "throughput";
}

const MemoryLevel &Target::outerLevel() const {
  for (const MemoryLevel &m : memory)
    if (m.kind == "dram")
      return m;
  for (const MemoryLevel &m : memory)
    if (m.scope == "chip")
      return m;
  return memory.front();
}

const MemoryLevel *Target::scratchLevel() const {
  for (const MemoryLevel &m : memory)
    if (m.scope == "unit" && m.managed == "software" && m.kind != "registers")
      return &m;
  return nullptr;
}

const MemoryLevel *Target::cacheLevel() const {
  for (const MemoryLevel &m : memory)
    if (m.kind == "cache" && m.scope == "chip")
      return &m;
  return nullptr;
}

const MemoryLevel &Target::activationLevel() const {
  if (caps.placement == Placement::Spatial)
    if (const MemoryLevel *s = scratchLevel())
      return *s;
  if (caps.placement == Placement::ChipPartition)
    for (const MemoryLevel &m : memory)
      if (m.kind == "sram")
        return m;
  return outerLevel();
}

double Target::chipWeightBudget() const {
  if (caps.placement != Placement::ChipPartition)
    return 0;
  return 0.9 * activationLevel().capacityBytes.value;
}

bool Target::streamsWeights(double weightBytes) const {
  std::optional<double> sram = limit("sram_bytes_total");
  return caps.weightStreaming && sram && weightBytes > 0.5 * *sram;
}

CacheHome dfa::target::cacheHome(const Target &t, double weightBytes,
                                 int64_t tensorParallel, double cacheShards) {
  CacheHome h;
  h.level = &t.outerLevel();
  double capacity = h.level->capacityBytes.value;
  // Weights live where activations do; under spatial placement that is
  // the units' own memory unless they stream from the outer one.
  bool weightsHere = &t.activationLevel() == h.level;
  if (t.caps.placement == Placement::Spatial && !weightsHere)
    weightsHere = t.streamsWeights(weightBytes);
  if (t.caps.placement == Placement::ChipPartition) {
    double budget = t.chipWeightBudget();
    h.chips = budget > 0 ? std::max<int64_t>(1, int64_t(std::ceil(weightBytes / budget)))
                         : 1;
    h.spill = "chips";
    h.chipBytes = capacity;
  } else if (t.host && h.level->kind == "dram") {
    h.spill = "host";
    h.spillBandwidth = t.host->bandwidthBytesPerS.value;
  }
  // A tensor-parallel group: each chip holds its weights beside its part
  // of the cache.
  if (t.caps.placement == Placement::Shared && tensorParallel > 1) {
    h.chips = tensorParallel;
    h.capacityBytes = std::max(0.0, capacity - (weightsHere ? weightBytes : 0)) *
                      std::max(1.0, cacheShards);
    return h;
  }
  h.capacityBytes =
      std::max(0.0, capacity * double(h.chips) - (weightsHere ? weightBytes : 0));
  return h;
}

std::optional<double> Target::limit(llvm::StringRef key) const {
  auto it = limits.find(key.str());
  return it == limits.end() ? std::nullopt : std::optional<double>(it->second.value);
}

std::string dfa::target::shippedTargetDir() {
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::StringRef bin = llvm::sys::path::parent_path(exe);
  for (const char *rel : {"../share/dfa/targets", "../../targets"}) {
    llvm::SmallString<256> p(bin);
    llvm::sys::path::append(p, rel);
    llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
    if (llvm::sys::fs::is_directory(p))
      return p.str().str();
  }
  return DFA_SOURCE_DIR "/targets";
}

std::optional<Override> dfa::target::parseOverride(llvm::StringRef keyValue,
                                                  std::string &error) {
  auto [key, text] = keyValue.split('=');
  if (!keyValue.contains('=') || key.trim().empty()) {
    error = "--set '" + keyValue.str() +
            "': expected KEY=VALUE (a key path such as "
            "memory.HBM.bandwidth_bytes_per_s=6e12)";
    return std::nullopt;
  }
  Override o;
  o.key = key.trim().str();
  o.text = text.str();
  // JSON where it is JSON (numbers, true/false, arrays, objects, quoted
  // strings), else the text as a string.
  if (llvm::Expected<json::Value> v = json::parse(text))
    o.value = std::move(*v);
  else {
    llvm::consumeError(v.takeError());
    o.value = text.str();
  }
  return o;
}

std::string dfa::target::overridesText(llvm::ArrayRef<Override> overrides) {
  std::string s;
  for (const Override &o : overrides)
    s += (s.empty() ? "" : ", ") + o.key + "=" + o.text;
  return s;
}

void dfa::target::writeOverrides(json::OStream &j,
                                 llvm::ArrayRef<Override> overrides) {
  j.attributeObject("overrides", [&] {
    for (const Override &o : overrides)
      j.attribute(o.key, o.value);
  });
}

/// What a JSON value is, for messages.
static std::string kindOf(const json::Value &v) {
  switch (v.kind()) {
  case json::Value::Null: return "null";
  case json::Value::Boolean: return "a boolean";
  case json::Value::Number: return "a number";
  case json::Value::String: return "a string";
  case json::Value::Array: return "an array";
  case json::Value::Object:
    return v.getAsObject()->get("value") && v.getAsObject()->get("source")
               ? "a number"
               : "an object";
  }
  return "a value";
}

/// A description's sourced number: {"value": number, "source": string}.
static bool isSourced(const json::Value &v) {
  const json::Object *o = v.getAsObject();
  return o && o->get("value") && o->get("source") &&
         o->get("value")->kind() == json::Value::Number;
}

static bool applyOverride(json::Value &root, const Override &o,
                          std::string &error) {
  auto fail = [&](const std::string &what) {
    error = "--set " + o.key + "=" + o.text + ": " + what;
    return false;
  };
  llvm::SmallVector<llvm::StringRef> keys;
  llvm::StringRef(o.key).split(keys, '.');
  json::Value *node = &root;
  std::string at;
  for (llvm::StringRef k : keys) {
    if (k.empty())
      return fail("an empty key in the path");
    json::Value *next = nullptr;
    std::string known;
    if (json::Object *obj = node->getAsObject()) {
      next = obj->get(k);
      std::vector<std::string> names;
      for (const auto &kv : *obj)
        names.push_back(kv.first.str());
      llvm::sort(names);
      for (const std::string &n : names)
        known += (known.empty() ? "" : ", ") + n;
    } else if (json::Array *arr = node->getAsArray()) {
      // A list of named objects (memory levels): by name, else by index.
      for (json::Value &e : *arr) {
        const json::Object *eo = e.getAsObject();
        std::optional<llvm::StringRef> n = eo ? eo->getString("name") : std::nullopt;
        if (n && *n == k)
          next = &e;
        if (n)
          known += (known.empty() ? "" : ", ") + n->str();
      }
      size_t index = 0;
      if (!next && !k.getAsInteger(10, index) && index < arr->size())
        next = &(*arr)[index];
    } else {
      return fail("'" + at + "' is " + kindOf(*node) + ", not an object");
    }
    if (!next)
      return fail("the description has no '" + k.str() + "'" +
                  (at.empty() ? "" : " in '" + at + "'") +
                  (known.empty() ? "" : " (it has: " + known + ")"));
    at += (at.empty() ? "" : ".") + k.str();
    node = next;
  }
  const json::Value &v = o.value;
  if (isSourced(*node)) {
    if (v.kind() != json::Value::Number)
      return fail("expected a number");
    json::Object &obj = *node->getAsObject();
    obj["value"] = v;
    obj["source"] = "override: --set " + o.key + "=" + o.text;
    return true;
  }
  bool sameKind = node->kind() == v.kind() || node->kind() == json::Value::Null;
  if (!sameKind)
    return fail("expected " + kindOf(*node));
  *node = v;
  return true;
}

bool dfa::target::applyOverrides(json::Value &description,
                                 llvm::ArrayRef<Override> overrides,
                                 std::string &error) {
  for (const Override &o : overrides)
    if (!applyOverride(description, o, error))
      return false;
  return true;
}

Registry::Registry(std::vector<std::string> extraDirs,
                   std::vector<std::string> overrides)
    : searchDirs(std::move(extraDirs)), overrides(std::move(overrides)) {
  if (auto env = llvm::sys::Process::GetEnv("DFA_TARGET_PATH")) {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(*env).split(parts, ':', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef p : parts)
      searchDirs.push_back(p.str());
  }
  searchDirs.push_back(shippedTargetDir());
}

/// A description file: dfa.target/1 JSON, or a SCALE-Sim config (.cfg),
/// with the registry's overrides applied.
Status Registry::load(llvm::StringRef path, Target &out,
                      std::string &error) const {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    error = "cannot read '" + path.str() + "': " + buf.getError().message();
    return Status::IOError;
  }
  std::optional<json::Value> d =
      path.ends_with(".cfg")
          ? scalesimDescription(path, (*buf)->getBuffer(), error)
          : parseJson(path, (*buf)->getBuffer(), error);
  if (!d)
    return Status::InvalidTarget;
  std::vector<Override> applied;
  if (!overrides.empty()) {
    // The description itself must be good first: its own errors are its
    // file's (exit 8), the overrides' the command line's (exit 2).
    if (!parseTargetValue(path, *d, error))
      return Status::InvalidTarget;
    for (const std::string &kv : overrides) {
      std::optional<Override> o = parseOverride(kv, error);
      if (!o)
        return Status::Usage;
      applied.push_back(std::move(*o));
    }
    if (!applyOverrides(*d, applied, error))
      return Status::Usage;
  }
  std::optional<Target> t = parseTargetValue(path, *d, error);
  if (!t) {
    if (!applied.empty())
      error = "with --set " + overridesText(applied) + ": " + error;
    return applied.empty() ? Status::InvalidTarget : Status::Usage;
  }
  out = std::move(*t);
  out.overrides = std::move(applied);
  return Status::Ok;
}

Status Registry::list(std::vector<Target> &out, std::string &error) const {
  llvm::StringSet<> seen;
  skippedByOverrides.clear();
  std::string firstSkipped;
  for (const std::string &dir : searchDirs) {
    std::error_code ec;
    std::vector<std::string> files;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::StringRef(it->path()).ends_with(".json") ||
          llvm::StringRef(it->path()).ends_with(".cfg"))
        files.push_back(it->path());
    // By name; a name's .json before its .cfg, as find() looks.
    llvm::sort(files, [](const std::string &a, const std::string &b) {
      llvm::StringRef sa = llvm::sys::path::stem(a), sb = llvm::sys::path::stem(b);
      if (sa != sb)
        return sa < sb;
      return llvm::StringRef(a).ends_with(".json") &&
             !llvm::StringRef(b).ends_with(".json");
    });
    for (const std::string &f : files) {
      if (!seen.insert(llvm::sys::path::stem(f)).second)
        continue;
      Target t;
      std::string why;
      Status s = load(f, t, why);
      if (s == Status::Usage && !overrides.empty()) {
        // The overrides do not fit this machine (a CPU has no HBM).
        skippedByOverrides.push_back(llvm::sys::path::stem(f).str() + ": " + why);
        if (firstSkipped.empty())
          firstSkipped = why;
        continue;
      }
      if (s != Status::Ok) {
        error = why;
        return s;
      }
      out.push_back(std::move(t));
    }
  }
  if (out.empty() && !firstSkipped.empty()) {
    error = firstSkipped;
    return Status::Usage;
  }
  llvm::sort(out, [](const Target &a, const Target &b) { return a.name < b.name; });
  return Status::Ok;
}

Status Registry::find(llvm::StringRef name, Target &out,
                      std::string &error) const {
  // A path names its description file (JSON or a SCALE-Sim .cfg).
  if (name.contains('/') || name.ends_with(".json") || name.ends_with(".cfg"))
    return load(name, out, error);
  for (const std::string &dir : searchDirs)
    for (const char *ext : {".json", ".cfg"}) {
      llvm::SmallString<256> p(dir);
      llvm::sys::path::append(p, name + ext);
      if (llvm::sys::fs::exists(p))
        return load(p, out, error);
    }
  std::vector<Target> all;
  std::string listError;
  std::string names;
  if (list(all, listError) == Status::Ok)
    for (const Target &t : all)
      names += (names.empty() ? "" : ", ") + t.name;
  error = "unknown target '" + name.str() + "'" +
          (names.empty() ? "" : "; available: " + names) +
          " (add descriptions with --target-dir or DFA_TARGET_PATH)";
  return Status::Usage;
}

Status Registry::resolve(llvm::StringRef spec, std::vector<Target> &out,
                         std::string &error) const {
  if (spec == "all")
    return list(out, error);
  llvm::SmallVector<llvm::StringRef> names;
  spec.split(names, ',', -1, /*KeepEmpty=*/false);
  if (names.empty()) {
    error = "--target needs a name, a comma-separated list, or 'all'";
    return Status::Usage;
  }
  for (llvm::StringRef n : names) {
    Target t;
    if (Status s = find(n.trim(), t, error); s != Status::Ok)
      return s;
    out.push_back(std::move(t));
  }
  return Status::Ok;
}

static std::string human(double v, llvm::StringRef unit) {
  const char *prefixes[] = {"", "K", "M", "G", "T", "P", "E"};
  int i = 0;
  while (v >= 1000 && i < 6) {
    v /= 1000;
    ++i;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v) << " "
     << prefixes[i] << unit;
  return s;
}

std::string dfa::target::summary(const Target &t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::StringRef dt = t.peakFlops.count("bf16") ? "bf16"
                       : t.peakFlops.count("f16") ? "f16" : "f32";
  os << llvm::format("%-10s %-6s", t.name.c_str(), t.family.c_str())
     << llvm::format(" %-9s", human(t.clockHz.value, "Hz").c_str())
     << llvm::format(" %7.0f %-10s", t.units.value, t.unitName.c_str())
     << llvm::format(" %s %-13s", dt.str().c_str(),
                     human(t.peak(dt), "FLOP/s").c_str());
  const MemoryLevel &m = t.memory.front();
  os << " " << m.name << " " << human(m.capacityBytes.value, "B") << " @ "
     << human(m.bandwidthBytesPerS.value, "B/s")
     << (m.scope == "unit" ? " per " + t.unitName : "");
  if (!t.description.empty())
    os << "  (" << t.description << ")";
  return s;
}
