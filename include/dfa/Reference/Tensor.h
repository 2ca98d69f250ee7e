//===- Tensor.h - dense host tensors for the CPU reference ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// A dense, row-major host tensor: an element type, a shape and a shared
/// byte buffer. It depends on no IR, so file readers, the simulator and the
/// unit tests can use it alone.
///
//===----------------------------------------------------------------------===//

#ifndef DFA_REFERENCE_TENSOR_H
#define DFA_REFERENCE_TENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dfa::ref {

enum class DType : uint8_t {
  F64, F32, F16, BF16,
  I64, I32, I16, I8,
  U64, U32, U16, U8,
  Bool,
  // 8-bit floats (OCP FP8 and the FNUZ variants: no infinities, no negative
  // zero), one byte each.
  F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
  // 4- and 2-bit integers, held one per byte here (files pack them).
  I4, U4, I2, U2,
  // The OCP microscaling element and scale formats: 4- and 6-bit floats
  // without infinities or NaN, and E8M0 (a power of two, NaN at 0xFF). One
  // code per byte here, in the low bits (files pack the 4- and 6-bit ones).
  F4E2M1FN, F6E2M3FN, F6E3M2FN, F8E8M0FNU,
};
constexpr int kNumDTypes = static_cast<int>(DType::F8E8M0FNU) + 1;

/// Bytes per element in memory (a 4- or 2-bit integer takes a byte).
size_t dtypeSize(DType t);
/// Bits per element in a file or on a device (4 for int4).
unsigned dtypeBits(DType t);
bool isFloat(DType t);
/// One of the four FP8 formats (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ): the
/// ones ONNX's `saturate` governs.
bool isFloat8(DType t);
/// A float stored as one code per byte: the FP8, FP6 and FP4 formats and
/// E8M0.
bool isMinifloat(DType t);
bool isUnsigned(DType t);
/// numpy-style name: float32, int64, bool, ...
llvm::StringRef dtypeName(DType t);
std::optional<DType> dtypeFromName(llvm::StringRef name);

/// IEEE binary16 and bfloat16 conversions, rounding to nearest even.
uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);
uint16_t floatToBF16(float f);
float bf16ToFloat(uint16_t h);
/// Minifloat conversions, one rounding from the exact double, to nearest
/// even. An out-of-range value becomes infinity in E5M2 and NaN in the other
/// FP8 formats. The FP6 and FP4 formats have neither: they saturate, and NaN
/// becomes a zero of the opposite sign, as ml_dtypes (the ONNX reference)
/// converts. E8M0 takes the nearest power of two (halves up) as ml_dtypes
/// does, NaN for zero, negatives, infinities and overflow; graph.cast to
/// E8M0 uses toE8M0 instead, as ONNX's Cast says.
double minifloatToDouble(DType t, uint8_t code);
uint8_t doubleToMinifloat(DType t, double v);
/// The largest finite value of a minifloat format.
double minifloatMax(DType t);

/// How a float becomes an E8M0 power of two (ONNX Cast's round_mode).
enum class E8M0Rounding : uint8_t { Up, Down, Nearest };
/// The E8M0 code of `x` taken as float32, as the ONNX reference computes it
/// from the float32 bits: NaN and infinity give 0xFF (NaN), the sign is
/// dropped, and with `saturate` a value above 2^127 stays at 2^127.
uint8_t toE8M0(float x, E8M0Rounding mode, bool saturate);
/// `x` rounded to nearest even in a float format of `mantissaBits` and
/// `exponentBits` (IEEE-like: subnormals, infinities).
double roundToFormat(double x, int mantissaBits, int exponentBits);

using Shape = llvm::SmallVector<int64_t, 4>;

/// Number of elements of `shape` (1 for a scalar).
int64_t numElements(llvm::ArrayRef<int64_t> shape);
/// Row-major strides, in elements.
Shape rowMajorStrides(llvm::ArrayRef<int64_t> shape);
/// "2x3x4" (or "scalar").
std::string shapeString(llvm::ArrayRef<int64_t> shape);

class Tensor {
public:
  Tensor() = default;
  /// A zero-filled tensor.
  Tensor(DType dtype, llvm::ArrayRef<int64_t> shape);
  /// A tensor whose bytes are not set: for a kernel that writes them all.
  static Tensor uninitialized(DType dtype, llvm::ArrayRef<int64_t> shape);
  /// A tensor over bytes something else owns, which `bytes` keeps alive (a
  /// mapped file); they must hold the whole tensor and be writable.
  static Tensor adopt(DType dtype, llvm::ArrayRef<int64_t> shape,
                      std::shared_ptr<uint8_t[]> bytes);

  bool defined() const { return storage != nullptr; }
  DType dtype() const { return type; }
  llvm::ArrayRef<int64_t> shape() const { return dims; }
  int64_t rank() const { return dims.size(); }
  int64_t numElements() const { return ref::numElements(dims); }
  size_t byteSize() const { return numElements() * dtypeSize(type); }

  uint8_t *bytes() { return storage.get(); }
  const uint8_t *bytes() const { return storage.get(); }
  template <typename T> T *data() { return reinterpret_cast<T *>(bytes()); }
  template <typename T> const T *data() const {
    return reinterpret_cast<const T *>(bytes());
  }

  /// Element `i` (row-major) converted to double / int64.
  double getDouble(int64_t i) const;
  int64_t getInt(int64_t i) const;
  /// Stores `v` into element `i`, rounding (floats) or truncating toward zero
  /// and wrapping to the width (integers); bool stores v != 0.
  void setDouble(int64_t i, double v);
  void setInt(int64_t i, int64_t v);

  /// All elements converted.
  std::vector<double> toDoubles() const;
  std::vector<int64_t> toInts() const;
  std::vector<float> toFloats() const;
  static Tensor fromDoubles(DType t, llvm::ArrayRef<int64_t> shape,
                            llvm::ArrayRef<double> values);
  static Tensor fromInts(DType t, llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<int64_t> values);
  static Tensor fromFloats(DType t, llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<float> values);

  /// The same buffer viewed with another shape of equal element count.
  Tensor reshaped(llvm::ArrayRef<int64_t> shape) const;
  /// A deep copy.
  Tensor clone() const;

private:
  DType type = DType::F32;
  Shape dims;
  std::shared_ptr<uint8_t[]> storage;
};

} // namespace dfa::ref

#endif // DFA_REFERENCE_TENSOR_H
