//===- SCALESim.cpp - a SCALE-Sim config as a target ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The config is an INI file as Python's configparser reads it: `[section]`
/// lines, `key: value` or `key = value`, keys case-insensitive, `#` and `;`
/// comment lines. dfa reads the keys SCALE-Sim's scale_config.py reads
/// and that shape the machine; the address offsets, SRAM bank layout,
/// Ramulator and report settings change nothing dfa models and are
/// ignored, as sparsity would not be: a config that asks for it is refused.
///
//===----------------------------------------------------------------------===//

#include "dfa/Target/SCALESim.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

using namespace dfa;
namespace json = llvm::json;

namespace {

/// SCALE-Sim counts cycles and has no clock; at 1 GHz a cycle is a
/// nanosecond, so dfa's seconds read as SCALE-Sim's cycles.
constexpr double kClockHz = 1e9;
/// SCALE-Sim's word is one byte (single_layer_sim.py: word_size = 1).
constexpr double kWordBytes = 1;

json::Value sourced(double value, llvm::StringRef source) {
  return json::Object{{"value", value}, {"source", source.str()}};
}

} // namespace

std::optional<json::Value>
dfa::target::scalesimDescription(llvm::StringRef file, llvm::StringRef text,
                                 std::string &error) {
  // section.key (lower case) -> value and the line it was on.
  llvm::StringMap<std::pair<std::string, unsigned>> keys;
  std::string section;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i].trim();
    unsigned number = unsigned(i + 1);
    if (line.empty() || line.starts_with("#") || line.starts_with(";"))
      continue;
    if (line.starts_with("[")) {
      if (!line.ends_with("]") || line.size() < 3) {
        error = (file + ":" + llvm::Twine(number) + ": '" + line +
                 "' is not a [section] line")
                    .str();
        return std::nullopt;
      }
      section = line.drop_front().drop_back().trim().lower();
      continue;
    }
    size_t sep = line.find_first_of(":=");
    if (sep == llvm::StringRef::npos || section.empty()) {
      error = (file + ":" + llvm::Twine(number) + ": '" + line + "' is not " +
               (section.empty() ? "inside a [section]" : "'key: value'"))
                  .str();
      return std::nullopt;
    }
    std::string key = section + "." + line.take_front(sep).trim().lower();
    keys[key] = {line.drop_front(sep + 1).trim().str(), number};
  }

  auto where = [&](llvm::StringRef key) {
    auto it = keys.find(key);
    return (file + ":" + llvm::Twine(it->second.second) + ": ").str();
  };
  auto missing = [&](llvm::StringRef key, llvm::StringRef what) {
    error = (file + ": missing '" + what + "' in [" + key.split('.').first +
             "] (SCALE-Sim reads it too)")
                .str();
    return std::nullopt;
  };
  // A positive integer key, as SCALE-Sim's int() reads it.
  auto integer = [&](llvm::StringRef key, const char *what,
                     int64_t most) -> std::optional<int64_t> {
    auto it = keys.find(key);
    if (it == keys.end()) {
      missing(key, what);
      return std::nullopt;
    }
    int64_t v = 0;
    llvm::StringRef s = llvm::StringRef(it->second.first).trim();
    if (s.getAsInteger(10, v) || v < 1 || v > most) {
      error = where(key) + what + " is '" + it->second.first +
              "'; expected an integer from 1 to " + std::to_string(most);
      return std::nullopt;
    }
    return v;
  };

  std::optional<int64_t> rows = integer("architecture_presets.arrayheight",
                                        "ArrayHeight", 1 << 16);
  if (!rows)
    return std::nullopt;
  std::optional<int64_t> cols =
      integer("architecture_presets.arraywidth", "ArrayWidth", 1 << 16);
  if (!cols)
    return std::nullopt;
  int64_t sramKiB = 0;
  for (auto [key, what] :
       {std::pair<const char *, const char *>{"architecture_presets.ifmapsramszkb", "IfmapSramSzkB"},
        {"architecture_presets.filtersramszkb", "FilterSramSzkB"},
        {"architecture_presets.ofmapsramszkb", "OfmapSramSzkB"}}) {
    std::optional<int64_t> kib = integer(key, what, int64_t(1) << 30);
    if (!kib)
      return std::nullopt;
    sramKiB += *kib;
  }
  auto df = keys.find("architecture_presets.dataflow");
  if (df == keys.end())
    return missing("architecture_presets.dataflow", "Dataflow");
  std::string dataflow = llvm::StringRef(df->second.first).lower();
  if (dataflow != "os" && dataflow != "ws" && dataflow != "is") {
    error = where("architecture_presets.dataflow") + "Dataflow is '" +
            df->second.first + "'; expected os, ws or is";
    return std::nullopt;
  }
  auto mode = keys.find("run_presets.interfacebandwidth");
  if (mode == keys.end())
    return missing("run_presets.interfacebandwidth", "InterfaceBandwidth");
  llvm::StringRef modeName = llvm::StringRef(mode->second.first).trim();
  if (modeName != "USER" && modeName != "CALC") {
    error = where("run_presets.interfacebandwidth") + "InterfaceBandwidth is '" +
            mode->second.first + "'; expected USER or CALC";
    return std::nullopt;
  }
  auto sparse = keys.find("sparsity.sparsitysupport");
  if (sparse != keys.end() &&
      llvm::StringRef(sparse->second.first).trim().equals_insensitive("true")) {
    error = where("sparsity.sparsitysupport") +
            "SparsitySupport is true; dfa models dense arrays only";
    return std::nullopt;
  }

  // The array's own demand: each cycle at most R operands enter its rows
  // and C its columns, and C results leave. That is what the SRAMs feed,
  // and under CALC (SCALE-Sim sizes the interface so the array never
  // stalls) what the interface feeds too.
  double r = double(*rows), c = double(*cols);
  double arrayWords = r + 2 * c;
  double dramBytesPerCycle = arrayWords * kWordBytes;
  std::string dramSource =
      "SCALE-Sim InterfaceBandwidth CALC: the interface never stalls the "
      "array; dfa gives it the array's demand, R + 2C = " +
      std::to_string(int64_t(arrayWords)) + " words per cycle";
  if (modeName == "USER") {
    auto bw = keys.find("architecture_presets.bandwidth");
    if (bw == keys.end())
      return missing("architecture_presets.bandwidth", "Bandwidth");
    // A list gives one bandwidth per run; SCALE-Sim uses the first.
    llvm::StringRef first = llvm::StringRef(bw->second.first).split(',').first.trim();
    int64_t words = 0;
    if (first.getAsInteger(10, words) || words < 1 || words > (1 << 30)) {
      error = where("architecture_presets.bandwidth") + "Bandwidth is '" +
              bw->second.first + "'; expected words per cycle, an integer "
              "from 1 to 1073741824";
      return std::nullopt;
    }
    // Three interfaces (ifmap, filter, ofmap) of that many words a cycle.
    dramBytesPerCycle = 3 * double(words) * kWordBytes;
    dramSource = "SCALE-Sim Bandwidth " + std::to_string(words) +
                 " words per cycle (USER) on each of the ifmap, filter and "
                 "ofmap interfaces, pooled: 3 x " + std::to_string(words) +
                 " x 1-byte words per cycle";
  }

  std::string name = llvm::sys::path::stem(file).str();
  std::string cfg = "SCALE-Sim config " + llvm::sys::path::filename(file).str();
  double peak = 2 * r * c * kClockHz;
  std::string peakSource = cfg + ": " + std::to_string(*rows) + " x " +
                           std::to_string(*cols) + " MACs x 2 FLOP x 1 GHz";
  json::Object peaks;
  for (const char *dt : {"i8", "f16", "bf16", "f32"})
    peaks[dt] = sourced(peak, peakSource + " (SCALE-Sim models one word type)");
  std::string clockSource = "SCALE-Sim counts cycles and has no clock: 1 GHz "
                            "makes dfa's nanoseconds its cycles";
  auto perCycle = [&](double bytes) { return bytes * kClockHz; };

  json::Object compute{
      {"unit_name", "array"},
      {"units", sourced(1, cfg + ": one array")},
      {"peak_flops", std::move(peaks)},
      {"matrix_unit",
       json::Object{{"m", sourced(1, "SCALE-Sim streams one row per cycle")},
                    {"n", sourced(c, cfg + ": ArrayWidth (columns)")},
                    {"k", sourced(r, cfg + ": ArrayHeight (rows)")}}},
      {"accumulator", "f32"},
      {"matrix_model", "systolic"},
      {"systolic_model", "scalesim-" + dataflow},
  };
  json::Array memory;
  memory.push_back(json::Object{
      {"name", "DRAM"},
      {"kind", "dram"},
      {"scope", "chip"},
      {"managed", "software"},
      {"capacity_bytes",
       sourced(double(int64_t(1) << 40),
               "SCALE-Sim's backing memory is unbounded; dfa: 1 TiB")},
      {"bandwidth_bytes_per_s", sourced(perCycle(dramBytesPerCycle), dramSource)},
      {"latency_ns", sourced(0, "SCALE-Sim's interface has no latency in its "
                                "stall-free count")}});
  memory.push_back(json::Object{
      {"name", "SRAM"},
      {"kind", "scratchpad"},
      {"scope", "unit"},
      {"managed", "software"},
      {"capacity_bytes",
       sourced(double(sramKiB) * 1024,
               cfg + ": IfmapSramSzkB + FilterSramSzkB + OfmapSramSzkB (KiB, "
                     "double-buffered as SCALE-Sim's scratchpads)")},
      {"bandwidth_bytes_per_s",
       sourced(perCycle(arrayWords * kWordBytes),
               "the array's demand, R + 2C words per cycle: the SRAMs "
               "feed the array without stalls, as in SCALE-Sim")},
      {"latency_ns", sourced(1, "one cycle")}});
  json::Object limits{
      {"mxu_count", sourced(1, cfg + ": one array")},
  };
  json::Object overheads{
      {"launch_ns", sourced(0, "SCALE-Sim counts no launch")},
      {"dma_setup_ns", sourced(0, "SCALE-Sim counts no DMA setup")},
      {"sync_ns", sourced(0, "SCALE-Sim counts no synchronization")}};
  json::Object compiler{{"fusion", "xla"},      {"tiling", "mxu"},
                        {"placement", "shared"}, {"plan", "static"},
                        {"staging", true},
                        {"notes", "a systolic array compiled as XLA compiles "
                                  "for its MXUs: layers staged through the "
                                  "SRAM, a static plan"}};
  return json::Value(json::Object{
      {"schema", "dfa.target/1"},
      {"name", name},
      {"family", "systolic"},
      {"description",
       cfg + ": " + std::to_string(*rows) + "x" + std::to_string(*cols) + " " +
           dataflow + " array, " + std::to_string(sramKiB) + " KiB SRAM"},
      {"clock_hz", sourced(kClockHz, clockSource)},
      {"compute", std::move(compute)},
      {"memory", std::move(memory)},
      {"limits", std::move(limits)},
      {"layout",
       json::Object{{"tile", json::Array{1, 1}},
                    {"tile_source", "SCALE-Sim addresses single words: no "
                                    "storage tile, nothing padded"}}},
      {"overheads", std::move(overheads)},
      {"compiler", std::move(compiler)},
  });
}
