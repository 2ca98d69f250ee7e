//===- Results.cpp - a sweep's results file, its CSV, shards ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Support/Text.h"
#include "dfa/Sweep/Sweep.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace dfa;
using namespace dfa::sweep;
namespace json = llvm::json;

std::string Result::line() const {
  json::Object o;
  o["index"] = index;
  o["point"] = json::Object(point);
  if (error.empty() && exitCode == 0) {
    json::Object m;
    for (const auto &[k, v] : metrics)
      m[k] = v;
    o["metrics"] = std::move(m);
  } else {
    o["error"] = json::Object{{"exit_code", exitCode}, {"message", error}};
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << json::Value(std::move(o)); // llvm::json prints keys sorted
  return s;
}

Columns dfa::sweep::columnsOf(const std::vector<Result> &results) {
  std::set<std::string> dims, sets, metrics;
  for (const Result &r : results) {
    if (const json::Object *d = r.point.getObject("dims"))
      for (const auto &kv : *d)
        dims.insert(kv.first.str());
    if (const json::Object *o = r.point.getObject("overrides"))
      for (const auto &kv : *o)
        sets.insert(kv.first.str());
    for (const auto &kv : r.metrics)
      metrics.insert(kv.first);
  }
  return {{dims.begin(), dims.end()},
          {sets.begin(), sets.end()},
          {metrics.begin(), metrics.end()}};
}

std::optional<Result> dfa::sweep::parseResult(llvm::StringRef line) {
  llvm::Expected<json::Value> v = json::parse(line);
  if (!v) {
    llvm::consumeError(v.takeError());
    return std::nullopt;
  }
  const json::Object *o = v->getAsObject();
  if (!o)
    return std::nullopt;
  std::optional<int64_t> index = o->getInteger("index");
  const json::Object *point = o->getObject("point");
  if (!index || *index < 0 || !point)
    return std::nullopt;
  Result r;
  r.index = *index;
  r.point = *point;
  if (const json::Object *m = o->getObject("metrics")) {
    for (const auto &kv : *m) {
      std::optional<double> d = kv.second.getAsNumber();
      if (!d)
        return std::nullopt;
      r.metrics[kv.first.str()] = *d;
    }
  } else if (const json::Object *e = o->getObject("error")) {
    std::optional<int64_t> code = e->getInteger("exit_code");
    std::optional<llvm::StringRef> msg = e->getString("message");
    if (!code || !msg)
      return std::nullopt;
    r.exitCode = int(*code);
    r.error = msg->str();
    if (r.exitCode == 0 && r.error.empty())
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  return r;
}

Status dfa::sweep::readResults(llvm::StringRef path, std::vector<Result> &out,
                               uint64_t &truncatedAt, std::string &error) {
  truncatedAt = 0;
  if (!llvm::sys::fs::exists(path))
    return Status::Ok;
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    error = "cannot read '" + path.str() + "': " + buf.getError().message();
    return Status::IOError;
  }
  llvm::StringRef text = (*buf)->getBuffer();
  uint64_t offset = 0;
  int64_t lineNo = 0;
  while (offset < text.size()) {
    size_t nl = text.find('\n', offset);
    ++lineNo;
    if (nl == llvm::StringRef::npos) // a last line without its newline: cut off
      break;
    llvm::StringRef line = text.slice(offset, nl).trim();
    if (!line.empty()) {
      std::optional<Result> r = parseResult(line);
      if (!r) {
        error = path.str() + ":" + std::to_string(lineNo) +
                ": not a dfa-sweep results line";
        return Status::BadInput;
      }
      out.push_back(std::move(*r));
    }
    offset = nl + 1;
  }
  truncatedAt = offset;
  return Status::Ok;
}

std::string dfa::sweep::csvPathFor(llvm::StringRef resultsPath) {
  llvm::SmallString<256> p(resultsPath);
  if (p.str().ends_with(".jsonl"))
    llvm::sys::path::replace_extension(p, ".csv");
  else
    p += ".csv";
  return p.str().str();
}

namespace {
std::string number(double v) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << json::Value(v);
  return out;
}

/// Writes `body` to `path` through a temporary file renamed into place.
Status writeAtomically(llvm::StringRef path,
                       llvm::function_ref<void(llvm::raw_ostream &)> body,
                       std::string &error) {
  std::string tmp = path.str() + ".tmp";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmp, ec);
    if (ec) {
      error = "cannot write '" + tmp + "': " + ec.message();
      return Status::IOError;
    }
    body(os);
    os.close();
    if (os.has_error()) {
      error = "cannot write '" + tmp + "': " + os.error().message();
      os.clear_error();
      return Status::IOError;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    return Status::IOError;
  }
  return Status::Ok;
}
} // namespace

