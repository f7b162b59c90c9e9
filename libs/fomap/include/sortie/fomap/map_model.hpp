#pragma once
// Map containers (spec/fomap.md §3): `[ProtoMap]` anchors, placement sections addressed as
// `[$Name/Critter]` / `[$Name/Item]` or `[<MapId>/...]`, processing order (critters then items),
// the engine's ID repair and multi-map containers. Pure model: no property typing here
// (see project.hpp / lint.hpp for that).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/fomap/config.hpp"

namespace sortie::fomap {

enum class PlacementKind : std::uint8_t { critter, item };
std::string_view to_string(PlacementKind kind);  // "Critter" / "Item"

// A `[ProtoMap]` section.
struct MapAnchor {
  std::size_t section = 0;  // index into ConfigFile::sections()
  std::string name;         // `$Name` value, else the file stem
  bool named = false;       // `$Name` present
  std::uint32_t line = 0;   // header line
};

// One placement section, as the loader sees it. (Members ordered for size: a map holds one per
// placement section, often hundreds of thousands.)
struct Placement {
  std::size_t section = 0;      // index into ConfigFile::sections()
  std::string_view owner_text;  // text before '/' as written ("$Name", "MapId", "")
  // `$Id`
  std::string_view id_text;      // raw value ("" when absent)
  std::int64_t authored_id = 0;  // lenient parse (§3.5); 0 when absent / garbage
  std::int64_t id = 0;           // after the engine's repair (§3.4)
  // `$Proto`
  std::string_view proto;  // raw value (trimmed as stored)
  std::uint32_t line = 0;  // header line
  std::uint32_t id_line = 0;
  std::uint32_t proto_line = 0;
  PlacementKind kind = PlacementKind::item;
  bool contextual = false;  // addressed through `$Name/`
  bool has_id = false;
  bool id_repaired = false;  // id != authored_id or authored id was unusable
  bool has_proto = false;

  // Property keys of this placement (everything but `$...` and `_...`), byte-sorted, with lines.
  [[nodiscard]] std::vector<const ConfigEntry*> properties(const class MapContainer& container) const;
};

// One declared map (one or more anchors sharing a name) with its placements.
struct MapDefinition {
  std::string name;
  std::vector<std::size_t> anchors;  // indices into MapContainer::anchors(), file order
  std::vector<Placement> critters;   // file order (load pass 1)
  std::vector<Placement> items;      // file order (load pass 2)
  // Placements without `$Proto` are kept here too (has_proto == false) but consumed no id.
};

// A structural error that makes the engine's MapLoader throw for every map of the file.
struct StructureError {
  std::string
      code;  // "fomap.structure.top_level", ".nested_type", ".no_anchor_before", ".undeclared_owner", ".no_anchor"
  std::uint32_t line = 0;
  std::string section;  // section name as written
  std::string message;
};

class MapContainer {
 public:
  // Parses the text (ConfigFile grammar) and builds anchors, maps and placements.
  // `path` is used for the file stem (unnamed anchors) and for diagnostics.
  static MapContainer from_text(std::string text, std::string path);

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& stem() const { return stem_; }
  [[nodiscard]] const ConfigFile& config() const { return config_; }
  [[nodiscard]] const ConfigSection& section(std::size_t index) const { return config_.sections()[index]; }
  [[nodiscard]] const std::vector<MapAnchor>& anchors() const { return anchors_; }
  // Declared maps, de-duplicated by name, in order of first anchor (EnumerateMaps order).
  [[nodiscard]] const std::vector<MapDefinition>& maps() const { return maps_; }
  [[nodiscard]] const MapDefinition* find_map(std::string_view name) const;
  // Errors that make MapLoader::Load throw for every map (closed section set, addressing).
  [[nodiscard]] const std::vector<StructureError>& structure_errors() const { return structure_errors_; }
  // True when the engine would load maps from this file (at least one anchor, no structure error).
  [[nodiscard]] bool loadable() const { return !anchors_.empty() && structure_errors_.empty(); }

 private:
  std::string path_;
  std::string stem_;
  ConfigFile config_;
  std::vector<MapAnchor> anchors_;
  std::vector<MapDefinition> maps_;
  std::map<std::string, std::size_t, std::less<>> map_index_;  // map name -> index into maps_
  std::vector<StructureError> structure_errors_;
};

// The engine's ID repair (§3.4) over one map: critters first, then items, greedy from the
// highest id seen. Exposed for tests and for the bake; MapContainer already applies it.
class IdRepair {
 public:
  std::int64_t fix(std::int64_t id);

 private:
  std::unordered_set<std::int64_t> busy_;
  std::int64_t last_ = 1;
};

// File stem: name without directory and without the last extension.
std::string file_stem(std::string_view path);

}  // namespace sortie::fomap
