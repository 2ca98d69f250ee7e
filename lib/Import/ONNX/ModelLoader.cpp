//===- ModelLoader.cpp - read ONNX files and tensors ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Parses a ModelProto from a memory-mapped file and records, with a small
/// protobuf wire-format walk, the file offset of every initializer's
/// raw_data, so that large initializers become references into the file.
///
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "dfa/Support/Limits.h"

#include "dialects/Graph/GraphDialect.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace mlir;
using namespace dfa;
using namespace dfa::onnximport;

namespace {
/// A cursor over protobuf wire format.
struct Wire {
  const uint8_t *p, *end;
  bool ok = true;

  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && p < end; shift += 7) {
      uint8_t byte = *p++;
      v |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return v;
    }
    ok = false;
    return 0;
  }

  /// Skips the value of a field with wire type `wt`; returns false on error.
  bool skip(unsigned wt) {
    switch (wt) {
    case 0: varint(); return ok;
    case 1: p += 8; return p <= end;
    case 2: {
      uint64_t n = varint();
      if (!ok || n > uint64_t(end - p))
        return false;
      p += n;
      return true;
    }
    case 5: p += 4; return p <= end;
    default: return false;
    }
  }
};

void scanTensor(const uint8_t *base, Wire w, llvm::StringMap<uint64_t> &out) {
  std::string name;
  uint64_t rawOffset = 0;
  bool hasRaw = false;
  while (w.p < w.end && w.ok) {
    uint64_t tag = w.varint();
    unsigned field = tag >> 3, wt = tag & 7;
    if (wt == 2 && (field == 8 || field == 9)) {
      uint64_t n = w.varint();
      if (!w.ok || n > uint64_t(w.end - w.p))
        return;
      if (field == 8)
        name.assign(reinterpret_cast<const char *>(w.p), n);
      else {
        rawOffset = w.p - base;
        hasRaw = true;
      }
      w.p += n;
    } else if (!w.skip(wt)) {
      return;
    }
  }
  if (hasRaw && !name.empty())
    out[name] = rawOffset;
}

/// Walks ModelProto.graph (7) -> GraphProto.initializer (5).
void scanInitializers(const uint8_t *base, size_t size,
                      llvm::StringMap<uint64_t> &out) {
  Wire model{base, base + size};
  while (model.p < model.end && model.ok) {
    uint64_t tag = model.varint();
    unsigned field = tag >> 3, wt = tag & 7;
    if (field == 7 && wt == 2) {
      uint64_t n = model.varint();
      if (!model.ok || n > uint64_t(model.end - model.p))
        return;
      Wire graph{model.p, model.p + n};
      while (graph.p < graph.end && graph.ok) {
        uint64_t gtag = graph.varint();
        unsigned gfield = gtag >> 3, gwt = gtag & 7;
        if (gfield == 5 && gwt == 2) {
          uint64_t m = graph.varint();
          if (!graph.ok || m > uint64_t(graph.end - graph.p))
            return;
          scanTensor(base, Wire{graph.p, graph.p + m}, out);
          graph.p += m;
        } else if (!graph.skip(gwt)) {
          return;
        }
      }
      model.p += n;
    } else if (!model.skip(wt)) {
      return;
    }
  }
}
} // namespace

