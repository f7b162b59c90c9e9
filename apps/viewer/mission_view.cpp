#include "mission_view.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sortie/cli/report.hpp"
#include "sortie/mission/open_game.hpp"
#include "sortie/render/mission_render.hpp"

namespace sortie::viewer {

const core::Aabb& MissionView::framing() const {
  return scene.terrain_bounds().empty() ? scene.bounds() : scene.terrain_bounds();
}

float MissionView::speed() const {
  return std::max(1.0f, 0.25f * core::length(framing().extent()));
}

render::Camera MissionView::camera(const render::CameraPose& pose, float aspect) const {
  return render::pose_camera(pose, aspect, scene.bounds());
}

core::Result<MissionView> load_mission_view(const std::string& game_dir, const std::string& mission,
                                            const std::string& sample_scale, const render::MissionOverlays& overlays,
                                            std::uint64_t seed) {
  SORTIE_TRY(auto game, mission::open_game({game_dir, mission::sample_scale_from(sample_scale), {}}, mission));
  mission::MissionLoadOptions lo;
  lo.world.seed = seed;
  SORTIE_TRY(auto report, game.context.load(game.mission, lo));
  if (!report.ok) {
    for (const auto& d : report.failures) cli::print_error(d);
    return core::fail(core::Diagnostic::error(
        "viewer.load", fmt::format("load of {} failed: {} failure(s)", report.mission, report.failures.size())));
  }
  const mission::LoadedMission* loaded = game.context.current();
  if (loaded == nullptr) return core::fail(core::Diagnostic::error("viewer.load", "no mission after the load"));
  render::MissionSceneOptions so;
  so.overlays = overlays;
  SORTIE_TRY(auto scene, render::loaded_mission_scene(*loaded, so));
  auto ids = loaded->ids_by_placement();
  return MissionView{std::move(game.context), std::move(scene), report.mission, std::move(ids)};
}

}  // namespace sortie::viewer
