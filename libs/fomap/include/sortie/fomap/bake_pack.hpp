#pragma once
// Baking a pack: every map of every container below the given paths, with the rules that only
// exist across files (spec/fomap.md §8.1, §8.3, §10; seeds/004 "Серверный и клиентский output"):
//
// - a map id baked from a second container is an error there (the engine's "Proto already
//   loaded"; the first container keeps it): `fomap.bake.duplicate_map`;
// - a container whose structure the loader rejects fails as a whole (one failed entry per map it
//   declares, or one for the file when it declares none);
// - each map's server/client pair is written together or not at all (write_baked_map), and a
//   pair that cannot be written counts as failed;
// - a directory argument below which no container declares a map is an error
//   (`usage.no_maps`), so a gate never passes on nothing; so is an `only` map id that no
//   container declares (`usage.only_unknown`).
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/fomap/bake.hpp"

namespace sortie::fomap {

struct PackOptions {
  BakeOptions bake;
  std::string only;              // bake only this map id ("" = every map)
  std::filesystem::path output;  // directory the pairs are written to; empty = bake in memory only
};

struct PackEntry {
  std::string map;
  std::string source;             // container path
  std::optional<BakedMap> baked;  // set when the map baked and was written; its blobs are released
  core::Diagnostics errors;       // why it was not baked or not written
  [[nodiscard]] bool ok() const { return baked.has_value(); }
};

struct PackReport {
  std::vector<PackEntry> maps;  // container order; a container's maps in EnumerateMaps order
  std::size_t files = 0;        // containers read
  core::Diagnostics io_errors;  // unreadable inputs, directories without containers, an unknown `only`
  [[nodiscard]] std::size_t baked() const;
  [[nodiscard]] std::size_t failed() const;
  // {"maps": [summary or {map, source, errors}], "summary": {baked, failed, files}}
  [[nodiscard]] core::Json to_json() const;
};

// Called before each container is read: (index, count, path).
using PackProgress = std::function<void(std::size_t, std::size_t, const std::filesystem::path&)>;

PackReport bake_pack(const std::vector<std::filesystem::path>& paths, const Project& project,
                     const PackOptions& options, const PackProgress& progress = {});

}  // namespace sortie::fomap
