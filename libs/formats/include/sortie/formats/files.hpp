#pragma once
// The format-generic file commands as library calls (`sortie inspect`, `check`, `roundtrip`):
// read a file, pick its format (forced by name or detected by content, then name) and run the
// row's inspect, check or roundtrip. Each result says what a report prints, as JSON and as text;
// the app parses options, calls and prints.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/formats/formats.hpp"

namespace sortie::formats {

struct FileRequest {
  std::vector<std::string> files;
  std::string format;  // forced format name; empty: detect
  core::Profile profile = core::Profile::strict;
};

// A file's bytes and its format. Errors: io.*, usage.format (unknown forced name, the known
// names listed), format.unknown (nothing matched; the first bytes shown).
struct OpenedFile {
  core::Bytes bytes;
  const FormatInfo* format = nullptr;
};
core::Result<OpenedFile> open_file(const std::string& path, std::string_view forced_format);

// `inspect` of an opened file: the JSON model with "file" and "format". Errors: the reader's,
// located in `path`.
core::Result<core::Json> inspect_file(const OpenedFile& file, const std::string& path, core::Profile profile);

// {"file", "format" (or null), "valid": false, "diagnostic"} for a file that failed.
core::Json failure_json(const std::string& path, const FormatInfo* format, const core::Diagnostic& d);

// `check` over every file of the request.
struct CheckedFile {
  std::string path;
  const FormatInfo* format = nullptr;  // null when the file could not be opened
  std::optional<core::Diagnostic> error;
  core::Diagnostics findings;  // warnings of a valid file
};
struct CheckRun {
  std::vector<CheckedFile> files;
  core::Profile profile = core::Profile::strict;
  [[nodiscard]] std::size_t valid() const;
  [[nodiscard]] int exit_code() const;  // worst: 2 for I/O and usage, 1 for an invalid file
  [[nodiscard]] core::Json to_json() const;
  // What a person reads on stdout; an open failure goes to `errors` (printed on stderr).
  [[nodiscard]] std::string to_text(std::vector<core::Diagnostic>& errors) const;
};
CheckRun check_files(const FileRequest& request);

// `roundtrip` of one file: read, write back, compare.
struct RoundtripResult {
  std::string path;
  std::string_view format;
  std::size_t input_bytes = 0;
  std::size_t written_bytes = 0;
  std::optional<std::size_t> first_difference;  // none: byte-identical
  [[nodiscard]] std::string to_text() const;
};
// Errors: open_file's, usage.roundtrip (the format has no writer), the reader's and writer's.
core::Result<RoundtripResult> roundtrip_file(const std::string& path, const FileRequest& request);

// The `sortie formats` list.
core::Json formats_json();
std::string formats_text();

// Prints a JSON model as indented "key: value" lines (arrays: their size and up to 64 items).
std::string json_summary(const core::Json& j);

}  // namespace sortie::formats
