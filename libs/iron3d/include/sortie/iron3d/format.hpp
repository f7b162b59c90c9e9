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

// Detection scores (FormatInfo::detect). Content beats the name: when the bytes identify a
// format, a file named like another format is still read as what it is (a terrain mesh
// named `hill.msh` is land_msh, not a model). The name decides only for formats without a
// signature (WEAR, MAT0, FXID) or when the content is broken, so the reader can say why.
inline constexpr int kDetectNone = 0;
inline constexpr int kDetectContainer = 1;  // a generic container's magic (NRes, RsLi)
inline constexpr int kDetectName = 2;       // the file name or extension
inline constexpr int kDetectContent = 3;    // the content: magic, stream types or a whole parse

struct FormatInfo {
  std::string_view name;         // stable id: "nres", "rsli", "tma", "land_msh", ...
  std::string_view description;  // one line for --help and `sortie formats`
  // One of the kDetect* scores above; the highest wins, the first row of the table on a tie.
  int (*detect)(core::ByteView data, std::string_view file_name) = nullptr;
  // Full decode to the JSON model ("format" key first-class). Errors are the reader's diagnostic.
  core::Result<core::Json> (*inspect)(core::ByteView data, const ReadOptions& options) = nullptr;
  // Decode and validate; warnings of the compatible profile come back in the report.
  core::Result<CheckReport> (*check)(core::ByteView data, const ReadOptions& options) = nullptr;
  // Decode then encode with the lossless writer. nullptr for a text format that is its own
  // model and has no writer to compare (fomap).
  core::Result<core::Bytes> (*roundtrip)(core::ByteView data, const ReadOptions& options) = nullptr;
};

// FOnline `.fomap` maps (format_fomap.cpp, through libs/fomap): the one row of the table that
// is not an Iron3D format, so `inspect` and `formats` cover every file sortie reads.
FormatInfo fomap_format_info();

std::span<const FormatInfo> all_formats();
const FormatInfo* find_format(std::string_view name);
// Best match by content, then file name; nullptr when nothing matches.
const FormatInfo* detect_format(core::ByteView data, std::string_view file_name);

}  // namespace sortie::iron3d
