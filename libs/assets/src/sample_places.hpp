#pragma once
// Where things stand in a sample mission (sample_places.cpp): the Player's base (buildings and
// towers around a yard whose gate faces the map's middle), the Enemy's outpost across the map,
// the pass between them (a dirt road, rocks along it), groups of trees; the Land.map holes that
// follow them (water, cliffs, the ground under buildings, towers and rocks).
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/iron3d/terrain_builder.hpp"

namespace sortie::assets::detail {

struct SamplePlaces {
  core::Vec2 base;            // the Player's base: the yard's middle
  core::Vec2 outpost;         // the Enemy's outpost
  core::Vec2 gate;            // unit vector: the way out of the base's yard (toward the map's middle)
  core::Vec2 pass;            // the road's bend between base and outpost
  float yard = 26.0f;         // open ground round the base (its formation's reach, at least 26)
  float outpost_yard = 0.0f;  // open ground round the outpost (its formation's reach)
};
// Base and outpost in opposite quarters, with open ground for formations of the given numbers
// of machines (place_object's rings), far enough inside the map that the formations stand on
// land (at least 72 units; the island's shore is 48 wide); draws four or five numbers from `rng`.
SamplePlaces draw_places(core::Rng& rng, float extent, std::uint32_t player_units, std::uint32_t enemy_units);

// The road (base -> pass -> outpost, one cell wide) and the base's yard become earth (Land2 row 2).
void paint_road(iron3d::Heightfield& field, const SamplePlaces& places);

enum class PlaceRole : std::uint8_t { player_unit, enemy_unit, building, tower, rock, tree, scatter };
// By the key's archive prefix: bs_ and ch_ buildings, fr_ towers, st_ trees or rocks (every third
// variant, as sample_art's prop shapes), anything else scattered.
PlaceRole role_of(std::string_view key);
bool blocks_ground(std::string_view key);  // buildings of bases.rlb, towers, rocks

struct PlaceCounters {
  std::uint32_t base_slots = 0, outpost_slots = 0, towers = 0, trees = 0;
  std::uint32_t player_units = 0, enemy_units = 0;
  core::Vec2 grove;  // the current group of trees
};
// A ground point for the next object of `role` (draws from `rng`), inside the map by 40 units.
core::Vec2 place_object(core::Rng& rng, const SamplePlaces& places, PlaceRole role, PlaceCounters& counters,
                        float extent);

// The height of the renderer's sea over this field (its lowest point + 1 % of its relief; see
// libs/render MissionScene's surround) plus half a unit.
float sea_level(const iron3d::Heightfield& field);

struct Footprint {
  core::Vec2 centre;
  float radius = 0.0f;
  bool solid = false;  // a building or a tower: a hole in the yard and on the road too (rocks are not)
};
// An areal triangle that is not walkable: a corner under the sea or a solid footprint's centre in
// it; else, unless a machine starts in it (`starts`): touching a solid footprint where it touches
// the base's yard or the outpost's ground (SamplePlaces::yard, outpost_yard), the 64 units out of
// the gate or the road (which stay open beside rocks and cliffs); anywhere else steeper than ~57
// degrees or touching any footprint.
bool areal_blocked(const std::array<core::Vec3, 3>& triangle, float sea, const std::vector<Footprint>& holes,
                   const std::vector<core::Vec2>& starts, const SamplePlaces& places);

}  // namespace sortie::assets::detail
