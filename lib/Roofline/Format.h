//===- Format.h - numbers and names in roofline reports (private) -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIB_ROOFLINE_FORMAT_H
#define LIB_ROOFLINE_FORMAT_H

#include "dfa/Roofline/Roofline.h"
#include "dfa/Support/Text.h"

#include <string>

namespace dfa::roofline {

/// "12.3 us", three significant digits.
std::string humanSeconds(double seconds);
/// "memory:HBM 80%, scheduling 15%, compute 5%", largest first.
std::string mixLine(const Report &r);
// Text for HTML and SVG, and CSV fields: dfa::xmlEscape and dfa::csvField
// (dfa/Support/Text.h).

} // namespace dfa::roofline

#endif // LIB_ROOFLINE_FORMAT_H
