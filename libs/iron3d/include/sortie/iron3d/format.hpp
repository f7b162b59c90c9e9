#pragma once
// The format adapter contract that `sortie inspect|check|roundtrip` dispatch over, and the one
// template every adapter is made from. Each format's file pair describes itself once as a
// FormatAdapter (detect, read, JSON view, writer); format_info<...>() derives the three
// commands from it. The table that lists every row is libs/formats (sortie/formats/formats.hpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

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

// Where `inspect` puts the reader's warnings in the JSON view (kept per format: the key is
// part of the documented CLI output).
enum class InspectWarnings : std::uint8_t {
  none,      // the reader reports none, or its JSON view already carries them
  always,    // "warnings": [...], also when empty
  when_any,  // "warnings": [...] only when there is one
  findings,  // "findings": [...], also when empty (the terrain formats)
};

// One format, described once. `Model` is what the reader returns and the writer takes.
template <typename Model>
struct FormatAdapter {
  std::string_view name;
  std::string_view description;
  int (*detect)(core::ByteView data, std::string_view file_name) = nullptr;
  // The lossless reader: warnings and notes go to *warnings when it is not null.
  core::Result<Model> (*read)(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) = nullptr;
  core::Json (*json)(const Model& model) = nullptr;
  // The lossless writer; nullptr when the format has none (no roundtrip).
  core::Result<core::Bytes> (*write)(const Model& model) = nullptr;
  // What `check` asks beyond a clean read (cross references, a full decode of the payload):
  // findings appended to the reader's, or the first error. nullptr: reading is the check.
  core::Result<core::Diagnostics> (*validate)(const Model& model, const ReadOptions& options) = nullptr;
  InspectWarnings inspect_warnings = InspectWarnings::none;
};

namespace detail {

template <typename Model, const FormatAdapter<Model>& A>
struct AdaptedFormat {
  static core::Result<core::Json> inspect(core::ByteView data, const ReadOptions& options) {
    core::Diagnostics warnings;
    SORTIE_TRY(auto model, A.read(data, options, &warnings));
    core::Json j = A.json(model);
    switch (A.inspect_warnings) {
      case InspectWarnings::none:
        break;
      case InspectWarnings::always:
        j["warnings"] = core::diagnostics_json(warnings);
        break;
      case InspectWarnings::when_any:
        if (!warnings.empty()) j["warnings"] = core::diagnostics_json(warnings);
        break;
      case InspectWarnings::findings:
        j["findings"] = core::diagnostics_json(warnings);
        break;
    }
    return j;
  }

  static core::Result<CheckReport> check(core::ByteView data, const ReadOptions& options) {
    CheckReport report;
    SORTIE_TRY(auto model, A.read(data, options, &report.findings));
    if (A.validate != nullptr) {
      SORTIE_TRY(auto more, A.validate(model, options));
      for (auto& d : more) report.findings.push_back(std::move(d));
    }
    return report;
  }

  static core::Result<core::Bytes> roundtrip(core::ByteView data, const ReadOptions& options) {
    SORTIE_TRY(auto model, A.read(data, options, nullptr));
    return A.write(model);
  }
};

}  // namespace detail

// The table row of an adapter: `FormatInfo x_format_info() { return format_info<X, kXAdapter>(); }`
// with `constexpr FormatAdapter<X> kXAdapter{...}` at namespace scope.
template <typename Model, const FormatAdapter<Model>& A>
FormatInfo format_info() {
  using F = detail::AdaptedFormat<Model, A>;
  return {A.name, A.description, A.detect, &F::inspect, &F::check, A.write != nullptr ? &F::roundtrip : nullptr};
}

}  // namespace sortie::iron3d
