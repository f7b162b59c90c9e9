// Multihex geometry (spec/fomap.md §7).
#include "sortie/fomap/multihex.hpp"

#include <algorithm>

namespace sortie::fomap {

Hex hex_step(Hex pos, int dir) {
  switch (dir) {
    case 0:
      pos.x -= 1;
      if (pos.x % 2 == 0) pos.y -= 1;
      break;
    case 1:
      pos.x -= 1;
      if (pos.x % 2 != 0) pos.y += 1;
      break;
    case 2:
      pos.y += 1;
      break;
    case 3:
      pos.x += 1;
      if (pos.x % 2 != 0) pos.y += 1;
      break;
    case 4:
      pos.x += 1;
      if (pos.x % 2 == 0) pos.y -= 1;
      break;
    case 5:
      pos.y -= 1;
      break;
    default:
      break;
  }
  return pos;
}

std::vector<Hex> multihex_lines(std::span<const std::uint8_t> bytes, Hex origin, std::int32_t width,
                                std::int32_t height) {
  std::vector<Hex> out;
  Hex pos = origin;
  for (std::size_t i = 0; i + 1 < bytes.size(); i += 2) {
    const int dir = bytes[i] % 6;
    const int steps = bytes[i + 1];
    for (int s = 0; s < steps; ++s) {
      pos = hex_step(pos, dir);
      if (pos.x >= 0 && pos.y >= 0 && pos.x < width && pos.y < height && !(pos == origin)) out.push_back(pos);
    }
  }
  return out;
}

std::vector<Hex> multihex_footprint(Hex origin, std::span<const std::uint8_t> lines, std::span<const Hex> mesh,
                                    std::int32_t width, std::int32_t height) {
  std::vector<Hex> out = multihex_lines(lines, origin, width, height);
  out.push_back(origin);
  out.insert(out.end(), mesh.begin(), mesh.end());
  auto less = [](const Hex& a, const Hex& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; };
  std::sort(out.begin(), out.end(), less);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace sortie::fomap
