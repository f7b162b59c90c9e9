#pragma once
// File reading with a size limit, and atomic writes (temporary file + rename).
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

#include "sortie/core/bytes.hpp"

namespace sortie::core {

inline constexpr std::uint64_t kDefaultFileLimit = 256ull * 1024 * 1024;

// Diagnostic codes: "io.open", "io.read", "io.too_large".
Result<Bytes> read_file(const std::filesystem::path& path, std::uint64_t max_size = kDefaultFileLimit);
Result<std::string> read_text_file(const std::filesystem::path& path, std::uint64_t max_size = kDefaultFileLimit);

// Writes to a temporary file in the same directory, flushes it, then renames it over `path`.
// On any failure the destination is untouched and the temporary file is removed.
Status write_file_atomic(const std::filesystem::path& path, ByteView data);
inline Status write_file_atomic(const std::filesystem::path& path, std::string_view text) {
  return write_file_atomic(path, as_bytes(text));
}

// An edit in place (`sortie fomap fmt`): the new text replaces the file atomically; its
// permission bits (and owner, where the process may set it) are kept, and a symbolic link is
// followed: its target is replaced, the link stays a link. Diagnostic codes: "io.open" (the
// file cannot be resolved, or is not a regular file), "io.write".
Status rewrite_file(const std::filesystem::path& path, std::string_view text);

// A set of files that only make sense together (a baked map's server/client pair). Every file
// is staged as a temporary first; then they are renamed into place one after another; when a
// rename fails, the files already replaced get their previous contents back (or are removed
// when they did not exist) and no temporary is left behind. Diagnostic code: "io.write".
struct FileWrite {
  std::filesystem::path path;
  ByteView data;
};
Status write_files_together(std::span<const FileWrite> files);

}  // namespace sortie::core
