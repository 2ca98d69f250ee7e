//===- Tensor.cpp - dense host tensors --------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dfa/Reference/Tensor.h"

#include "llvm/ADT/APFloat.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstring>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <limits>
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

using namespace dfa::ref;

size_t dfa::ref::dtypeSize(DType t) {
  switch (t) {
  case DType::F64: case DType::I64: case DType::U64: return 8;
  case DType::F32: case DType::I32: case DType::U32: return 4;
  case DType::F16: case DType::BF16: case DType::I16: case DType::U16: return 2;
  case DType::I8: case DType::U8: case DType::Bool: return 1;
  case DType::F8E4M3FN: case DType::F8E4M3FNUZ: case DType::F8E5M2:
  case DType::F8E5M2FNUZ: case DType::I4: case DType::U4: case DType::I2:
  case DType::U2: case DType::F4E2M1FN: case DType::F6E2M3FN:
  case DType::F6E3M2FN: case DType::F8E8M0FNU: return 1;
  }
  return 1;
}

unsigned dfa::ref::dtypeBits(DType t) {
  switch (t) {
  case DType::I4: case DType::U4: case DType::F4E2M1FN: return 4;
  case DType::F6E2M3FN: case DType::F6E3M2FN: return 6;
  case DType::I2: case DType::U2: return 2;
  case DType::Bool: return 8;
  default: return 8 * dtypeSize(t);
  }
}

bool dfa::ref::isFloat(DType t) {
  return t == DType::F64 || t == DType::F32 || t == DType::F16 ||
         t == DType::BF16 || t == DType::F8E4M3FN || t == DType::F8E4M3FNUZ ||
         t == DType::F8E5M2 || t == DType::F8E5M2FNUZ || t == DType::F4E2M1FN ||
         t == DType::F6E2M3FN || t == DType::F6E3M2FN || t == DType::F8E8M0FNU;
}

bool dfa::ref::isFloat8(DType t) {
  return t == DType::F8E4M3FN || t == DType::F8E4M3FNUZ ||
         t == DType::F8E5M2 || t == DType::F8E5M2FNUZ;
}

bool dfa::ref::isMinifloat(DType t) { return isFloat(t) && dtypeSize(t) == 1; }

bool dfa::ref::isUnsigned(DType t) {
  return t == DType::U64 || t == DType::U32 || t == DType::U16 ||
         t == DType::U8 || t == DType::Bool || t == DType::U4 || t == DType::U2;
}

// ml_dtypes' names for the 8-, 6-, 4- and 2-bit types.
static const char *const kNames[] = {
    "float64",       "float32",         "float16",       "bfloat16",
    "int64",         "int32",           "int16",         "int8",
    "uint64",        "uint32",          "uint16",        "uint8",
    "bool",          "float8_e4m3fn",   "float8_e4m3fnuz",
    "float8_e5m2",   "float8_e5m2fnuz", "int4",          "uint4",
    "int2",          "uint2",           "float4_e2m1fn", "float6_e2m3fn",
    "float6_e3m2fn", "float8_e8m0fnu"};
static_assert(std::size(kNames) == kNumDTypes, "a name per dtype");

/// The APFloat semantics of a minifloat type other than E8M0 (which LLVM 19
/// does not have).
static const llvm::fltSemantics &semanticsOf(DType t) {
  switch (t) {
  case DType::F8E4M3FN: return llvm::APFloat::Float8E4M3FN();
  case DType::F8E4M3FNUZ: return llvm::APFloat::Float8E4M3FNUZ();
  case DType::F8E5M2: return llvm::APFloat::Float8E5M2();
  case DType::F8E5M2FNUZ: return llvm::APFloat::Float8E5M2FNUZ();
  case DType::F6E2M3FN: return llvm::APFloat::Float6E2M3FN();
  case DType::F6E3M2FN: return llvm::APFloat::Float6E3M2FN();
  case DType::F4E2M1FN: return llvm::APFloat::Float4E2M1FN();
  default: llvm_unreachable("not an APFloat minifloat");
  }
}

/// The FP6 and FP4 formats: no infinities and no NaN.
static bool isFiniteOnly(DType t) {
  return t == DType::F4E2M1FN || t == DType::F6E2M3FN || t == DType::F6E3M2FN;
}