Status dfa::onnximport::loadModel(llvm::StringRef path, LoadedModel &out,
                                  std::string &error) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf) {
    error = "cannot read '" + path.str() + "': " + buf.getError().message();
    return Status::IOError;
  }
  out.path = path.str();
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  out.dir = parent.str();
  out.buffer = std::move(*buf);
  const auto *data =
      reinterpret_cast<const uint8_t *>(out.buffer->getBufferStart());
  size_t size = out.buffer->getBufferSize();
  if (size > (size_t)INT32_MAX) {
    error = "'" + path.str() + "' is larger than 2 GiB; keep large weights "
            "in external data files";
    return Status::InvalidModel;
  }
  // Parsing copies every tensor and string out of the file, and importing
  // copies inline tensors again: about three times the file.
  if (!limits::fits(3.0 * (double)size)) {
    error = "'" + path.str() + "' is " + limits::formatSize((double)size) +
            "; parsing and importing it needs about " +
            limits::formatSize(3.0 * (double)size) + ", " + limits::overBudget();
    return Status::LimitExceeded;
  }
  // Parsed from the file through a small buffer, not from the mapping:
  // parsing copies every raw_data out, and reading the mapping would also
  // keep each page of the file resident while the copy is made (the
  // mapping is only walked for the initializers' offsets, skipping their
  // data).
  // A pipe or other stream was read whole into the buffer: parsed there.
  bool parsed;
  if (llvm::sys::fs::is_regular_file(out.path)) {
    int fd = ::open(out.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      error = "cannot read '" + path.str() + "': " + std::strerror(errno);
      return Status::IOError;
    }
    parsed = out.model.ParseFromFileDescriptor(fd);
    ::close(fd);
  } else {
    parsed = out.model.ParseFromArray(data, static_cast<int>(size));
  }
  if (!parsed) {
    error = "'" + path.str() + "' is not a valid ONNX model (protobuf parse "
            "failed: truncated, not a ModelProto, or subgraphs nested deeper "
            "than 100 levels)";
    return Status::InvalidModel;
  }
  double need = 3.0 * (double)size +
                limits::kImportBytesPerNode * out.model.graph().node_size();
  if (!limits::fits(need)) {
    error = "'" + path.str() + "' has " +
            std::to_string(out.model.graph().node_size()) +
            " nodes; importing them needs about " + limits::formatSize(need) +
            ", " + limits::overBudget();
    return Status::LimitExceeded;
  }
  if (!out.model.has_graph() || out.model.ir_version() <= 0) {
    error = "'" + path.str() + "' is not a valid ONNX model (no graph or no "
            "ir_version)";
    return Status::InvalidModel;
  }
  scanInitializers(data, size, out.rawDataOffsets);
  return inlineFunctions(out.model, error);
}

dfa::onnximport::ExternalRef
dfa::onnximport::externalRef(const onnx::TensorProto &proto) {
  ExternalRef r;
  for (const auto &kv : proto.external_data()) {
    if (kv.key() == "location")
      r.location = kv.value();
    else if (kv.key() == "offset")
      r.offset = std::strtoll(kv.value().c_str(), nullptr, 10);
    else if (kv.key() == "length")
      r.length = std::strtoll(kv.value().c_str(), nullptr, 10);
  }
  return r;
}

std::string dfa::onnximport::checkExternalLocation(llvm::StringRef location) {
  if (location.empty())
    return "external data has no location";
  if (llvm::sys::path::is_absolute(location) ||
      llvm::sys::path::is_absolute(location, llvm::sys::path::Style::windows))
    return "external data location '" + location.str() +
           "' is absolute; it must be relative to the model's folder";
  for (llvm::StringRef part : llvm::make_range(llvm::sys::path::begin(location),
                                               llvm::sys::path::end(location)))
    if (part == "..")
      return "external data location '" + location.str() +
             "' leaves the model's folder";
  return "";
}

