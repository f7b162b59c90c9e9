#pragma once
// A project = property catalog (engine + project declarations) + prototype catalog, loaded from
// one or more proto directories (spec/fomap.md §13). Lint, fmt and bake all take one.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/fomap/map_model.hpp"
#include "sortie/fomap/properties.hpp"
#include "sortie/fomap/protos.hpp"
#include "sortie/fomap/values.hpp"

namespace sortie::fomap {

struct Project {
  PropertyCatalog properties = PropertyCatalog::engine();
  ProtoCatalog protos;
  bool has_protos = false;       // at least one proto directory / file was loaded
  core::Diagnostics load_notes;  // findings while loading protos and tables

  // Walks each directory recursively: proto containers (is_proto_file_extension) are added,
  // `_project_property_declarations.tsv`, `_project_enums.tsv`, `_project_migration_rules.tsv`
  // are read into the property catalog; then `$Parent` is resolved. Files are visited in
  // sorted path order so results are stable. A path that is a file is read as one container.
  static Project load(const std::vector<std::filesystem::path>& dirs);
};

// Receiver entity of a placement kind: "Critter" / "Item"; the anchor receiver is "Map".
std::string_view receiver_of(PlacementKind kind);

// Proto of a placement after proto migration; nullptr when it does not resolve.
const Proto* find_placement_proto(const Project& project, const Placement& placement);

// Effective raw text of a property for a placement: the placement's own value when present,
// else the proto's resolved value, else nullopt (= the type's default).
std::optional<std::string_view> effective_text(const Project& project, const MapContainer& container,
                                               const Placement& placement, std::string_view property);

}  // namespace sortie::fomap
