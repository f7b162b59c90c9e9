#pragma once
// Helpers shared by archive extractors (NRes, RsLi): entry names -> safe host file names.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sortie::iron3d {

// Name of the manifest file an extract directory holds (format inside: {"format": "nres", ...}).
inline constexpr std::string_view kArchiveManifestName = "_manifest.json";
// Sub-directory for preserved non-entry bytes (NRes gaps), e.g. "_gaps/0x10.bin".
inline constexpr std::string_view kArchiveGapDir = "_gaps";

// One safe file name for every entry name (UTF-8 display names, in entry order):
// path separators, ':', '*', '?', '"', '<', '>', '|' and control bytes become '_'; leading
// and trailing dots/spaces are replaced; "." / ".." / "" / Windows device names (CON, NUL,
// COM1, ...) get a leading '_'; names are made unique case-insensitively (ASCII) by adding
// "~N" before the extension, and never equal the manifest name or the gap directory.
std::vector<std::string> archive_safe_file_names(std::span<const std::string> names);

// Default extract directory for an archive path: its file name with '_' for the last '.'
// ("DATA/objects.rlb" -> "objects_rlb"; "README" -> "README").
std::string archive_default_extract_dir(std::string_view archive_path);

}  // namespace sortie::iron3d
