// Full <-> compact surface masks of TerrainFace28 (spec §15.3, seed 000 "Маски поверхности").
#include <array>
#include <utility>

#include "sortie/iron3d/land_msh.hpp"

namespace sortie::iron3d {
namespace {

struct BitPair {
  std::uint32_t full;
  std::uint32_t packed;
};

constexpr std::array<BitPair, 15> kCompact = {{
    {0x00000001, 0x0001},
    {0x00000008, 0x0002},
    {0x00000010, 0x0004},
    {0x00000020, 0x0008},
    {0x00001000, 0x0010},
    {0x00004000, 0x0020},
    {0x00000002, 0x0040},
    {0x00000400, 0x0080},
    {0x00000800, 0x0100},
    {0x00020000, 0x0200},
    {0x00002000, 0x0400},
    {0x00000200, 0x0800},
    {0x00000004, 0x1000},
    {0x00000040, 0x2000},
    {0x00200000, 0x8000},
}};

constexpr std::array<BitPair, 6> kClass = {{
    {0x00000100, 0x01},
    {0x00008000, 0x02},
    {0x00010000, 0x04},
    {0x00040000, 0x08},
    {0x00080000, 0x10},
    {0x00000080, 0x20},
}};

// The bits of `v` on one side of the table (`from`) as the other side's bits (`to`).
template <std::size_t N>
constexpr std::uint32_t translate(const std::array<BitPair, N>& t, std::uint32_t v, std::uint32_t BitPair::*from,
                                  std::uint32_t BitPair::*to) {
  std::uint32_t out = 0;
  for (const auto& p : t)
    if (v & (p.*from)) out |= p.*to;
  return out;
}
template <std::size_t N>
constexpr std::uint32_t full_bits(const std::array<BitPair, N>& t) {
  return translate(t, ~std::uint32_t{0}, &BitPair::full, &BitPair::full);
}
template <std::size_t N>
constexpr std::uint32_t packed_bits(const std::array<BitPair, N>& t) {
  return translate(t, ~std::uint32_t{0}, &BitPair::packed, &BitPair::packed);
}
static_assert(full_bits(kCompact) == kCompactMappedFullBits);
static_assert(full_bits(kClass) == kClassMappedFullBits);
static_assert((kCompactMappedFullBits & kClassMappedFullBits) == 0);
static_assert(packed_bits(kCompact) == (0xFFFFu & ~std::uint32_t{kCompactUnmappedBits}));
static_assert(packed_bits(kClass) == 0x3F);

template <std::size_t N>
std::uint32_t forward(const std::array<BitPair, N>& t, std::uint32_t v) {
  return translate(t, v, &BitPair::full, &BitPair::packed);
}
template <std::size_t N>
std::uint32_t backward(const std::array<BitPair, N>& t, std::uint32_t v) {
  return translate(t, v, &BitPair::packed, &BitPair::full);
}

}  // namespace

std::uint16_t full_to_compact(std::uint32_t full) {
  return static_cast<std::uint16_t>(forward(kCompact, full));
}
std::uint32_t compact_to_full(std::uint16_t compact) {
  return backward(kCompact, compact);
}
std::uint8_t full_to_material_class(std::uint32_t full) {
  return static_cast<std::uint8_t>(forward(kClass, full));
}
std::uint32_t material_class_to_full(std::uint8_t material_class) {
  return backward(kClass, material_class);
}

SurfaceMasks split_surface_mask(std::uint32_t full) {
  return {full_to_compact(full), full_to_material_class(full), full & ~(kCompactMappedFullBits | kClassMappedFullBits)};
}

std::uint32_t join_surface_mask(const SurfaceMasks& masks) {
  return compact_to_full(masks.compact) | material_class_to_full(masks.material_class) | masks.unknown_full;
}

}  // namespace sortie::iron3d