double dfa::ref::minifloatToDouble(DType t, uint8_t code) {
  if (t == DType::F8E8M0FNU)
    return code == 0xFF ? std::numeric_limits<double>::quiet_NaN()
                        : std::ldexp(1.0, int(code) - 127);
  unsigned bits = dtypeBits(t);
  llvm::APFloat f(semanticsOf(t), llvm::APInt(bits, code & ((1u << bits) - 1)));
  bool lost;
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return f.convertToDouble();
}

uint8_t dfa::ref::doubleToMinifloat(DType t, double v) {
  if (t == DType::F8E8M0FNU) {
    // As ml_dtypes converts (Pad's fill, a constant): the nearest power of
    // two, halves up; below 2^-127 the smallest; no zero, no sign, no
    // infinity: those and overflow are NaN.
    if (!(v > 0) || std::isinf(v))
      return 0xFF;
    int e;
    double m = std::frexp(v, &e); // v = m * 2^e, m in [0.5, 1)
    int code = (e - 1) + 127 + (m >= 0.75 ? 1 : 0);
    return code < 0 ? 0 : code > 254 ? 0xFF : uint8_t(code);
  }
  const llvm::fltSemantics &sem = semanticsOf(t);
  if (isFiniteOnly(t)) {
    unsigned sign = 1u << (dtypeBits(t) - 1);
    if (std::isnan(v)) // no NaN: a zero of the other sign, as ml_dtypes does
      return std::signbit(v) ? 0 : sign;
    double max = minifloatMax(t);
    v = std::clamp(v, -max, max); // saturate (infinities included)
  }
  // One rounding (to nearest even) from the exact double: overflow gives
  // infinity where the format has one (E5M2), else NaN.
  llvm::APFloat f(v);
  bool lost;
  f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  return (uint8_t)f.bitcastToAPInt().getZExtValue();
}

double dfa::ref::minifloatMax(DType t) {
  if (t == DType::F8E8M0FNU)
    return std::ldexp(1.0, 127);
  return llvm::APFloat::getLargest(semanticsOf(t)).convertToDouble();
}

uint8_t dfa::ref::toE8M0(float x, E8M0Rounding mode, bool saturate) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  uint32_t exponent = (bits >> 23) & 0xFF, fraction = bits & 0x7FFFFF;
  if (exponent == 0xFF) // NaN and infinity
    return 0xFF;
  bool up = false;
  switch (mode) {
  case E8M0Rounding::Up: up = fraction != 0; break;
  case E8M0Rounding::Down: break;
  case E8M0Rounding::Nearest: {
    // Half way or more rounds up, except a subnormal's half exactly (it
    // has no implicit one: its even neighbour is below).
    bool guard = bits & 0x400000, rest = bits & 0x3FFFFF;
    up = guard && (rest || exponent > 0);
    break;
  }
  }
  if (up && saturate && exponent == 0xFE)
    up = false;
  return uint8_t(exponent + (up ? 1 : 0));
}

llvm::StringRef dfa::ref::dtypeName(DType t) {
  return kNames[static_cast<int>(t)];
}

std::optional<DType> dfa::ref::dtypeFromName(llvm::StringRef name) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (name == kNames[i])
      return static_cast<DType>(i);
  return std::nullopt;
}

uint16_t dfa::ref::floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t absx = x & 0x7fffffff;
  if (absx >= 0x7f800000) // Inf or NaN
    return sign | 0x7c00 | (absx > 0x7f800000 ? 0x200 | ((absx >> 13) & 0x3ff) : 0);
  if (absx >= 0x477ff000) // rounds to >= 65520: overflow to Inf
    return sign | 0x7c00;
  if (absx < 0x38800000) { // subnormal half (or zero): units of 2^-24
    float a;
    std::memcpy(&a, &absx, 4);
    // Exact scaling by a power of two, then round half to even; 1024 is the
    // encoding of the smallest normal, so carrying into it is correct.
    return sign | (uint32_t)std::nearbyint(a * 16777216.0f);
  }
  uint32_t r = absx - 0x38000000; // rebias exponent 127 -> 15
  uint32_t lsb = (r >> 13) & 1;
  r += 0xfff + lsb;
  return sign | (r >> 13);
}

