//===- Target.h - machine descriptions --------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// A target is a machine description read at run time from
/// `targets/<name>.json` (schema `dfa.target/1`, docs/targets.md). Every
/// number carries its source. Users add targets by dropping a file into a
/// directory named by `--target-dir` or `DFA_TARGET_PATH`.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_TARGET_TARGET_H
#define DFA_TARGET_TARGET_H

#include "dfa/Support/Status.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dfa::target {

/// A number and where it comes from.
struct Sourced {
  double value = 0;
  std::string source;
};

/// The name of the host's memory as a level (Target::hostMemory).
inline constexpr const char *kHostLevel = "host";

struct MemoryLevel {
  std::string name;
  std::string kind;    // dram, sram, cache, scratchpad, registers
  std::string scope;   // chip or unit
  std::string managed; // hardware or software
  Sourced capacityBytes, bandwidthBytesPerS, latencyNs;
};

struct Link {
  std::string kind;
  Sourced bandwidthBytesPerS, latencyNs, links;
  /// The links one ring collective drives at once (`collective_links`;
  /// default all `links`: a switch connects every link to the ring; a torus
  /// ring along one axis drives that axis' two).
  Sourced collectiveLinks;
};

struct StorageFormat {
  int mantissaBits = 0, exponentBits = 0;
  std::string source;
  /// The format the device keeps values of this (host) format in, if not
  /// this one (Spyre stores f16 tensors as dfp16).
  std::string device;
};

/// Which ops `graph-fuse` puts in one kernel (`compiler.fusion`).
enum class FusionPolicy {
  None,     // "none": one op per kernel (the CPU reference)
  Inductor, // "inductor": epilogues into GEMMs, pointwise chains, reductions
            // with pointwise prologues (TorchInductor; GPU, Spyre)
  XLA,      // "xla": loop, input and output fusion (TPU)
  Layer,    // "layer": one anchor and what follows it (WSE layer regions)
  Stream,   // "stream": a consumer joins its only producer (LPU chains)
};
/// How `graph-tile` splits a kernel over the units (`compiler.tiling`).
enum class TilingScheme {
  Single,       // "single": one tile on one unit
  CtaTiles,     // "cta": CTA tiles sized to shared memory, waves over SMs
  MxuTiles,     // "mxu": layout-tile multiples for systolic arrays, VMEM blocks
  PeRectangles, // "pe-rectangles": a PE rectangle per kernel
  MxmPlanes,    // "mxm-planes": matrix planes and vectors
  CoreSplit,    // "core-split": a split over the cores in whole sticks
};
/// Where kernels run and activations live (`compiler.placement`).
enum class Placement {
  /// "shared": every kernel on units [0, n); activations in the outer memory.
  Shared,
  /// "spatial": a layer pipeline, each kernel on its own range of units
  /// (a PE rectangle) with its activations and weights in their per-unit
  /// memory; tensors move between ranges over the on-chip fabric.
  Spatial,
  /// "chip-partition": kernels partitioned over chips by weight bytes,
  /// everything in on-chip SRAM; a kernel's units are the chip's functional
  /// slices (matrix planes, vector and switch units), so it has the whole
  /// chip's compute; tensors cross chips over chip-to-chip links.
  ChipPartition,
};
/// How matrix work is timed (`compute.matrix_model`).
enum class MatrixModel {
  Throughput, // "throughput": FLOPs over the peak (scaled by matrix_efficiency)
  Systolic,   // "systolic": weight-stationary folds over the arrays
  Tiled,      // "tiled": CTA tiles over the SMs (compute.cta_tiles), Cost.cpp
};

/// The CTA tiles a GPU's GEMM libraries choose among (`compute.cta_tiles`),
/// for the "tiled" matrix model.
struct CtaTiles {
  /// Output tiles [rows, columns] (M x N).
  std::vector<std::pair<int64_t, int64_t>> shapes;
  /// Bytes of K one pipeline stage loads per row (a 128-byte swizzle row:
  /// 64 16-bit or 32 32-bit elements).
  int64_t kBytes = 128;
  /// CTAs of a cluster that share (multicast) one operand's panel.
  int64_t cluster = 1;
  std::string source;
};

