#include "mission_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "sortie/assets/sample_game.hpp"

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
                                            const std::string& sample_scale, const render::MissionOverlays& overlays) {
  std::filesystem::path dir = game_dir;
  if (dir.empty()) {
    assets::SampleOptions so;
    so.scale = sample_scale == "corpus" ? assets::SampleScale::corpus : assets::SampleScale::demo;
    SORTIE_TRY(dir, assets::ensure_cached_sample(so, assets::default_cache_root()));
  }
  SORTIE_TRY(auto game, mission::GameContext::open(dir));
  std::string name = mission;
  if (name.empty()) {
    SORTIE_TRY(name, game.first_mission());
  }
  SORTIE_TRY(auto report, game.load(name));
  if (!report.ok) {
    for (const auto& d : report.failures) std::cerr << "sortie-viewer: " << d.to_string() << " [" << d.code << "]\n";
    return core::fail(core::Diagnostic::error(
        "viewer.load", fmt::format("load of {} failed: {} failure(s)", report.mission, report.failures.size())));
  }
  const mission::LoadedMission* loaded = game.current();
  if (loaded == nullptr) return core::fail(core::Diagnostic::error("viewer.load", "no mission after the load"));
  render::MissionSceneOptions so;
  so.overlays = overlays;
  SORTIE_TRY(auto scene, render::MissionScene::build(loaded->visuals, loaded->data.get(), so));
  std::vector<world::ObjectId> ids;
  for (const auto& obj : loaded->objects) {
    if (static_cast<std::size_t>(obj.placed_index) >= ids.size())
      ids.resize(static_cast<std::size_t>(obj.placed_index) + 1);
    ids[static_cast<std::size_t>(obj.placed_index)] = obj.id;
  }
  return MissionView{std::move(game), std::move(scene), report.mission, std::move(ids)};
}

}  // namespace sortie::viewer
