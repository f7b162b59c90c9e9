#pragma once
// File reading with a size limit, and atomic writes (temporary file + rename).
#include <cstdint>
#include <filesystem>

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

}  // namespace sortie::core
