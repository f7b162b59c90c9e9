#pragma once
// Multihex geometry (spec/fomap.md §7): MultihexLines walk and MultihexMesh footprint.
#include <cstdint>
#include <span>
#include <vector>

namespace sortie::fomap {

struct Hex {
  std::int32_t x = 0;
  std::int32_t y = 0;
  friend bool operator==(const Hex&, const Hex&) = default;
};

// One hex step in direction `dir` (0..5 hexagonal, sign-preserving parity like C++ `%`).
Hex hex_step(Hex pos, int dir);

// `ForEachMultihexLines`: hexes emitted by walking (dir, steps) byte pairs from `origin`; a
// trailing odd byte is ignored; dir is taken mod 6; only in-bounds hexes other than the origin
// are emitted (duplicates possible, in walk order).
std::vector<Hex> multihex_lines(std::span<const std::uint8_t> bytes, Hex origin, std::int32_t width,
                                std::int32_t height);

// Full footprint of an item: origin, every in-bounds MultihexLines hex and every MultihexMesh hex,
// de-duplicated, sorted by (y, x).
std::vector<Hex> multihex_footprint(Hex origin, std::span<const std::uint8_t> lines, std::span<const Hex> mesh,
                                    std::int32_t width, std::int32_t height);

}  // namespace sortie::fomap
