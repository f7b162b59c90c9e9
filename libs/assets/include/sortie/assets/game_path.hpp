#pragma once
// Game-relative paths as the engine requests them (spec §2.1): '/' or '\' separated, relative,
// compared ASCII case-insensitively. The original spelling is kept for diagnostics.
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"

namespace sortie::assets {

enum class PathPolicy : std::uint8_t {
  strict_legacy,    // engine request paths: empty or '.' segments are errors, ':' is an error
  host_compatible,  // hard-coded archive names: empty and '.' segments dropped, ':' allowed
};

struct GamePath {
  std::string original;  // bytes as given
  std::string path;      // normalized: segments joined with '/', original case and bytes kept
  std::string key;       // ASCII upper-case of `path`: identity, ordering, lookup
  [[nodiscard]] std::vector<std::string_view> segments() const;
  [[nodiscard]] std::string_view file_name() const;  // last segment
  [[nodiscard]] std::string_view parent() const;     // everything before the last '/', or ""
  bool operator==(const GamePath& o) const { return key == o.key; }
  auto operator<=>(const GamePath& o) const { return key <=> o.key; }
};

// Codes: path.empty, path.embedded_nul, path.absolute, path.parent_traversal.
core::Result<GamePath> normalize_path(std::string_view raw, PathPolicy policy = PathPolicy::strict_legacy);

// Joins a normalized parent and a relative tail (tail normalized with `policy`).
core::Result<GamePath> join_path(const GamePath& parent, std::string_view tail,
                                 PathPolicy policy = PathPolicy::strict_legacy);

}  // namespace sortie::assets
