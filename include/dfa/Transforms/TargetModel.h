//===- TargetModel.h - what passes read from a description -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// What the passes of lib/Transforms and lib/Conversion share: the target a
/// pass works for, the class of an op (what fusion and tiling look at), and
/// the memory layout each target gives a tensor. Every number comes from
/// the machine description.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_TRANSFORMS_TARGETMODEL_H
#define DFA_TRANSFORMS_TARGETMODEL_H

#include "dfa/Support/MathExtras.h"
#include "dfa/Support/SourceName.h"
#include "dfa/Transforms/PassTarget.h"
#include "dfa/Target/Cost.h"
#include "dfa/Target/Layout.h"
#include "dfa/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "dialects/Graph/GraphInterfaces.h"
#include "dialects/Graph/GraphOps.h"

#include <optional>
#include <string>

namespace dfa {

/// Records the target a module is compiled for as its `graph.target` (and
/// its `--set` overrides as `graph.target_overrides`), so that later stages
/// and `--compile-from` find it.
void setModuleTarget(mlir::ModuleOp module, const target::Target &t);

/// The `--set` overrides a module records for its target (none: empty).
std::vector<std::string> moduleTargetOverrides(mlir::ModuleOp module);

/// The target named by a pass option, or, when that is empty, by the
/// module's `graph.target` attribute (set by the first pass that names one,
/// so that later stages and `--compile-from` find it). Errors are emitted
/// on the module.
mlir::FailureOr<target::Target>
loadPassTarget(mlir::ModuleOp module, llvm::StringRef name,
               llvm::ArrayRef<std::string> targetDirs);

/// Mixed into every pass that works for a target.
class TargetedPass {
public:
  /// What buildPipeline handed the pass (empty when run on its own).
  PassTarget given;

protected:
  /// The pass's target: the one handed over, else the one `name` names (or
  /// the module's graph.target), parsed once per run and kept here. Either
  /// way it is recorded on the module. Null after an error, emitted on the
  /// module.
  template <typename DirList>
  const target::Target *passTarget(mlir::ModuleOp module, llvm::StringRef name,
                                   const DirList &dirs) {
    if (given.target) {
      setModuleTarget(module, *given.target);
      return given.target.get();
    }
    std::vector<std::string> list(dirs.begin(), dirs.end());
    mlir::FailureOr<target::Target> t = loadPassTarget(module, name, list);
    if (mlir::failed(t))
      return nullptr;
    loaded = std::move(*t);
    return &*loaded;
  }

private:
  std::optional<target::Target> loaded;
};

/// A pass of type `P` built with `options` and handed `target`: the body
/// of every create function that takes a PassTarget.
template <typename P, typename Options>
std::unique_ptr<P> makeTargetedPass(PassTarget target, const Options &options) {
  auto pass = std::make_unique<P>(options);
  pass->given = std::move(target);
  return pass;
}

/// The op classes the passes look at are the graph dialect's
/// (GraphOpClass.cpp), declared once for the compiler and dfa-bisect.
using graph::classify;
using graph::isAnchor;
using graph::kernelKindOf;
using graph::OpClass;

using graph::elementBytes;

/// How a target stores one tensor (dfa/Target/Layout.h).
using TensorLayout = target::Layout;

/// target::Layout::of for a tensor type, its dims in physical `order`.
TensorLayout layoutFor(const target::Target &t, mlir::RankedTensorType type,
                       llvm::ArrayRef<int64_t> order = {});

/// Whether the target ties its layout to the minor dim (Spyre sticks, TPU
/// tiles, Groq vectors), so that which dim is minor is a layout decision.
bool minorTied(const target::Target &t);

/// The physical dim order a target gives to value `v`: on minor-tied targets,
/// 4-D and 5-D tensors of a convolutional net are stored channels-last
/// (activations NHWC / NDHWC, resident weights HWIO / DHWIO), so that channels, not a 7-wide spatial dim,
/// fill the sticks, tiles and vectors; so is any other 4-D activation that
/// stores at most half the bytes so. Where a tile spans the two minor dims
/// (a TPU), size-1 dims are stored major, so that a tile's rows are not a
/// size-1 dim's ([B, 1, K] fills the tiles' rows with B). Empty (identity)
/// otherwise.
llvm::SmallVector<int64_t> dimOrder(const target::Target &t, mlir::Value v);

/// The channels-last order dimOrder starts from: 4-D and 5-D feature maps
/// and convolution weights on minor-tied targets; empty otherwise.
llvm::SmallVector<int64_t> featureMapOrder(const target::Target &t, mlir::Value v);

/// dimOrder's rules past the feature maps' order `order`, for a tensor of
/// `type` (`resident`: a weight or constant, laid out once at load): size-1
/// dims major, and a minor dim narrower than the granule swapped for the
/// largest. graph-shard sizes a weight's row pieces by it.
llvm::SmallVector<int64_t> refinedOrder(const target::Target &t, mlir::RankedTensorType type,
                                        llvm::ArrayRef<int64_t> order, bool resident);

/// layoutFor(t, type of v, dimOrder(t, v)).
TensorLayout layoutOf(const target::Target &t, mlir::Value v);

/// Whether `op` is a transpose that moves the minor dim.
bool movesMinorDim(mlir::Operation *op);

/// Whether transpose `op` is read through by the products that read it on
/// `t` (`compiler.transpose_folding`, as XLA's TransposeFolding folds a
/// transpose into the dot's dimension numbers, and cuBLAS and Inductor's
/// templates take a transposed view): it swaps only its last two dims and
/// its one reader is a matmul or gemm taking it as an operand. It is part
/// of that product's kernel, never a copy or a relayout of its own.
bool foldsIntoProducts(const target::Target &t, mlir::Operation *op);

/// Whether `op` is a relayout on `t`, a kernel of its own: a transpose that
/// moves the minor dim where the layout is tied to it
/// (`compiler.relayout_minor_dim`) and the products reading it do not fold it.
bool isRelayout(const target::Target &t, mlir::Operation *op);

/// The matmul shape (batch, m, n, k) of a matmul or gemm op.
struct MatmulShape {
  int64_t batch = 1, m = 1, n = 1, k = 1;
  /// The operand each side is read from, and whether it is stored MN-major
  /// (its M or N dim minor, not K): a matmul's [.., K, N] right-hand side
  /// is, its left-hand side is not; a gemm's by transA and transB; a
  /// transpose of the last two dims in the same block is read through (the
  /// product reads its input, the other way round).
  mlir::Value lhs, rhs;
  bool lhsMnMajor = false, rhsMnMajor = false;
};
std::optional<MatmulShape> matmulShape(mlir::Operation *op);
/// Whether matmul `op`'s right-hand side is one every batch shares (a
/// weight: rank 2, or leading dims of 1), so that its shape is one GEMM
/// over all of the left-hand side's rows (matmulShape).
bool sharesRhs(mlir::Operation *op);
/// Whether product `op` reads an operand stored MN-major (MatmulShape)
/// that is computed at run time: a weight's or a constant's layout is the
/// compiler's to choose, and it stores it as the matrix unit reads it.
bool readsRuntimeMnMajor(mlir::Operation *op);
/// The GEMM a matrix op performs: matmul and gemm as they are, a
/// convolution as im2col (M = batch x output pixels, K = input channels per
/// group x window, N = output channels per group, one product per group).
std::optional<MatmulShape> gemmShape(mlir::Operation *op);

/// The shape of an attention op: `heads` (batch x query heads) products
/// of `queries` rows of width `headDim` against `keys` keys, values of
/// width `valueDim`; `kvGroup` query heads per stored K/V head when the
/// keys are a broadcast (a GQA repeat) of fewer heads in the same block.
/// nullopt for anything else, or an attention without keys.
struct AttentionShape {
  int64_t heads = 1, queries = 1, keys = 1, headDim = 1, valueDim = 1;
  int64_t kvGroup = 1;
  bool causal = false;
};
std::optional<AttentionShape> attentionShape(mlir::Operation *op);

/// What the cost model reads of a kernel's arithmetic (target::Work), from
/// its body (`body`: the kernel's block, or a chunk's copy of it) and the
/// kernel's own products: whether it runs on the matrix units, its
/// arithmetic and result types, its GEMM or attention shape, whether a
/// product reads a run-time operand MN-major, and the precision of its f32
/// products (--fp32-matmul). FLOPs, bytes, units and bandwidth are the
/// caller's: graph-tile's tiling and the lowering's timing read the same.
target::Work kernelWork(graph::KernelOp k, mlir::Block &body);

} // namespace dfa

#endif // DFA_TRANSFORMS_TARGETMODEL_H