float dfa::ref::halfToFloat(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else { // subnormal: normalize
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400));
      x = sign | ((127 - 15 - e) << 23) | ((mant & 0x3ff) << 13);
    }
  } else if (exp == 31) {
    x = sign | 0x7f800000 | (mant << 13);
  } else {
    x = sign | ((exp + 112) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t dfa::ref::floatToBF16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (x >> 16) | 0x40; // quiet NaN
  uint32_t lsb = (x >> 16) & 1;
  x += 0x7fff + lsb;
  return x >> 16;
}

float dfa::ref::bf16ToFloat(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

int64_t dfa::ref::numElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Shape dfa::ref::rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 1);
  for (int64_t i = (int64_t)shape.size() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

std::string dfa::ref::shapeString(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += "x";
    s += std::to_string(shape[i]);
  }
  return s;
}

/// At least one byte: an empty tensor's bytes() is still a pointer memcpy
/// and friends may take (with a count of zero).
static size_t storageBytes(DType dtype, llvm::ArrayRef<int64_t> shape) {
  return std::max<size_t>(1, dfa::ref::numElements(shape) * dtypeSize(dtype));
}

/// The heap's pages are asked to be huge (transparent huge pages, where the
/// kernel gives them on request), as glibc's `malloc.hugetlb` tunable does
/// and PyTorch's CPU allocator does for large blocks: activations are then
/// first touched in 2 MiB faults, not 4 KiB ones (EfficientNet-B0 on one
/// thread spent about a tenth of its time in page faults). The heap grows in
/// steps of at least 32 MiB (M_TOP_PAD) and each new step is advised before
/// anything is written to it, from the allocation that first sees it.
static void adviseHeapGrowth() {
#if defined(__GLIBC__) && defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = 2u << 20;
  // Where the heap ended (rounded up) when first asked: what was below was
  // already in use.
  static std::atomic<uintptr_t> advised{
      (reinterpret_cast<uintptr_t>(sbrk(0)) + kHuge - 1) & ~(kHuge - 1)};
  uintptr_t top = reinterpret_cast<uintptr_t>(sbrk(0)) & ~(kHuge - 1);
  uintptr_t from = advised.load(std::memory_order_relaxed);
  if (top < from) { // the heap shrank (malloc_trim): advise its regrowth
    advised.compare_exchange_strong(from, top);
    return;
  }
  if (top == from)
    return;
  if (advised.compare_exchange_strong(from, top))
    (void)madvise(reinterpret_cast<void *>(from), top - from, MADV_HUGEPAGE);
#endif
}

/// A run frees each activation after its last use and soon allocates one
/// of the same size. glibc maps blocks past its threshold afresh each time
/// (page faults and zeroing, a fifth of a CNN's time on one thread here);
/// with the threshold at its maximum (32 MiB) and the heap's top kept up to
/// 256 MiB, freed blocks are reused instead. Asked once, on the first
/// tensor.
static bool keepFreedBlocks() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 32 << 20);
#endif
  adviseHeapGrowth();
  return true;
}

static uint8_t *allocateStorage(size_t bytes, bool zeroed) {
  static const bool kept = keepFreedBlocks();
  (void)kept;
  uint8_t *p = new uint8_t[bytes];
  adviseHeapGrowth();
  if (zeroed)
    std::memset(p, 0, bytes);
  return p;
}

Tensor::Tensor(DType dtype, llvm::ArrayRef<int64_t> shape)
    : type(dtype), dims(shape.begin(), shape.end()),
      storage(allocateStorage(storageBytes(dtype, shape), /*zeroed=*/true)) {}

Tensor Tensor::uninitialized(DType dtype, llvm::ArrayRef<int64_t> shape) {
  Tensor t;
  t.type = dtype;
  t.dims.assign(shape.begin(), shape.end());
  t.storage.reset(allocateStorage(storageBytes(dtype, shape), false));
  return t;
}

Tensor Tensor::adopt(DType dtype, llvm::ArrayRef<int64_t> shape,
                     std::shared_ptr<uint8_t[]> bytes) {
  Tensor t;
  t.type = dtype;
  t.dims.assign(shape.begin(), shape.end());
  t.storage = std::move(bytes);
  return t;
}