Status dfa::sweep::writeResults(llvm::StringRef path, llvm::StringRef csvPath,
                                std::vector<Result> results,
                                std::string &error) {
  llvm::stable_sort(results, [](const Result &a, const Result &b) {
    return a.index < b.index;
  });
  if (Status s = writeAtomically(
          path,
          [&](llvm::raw_ostream &os) {
            for (const Result &r : results)
              os << r.line() << "\n";
          },
          error);
      s != Status::Ok)
    return s;
  // The CSV: index, model, target, each dim, each override, each metric,
  // exit code, error.
  Columns columns = columnsOf(results);
  const std::vector<std::string> &dims = columns.dims, &sets = columns.overrides,
                                 &metrics = columns.metrics;
  return writeAtomically(
      csvPath,
      [&](llvm::raw_ostream &os) {
        os << "index,model,target";
        for (const std::string &d : dims)
          os << "," << csvField("dims." + d);
        for (const std::string &k : sets)
          os << "," << csvField(k);
        for (const std::string &m : metrics)
          os << "," << csvField(m);
        os << ",exit_code,error\n";
        for (const Result &r : results) {
          os << r.index << ","
             << csvField(r.point.getString("model").value_or("")) << ","
             << csvField(r.point.getString("target").value_or(""));
          const json::Object *d = r.point.getObject("dims");
          const json::Object *o = r.point.getObject("overrides");
          for (const std::string &k : dims) {
            const json::Value *v = d ? d->get(k) : nullptr;
            os << "," << (v ? csvField(valueText(*v)) : "");
          }
          for (const std::string &k : sets) {
            const json::Value *v = o ? o->get(k) : nullptr;
            os << "," << (v ? csvField(valueText(*v)) : "");
          }
          for (const std::string &m : metrics) {
            auto it = r.metrics.find(m);
            os << "," << (it == r.metrics.end() ? "" : number(it->second));
          }
          os << "," << r.exitCode << "," << csvField(r.error) << "\n";
        }
      },
      error);
}

Status dfa::sweep::merge(const std::vector<std::string> &files,
                         std::vector<Result> &out, std::string &error) {
  std::map<int64_t, std::pair<std::string, std::string>> seen; // line, file
  for (const std::string &f : files) {
    if (!llvm::sys::fs::exists(f)) {
      error = "cannot read '" + f + "': No such file or directory";
      return Status::IOError;
    }
    std::vector<Result> rs;
    uint64_t complete = 0;
    if (Status s = readResults(f, rs, complete, error); s != Status::Ok)
      return s;
    for (Result &r : rs) {
      std::string line = r.line();
      auto [it, fresh] = seen.try_emplace(r.index, line, f);
      if (!fresh && it->second.first != line) {
        error = "point " + std::to_string(r.index) + " differs between '" +
                it->second.second + "' and '" + f + "'";
        return Status::BadInput;
      }
      if (fresh)
        out.push_back(std::move(r));
    }
  }
  llvm::stable_sort(out, [](const Result &a, const Result &b) {
    return a.index < b.index;
  });
  return Status::Ok;
}