/// What the family's compiler does, as typed properties. Every pass, the
/// simulator and the roofline read these, never the family name: each has
/// a default per shipped family, derived once when the description is
/// parsed, and the description's `compiler` object (and
/// `compute.matrix_model`) may set any of them. A description of a family
/// dfa does not ship sets them all.
struct Capabilities {
  FusionPolicy fusion = FusionPolicy::None;
  TilingScheme tiling = TilingScheme::Single;
  Placement placement = Placement::Shared;
  /// `compiler.plan` "static": every op gets a compile-time start cycle;
  /// "dynamic": ops run in stream order.
  bool staticPlan = false;
  /// `compiler.timing` "cycle-exact": the simulator checks the static plan
  /// cycle by cycle instead of simulating events.
  bool cycleExact = false;
  /// `compiler.staging`: kernels stage their operands through the per-unit
  /// software-managed scratchpad (TPU VMEM, Spyre LX), chunked when needed.
  bool staging = false;
  /// `compiler.double_buffering`: a staged kernel runs as a pipeline of
  /// chunks, the copies of one overlapping the compute of the one before,
  /// even when it fits the scratchpad whole (false: chunks only when its
  /// working set exceeds half of it).
  bool doubleBuffering = false;
  /// `compiler.relayout_minor_dim`: a transpose that moves the minor dim
  /// changes the stored layout, so it is a relayout kernel of its own.
  bool relayoutMinorDim = false;
  /// `compiler.transpose_folding`: a transpose that only swaps the last two
  /// dims of a matmul operand is read through by the matmul (the dot's
  /// dimension numbers, as XLA's TransposeFolding folds it), not a relayout.
  /// Without it, a transpose of a weight (a value of weights and constants
  /// alone) is still folded: the compiler stores it transposed, once.
  bool transposeFolding = false;
  /// `compiler.weight_streaming`: when the weights exceed half of the
  /// on-chip SRAM (`limits.sram_bytes_total`), they stream from the outer
  /// memory and every kernel takes all units in turn.
  bool weightStreaming = false;
  MatrixModel matrixModel = MatrixModel::Throughput;
  /// `compiler.reference`: the description stands for the host that runs
  /// dfa's CPU reference (the `cpu` target): its schedule is the graph's
  /// op order, and there is no accelerator to profile.
  bool reference = false;
};

/// The target tools run on when none is named: the CPU reference.
inline constexpr const char *kReferenceTarget = "cpu";

/// The names the description uses for each property value.
llvm::StringRef name(FusionPolicy p);
llvm::StringRef name(TilingScheme s);
llvm::StringRef name(Placement p);
llvm::StringRef name(MatrixModel m);

/// Rows and columns of a layout tile of a tensor's two minor dims.
struct TileShape {
  int64_t rows = 1, cols = 1;
};

/// One `--set KEY=VALUE`: what-if changes to a description as it is
/// loaded. KEY is a key path, keys joined by dots; an element of a list of
/// named objects (the memory levels) by its name: `compute.units`,
/// `memory.HBM.bandwidth_bytes_per_s`, `compute.matrix_unit.n`. VALUE is
/// JSON where it parses as JSON, else a string (`scalesim-os`).
struct Override {
  std::string key;
  /// The value as given (what outputs and schedules record).
  std::string text;
  llvm::json::Value value = nullptr;
};

/// Parses "KEY=VALUE"; nullopt with `error` when there is no '=' or no
/// key.
std::optional<Override> parseOverride(llvm::StringRef keyValue,
                                      std::string &error);

/// Sets each override's key in a parsed description: the key must be
/// there already (an override changes what a description has), and the
/// value must have its type; a sourced number ({"value", "source"}) takes
/// a number and records the override as its source. False with `error`
/// naming the key, its type and (for an unknown key) the keys there are.
bool applyOverrides(llvm::json::Value &description,
                    llvm::ArrayRef<Override> overrides, std::string &error);

