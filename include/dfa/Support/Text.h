//===- Text.h - escaping text for CSV and HTML ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
///
/// The escapes every report writer shares (dfa-roofline's CSV, SVG and
/// HTML; dfa-sweep's CSV and HTML report).
///
//===----------------------------------------------------------------------===//

#ifndef DFA_SUPPORT_TEXT_H
#define DFA_SUPPORT_TEXT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace dfa {

/// A CSV field (RFC 4180): as it is, or in double quotes with its quotes
/// doubled when it holds a comma, a quote or a newline.
std::string csvField(llvm::StringRef s);

/// Text for HTML and SVG, in element content or a quoted attribute: & < > "
/// and ' escaped.
std::string xmlEscape(llvm::StringRef s);

} // namespace dfa

#endif // DFA_SUPPORT_TEXT_H
