#pragma once
// Identities and provenance steps the resolver (prototype_resolver.cpp, visual_chain.cpp), the
// visual store and the inventory share (internal to libs/assets), so that a cache key or a chain
// step is spelled once: "MISSIONS/m1/data.tma: objects[0] 's_tree' -> static.rlb:tree.msh ->
// tree.wea -> row 1 'M_TWO' -> textures.lib: texture 'T_B' not found".
#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace sortie::assets::detail {

// Folded identity of an archive entry, "ARCHIVE|ENTRY" (ASCII upper case): the key of every cache.
// Built in one allocation, folded in place: the visual store makes one per request (profiled).
inline std::string entry_key(std::string_view archive, std::string_view entry) {
  std::string key;
  key.reserve(archive.size() + 1 + entry.size());
  key.append(archive).append(1, '|').append(entry);
  for (char& c : key)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - ('a' - 'A'));
  return key;
}

// "a -> b", or b alone when a is empty.
inline std::string join_via(std::string_view a, std::string_view b) {
  return a.empty() ? std::string(b) : fmt::format("{} -> {}", a, b);
}

// The steps below a mesh: its WEAR row `row` naming a material, its LIGHTMAPS row `row`.
inline std::string wear_row_step(std::size_t row, std::string_view material) {
  return fmt::format("row {} '{}'", row, material);
}
inline std::string lightmap_row_step(std::size_t row, std::string_view lightmap) {
  return fmt::format("LIGHTMAPS row {} '{}'", row, lightmap);
}

}  // namespace sortie::assets::detail
