//===- Npy.cpp - numpy .npy files -------------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Reference/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace dfa::ref;

namespace {
struct Descr {
  const char *code;
  DType dtype;
};
const Descr kDescrs[] = {
    {"f8", DType::F64}, {"f4", DType::F32}, {"f2", DType::F16},
    {"i8", DType::I64}, {"i4", DType::I32}, {"i2", DType::I16},
    {"i1", DType::I8},  {"u8", DType::U64}, {"u4", DType::U32},
    {"u2", DType::U16}, {"u1", DType::U8},  {"b1", DType::Bool},
};

/// The value of `'key': value` in a numpy header dict.
llvm::StringRef field(llvm::StringRef header, llvm::StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == llvm::StringRef::npos)
    return {};
  llvm::StringRef rest = header.drop_front(at + key.size() + 2).ltrim(" :");
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    return close == llvm::StringRef::npos ? llvm::StringRef() : rest.take_front(close + 1);
  }
  size_t end = rest.find_first_of(",}");
  return rest.take_front(end).trim();
}
} // namespace

bool dfa::ref::readNpy(llvm::StringRef path, Tensor &out, std::string &error) {
  auto buf = llvm::MemoryBuffer::getFile(path, false, false);
  if (!buf) {
    error = "cannot read '" + path.str() + "': " + buf.getError().message();
    return false;
  }
  llvm::StringRef data = (*buf)->getBuffer();
  auto bad = [&](const std::string &why) {
    error = "'" + path.str() + "' is not a supported .npy file: " + why;
    return false;
  };
  if (data.size() < 10 || !data.starts_with("\x93NUMPY"))
    return bad("missing magic");
  unsigned major = (uint8_t)data[6];
  size_t headerLen, start;
  if (major == 1) {
    headerLen = (uint8_t)data[8] | ((uint8_t)data[9] << 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12)
      return bad("truncated header");
    headerLen = (uint8_t)data[8] | ((uint8_t)data[9] << 8) |
                ((uint8_t)data[10] << 16) | ((size_t)(uint8_t)data[11] << 24);
    start = 12;
  } else {
    return bad("unknown version " + std::to_string(major));
  }
  if (start + headerLen > data.size())
    return bad("truncated header");
  llvm::StringRef header = data.substr(start, headerLen);
  llvm::StringRef descr = field(header, "descr").trim("'\"");
  if (field(header, "fortran_order") != "False")
    return bad("fortran_order arrays are not supported");
  if (descr.size() < 3 || descr[0] == '>')
    return bad("dtype '" + descr.str() + "' (big-endian or unknown)");
  std::optional<DType> dt;
  for (const Descr &d : kDescrs)
    if (descr.drop_front() == d.code)
      dt = d.dtype;
  if (!dt)
    return bad("unsupported dtype '" + descr.str() + "'");
  llvm::StringRef shapeStr = field(header, "shape").trim("()");
  Shape shape;
  while (!shapeStr.trim().empty()) {
    auto [head, tail] = shapeStr.split(',');
    head = head.trim();
    if (!head.empty()) {
      int64_t d;
      if (head.getAsInteger(10, d) || d < 0)
        return bad("bad shape");
      shape.push_back(d);
    }
    shapeStr = tail;
  }
  double elems = 1;
  for (int64_t d : shape)
    elems *= (double)d;
  if (elems * dtypeSize(*dt) > (double)(data.size() - start - headerLen))
    return bad("data shorter than its shape says");
  out = Tensor(*dt, shape);
  std::memcpy(out.bytes(), data.data() + start + headerLen, out.byteSize());
  return true;
}

bool dfa::ref::writeNpy(llvm::StringRef path, const Tensor &in,
                        std::string &error) {
  // numpy has no bfloat16, minifloat or sub-byte integer: those are
  // written widened (float32, int8, uint8), exactly.
  Tensor t = in;
  if (t.dtype() == DType::BF16 || isMinifloat(t.dtype()))
    t = Tensor::fromFloats(DType::F32, in.shape(), in.toFloats());
  else if (dtypeBits(t.dtype()) < 8) {
    t = Tensor(isUnsigned(in.dtype()) ? DType::U8 : DType::I8, in.shape());
    for (int64_t i = 0; i < in.numElements(); ++i)
      t.setInt(i, in.getInt(i));
  }
  const char *code = nullptr;
  for (const Descr &d : kDescrs)
    if (d.dtype == t.dtype())
      code = d.code;
  std::string shape = "(";
  for (int64_t i = 0; i < t.rank(); ++i)
    shape += (i ? ", " : "") + std::to_string(t.shape()[i]);
  shape += t.rank() == 1 ? ",)" : ")";
  char endian = dtypeSize(t.dtype()) == 1 ? '|' : '<';
  std::string header = std::string("{'descr': '") + endian + code +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    return false;
  }
  os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  os.write(reinterpret_cast<const char *>(t.bytes()), t.byteSize());
  os.close();
  if (os.has_error()) {
    error = "cannot write '" + path.str() + "'";
    os.clear_error();
    return false;
  }
  return true;
}