double Tensor::getDouble(int64_t i) const {
  switch (type) {
  case DType::F64: return data<double>()[i];
  case DType::F32: return data<float>()[i];
  case DType::F16: return halfToFloat(data<uint16_t>()[i]);
  case DType::BF16: return bf16ToFloat(data<uint16_t>()[i]);
  case DType::I64: return (double)data<int64_t>()[i];
  case DType::I32: return data<int32_t>()[i];
  case DType::I16: return data<int16_t>()[i];
  case DType::I8: return data<int8_t>()[i];
  case DType::U64: return (double)data<uint64_t>()[i];
  case DType::U32: return data<uint32_t>()[i];
  case DType::U16: return data<uint16_t>()[i];
  case DType::U8: return data<uint8_t>()[i];
  case DType::Bool: return data<uint8_t>()[i] != 0;
  case DType::F8E4M3FN: case DType::F8E4M3FNUZ: case DType::F8E5M2:
  case DType::F8E5M2FNUZ: case DType::F4E2M1FN: case DType::F6E2M3FN:
  case DType::F6E3M2FN: case DType::F8E8M0FNU:
    return minifloatToDouble(type, data<uint8_t>()[i]);
  case DType::I4: case DType::I2: return data<int8_t>()[i];
  case DType::U4: case DType::U2: return data<uint8_t>()[i];
  }
  return 0;
}

/// double -> int64 truncating toward zero; NaN gives 0 and out-of-range
/// values saturate (C++ leaves both undefined).
static int64_t truncToInt(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9.2233720368547758e18)
    return std::numeric_limits<int64_t>::max();
  if (v <= -9.2233720368547758e18)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

int64_t Tensor::getInt(int64_t i) const {
  switch (type) {
  case DType::I64: return data<int64_t>()[i];
  case DType::I32: return data<int32_t>()[i];
  case DType::I16: return data<int16_t>()[i];
  case DType::I8: return data<int8_t>()[i];
  case DType::U64: return (int64_t)data<uint64_t>()[i];
  case DType::U32: return data<uint32_t>()[i];
  case DType::U16: return data<uint16_t>()[i];
  case DType::U8: return data<uint8_t>()[i];
  case DType::Bool: return data<uint8_t>()[i] != 0;
  case DType::I4: case DType::I2: return data<int8_t>()[i];
  case DType::U4: case DType::U2: return data<uint8_t>()[i];
  default: return truncToInt(getDouble(i));
  }
}

void Tensor::setDouble(int64_t i, double v) {
  switch (type) {
  case DType::F64: data<double>()[i] = v; return;
  case DType::F32: data<float>()[i] = (float)v; return;
  case DType::F16: data<uint16_t>()[i] = floatToHalf((float)v); return;
  case DType::BF16: data<uint16_t>()[i] = floatToBF16((float)v); return;
  case DType::Bool: data<uint8_t>()[i] = v != 0; return;
  case DType::U64:
    // Values beyond int64 still convert exactly for uint64.
    data<uint64_t>()[i] = v >= 9.2233720368547758e18 ? (uint64_t)v
                                                     : (uint64_t)truncToInt(v);
    return;
  case DType::F8E4M3FN: case DType::F8E4M3FNUZ: case DType::F8E5M2:
  case DType::F8E5M2FNUZ: case DType::F4E2M1FN: case DType::F6E2M3FN:
  case DType::F6E3M2FN: case DType::F8E8M0FNU:
    data<uint8_t>()[i] = doubleToMinifloat(type, v);
    return;
  case DType::I4: case DType::U4: case DType::I2: case DType::U2: {
    // A float outside the type's range (or NaN) gives 0, as the ONNX
    // reference (ml_dtypes) converts; the spec leaves it undefined.
    double t = std::trunc(v);
    int64_t lo = isUnsigned(type) ? 0 : -(int64_t(1) << (dtypeBits(type) - 1));
    int64_t hi = isUnsigned(type) ? (int64_t(1) << dtypeBits(type)) - 1
                                  : (int64_t(1) << (dtypeBits(type) - 1)) - 1;
    setInt(i, std::isnan(t) || t < lo || t > hi ? 0 : (int64_t)t);
    return;
  }
  default: setInt(i, truncToInt(v)); return;
  }
}

