#pragma once
// `--allow-missing`: a prepared-visual store for a mission whose load failed on missing or
// broken assets. Every placed object whose chain failed (a failed edge of the dependency graph,
// or a visual.* error while preparing it) is left out of the store and reported as a
// MissingPlacement (drawn as a magenta checker box by the mission scene); when the map's WEAR
// layers fail, the terrain is drawn untextured and `terrain_untextured` says so.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/core/math.hpp"

namespace sortie::assets {

// A placed object left out of a fallback store, with where it stands and why.
struct MissingPlacement {
  std::int32_t placed_index = -1;
  core::Transform transform;
  std::string name;    // resource name
  std::string reason;  // the diagnostic
};

struct FallbackVisuals {
  std::shared_ptr<const VisualStore> store;
  std::vector<MissingPlacement> missing;  // placed index order
  bool terrain_untextured = false;
  core::Diagnostics terrain_failures;  // failures not tied to a placed object
};

// `data` is phases 1-4 of the load (GameContext::prepare). Errors: the terrain itself cannot be
// prepared, or an error that names no placed object survives dropping the WEAR layers.
core::Result<FallbackVisuals> prepare_visuals_allowing_missing(ArchiveRepository& repo, VisualCache& cache,
                                                               const MissionData& data,
                                                               const VisualStoreOptions& options = {});

}  // namespace sortie::assets
