//===- Pipeline.cpp - the per-target compile pipeline ---------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Pipeline/Pipeline.h"

#include "dfa/Conversion/Passes.h"
#include "dfa/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace dfa;

llvm::ArrayRef<llvm::StringRef> dfa::stagePasses(Stage s) {
  // The one table buildPipeline follows (a debug build checks each pass it
  // adds against it).
  static const llvm::SmallVector<llvm::StringRef, 4> passes[kNumStages] = {
      {},
      {"cse", "graph-raise", "graph-decompose", "graph-shard"},
      {"graph-fuse"},
      {"graph-tile"},
      {"graph-layout"},
      {"convert-graph-to-sched"}};
  return passes[int(s)];
}

void dfa::buildPipeline(OpPassManager &pm, const PassTarget &target,
                        Stage from, Stage to, const PipelineOptions &options,
                        llvm::SmallVectorImpl<StageEnd> *ends) {
  assert(target.target && "buildPipeline needs a parsed target");
  // Every target pass takes the same options; the name and folders make the
  // pipeline print as text that reruns it.
  auto common = [&](auto o) {
    o.targetName = target.target->name;
    o.targetDirs = options.targetDirs;
    o.remarks = options.remarks;
    return o;
  };
  for (int i = int(from) + 1; i <= int(to); ++i) {
    Stage s = Stage(i);
    size_t before = pm.size();
    switch (s) {
    case Stage::Graph:
      break;
    case Stage::Decomposed: {
      // Importers write what the source repeats: FX gives each layer its
      // own unsqueeze of the shared rotary cos and sin, ONNX exporters each
      // layer its own scalar constants. Merging identical ops first leaves
      // one kernel (and one live tensor) where the graph had one per layer.
      pm.addPass(createCSEPass());
      pm.addPass(createGraphRaisePass(target, common(GraphRaisePassOptions())));
      GraphDecomposePassOptions decompose = common(GraphDecomposePassOptions());
      decompose.inject = options.inject;
      decompose.fp32Matmul = options.fp32Matmul;
      pm.addPass(createGraphDecomposePass(target, decompose));
      GraphShardPassOptions shard = common(GraphShardPassOptions());
      shard.tensorParallel = options.tensorParallel;
      pm.addPass(createGraphShardPass(target, shard));
      break;
    }
    case Stage::Fused:
      pm.addPass(createGraphFusePass(target, common(GraphFusePassOptions())));
      break;
    case Stage::Tiled:
      pm.addPass(createGraphTilePass(target, common(GraphTilePassOptions())));
      break;
    case Stage::LaidOut:
      pm.addPass(createGraphLayoutPass(target, common(GraphLayoutPassOptions())));
      break;
    case Stage::Sched: {
      ConvertGraphToSchedPassOptions lower =
          common(ConvertGraphToSchedPassOptions());
      lower.inject = options.inject;
      pm.addPass(createConvertGraphToSchedPass(target, lower));
      break;
    }
    }
#ifndef NDEBUG
    auto added = llvm::drop_begin(pm.getPasses(), before);
    assert(size_t(llvm::size(added)) == stagePasses(s).size() &&
           "the stage table and buildPipeline disagree");
    for (auto [pass, name] : llvm::zip(added, stagePasses(s)))
      assert(pass.getArgument() == name &&
             "the stage table and buildPipeline disagree");
#endif
    if (ends && pm.size() > before)
      ends->push_back({s, &*std::prev(pm.getPasses().end())});
  }
}

void dfa::buildPipeline(OpPassManager &pm, const target::Target &target,
                        Stage from, Stage to, const PipelineOptions &options) {
  PassTarget t;
  t.target = std::make_shared<const target::Target>(target);
  buildPipeline(pm, t, from, to, options);
}

namespace {
struct PipelineCLOptions : PassPipelineOptions<PipelineCLOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("Target description name")};
  ListOption<std::string> targetDirs{
      *this, "target-dir",
      llvm::cl::desc("Extra directories of target descriptions")};
  Option<std::string> from{
      *this, "from",
      llvm::cl::desc("The stage the input is at (graph, decomposed, fused, "
                     "tiled, laid-out)"),
      llvm::cl::init("graph")};
  Option<std::string> to{
      *this, "to",
      llvm::cl::desc("The stage to stop after (decomposed, fused, tiled, "
                     "laid-out, sched)"),
      llvm::cl::init("sched")};
  Option<bool> remarks{*this, "remarks",
                       llvm::cl::desc("Report what each pass decided"),
                       llvm::cl::init(false)};
  Option<std::string> inject{
      *this, "inject",
      llvm::cl::desc("A fault to plant (see dfa-compile --help)")};
  Option<std::string> fp32Matmul{
      *this, "fp32-matmul",
      llvm::cl::desc("How f32 matrix ops compute: ieee, tf32, bf16, bf16x3"),
      llvm::cl::init("ieee")};
  Option<int64_t> tensorParallel{
      *this, "tensor-parallel",
      llvm::cl::desc("Chips of a tensor-parallel group (1: none)"),
      llvm::cl::init(1)};
};
} // namespace

void dfa::registerPipelines() {
  registerPassPipeline(
      "dfa-pipeline",
      "The per-target compile pipeline of dfa-compile: raise, decompose, "
      "fuse, tile, lay out, convert to sched",
      [](OpPassManager &pm, llvm::StringRef text,
         llvm::function_ref<LogicalResult(const llvm::Twine &)> error) {
        PipelineCLOptions o;
        if (failed(o.parseFromString(text)))
          return failure();
        std::optional<Stage> from = stageNamed(o.from), to = stageNamed(o.to);
        if (!from || !to)
          return error("dfa-pipeline: unknown stage '" +
                       (from ? o.to : o.from) + "' (stages: " + stageList() +
                       ")");
        if (*from >= *to)
          return error("dfa-pipeline: from=" + o.from +
                       " must come before to=" + o.to);
        PassTarget target;
        PipelineOptions options;
        options.targetDirs.assign(o.targetDirs.begin(), o.targetDirs.end());
        options.remarks = o.remarks;
        options.inject = o.inject;
        options.fp32Matmul = o.fp32Matmul;
        options.tensorParallel = o.tensorParallel;
        if (o.target.empty())
          return error("dfa-pipeline: name the target: target=NAME");
        // Parsed once here and handed to every pass.
        target::Registry registry(options.targetDirs);
        auto t = std::make_shared<target::Target>();
        std::string err;
        if (registry.find(o.target, *t, err) != Status::Ok)
          return error("dfa-pipeline: " + err);
        target.target = std::move(t);
        buildPipeline(pm, target, *from, *to, options);
        return success();
      },
      [](llvm::function_ref<void(const detail::PassOptions &)> handler) {
        handler(PipelineCLOptions());
      });
}
