#pragma once
// The table of Iron3D disk formats that `sortie inspect|check|roundtrip` dispatch over.
// Each format's file pair provides one FormatInfo; formats.cpp lists them all.
#include <span>
#include <string>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"

namespace sortie::iron3d {

struct ReadOptions {
  core::Profile profile = core::Profile::strict;
  std::string file_name;  // as given by the user; used in diagnostics and for detection
};

// What a check found: fatal error (in `error`) or a list of warnings/notes.
struct CheckReport {
  core::Diagnostics findings;  // warnings and notes (compatible profile keeps going)
};

struct FormatInfo {
  std::string_view name;         // stable id: "nres", "rsli", "tma", "land_msh", ...
  std::string_view description;  // one line for --help and `sortie formats`
  // 0 = not this format; 1 = content matches a generic container (e.g. NRes magic);
  // 2 = content and file name match this specific format. Highest score wins.
  int (*detect)(core::ByteView data, std::string_view file_name) = nullptr;
  // Full decode to the JSON model ("format" key first-class). Errors are the reader's diagnostic.
  core::Result<core::Json> (*inspect)(core::ByteView data, const ReadOptions& options) = nullptr;
  // Decode and validate; warnings of the compatible profile come back in the report.
  core::Result<CheckReport> (*check)(core::ByteView data, const ReadOptions& options) = nullptr;
  // Decode then encode with the lossless writer.
  core::Result<core::Bytes> (*roundtrip)(core::ByteView data, const ReadOptions& options) = nullptr;
};

std::span<const FormatInfo> all_formats();
const FormatInfo* find_format(std::string_view name);
// Best match by content and file name; nullptr when nothing matches.
const FormatInfo* detect_format(core::ByteView data, std::string_view file_name);

}  // namespace sortie::iron3d