Type dfa::onnximport::elementType(int t, MLIRContext *ctx) {
  Builder b(ctx);
  auto u = [&](unsigned w) { return IntegerType::get(ctx, w, IntegerType::Unsigned); };
  switch (t) {
  case onnx::TensorProto::FLOAT: return b.getF32Type();
  case onnx::TensorProto::DOUBLE: return b.getF64Type();
  case onnx::TensorProto::FLOAT16: return b.getF16Type();
  case onnx::TensorProto::BFLOAT16: return b.getBF16Type();
  case onnx::TensorProto::INT8: return b.getI8Type();
  case onnx::TensorProto::INT16: return b.getI16Type();
  case onnx::TensorProto::INT32: return b.getI32Type();
  case onnx::TensorProto::INT64: return b.getI64Type();
  case onnx::TensorProto::UINT8: return u(8);
  case onnx::TensorProto::UINT16: return u(16);
  case onnx::TensorProto::UINT32: return u(32);
  case onnx::TensorProto::UINT64: return u(64);
  case onnx::TensorProto::BOOL: return b.getI1Type();
  // The types newer than libonnx's protobuf, by number (ONNX 1.14+).
  case kFloat8E4M3FN: return b.getFloat8E4M3FNType();
  case kFloat8E4M3FNUZ: return b.getFloat8E4M3FNUZType();
  case kFloat8E5M2: return b.getFloat8E5M2Type();
  case kFloat8E5M2FNUZ: return b.getFloat8E5M2FNUZType();
  case kUInt4: return u(4);
  case kInt4: return b.getIntegerType(4);
  case kUInt2: return u(2);
  case kInt2: return b.getIntegerType(2);
  case kFloat4E2M1: return graph::Float4E2M1FNType::get(ctx);
  case kFloat8E8M0: return graph::Float8E8M0FNUType::get(ctx);
  case kFloat6E2M3: return graph::Float6E2M3FNType::get(ctx);
  case kFloat6E3M2: return graph::Float6E3M2FNType::get(ctx);
  default: return {};
  }
}

std::string dfa::onnximport::onnxTypeName(int t) {
  if (onnx::TensorProto::DataType_IsValid(t))
    return onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(t));
  // The types newer than libonnx's protobuf (ONNX 1.14 and later).
  static const char *const newer[] = {
      "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4",
      "INT4",         "FLOAT4E2M1",     "FLOAT8E8M0", "UINT2",          "INT2",
      "FLOAT6E2M3",   "FLOAT6E3M2"};
  if (t >= 17 && t < 17 + int(std::size(newer)))
    return newer[t - 17];
  return "type " + std::to_string(t);
}

static std::optional<ref::DType> dtypeOfOnnx(int t) {
  switch (t) {
  case onnx::TensorProto::FLOAT: return ref::DType::F32;
  case onnx::TensorProto::DOUBLE: return ref::DType::F64;
  case onnx::TensorProto::FLOAT16: return ref::DType::F16;
  case onnx::TensorProto::BFLOAT16: return ref::DType::BF16;
  case onnx::TensorProto::INT8: return ref::DType::I8;
  case onnx::TensorProto::INT16: return ref::DType::I16;
  case onnx::TensorProto::INT32: return ref::DType::I32;
  case onnx::TensorProto::INT64: return ref::DType::I64;
  case onnx::TensorProto::UINT8: return ref::DType::U8;
  case onnx::TensorProto::UINT16: return ref::DType::U16;
  case onnx::TensorProto::UINT32: return ref::DType::U32;
  case onnx::TensorProto::UINT64: return ref::DType::U64;
  case onnx::TensorProto::BOOL: return ref::DType::Bool;
  case kFloat8E4M3FN: return ref::DType::F8E4M3FN;
  case kFloat8E4M3FNUZ: return ref::DType::F8E4M3FNUZ;
  case kFloat8E5M2: return ref::DType::F8E5M2;
  case kFloat8E5M2FNUZ: return ref::DType::F8E5M2FNUZ;
  case kUInt4: return ref::DType::U4;
  case kInt4: return ref::DType::I4;
  case kUInt2: return ref::DType::U2;
  case kInt2: return ref::DType::I2;
  case kFloat4E2M1: return ref::DType::F4E2M1FN;
  case kFloat8E8M0: return ref::DType::F8E8M0FNU;
  case kFloat6E2M3: return ref::DType::F6E2M3FN;
  case kFloat6E3M2: return ref::DType::F6E3M2FN;
  default: return std::nullopt;
  }
}

/// Sub-byte types (int4, int2, float4, float6) arrive packed: a
/// little-endian bit stream, element i in bits [i*w, (i+1)*w). Integers are
/// sign-extended as their type says; float codes are kept as they are.
static void unpackSubByte(const uint8_t *packed, ref::Tensor &out) {
  unsigned bits = ref::dtypeBits(out.dtype());
  unsigned mask = (1u << bits) - 1;
  bool isFloat = ref::isFloat(out.dtype());
  for (int64_t i = 0; i < out.numElements(); ++i) {
    uint64_t bit = uint64_t(i) * bits;
    unsigned window = packed[bit / 8];
    if (bit % 8 + bits > 8) // a 6-bit code across a byte boundary
      window |= unsigned(packed[bit / 8 + 1]) << 8;
    unsigned v = (window >> (bit % 8)) & mask;
    if (isFloat)
      out.data<uint8_t>()[i] = uint8_t(v);
    else
      out.setInt(i, v); // setInt wraps to the width: 0b1111 is -1 in int4
  }
}

