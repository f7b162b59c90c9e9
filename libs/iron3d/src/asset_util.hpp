#pragma once
// Small helpers shared by the asset format readers (unit DAT, ObjectRef, MSH, WEAR, MAT0, Texm,
// FXID). Private to libs/iron3d.
#include <string>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/format.hpp"

namespace sortie::iron3d::detail {

// A reference name as the engine uses it: cut at the first NUL, ASCII-trimmed.
inline std::string_view ref_text(const core::FixedString& s) {
  return core::trim(s.text());
}

// Strict: the finding is fatal. Compatible: it becomes a warning appended to `warnings`.
inline core::Status soft_fail(const ReadOptions& options, core::Diagnostics* warnings, core::Diagnostic d) {
  if (options.profile == core::Profile::strict) return core::fail(std::move(d));
  d.severity = core::Severity::warning;
  if (warnings) warnings->push_back(std::move(d));
  return {};
}

// File name ends with `ext` (".dat"), ASCII case-insensitive.
bool has_extension(std::string_view file_name, std::string_view ext);

// Fills a fixed string field from text; Diagnostic when the text does not fit with a NUL.
core::Result<core::FixedString> make_fixed(std::string_view text, std::size_t size, std::string_view what);

}  // namespace sortie::iron3d::detail
