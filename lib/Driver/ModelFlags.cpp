//===- ModelFlags.cpp - model flags to import options -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ModelFlags.h"

using namespace dfa;
using namespace dfa::driver;

/// `flag`'s NAME=N arguments (N >= `least`; the last '=' splits, so a node
/// name may hold one) into `out`.
static Status parseSizes(llvm::StringRef flag, const std::vector<std::string> &args,
                         int64_t least, std::map<std::string, int64_t> &out,
                         DiagnosticPrinter &printer) {
  for (const std::string &arg : args) {
    auto [name, value] = llvm::StringRef(arg).rsplit('=');
    int64_t n;
    if (name.trim().empty() || value.getAsInteger(10, n) || n < least) {
      printer.error(flag + " expects NAME=N with N >= " + std::to_string(least) +
                    ", got '" + arg + "'");
      return Status::Usage;
    }
    out[name.trim().str()] = n;
  }
  return Status::Ok;
}

Status dfa::driver::buildImportOptions(
    const ModelFlags &flags, const std::map<std::string, ref::Tensor> &inputs,
    const std::vector<std::string> &extraSpecialize, ONNXImportOptions &out,
    DiagnosticPrinter &printer) {
  out.noWeights = flags.noWeights;
  for (const std::string &arg : flags.shapes) {
    std::string name;
    std::vector<int64_t> dims;
    if (!parseShapeArg(arg, name, dims)) {
      printer.error("--shape expects NAME=D0,D1,... with non-negative dims, got '" +
                    arg + "'");
      return Status::Usage;
    }
    out.shapes[name] = dims;
  }
  if (Status s = parseSizes("--dim", flags.dims, 0, out.dims, printer); s != Status::Ok)
    return s;
  for (const auto &[name, t] : inputs)
    out.valueShapes[name] = std::vector<int64_t>(t.shape().begin(), t.shape().end());
  if (Status s = parseMaxDims(flags, out.maxDims, printer); s != Status::Ok)
    return s;
  std::vector<std::string> all = flags.specialize;
  all.insert(all.end(), extraSpecialize.begin(), extraSpecialize.end());
  for (const std::string &arg : all) {
    auto [name, file] = llvm::StringRef(arg).split('=');
    if (name.empty()) {
      printer.error("--specialize expects NAME or NAME=FILE, got '" + arg + "'");
      return Status::Usage;
    }
    if (!file.empty()) {
      ref::Tensor t;
      std::string tname, err;
      Status s = readTensorFile(file, t, tname, err);
      if (s != Status::Ok) {
        printer.error(err);
        return s;
      }
      out.specialized[name.str()] = t;
      continue;
    }
    auto it = inputs.find(name.str());
    if (it == inputs.end()) {
      printer.error("--specialize " + name.str() +
                    ": no input of that name was given (use NAME=FILE)");
      return Status::Usage;
    }
    out.specialized[name.str()] = it->second;
  }
  return Status::Ok;
}

Status dfa::driver::parseMaxDims(const ModelFlags &flags,
                                 std::map<std::string, int64_t> &out,
                                 DiagnosticPrinter &printer) {
  // A bound of 0 would hold nothing: the bounded segment would be empty.
  return parseSizes("--max-dim", flags.maxDims, 1, out, printer);
}