/// `KEY=VALUE, ...` of a target's overrides ("" without any).
std::string overridesText(llvm::ArrayRef<Override> overrides);

/// Writes `"overrides": {"KEY": VALUE, ...}` (each value as parsed; `{}`
/// without any) into the object `j` is writing: every dfa.compile/1,
/// dfa.run/1, dfa.roofline/1 and dfa.bisect/1 target says which machine it
/// was.
void writeOverrides(llvm::json::OStream &j, llvm::ArrayRef<Override> overrides);

struct Target {
  std::string name, family, description, file;
  /// The `--set` overrides applied to the description, in order.
  std::vector<Override> overrides;
  Capabilities caps;
  Sourced clockHz;
  std::string unitName;
  Sourced units;
  std::map<std::string, Sourced> peakFlops;
  /// Non-matrix (vector/CUDA-core) peaks, where published.
  std::map<std::string, Sourced> peakFlopsVector;
  std::optional<Sourced> matrixM, matrixN, matrixK;
  /// The operand widths (bits) the matrix unit reads stored MN-major, with
  /// the operand's M or N dim minor instead of K
  /// (`compute.matrix_unit.mn_major_bits`): a Hopper wgmma transposes
  /// 16-bit operands only, a Blackwell tcgen05 8- to 32-bit ones. An
  /// operand of another width stored so is transposed on its way in
  /// (target::kernelTime). Absent: every width.
  std::optional<std::vector<int64_t>> matrixMnMajorBits;
  std::optional<Sourced> vectorWidth;
  /// The fraction of the matrix peak large GEMMs sustain (measured), if the
  /// description gives one.
  std::optional<Sourced> matrixEfficiency;
  std::string accumulator = "f32";
  /// The format of the partial products of a product split across chips
  /// along K (graph-shard), summed over the chip-to-chip links
  /// (`compute.partial_sums`): false ("activation", the default) in the
  /// product's own type, as Megatron-style tensor parallelism all-reduces
  /// in bf16/f16 (each partial and each sum rounded where the unsplit
  /// product rounds once); true ("accumulator") in `accumulator`'s format
  /// where wider, rounded once after (the unsplit product's values, twice
  /// the bytes over the links).
  bool partialSumsInAccumulator = false;
  /// The tiles of the "tiled" matrix model.
  std::optional<CtaTiles> ctaTiles;
  /// How systolic matrix units are timed (`compute.systolic_model`):
  /// "scalesim-ws", "scalesim-is" or "scalesim-os", SCALE-Sim v2's
  /// weight-, input- or output-stationary folds one after another, or
  /// "pipelined-ws", weight-stationary folds overlapped as with
  /// double-buffered weights.
  std::string systolicModel = "scalesim-ws";
  std::vector<MemoryLevel> memory;
  std::optional<Link> onChip, chipToChip;
  /// The link to the host (`network.host`): what a graph break's values
  /// cross; absent on a description that is the host (the reference).
  std::optional<Link> host;
  /// The host's memory as a level (named kHostLevel, kind "host", at the
  /// host link's bandwidth and latency, unbounded) on a device with a host
  /// link and no DRAM of its own: where the graph results it makes land
  /// (hostLevel). Not one of `memory`; level() finds it.
  std::optional<MemoryLevel> hostMemory;
  llvm::json::Object layout;
  std::vector<std::string> nativeOps;
  /// Ops without a device kernel that run on the host (Spyre).
  std::vector<std::string> hostFallbackOps;
  Sourced launchNs, dmaSetupNs, syncNs;
  std::map<std::string, StorageFormat> storageFormats;
  std::map<std::string, Sourced> limits;

