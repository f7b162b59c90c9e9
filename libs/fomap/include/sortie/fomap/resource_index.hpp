#pragma once
// Resource roots for the lint's missing-resource check (spec/fomap.md §5.4 `Resource`, §8.1,
// §13.3): every regular file below one or more directories, listed once per run and looked up
// by the value of a Resource-tagged property (`PicMap = art/items/door.fofrm`).
//
// Matching rule (documented in the README of `sortie fomap lint --resources`):
//  - the value is a path relative to a root; `\` and `/` both separate directories;
//  - the comparison is ASCII case-insensitive (bytes >= 0x80 compare exactly), because the
//    engine packs and looks resources up case-insensitively and real maps spell one directory
//    both ways (`sound/SFX/GUSTWIND.ACM` next to `sound/music/07desert.acm`);
//  - several files whose relative paths differ only in ASCII case are ambiguous (they collide in
//    a case-insensitive pack), even when one of them matches the value byte for byte;
//  - the same relative path under several roots is one file (later roots shadow earlier ones
//    like later resource packs do), not an ambiguity.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sortie/core/diagnostic.hpp"

namespace sortie::fomap {

class ResourceIndex {
 public:
  // Lists every regular file below each root (recursively, symlinked directories not followed).
  // A root that does not exist or cannot be read gives an `io.*` diagnostic in `notes`.
  static ResourceIndex scan(const std::vector<std::filesystem::path>& roots, core::Diagnostics& notes);

  // Adds one relative path ("art/items/door.fofrm"; `\` accepted). Used by scan and by tests.
  void add(std::string_view relative_path);

  enum class MatchKind : std::uint8_t { found, missing, ambiguous };
  struct Match {
    MatchKind kind = MatchKind::missing;
    std::string normalized;               // the value with `/` separators
    std::vector<std::string> candidates;  // ambiguous: every spelling (sorted); found: the file
  };
  [[nodiscard]] Match find(std::string_view value) const;

  [[nodiscard]] std::size_t size() const { return files_; }

  // `\` -> `/` (the form files are listed and reported in).
  static std::string normalize(std::string_view path);

 private:
  // ASCII-lowered normalized path -> distinct spellings, sorted.
  std::unordered_map<std::string, std::vector<std::string>> by_folded_;
  std::size_t files_ = 0;
};

}  // namespace sortie::fomap
