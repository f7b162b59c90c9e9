#pragma once
// `--allow-missing`: a prepared-visual store for a mission whose load failed on missing or
// broken assets. Every placed object whose chain failed (a failed edge of the dependency graph,
// or a visual.* error while preparing it) is left out of the store and reported as a
// MissingPlacement (drawn as a magenta checker box by the mission scene); when the map's WEAR
// layers fail, the terrain is drawn untextured and `terrain_untextured` says so.
#include <memory>
#include <vector>

#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/render/mission_scene.hpp"

namespace sortie::render {

struct FallbackVisuals {
  std::shared_ptr<const assets::VisualStore> store;
  std::vector<MissingPlacement> missing;  // placed index order
  bool terrain_untextured = false;
  core::Diagnostics terrain_failures;  // failures not tied to a placed object
};

// `data` is phases 1-4 of the load (GameContext::prepare). Errors: the terrain itself cannot be
// prepared, or an error that names no placed object survives dropping the WEAR layers.
core::Result<FallbackVisuals> prepare_visuals_allowing_missing(assets::ArchiveRepository& repo,
                                                               assets::VisualCache& cache,
                                                               const assets::MissionData& data,
                                                               const assets::VisualStoreOptions& options = {});

}  // namespace sortie::render
