#pragma once
// Hand-made squad maps: a small line-based text format (docs/squad-maps.md).
//
//   squad-map 1
//   name Rooms and corridors
//   squad 5
//   formation wedge
//   heading east
//   tune weaponRange 9
//   grid 12 5
//   ############
//   #@...#..h..#
//   #....#.....#
//   #.........H#
//   ############
//
// Cells: '#' wall, '.' floor, '@' a squad's start (its disc), 'h' a hostile, 'H' a hostile lair.
// The reader checks everything and reports `file:line` with a stable code (squad.map.*); the
// writer produces the canonical text, and write(read(canonical)) == canonical.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/squad/formation.hpp"
#include "sortie/squad/limits.hpp"  // kMapFileMax, kMapSizeMax, kSquadsMax
#include "sortie/squad/tuning.hpp"
#include "sortie/squad/walls.hpp"

namespace sortie::squad {

inline constexpr int kMapVersion = 1;
// Agents per squad: the seed's squad is five, and its formations, leash and hard limit are laid
// out for five (a larger squad cannot stand inside the hard limit with clear lanes).
inline constexpr std::uint32_t kSquadSizeMax = 5;

enum class Heading : std::uint8_t { east, south, west, north };
std::string_view to_string(Heading h);
core::Vec2 heading_vector(Heading h);  // east (1,0), south (0,1), west (-1,0), north (0,-1)

struct CellPos {
  int x = 0;
  int y = 0;
  friend constexpr bool operator==(const CellPos&, const CellPos&) = default;
  [[nodiscard]] core::Vec2 centre() const { return {static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f}; }
};

struct SquadMap {
  std::string name;
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> solid;  // width x height, row-major, 1 = wall
  std::vector<CellPos> squads;      // '@' in reading order
  std::vector<CellPos> hostiles;    // 'h'
  std::vector<CellPos> lairs;       // 'H'
  std::uint32_t squad_size = 5;
  Formation formation = Formation::wedge;
  Heading heading = Heading::east;
  // Tuning overrides in file order: field name and canonical value text.
  std::vector<std::pair<std::string, std::string>> tune;
  friend bool operator==(const SquadMap&, const SquadMap&) = default;

  [[nodiscard]] WallGrid walls() const { return WallGrid(width, height, solid); }
};

// `file` names the input in diagnostics ("maps/yard.txt" -> "maps/yard.txt:12: ...").
core::Result<SquadMap> parse_squad_map(std::string_view text, std::string_view file = "<map>");
core::Result<SquadMap> load_squad_map(const std::filesystem::path& path);
std::string write_squad_map(const SquadMap& map);

// The default tuning with the map's overrides applied (already validated by the parser; a map
// built in code is validated here: squad.tuning.*).
core::Result<Tuning> map_tuning(const SquadMap& map, const Tuning& base = {});
// xxh3 of the canonical text: an input log names the map it was recorded on.
std::uint64_t map_fingerprint(const SquadMap& map);

}  // namespace sortie::squad