Status dfa::onnximport::tensorFromProto(const onnx::TensorProto &proto,
                                        llvm::StringRef dir, ref::Tensor &out,
                                        std::string &error) {
  auto dt = dtypeOfOnnx(proto.data_type());
  std::string what = "tensor '" + proto.name() + "'";
  if (!dt) {
    error = what + " has unsupported element type " +
            onnxTypeName(proto.data_type());
    return Status::Unsupported;
  }
  ref::Shape shape;
  for (int64_t d : proto.dims()) {
    if (d < 0) {
      error = what + " has a negative dimension";
      return Status::InvalidModel;
    }
    shape.push_back(d);
  }
  // Refuse absurd sizes before allocating.
  double elems = 1;
  for (int64_t d : shape)
    elems *= (double)d;
  if (elems * ref::dtypeSize(*dt) > 64e9) {
    error = what + " is larger than 64 GB";
    return Status::InvalidModel;
  }
  // Check the data before allocating: a tiny file can claim huge dims.
  int64_t n = ref::numElements(shape);
  unsigned bits = ref::dtypeBits(*dt);
  bool packed = bits < 8;
  // Bytes in the file (packed for sub-byte types). int32_data packs the 4-
  // and 2-bit types too, but holds a 6-bit float one code per entry.
  size_t bytes = packed ? (n * bits + 7) / 8 : n * ref::dtypeSize(*dt);
  bool packedTyped = packed && 8 % bits == 0;
  auto mismatch = [&](int64_t got) {
    error = what + " holds " + std::to_string(got) + " values, expected " +
            std::to_string(n);
    return Status::InvalidModel;
  };
  if (proto.data_location() != onnx::TensorProto::EXTERNAL) {
    int64_t typed = *dt == ref::DType::F32   ? proto.float_data_size()
                    : *dt == ref::DType::F64 ? proto.double_data_size()
                    : *dt == ref::DType::I64 ? proto.int64_data_size()
                    : (*dt == ref::DType::U32 || *dt == ref::DType::U64)
                        ? proto.uint64_data_size()
                        : proto.int32_data_size();
    if (proto.has_raw_data() && proto.raw_data().size() != bytes) {
      error = what + " holds " + std::to_string(proto.raw_data().size()) +
              " bytes of data, expected " + std::to_string(bytes);
      return Status::InvalidModel;
    }
    if (!proto.has_raw_data() && packedTyped && typed != (int64_t)bytes) {
      error = what + " holds " + std::to_string(typed) + " packed bytes, expected " +
              std::to_string(bytes);
      return Status::InvalidModel;
    }
    if (!proto.has_raw_data() && !packedTyped && typed != n)
      return mismatch(typed);
  }
  out = ref::Tensor(*dt, shape);
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    auto [location, offset, length] = externalRef(proto);
    if (std::string bad = checkExternalLocation(location); !bad.empty()) {
      error = what + ": " + bad;
      return Status::InvalidModel;
    }
    if (offset < 0) {
      error = what + ": external data at a negative offset";
      return Status::InvalidModel;
    }
    llvm::SmallString<256> file(dir);
    llvm::sys::path::append(file, location);
    auto buf = llvm::MemoryBuffer::getFileSlice(file, bytes, offset, false);
    if (location.empty() || !buf) {
      error = what + ": cannot read external data '" + file.str().str() +
              "': " + (buf ? "no location" : buf.getError().message());
      return Status::IOError;
    }
    if ((*buf)->getBufferSize() != bytes) {
      error = what + ": external data file '" + file.str().str() +
              "' is too short";
      return Status::IOError;
    }
    if (packed)
      unpackSubByte(reinterpret_cast<const uint8_t *>((*buf)->getBufferStart()), out);
    else if (bytes) // an empty slice may have no buffer
      std::memcpy(out.bytes(), (*buf)->getBufferStart(), bytes);
    return Status::Ok;
  }
  if (proto.has_raw_data()) {
    if (packed)
      unpackSubByte(reinterpret_cast<const uint8_t *>(proto.raw_data().data()), out);
    else
      std::memcpy(out.bytes(), proto.raw_data().data(), bytes);
    return Status::Ok;
  }
  if (packedTyped) { // int32_data holds the packed bytes, one per entry
    std::vector<uint8_t> p(bytes);
    for (size_t i = 0; i < bytes; ++i)
      p[i] = (uint8_t)proto.int32_data(i);
    unpackSubByte(p.data(), out);
    return Status::Ok;
  }
  switch (*dt) {
  case ref::DType::F32:
    if (proto.float_data_size() != n) return mismatch(proto.float_data_size());
    for (int64_t i = 0; i < n; ++i) out.data<float>()[i] = proto.float_data(i);
    break;
  case ref::DType::F64:
    if (proto.double_data_size() != n) return mismatch(proto.double_data_size());
    for (int64_t i = 0; i < n; ++i) out.data<double>()[i] = proto.double_data(i);
    break;
  case ref::DType::I64:
    if (proto.int64_data_size() != n) return mismatch(proto.int64_data_size());
    for (int64_t i = 0; i < n; ++i) out.data<int64_t>()[i] = proto.int64_data(i);
    break;
  case ref::DType::U32: case ref::DType::U64:
    if (proto.uint64_data_size() != n) return mismatch(proto.uint64_data_size());
    for (int64_t i = 0; i < n; ++i) out.setInt(i, (int64_t)proto.uint64_data(i));
    break;
  case ref::DType::F16: case ref::DType::BF16:
    if (proto.int32_data_size() != n) return mismatch(proto.int32_data_size());
    for (int64_t i = 0; i < n; ++i)
      out.data<uint16_t>()[i] = (uint16_t)proto.int32_data(i);
    break;
  case ref::DType::F8E4M3FN: case ref::DType::F8E4M3FNUZ:
  case ref::DType::F8E5M2: case ref::DType::F8E5M2FNUZ:
  case ref::DType::F6E2M3FN: case ref::DType::F6E3M2FN:
  case ref::DType::F8E8M0FNU: { // bit patterns (an FP6 code's low 6 bits)
    if (proto.int32_data_size() != n) return mismatch(proto.int32_data_size());
    unsigned mask = (1u << ref::dtypeBits(*dt)) - 1;
    for (int64_t i = 0; i < n; ++i)
      out.data<uint8_t>()[i] = uint8_t(proto.int32_data(i) & mask);
    break;
  }
  default:
    if (proto.int32_data_size() != n) return mismatch(proto.int32_data_size());
    for (int64_t i = 0; i < n; ++i) out.setInt(i, proto.int32_data(i));
    break;
  }
  return Status::Ok;
}

Status dfa::readTensorProtoFile(llvm::StringRef path, ref::Tensor &tensor,
                                std::string &name, std::string &error) {
  auto buf = llvm::MemoryBuffer::getFile(path, false, false);
  if (!buf) {
    error = "cannot read '" + path.str() + "': " + buf.getError().message();
    return Status::IOError;
  }
  onnx::TensorProto proto;
  if ((*buf)->getBufferSize() > (size_t)INT32_MAX ||
      !proto.ParseFromArray((*buf)->getBufferStart(),
                            (int)(*buf)->getBufferSize())) {
    error = "'" + path.str() + "' is not an ONNX TensorProto";
    return Status::BadInput;
  }
  name = proto.name();
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  Status s = tensorFromProto(proto, parent, tensor, error);
  if (s != Status::Ok)
    error = "'" + path.str() + "': " + error;
  return s == Status::InvalidModel ? Status::BadInput : s;
}
