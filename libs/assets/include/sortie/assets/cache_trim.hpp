#pragma once
// What a maintenance pass did to one cache (seed 003: the ~20 s and ~60 s passes that free what
// was not used for a while; spec "Texture cache ... deferred GC sweep about every 20 s frees
// slots unused > ~60 s"): its entries and approximate bytes before and after.
#include <cstdint>
#include <string>
#include <vector>

namespace sortie::assets {

struct CacheTrim {
  std::string cache;  // "visual", "resolver", "vfs.listings", ...
  std::uint64_t entries_before = 0;
  std::uint64_t entries_after = 0;
  std::uint64_t bytes_before = 0;  // approximate payload bytes (decoded pixels, vertices, ...)
  std::uint64_t bytes_after = 0;
  [[nodiscard]] std::uint64_t dropped() const { return entries_before - entries_after; }
  // "visual: 12 -> 8 entries, 40960 -> 10240 bytes"
  [[nodiscard]] std::string to_text() const;
};

}  // namespace sortie::assets
