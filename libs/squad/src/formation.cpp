#include "sortie/squad/formation.hpp"

#include <algorithm>

#include "sortie/squad/det_math.hpp"

namespace sortie::squad {

std::string_view to_string(Formation f) {
  switch (f) {
    case Formation::wedge:
      return "wedge";
    case Formation::line:
      return "line";
    case Formation::ring:
      return "ring";
  }
  return "wedge";
}

std::optional<Formation> formation_from_string(std::string_view s) {
  if (s == "wedge") return Formation::wedge;
  if (s == "line") return Formation::line;
  if (s == "ring") return Formation::ring;
  return std::nullopt;
}

Formation next_formation(Formation f) {
  switch (f) {
    case Formation::wedge:
      return Formation::line;
    case Formation::line:
      return Formation::ring;
    case Formation::ring:
      return Formation::wedge;
  }
  return Formation::wedge;
}

core::Vec2 formation_offset(Formation f, std::uint32_t slot, std::uint32_t count) {
  count = std::max<std::uint32_t>(count, 1);
  switch (f) {
    case Formation::wedge: {
      if (slot == 0) return {1.0f, 0.0f};
      const auto k = static_cast<float>((slot + 1) / 2);
      const float side = (slot % 2 == 1) ? -1.0f : 1.0f;
      return {1.0f - k, side * k};
    }
    case Formation::line:
      return {0.0f, static_cast<float>(slot) - static_cast<float>(count - 1) * 0.5f};
    case Formation::ring: {
      const float n = static_cast<float>(count);
      // Neighbours one spacing apart at least: circumference n, radius n / (2 pi).
      const float radius = std::max(1.5f, n / (2.0f * core::kPi));
      const SinCos sc = det_sin_cos(2.0f * core::kPi * static_cast<float>(slot) / n);
      return {radius * sc.cos, radius * sc.sin};
    }
  }
  return {};
}

core::Vec2 slot_world(core::Vec2 disc, core::Vec2 heading, core::Vec2 local_offset, float spacing) {
  return disc + heading * (local_offset.x * spacing) + right_of(heading) * (local_offset.y * spacing);
}

}  // namespace sortie::squad
