//===- dfa-opt.cpp - dfa optimizer driver -----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the dfa dialects and passes. Like the model tools, it
// refuses a file nested deeper than MLIR's recursive parser can take and
// one whose parse would not fit --max-memory (exit 14), then holds the
// process to that budget.
//
//===----------------------------------------------------------------------===//

#include "dfa/InitAllDialects.h"
#include "dfa/InitAllPasses.h"
#include "dfa/Reference/Cpu.h"
#include "dfa/Support/Limits.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace limits = dfa::limits;

static llvm::cl::opt<std::string> maxMemory(
    "max-memory",
    llvm::cl::desc("Refuse an input whose parse needs more, and stop a run "
                   "that allocates more (K, M, G, T; 0 or none: no limit; "
                   "default: 3/4 of physical memory); exit code 14"),
    llvm::cl::value_desc("SIZE"), llvm::cl::init(""));

/// Exit code 14 (docs/cli.md) when the input file is too deep or too big
/// for the budget; 0 to go on. Standard input is read by MlirOptMain only.
static int checkInput(llvm::StringRef path) {
  if (path == "-")
    return 0;
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return 0; // MlirOptMain reports the error
  std::string tooMuch = limits::checkMlirText((*file)->getBuffer());
  if (tooMuch.empty())
    return 0;
  llvm::errs() << path << ": error: " << tooMuch << "\n";
  return 14;
}

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "dfa-opt " DFA_VERSION "\n"; });
  mlir::registerTransformsPasses();
  dfa::registerAllPasses();
  mlir::DialectRegistry registry;
  dfa::registerAllDialects(registry);
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "dfa optimizer driver\n", registry);

  int64_t bytes = limits::defaultMaxMemory();
  if (!maxMemory.empty()) {
    std::string problem = limits::parseSize(maxMemory, bytes);
    if (!problem.empty()) {
      llvm::errs() << "dfa-opt: error: --max-memory: " << problem << "\n";
      return 1;
    }
  }
  limits::setMaxMemory(bytes);
  if (!dfa::ref::checkCpu("dfa-opt"))
    return 2;
  if (int code = checkInput(input))
    return code;
  limits::enforceMaxMemory("dfa-opt");
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, input, output, registry));
}
