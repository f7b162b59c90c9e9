#pragma once
// `sortie fomap materialize` as one call: every map of a container baked in memory, materialized
// (fomap/materialize.hpp) and, when asked, published into a fresh world per map
// (fomap_instance.hpp), with the text and JSON the command prints.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/fomap/materialize.hpp"
#include "sortie/mission/fomap_instance.hpp"

namespace sortie::mission {

struct FomapMaterializeRun {
  struct Map {
    fomap::InstanceOutcome outcome;                // outcome.instance unset: outcome.errors say why
    std::optional<FomapInstanceResult> published;  // with `publish`, when the instance published
  };
  std::string file;
  std::vector<Map> maps;

  // 0, or 1 when a map failed to materialize or to publish.
  [[nodiscard]] int exit_code() const;
  // {"file", "maps": [instance JSON with "world" (published, without its id map and skipped
  // list: the entities carry the runtime ids), or {"map", "errors"} for a failed map]}.
  [[nodiscard]] core::Json to_json() const;
  // One summary line per materialized map (its skipped children, the world's counts and hash);
  // the failed maps' diagnostics go to `errors`.
  [[nodiscard]] std::string to_text(core::Diagnostics& errors) const;
};

// Materializes the maps of `container` (only `only` when given) and with `publish` publishes each
// instance into a fresh world. Errors: materialize_container's (fomap.materialize.no_map); a
// failing map is kept in the run with its errors (file set to `file`).
core::Result<FomapMaterializeRun> materialize_fomap(const fomap::MapContainer& container, const fomap::Project& project,
                                                    std::string file, std::string_view only, bool publish);

}  // namespace sortie::mission