void Tensor::setInt(int64_t i, int64_t v) {
  switch (type) {
  case DType::I64: data<int64_t>()[i] = v; return;
  case DType::I32: data<int32_t>()[i] = (int32_t)v; return;
  case DType::I16: data<int16_t>()[i] = (int16_t)v; return;
  case DType::I8: data<int8_t>()[i] = (int8_t)v; return;
  case DType::U64: data<uint64_t>()[i] = (uint64_t)v; return;
  case DType::U32: data<uint32_t>()[i] = (uint32_t)v; return;
  case DType::U16: data<uint16_t>()[i] = (uint16_t)v; return;
  case DType::U8: data<uint8_t>()[i] = (uint8_t)v; return;
  case DType::Bool: data<uint8_t>()[i] = v != 0; return;
  case DType::I4: case DType::I2: {
    // Two's complement wrap to the width, as for the wider integers.
    unsigned shift = 64 - dtypeBits(type);
    data<int8_t>()[i] = (int8_t)((int64_t)((uint64_t)v << shift) >> shift);
    return;
  }
  case DType::U4: case DType::U2:
    data<uint8_t>()[i] = (uint8_t)(v & ((1 << dtypeBits(type)) - 1));
    return;
  default: setDouble(i, (double)v); return;
  }
}

std::vector<double> Tensor::toDoubles() const {
  int64_t n = numElements();
  std::vector<double> out(n);
  if (type == DType::F64) {
    std::memcpy(out.data(), bytes(), n * 8);
  } else if (type == DType::F32) {
    const float *p = data<float>();
    for (int64_t i = 0; i < n; ++i)
      out[i] = p[i];
  } else {
    for (int64_t i = 0; i < n; ++i)
      out[i] = getDouble(i);
  }
  return out;
}

std::vector<float> Tensor::toFloats() const {
  int64_t n = numElements();
  std::vector<float> out(n);
  if (type == DType::F32) {
    std::memcpy(out.data(), bytes(), n * 4);
  } else {
    for (int64_t i = 0; i < n; ++i)
      out[i] = (float)getDouble(i);
  }
  return out;
}

std::vector<int64_t> Tensor::toInts() const {
  int64_t n = numElements();
  std::vector<int64_t> out(n);
  for (int64_t i = 0; i < n; ++i)
    out[i] = getInt(i);
  return out;
}

Tensor Tensor::fromDoubles(DType t, llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<double> values) {
  Tensor r(t, shape);
  assert((int64_t)values.size() == r.numElements() && "size mismatch");
  if (t == DType::F32) {
    float *p = r.data<float>();
    for (size_t i = 0; i < values.size(); ++i)
      p[i] = (float)values[i];
  } else {
    for (size_t i = 0; i < values.size(); ++i)
      r.setDouble(i, values[i]);
  }
  return r;
}

Tensor Tensor::fromFloats(DType t, llvm::ArrayRef<int64_t> shape,
                          llvm::ArrayRef<float> values) {
  Tensor r(t, shape);
  assert((int64_t)values.size() == r.numElements() && "size mismatch");
  if (t == DType::F32) {
    std::memcpy(r.bytes(), values.data(), values.size() * 4);
  } else {
    for (size_t i = 0; i < values.size(); ++i)
      r.setDouble(i, values[i]);
  }
  return r;
}

Tensor Tensor::fromInts(DType t, llvm::ArrayRef<int64_t> shape,
                        llvm::ArrayRef<int64_t> values) {
  Tensor r(t, shape);
  assert((int64_t)values.size() == r.numElements() && "size mismatch");
  for (size_t i = 0; i < values.size(); ++i)
    r.setInt(i, values[i]);
  return r;
}

Tensor Tensor::reshaped(llvm::ArrayRef<int64_t> shape) const {
  assert(ref::numElements(shape) == numElements() && "reshape size mismatch");
  Tensor r = *this;
  r.dims.assign(shape.begin(), shape.end());
  return r;
}

Tensor Tensor::clone() const {
  Tensor r = *this;
  if (storage) {
    size_t n = storageBytes(type, dims);
    r.storage.reset(allocateStorage(n, false));
    std::memcpy(r.storage.get(), storage.get(), n);
  }
  return r;
}

double dfa::ref::roundToFormat(double x, int mantissaBits, int exponentBits) {
  if (!std::isfinite(x) || x == 0)
    return x;
  int bias = (1 << (exponentBits - 1)) - 1;
  int exp;
  std::frexp(std::fabs(x), &exp); // |x| in [2^(exp-1), 2^exp)
  int e = std::max(exp - 1, 1 - bias);
  double quantum = std::ldexp(1.0, e - mantissaBits);
  double r = std::nearbyint(x / quantum) * quantum; // ties to even
  double largest =
      std::ldexp(2.0 - std::ldexp(1.0, -mantissaBits), bias);
  if (std::fabs(r) > largest)
    return std::copysign(INFINITY, x);
  return r;
}