  /// Peak FLOP/s for an element type name (through peakKey), falling back
  /// to the closest published one; 0 when none is.
  double peak(llvm::StringRef dtype) const;
  const MemoryLevel *level(llvm::StringRef name) const;
  /// A numeric layout entry, if present.
  std::optional<double> layoutValue(llvm::StringRef key) const;
  /// The byte boundary every placed buffer starts on: a whole stick where
  /// the target stores sticks, else `layout.alignment_bytes` (64).
  int64_t bufferAlignment() const;
  /// What a buffer of `bytes` spread over `units` units takes in each
  /// unit's memory as the lowering's arena places it: its share, rounded
  /// up to bufferAlignment().
  int64_t placedShare(int64_t bytes, int64_t units) const;
  /// The elements of a tensor's minor dim that are stored and moved as one
  /// (a Spyre stick, a vector, the minor side of a TPU tile); `name` is set
  /// to "stick", "vector", "tile" or "element" (1: none).
  int64_t minorGranule(int64_t elementBytes, std::string *name = nullptr) const;
  /// The tile of the two minor dims for elements of `elementBytes`:
  /// `layout.tile` for 32-bit and wider elements, `layout.tile_16bit` and
  /// `layout.tile_8bit` (by default `layout.tile`: XLA's (8,128)(2,1) packs
  /// rows within the same tile) for narrower ones; nullopt on a target that
  /// does not tile.
  std::optional<TileShape> tileFor(int64_t elementBytes) const;
  /// The rows of the smaller tile a tensor whose second-minor dim has
  /// `secondMinor` elements takes, from `layout.small_second_minor_tiles`
  /// (pairs [rows, cols]: the fewest rows that hold the dim, among tiles
  /// `cols` wide); nullopt where none does.
  std::optional<int64_t> smallTileRows(int64_t secondMinor, int64_t cols) const;
  /// The rows of `elementBytes`-byte elements a vector register holds, the
  /// granule of a matrix unit's rows: `layout.sublanes_by_bits` (pairs
  /// [element bits, rows]), else the rows of tileFor; 1 on a target that
  /// does not tile.
  int64_t registerRows(int64_t elementBytes) const;
  /// Whether the matrix unit reads an operand of `bits` stored MN-major
  /// as it is (matrixMnMajorBits).
  bool readsMnMajor(int64_t bits) const;
  /// The device storage format of host element type `dtype` ("f16", ...)
  /// when the device keeps it in another format; null otherwise.
  const StorageFormat *deviceFormat(llvm::StringRef dtype) const;
  /// The float format `name` denotes on this target: one of its storage
  /// formats, else IEEE f16, bf16, tf32, f32 or f64; nullopt for others.
  std::optional<StorageFormat> floatFormat(llvm::StringRef name) const;
  std::optional<double> limit(llvm::StringRef key) const;

  /// The outermost memory: the first `dram` level, else the first
  /// chip-wide one, else the first.
  const MemoryLevel &outerLevel() const;
  /// Where a graph result goes that the device's own memory cannot hold:
  /// the host's (hostMemory), on a device with no DRAM (an LPU's prompt
  /// logits, larger than a chip's SRAM, stream back over PCIe as they are
  /// made). Null elsewhere: results stay in the outer memory.
  const MemoryLevel *hostLevel() const {
    return hostMemory ? &*hostMemory : nullptr;
  }
  /// The per-unit software-managed scratchpad (TPU VMEM, Spyre LX, WSE PE
  /// SRAM), if the target has one.
  const MemoryLevel *scratchLevel() const;
  /// The chip-wide hardware cache between the units and the outer memory
  /// (a GPU's L2), if the target has one.
  const MemoryLevel *cacheLevel() const;
  /// Where activations live: the outer memory; under spatial placement the
  /// per-unit scratchpad; under chip partition the on-chip SRAM.
  const MemoryLevel &activationLevel() const;
  /// Under chip partition, the bytes of weights one chip holds: its SRAM
  /// less the tenth kept free for activations. Kernels are placed on chips
  /// by it, and a kernel whose weights exceed it is split across chips
  /// (graph-shard). 0 for other placements.
  double chipWeightBudget() const;
  /// Whether a program with `weightBytes` of weights streams them from the
  /// outer memory (compiler.weight_streaming: a WSE's MemoryX) rather than
  /// keeping them in the units' SRAM: when they exceed half the on-wafer
  /// SRAM (`limits.sram_bytes_total`), the rest being the activations' and
  /// the rectangles' working space. graph-tile and the KV-cache sizing
  /// decide by it.
  bool streamsWeights(double weightBytes) const;
};

