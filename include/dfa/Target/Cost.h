//===- Cost.h - time of work and transfers on a target ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The one cost model of dfa: the scheduler plans start cycles with it, the
/// simulator times and shares bandwidth by it, and the roofline draws its
/// roofs from it. A kernel takes the longer of its compute time (FLOPs over
/// the peak of the units it holds, or systolic folds) and its memory time
/// (bytes over the bandwidth of the level it reads), plus the target's
/// launch or sync overhead; a copy takes its path's setup, latency and
/// bytes over the path's bandwidth.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_TARGET_COST_H
#define DFA_TARGET_COST_H

#include "dfa/Target/Target.h"

#include <algorithm>

namespace dfa::target {

struct Work {
  double flops = 0;
  double bytes = 0;
  /// Runs on the matrix units (matmul, conv, attention) or the vector units.
  bool matrix = false;
  /// The element type in memory; the matrix units' arithmetic when it
  /// differs (empty: the same), e.g. f32 operands on TF32 tensor cores.
  std::string dtype = "f32";
  std::string mathType;
  /// Bytes of one element of `dtype` (graph::elementBytes), and of the
  /// result (0: the same; a float8 product cast back to f16 writes 2).
  double elementBytes = 4;
  double outputElementBytes = 0;
  /// Units the kernel is placed on (kernelUnits() says whose compute it
  /// holds).
  int64_t units = 1;
  /// Bandwidth of the memory the operands stream from (bytes/s); 0: none.
  double bandwidth = 0;
  /// The GEMM shape of matrix work, when known: `batch` products of
  /// [m x k] by [k x n] (after padding). Systolic targets time folds of it.
  int64_t batch = 1, m = 0, n = 0, k = 0;
  /// Whether an operand is stored MN-major (its M or N dim minor, as a
  /// matmul's [K, N] right-hand side) and is not a constant, whose layout
  /// the compiler would choose: on a matrix unit that cannot read that
  /// width transposed (Target::readsMnMajor), the tiled model's k-steps
  /// wait for it (kernelTime).
  bool mnMajorOperand = false;
  /// Attention (flash attention) when `kvLen` > 0: `batch` (batch x heads)
  /// products of `m` queries of width `k` against `kvLen` keys, values of
  /// width `n`; `causal` keeps key j for query i only when j <= i.
  int64_t kvLen = 0;
  bool causal = false;
  /// Query heads per K/V head (grouped-query attention), 1 otherwise.
  int64_t kvGroup = 1;
};

/// The tile of a flash-attention kernel: `rows` queries of one (batch,
/// head) per CTA against blocks of `cols` keys, `stages` blocks of K and V
/// in flight (FlashAttention-2/3's 128 x 128 for a head dim up to 128,
/// smaller for short sequences, narrower key blocks where a wide head
/// leaves shared memory (`limits.smem_bytes_per_block_max`) less than two
/// stages beside the query tile; stages 0 when none fits). graph-tile
/// annotates it, the tiled model times it.
struct AttentionTile {
  int64_t rows, cols, stages;
};
AttentionTile attentionTile(const Target &t, int64_t queries, int64_t keys,
                            int64_t headDim, int64_t valueDim,
                            double elementBytes);

/// The units whose compute a kernel placed on `planned` units holds: all of
/// the chip's under chip partition (its units are functional slices, and
/// the kernel streams through them all), else the planned ones.
double kernelUnits(const Target &t, int64_t planned);
/// The fraction of the chip's compute those units are, in (0, 1]: the
/// scheduler times a kernel with it and the roofline draws its roof.
double unitShare(const Target &t, int64_t planned);
/// The rectangle of a spatial target's PEs that holds `pes` of them: as
/// square as the fabric allows (`layout.fabric_dims`, width x height), so
/// {width, height} with width * height >= pes. graph-tile places kernels on
/// it; the fill latency below crosses it.
std::pair<int64_t, int64_t> peRectangle(const Target &t, int64_t pes);
/// The fabric hops across a kernel's rectangle of `units` PEs: a product
/// broadcasts its input along the rows and reduces its partial sums along
/// the columns, width + height hops.
int64_t rectangleHops(const Target &t, int64_t units);
/// What every kernel pays besides its work: a launch on a target that runs
/// kernels in stream order (a GPU), a synchronization inside a static plan.
/// In a layer pipeline (spatial placement with resident weights) a kernel
/// fires on its data's arrival (flow control over the fabric), not at a
/// barrier; it pays its rectangle's fill instead, the hops across its
/// `units` PEs at the on-chip network's per-hop latency.
double kernelOverheadSeconds(const Target &t, bool layerPipeline = false,
                             int64_t units = 1);

/// The bandwidth of level `m` to a buffer or kernel spanning `units` units:
/// a per-unit memory's times the units, a chip-wide one's as it is.
double bandwidthOf(const MemoryLevel &m, int64_t units);

/// How a copy between two buffers travels.
struct TransferPath {
  enum Kind {
    Link,   // between chips, over a chip-to-chip link
    Fabric, // between two buffers of one level, over the on-chip network
    Memory, // between levels: bounded by the slower side
    Host,   // between the host and the device's outer memory (a graph break)
  } kind = Memory;
  /// Memory: the level whose bandwidth bounds the copy, and whether it is
  /// the source's side (else the destination's).
  const MemoryLevel *level = nullptr;
  bool sourceBound = true;
  /// Bytes per second of the path (a per-unit level's times the units the
  /// buffer spans) and its latency.
  double bandwidth = 0, latencyNs = 0;
  /// A DMA engine moves it (an endpoint is off-chip memory), paying the
  /// target's DMA setup; on-chip streams do not.
  bool dma = false;
};
/// The path of a copy from a buffer in `src` spanning `srcUnits` units to
/// one in `dst` spanning `dstUnits` (1 for chip-wide levels), across chips
/// or not. Chips apart: the chip-to-chip link; the same level: the on-chip
/// fabric; else the bandwidth of the slower of the two levels and the
/// latency of the farther.
TransferPath transferPath(const Target &t, const MemoryLevel &src,
                          int64_t srcUnits, const MemoryLevel &dst,
                          int64_t dstUnits, bool crossChip);
/// The path between the host and the device's outer memory, over the
/// description's host link (its latency, then its bandwidth); nullopt where it has none (the CPU
/// reference is the host).
std::optional<TransferPath> hostPath(const Target &t);
/// Seconds a copy of `bytes` takes on `path`: DMA setup where an engine
/// moves it, latency, bytes over bandwidth.
double transferSeconds(const Target &t, const TransferPath &path, double bytes);


/// The two bounds of a kernel's time.
struct KernelTime {
  double compute = 0; // on its units: FLOPs over the rate, or systolic folds
  double memory = 0;  // its bytes over the bandwidth it streams from
  double seconds() const { return std::max(compute, memory); }
};

/// How the tiled GPU model (`compute.matrix_model` tiled, `compute.cta_tiles`)
/// runs a GEMM: output tiles of `rows` x `cols` walking K `depth` elements
/// a stage with `stages` stages in shared memory, K split `split` ways (the
/// split tile's last CTA reduces it), `ctas` CTAs in all; and the time that
/// choice takes, the fastest of every candidate tile and split. graph-tile
/// annotates it and kernelTime times by it.
struct GemmTiling {
  int64_t rows = 0, cols = 0, depth = 0, stages = 0, split = 1, ctas = 0;
  KernelTime time;
};
/// nullopt where the target has no tiled model, `w` is not a GEMM (matrix
/// work with a known shape, not attention), or no candidate tile fits.
std::optional<GemmTiling> gemmTiling(const Target &t, const Work &w);

/// The compute and memory times of a kernel. Matrix work with a known
/// GEMM shape on a systolic target (arrays of R x C = `compute.matrix_unit`
/// k x n, `limits.mxu_count` of them per chip) takes ceil(K/R) * ceil(N/C)
/// folds spread over the arrays of the units it uses: as SCALE-Sim v2's
/// weight-stationary model, 2R + C + M - 2 cycles each, less one per product
/// (`compute.systolic_model` scalesim-ws; scalesim-is and scalesim-os map
/// the GEMM as SCALE-Sim's other dataflows do), or pipelined with the next
/// fold's weights loading behind this one's rows, max(R, M) each plus one
/// fill and drain of R + C - 2 (pipelined-ws); other work runs at the peak FLOP rate scaled by
/// `compute.matrix_efficiency` (matrix) where the description gives one.
KernelTime kernelTime(const Target &t, const Work &w);
/// The FLOP/s rate of all the target's units for work of `dtype` on the
/// matrix units (`matrix`; "bf16x3" there: a third of the bf16 peak) or the
/// vector units: the published vector rate
/// for vector work where there is one, else the matrix peak; matrix work
/// scaled by `compute.matrix_efficiency` (the measured ceiling) when the
/// description gives one and `measured` is set.
double peakRate(const Target &t, bool matrix, llvm::StringRef dtype,
                bool measured = true);
/// Seconds a kernel takes: kernelTime(t, w).seconds().
double computeSeconds(const Target &t, const Work &w);
/// Streamed ops (sched `rows`): an op that works through `rows` slices in
/// order, waiting for another streamed op that started at `depStart` and
/// takes `depSeconds` in `depRows` slices, may start once that one's first
/// slice is done...
inline double streamStart(double depStart, double depSeconds, int64_t depRows) {
  return depStart + depSeconds / double(std::max<int64_t>(1, depRows));
}
/// ...and ends no earlier than one of its own `rows` slices (of `seconds`
/// in all) after that one ends at `depEnd`.
inline double streamEnd(double depEnd, double seconds, int64_t rows) {
  return depEnd + seconds / double(std::max<int64_t>(1, rows));
}

/// A collective among the chips of a tensor-parallel group (graph-shard's
/// `graph.all_reduce` and `graph.all_gather`), run as a ring over the
/// chip-to-chip links: each of its steps sends one chip's 1/N of the tensor
/// to the next chip while receiving from the previous one.
struct Collective {
  enum Kind { AllReduce, AllGather } kind = AllReduce;
  /// Bytes of the tensor each chip holds afterwards (an all-gather's
  /// gathered result).
  double bytes = 0;
  int64_t chips = 1;
};
/// The ring's steps: 2(N-1) for an all-reduce (a reduce-scatter, then an
/// all-gather of the reduced slices), N-1 for an all-gather.
int64_t collectiveSteps(const Collective &c);
/// Bytes each chip sends (and receives): a 1/N slice per step.
double collectiveLinkBytes(const Collective &c);
/// The bandwidth a chip sends at: the links a ring drives
/// (`network.chip_to_chip` `collective_links`, by default all `links`, as
/// NCCL's rings spread over every NVLink through the switch; a TPU's ring
/// along one torus axis drives its two) times `bandwidth_bytes_per_s` (one
/// direction); 0 without a chip-to-chip link.
double collectiveBandwidth(const Target &t);
/// Seconds a collective takes: each step pays the link's latency, and the
/// link bytes go at collectiveBandwidth.
double collectiveSeconds(const Target &t, const Collective &c);
/// Cycles of the target's clock, at least 1.
int64_t toCycles(const Target &t, double seconds);

} // namespace dfa::target

#endif // DFA_TARGET_COST_H
