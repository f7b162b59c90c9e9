#pragma once
// Writing the files the fomap tools produce, with the guarantees a user expects of them
// (CONVENTIONS.md: writes are atomic, never half a file):
//
// - rewrite_file: an edit in place (`sortie fomap fmt`). The new text replaces the file
//   atomically; its permission bits (and owner, where the process may set it) are kept, and a
//   symbolic link is followed: its target is replaced, the link stays a link.
// - write_files_together: a set of files that only make sense together (a baked map's
//   server/client pair). Every file is staged as a temporary first; then they are renamed into
//   place one after another; when a rename fails, the files already replaced get their previous
//   contents back (or are removed when they did not exist) and no temporary is left behind.
//
// Diagnostic codes: "io.open" (the file to rewrite cannot be resolved), "io.write".
#include <filesystem>
#include <span>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"

namespace sortie::fomap {

core::Status rewrite_file(const std::filesystem::path& path, std::string_view text);

struct FileWrite {
  std::filesystem::path path;
  core::ByteView data;
};
core::Status write_files_together(std::span<const FileWrite> files);

}  // namespace sortie::fomap
