//===- dfa-opt.cpp - dfa optimizer driver -----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/InitAllDialects.h"
#include "dfa/InitAllPasses.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "dfa-opt " DFA_VERSION "\n"; });
  mlir::registerTransformsPasses();
  dfa::registerAllPasses();
  mlir::DialectRegistry registry;
  dfa::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dfa optimizer driver\n", registry));
}
