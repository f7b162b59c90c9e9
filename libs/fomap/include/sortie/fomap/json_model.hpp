#pragma once
// JSON model of a map container in the vocabulary of the engine's canonical model
// (fomap-reference/map-format.canonical.json): sections, directives and ownerships are named by
// their stable IDs (`map-format.section.item`, `map-format.directive.entity-id`,
// `map-format.ownership.critter-inventory`), engine properties by `map-format.property.<Receiver>.<Name>`
// (project-declared ones by `project.property.<Receiver>.<Name>`). Every value carries its raw
// text; typed values are added when the property is known and its text parses.
#include <iosfwd>
#include <string_view>

#include "sortie/core/json.hpp"
#include "sortie/fomap/map_model.hpp"
#include "sortie/fomap/project.hpp"
#include "sortie/fomap/values.hpp"

namespace sortie::fomap {

inline constexpr std::string_view kJsonModelSchema = "sortie.fomap.container/1";

// Stable IDs of the canonical model.
namespace model_id {
inline constexpr std::string_view kSectionProtoMap = "map-format.section.proto-map";
inline constexpr std::string_view kSectionCritter = "map-format.section.critter";
inline constexpr std::string_view kSectionItem = "map-format.section.item";
inline constexpr std::string_view kDirectiveMapName = "map-format.directive.map-name";
inline constexpr std::string_view kDirectiveMapParent = "map-format.directive.map-parent";
inline constexpr std::string_view kDirectiveMapText = "map-format.directive.map-text";
inline constexpr std::string_view kDirectiveEntityId = "map-format.directive.entity-id";
inline constexpr std::string_view kDirectiveEntityProto = "map-format.directive.entity-proto";
}  // namespace model_id

// "map-format.ownership.map-hex" ... for ItemOwnership values 0..3; "" otherwise.
std::string_view ownership_id(std::int64_t value);

// Typed JSON of a parsed value: numbers, booleans, strings, enum names, [x, y] for value types,
// arrays, and dicts as arrays of [key, value] pairs.
core::Json value_json(const PropertyType& type, const PropertyValue& value);

// The whole container: file, stem, anchors, maps (with map properties, critters, items in
// MapLoader order), structure errors.
core::Json container_json(const MapContainer& container, const Project& project);

// The same document written to `os` as it is made, byte for byte what core::dump_json gives for
// container_json (pretty, sorted keys, trailing newline), holding one placement's JSON at a time
// instead of the whole tree (which takes ~50 times the map's size).
void write_container_json(std::ostream& os, const MapContainer& container, const Project& project);

}  // namespace sortie::fomap