/// Where a decoder's KV cache lives on a target: where the schedule keeps
/// graph inputs and results (the outer memory; on-chip SRAM under chip
/// partition), on the chips the weights take, less the weights held in
/// that level. dfa-roofline --llm sizes batches and places caches by it.
struct CacheHome {
  const MemoryLevel *level = nullptr;
  /// Chips the deployment has: under chip partition those the weights
  /// fill at Target::chipWeightBudget; a tensor-parallel group's chips
  /// (which split the weights and the cache's heads among them); else 1.
  int64_t chips = 1;
  /// Bytes of `level` over those chips left for the cache.
  double capacityBytes = 0;
  /// Where a cache larger than that goes: "host" (over the host link, at
  /// `spillBandwidth`), "chips" (more chips of the same SRAM, each adding
  /// `chipBytes`), or "" (nowhere: it does not fit).
  std::string spill;
  double spillBandwidth = 0, chipBytes = 0;
};
/// Under tensor parallelism over `tensorParallel` chips (shared
/// placement), `weightBytes` are one chip's and the cache is split in
/// `cacheShards` parts among them (1: each chip holds it whole).
CacheHome cacheHome(const Target &t, double weightBytes,
                    int64_t tensorParallel = 1, double cacheShards = 1);

/// The `compute.peak_flops` / `peak_flops_vector` key of an element type
/// name: as it is ("bf16", "f32"), or as MLIR prints it: every "f8E..."
/// type is "f8" (f80 is not), "ui8" is "i8".
std::string peakKey(llvm::StringRef dtype);

/// Parses and checks one description. On failure `error` names the file,
/// the key and what was expected.
std::optional<Target> parseTarget(llvm::StringRef file, llvm::StringRef text,
                                  std::string &error);
/// The same, for a description already parsed as JSON (a SCALE-Sim config
/// translated by scalesimDescription).
std::optional<Target> parseTargetValue(llvm::StringRef file,
                                  const llvm::json::Value &description,
                                  std::string &error);

/// Finds descriptions: `--target-dir` directories first, then
/// `DFA_TARGET_PATH` (colon-separated), then the shipped `targets/`.
class Registry {
public:
  /// `overrides` (`--set`, KEY=VALUE each) are applied to every
  /// description found; a malformed, unknown or ill-typed one fails the
  /// lookup with Status::Usage.
  explicit Registry(std::vector<std::string> extraDirs = {},
                    std::vector<std::string> overrides = {});

  /// Every description found, by name (earlier directories win).
  Status list(std::vector<Target> &out, std::string &error) const;
  /// One target by name (NAME.json, else NAME.cfg, in the search
  /// directories), or by the path of its description file (a name with a
  /// `/`, or ending in .json or .cfg).
  Status find(llvm::StringRef name, Target &out, std::string &error) const;
  /// `name[,name...]` or `all`, in the order given (all: sorted by name).
  /// Under `all`, a description that the overrides do not fit (it lacks
  /// the key, or the value breaks it) is left out and named in skipped();
  /// when none fits, the first one's error is the result.
  Status resolve(llvm::StringRef spec, std::vector<Target> &out,
                 std::string &error) const;
  /// "NAME: why" of each description list() left out for the overrides.
  const std::vector<std::string> &skipped() const { return skippedByOverrides; }
  const std::vector<std::string> &dirs() const { return searchDirs; }

private:
  Status load(llvm::StringRef path, Target &out, std::string &error) const;
  std::vector<std::string> searchDirs;
  std::vector<std::string> overrides;
  mutable std::vector<std::string> skippedByOverrides;
};

/// The directory of the shipped descriptions.
std::string shippedTargetDir();

/// One line of key numbers (`dfa-compile --list-targets`).
std::string summary(const Target &t);

} // namespace dfa::target

#endif // DFA_TARGET_TARGET_H
