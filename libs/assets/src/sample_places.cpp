#include "sample_places.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace sortie::assets::detail {
namespace {

float distance_to_segment(core::Vec2 p, core::Vec2 a, core::Vec2 b) {
  const core::Vec2 ab = b - a;
  const float len2 = core::dot(ab, ab);
  const float t = len2 > 0.0f ? std::clamp(core::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return core::length(p - (a + ab * t));
}

float distance_to_road(core::Vec2 p, const SamplePlaces& pl) {
  return std::min(distance_to_segment(p, pl.base, pl.pass), distance_to_segment(p, pl.pass, pl.outpost));
}

core::Vec2 polar(core::Vec2 centre, float angle, float radius) {
  return {centre.x + radius * std::cos(angle), centre.y + radius * std::sin(angle)};
}

core::Vec2 clamp_inside(core::Vec2 p, float extent) {
  constexpr float kMargin = 40.0f;
  return {std::clamp(p.x, kMargin, extent - kMargin), std::clamp(p.y, kMargin, extent - kMargin)};
}

float distance_to_triangle(core::Vec2 p, const std::array<core::Vec3, 3>& t) {
  const core::Vec2 a{t[0].x, t[0].y}, b{t[1].x, t[1].y}, c{t[2].x, t[2].y};
  const auto side = [](core::Vec2 u, core::Vec2 v, core::Vec2 q) {
    return (v.x - u.x) * (q.y - u.y) - (v.y - u.y) * (q.x - u.x);
  };
  const float s0 = side(a, b, p), s1 = side(b, c, p), s2 = side(c, a, p);
  if ((s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0)) return 0.0f;
  return std::min({distance_to_segment(p, a, b), distance_to_segment(p, b, c), distance_to_segment(p, c, a)});
}

// Unit formations (formation_slot below): hexagonal rings kUnitSpacing apart.
constexpr float kUnitSpacing = 12.0f;
// The hexagonal ring of slot k (0: the middle) and the ring's first slot.
std::pair<std::uint32_t, std::uint32_t> ring_of(std::uint32_t k) {
  if (k == 0) return {0, 0};
  std::uint32_t ring = 1, first = 1;
  while (k >= first + 6 * ring) {
    first += 6 * ring;
    ++ring;
  }
  return {ring, first};
}

// How far a formation of `units` machines reaches from its centre: its outer ring, nudged out,
// and a machine's half diagonal.
float formation_reach(std::uint32_t units) {
  if (units == 0) return 0.0f;
  const std::uint32_t ring = ring_of(units - 1).first;
  return (static_cast<float>(ring) + 0.025f) * kUnitSpacing + 5.7f;
}

}  // namespace

SamplePlaces draw_places(core::Rng& rng, float extent, std::uint32_t player_units, std::uint32_t enemy_units) {
  SamplePlaces p;
  p.yard = std::max(26.0f, formation_reach(player_units));
  p.outpost_yard = formation_reach(enemy_units);
  // Each formation on dry land: the shore is 48 units wide.
  const float base_inside = std::max(72.0f, 52.0f + p.yard), outpost_inside = std::max(72.0f, 52.0f + p.outpost_yard);
  const float half = 0.5f * extent;
  const float base_room = std::max(1.0f, half - base_inside - 10.0f);
  const float outpost_room = std::max(1.0f, half - outpost_inside - 10.0f);
  p.base = {base_inside + rng.unit_f32() * base_room, base_inside + rng.unit_f32() * base_room};
  p.outpost = {extent - outpost_inside - rng.unit_f32() * outpost_room,
               extent - outpost_inside - rng.unit_f32() * outpost_room};
  if (rng.below(2) == 1) {  // the other diagonal
    p.base.x = extent - p.base.x;
    p.outpost.x = extent - p.outpost.x;
  }
  const core::Vec2 middle{half, half};
  p.gate = core::normalize_or(middle - p.base, {1.0f, 0.0f});
  const core::Vec2 across = p.outpost - p.base;
  const core::Vec2 side{-across.y, across.x};
  p.pass = (p.base + p.outpost) * 0.5f + side * ((rng.unit_f32() - 0.5f) * 0.3f);
  return p;
}

void paint_road(iron3d::Heightfield& f, const SamplePlaces& places) {
  if (f.columns < 2 || f.rows < 2 || f.cell_material_tags.empty()) return;
  for (std::uint32_t y = 0; y + 1 < f.rows; ++y)
    for (std::uint32_t x = 0; x + 1 < f.columns; ++x) {
      const core::Vec2 c{f.origin.x + (static_cast<float>(x) + 0.5f) * f.cell_size,
                         f.origin.y + (static_cast<float>(y) + 0.5f) * f.cell_size};
      if (distance_to_road(c, places) < 0.75f * f.cell_size || core::length(c - places.base) < 16.0f)
        f.cell_material_tags[std::size_t{y} * (f.columns - 1) + x] = 0xFF02;  // earth
    }
}

PlaceRole role_of(std::string_view key) {
  if (key.starts_with("bs_") || key.starts_with("ch_")) return PlaceRole::building;
  if (key.starts_with("fr_")) return PlaceRole::tower;
  if (key.starts_with("st_")) {
    std::uint32_t index = 0;
    std::from_chars(key.data() + 3, key.data() + key.size(), index);
    return (index / 4) % 3 == 2 ? PlaceRole::rock : PlaceRole::tree;
  }
  return PlaceRole::scatter;
}

bool blocks_ground(std::string_view key) {
  const PlaceRole r = role_of(key);
  return (r == PlaceRole::building && key.starts_with("bs_")) || r == PlaceRole::tower || r == PlaceRole::rock;
}

namespace {

// Slot k of a unit formation round `centre`: the first in the middle, then hexagonal rings
// (ring r holds 6 r slots, kUnitSpacing apart, starting toward `facing`), nudged by dr and da
// (each in -0.5..0.5) so a formation is not a drawing. A sample machine's footprint is up to
// 8 x 8 units (a half diagonal of 5.7): neighbours stand at least 10.6 apart (ring 1: 54 degrees
// at radius 11.7), so two machines touch only when both are near the largest and meet corner to
// corner.
core::Vec2 formation_slot(core::Vec2 centre, float facing, std::uint32_t k, float dr, float da) {
  if (k == 0) return centre;
  const auto [ring, first] = ring_of(k);
  const float slots = 6.0f * static_cast<float>(ring);
  const float angle = facing + (static_cast<float>(k - first) + 0.1f * da) * (2.0f * core::kPi / slots);
  return polar(centre, angle, (static_cast<float>(ring) + 0.05f * dr) * kUnitSpacing);
}

// The base's first ring of buildings: clear of the Player's formation (at least 44 units out).
float yard_radius(const SamplePlaces& pl) {
  return std::max(44.0f, pl.yard + 12.0f);
}
// The outpost's towers (at least 24 units out) and buildings (6 farther): clear of the Enemy's
// formation.
float outpost_radius(const SamplePlaces& pl) {
  return std::max(24.0f, pl.outpost_yard + 10.0f);
}

}  // namespace

core::Vec2 place_object(core::Rng& rng, const SamplePlaces& pl, PlaceRole role, PlaceCounters& n, float extent) {
  const float gate = std::atan2(pl.gate.y, pl.gate.x);
  const float jitter = (rng.unit_f32() - 0.5f) * 4.0f;
  switch (role) {
    case PlaceRole::player_unit:  // in the yard, drawn up in rings
    case PlaceRole::enemy_unit:   // at the outpost, the same
    {  // drawn one at a time: two draws in one call's arguments would be in the compiler's order
      const float dr = rng.unit_f32() - 0.5f;
      const float da = rng.unit_f32() - 0.5f;
      const bool ours = role == PlaceRole::player_unit;
      const std::uint32_t k = ours ? n.player_units++ : n.enemy_units++;
      return clamp_inside(formation_slot(ours ? pl.base : pl.outpost, gate, k, dr, da), extent);
    }
    case PlaceRole::building: {
      if (n.base_slots + n.outpost_slots > 0 && (n.base_slots + n.outpost_slots) % 3 == 2) {
        const std::uint32_t k = n.outpost_slots++;  // around the outpost, facing it
        return clamp_inside(polar(pl.outpost, gate + 2.4f * static_cast<float>(k),
                                  outpost_radius(pl) + 6.0f + 9.0f * static_cast<float>(k / 5)),
                            extent);
      }
      // Around the yard, leaving its gate open: eight to a ring, rings 20 units apart, the first
      // clear of the Player's formation (placed before any building), of its own half size (up
      // to 8) and of the jitter.
      const std::uint32_t k = n.base_slots++;
      const float angle = gate + 1.05f + static_cast<float>(k % 8) * (4.2f / 7.0f);
      return clamp_inside(polar(pl.base, angle, yard_radius(pl) + 20.0f * static_cast<float>(k / 8) + jitter), extent);
    }
    case PlaceRole::tower: {
      const std::uint32_t k = n.towers++;
      if (k < 2)
        return clamp_inside(polar(pl.base, gate + (k == 0 ? 0.8f : -0.8f), yard_radius(pl) + 2.0f),
                            extent);  // the gate
      if (k % 2 == 0)
        return clamp_inside(polar(pl.outpost, gate + 0.9f * static_cast<float>(k), outpost_radius(pl)), extent);
      return clamp_inside(polar(pl.base, gate + 1.3f + 0.7f * static_cast<float>(k), yard_radius(pl) + 16.0f + jitter),
                          extent);
    }
    case PlaceRole::rock: {  // along the pass, off the road
      const float t = rng.unit_f32();
      const core::Vec2 a = t < 0.5f ? pl.base : pl.pass, b = t < 0.5f ? pl.pass : pl.outpost;
      const float u = t < 0.5f ? 0.3f + 1.4f * t : 1.4f * (t - 0.5f);
      const core::Vec2 along = a + (b - a) * u;
      const core::Vec2 dir = core::normalize_or(b - a, {1.0f, 0.0f});
      const float sign = rng.below(2) == 0 ? 1.0f : -1.0f;
      const float off = sign * (13.0f + 7.0f * rng.unit_f32());
      return clamp_inside(along + core::Vec2{-dir.y, dir.x} * off, extent);
    }
    case PlaceRole::tree: {
      if (n.trees++ % 5 == 0) {  // a new grove, away from the base, the outpost and the road
        for (int attempt = 0; attempt < 12; ++attempt) {
          n.grove = {48.0f + rng.unit_f32() * (extent - 96.0f), 48.0f + rng.unit_f32() * (extent - 96.0f)};
          if (core::length(n.grove - pl.base) > 60.0f && core::length(n.grove - pl.outpost) > 36.0f &&
              distance_to_road(n.grove, pl) > 20.0f)
            break;
        }
      }
      const float gr = 3.0f + 9.0f * rng.unit_f32();
      const float ga = rng.unit_f32() * 2.0f * core::kPi;
      return clamp_inside(polar(n.grove, ga, gr), extent);
    }
    case PlaceRole::scatter:
      break;
  }
  return clamp_inside({48.0f + rng.unit_f32() * (extent - 96.0f), 48.0f + rng.unit_f32() * (extent - 96.0f)}, extent);
}

float sea_level(const iron3d::Heightfield& f) {
  const auto [lo, hi] = std::minmax_element(f.heights.begin(), f.heights.end());
  return f.origin.z + *lo + 0.01f * (*hi - *lo) + 0.5f;
}

bool areal_blocked(const std::array<core::Vec3, 3>& t, float sea, const std::vector<Footprint>& holes,
                   const std::vector<core::Vec2>& starts, const SamplePlaces& places) {
  if (t[0].z < sea || t[1].z < sea || t[2].z < sea) return true;  // water
  for (const auto& h : holes)
    if (h.solid && distance_to_triangle(h.centre, t) == 0.0f) return true;  // the ground a building stands on
  for (const core::Vec2 p : starts)
    if (distance_to_triangle(p, t) == 0.0f) return false;  // a machine starts here: it must be able to move
  // The yard, the outpost's ground, the way out of the gate and the road stay open beside rocks and
  // cliffs; buildings and towers stay holes there too.
  const core::Vec2 c{(t[0].x + t[1].x + t[2].x) / 3.0f, (t[0].y + t[1].y + t[2].y) / 3.0f};
  if (distance_to_triangle(places.base, t) < places.yard ||
      (places.outpost_yard > 0.0f && distance_to_triangle(places.outpost, t) < places.outpost_yard) ||
      distance_to_segment(c, places.base, places.base + places.gate * 64.0f) < 12.0f ||
      distance_to_road(c, places) < 8.0f) {
    for (const auto& h : holes)
      if (h.solid && distance_to_triangle(h.centre, t) < h.radius) return true;
    return false;
  }
  const core::Vec3 n = core::cross(t[1] - t[0], t[2] - t[0]);
  const float len = core::length(n);
  if (len > 0.0f && std::abs(n.z) / len < 0.55f) return true;  // a cliff
  for (const auto& h : holes)
    if (distance_to_triangle(h.centre, t) < h.radius) return true;
  return false;
}

}  // namespace sortie::assets::detail
