//===- Format.h - numbers for people ----------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// Private to lib/Driver: how the tools' text reports write times and sizes.
///
//===----------------------------------------------------------------------===//

#ifndef LIB_DRIVER_FORMAT_H
#define LIB_DRIVER_FORMAT_H

#include <cstdint>
#include <string>

namespace dfa::driver {

/// Seconds for a person: "1.5 s", "3.1 ms", "12.5 us" (3 significant digits).
std::string humanSeconds(double seconds);
/// Bytes in binary units: "96 B", "1.5 KiB", "2.0 GiB".
std::string humanBytes(int64_t bytes);

} // namespace dfa::driver

#endif // LIB_DRIVER_FORMAT_H
