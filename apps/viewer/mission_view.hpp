#pragma once
// A mission opened for viewing: the game directory (or the embedded sample), the loaded mission,
// its render::MissionScene and the world object of each placement. The mission mode and the
// join mode (which loads the session's mission the way the server did) share it.
#include <string>
#include <vector>

#include "sortie/mission/game_context.hpp"
#include "sortie/render/mission_scene.hpp"
#include "sortie/render/scene_camera.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::viewer {

inline constexpr float kSceneVfov = 0.9f;  // render::SceneCameraOptions' vertical field of view

struct MissionView {
  mission::GameContext game;
  render::MissionScene scene;
  std::string mission;               // the name the load reported
  std::vector<world::ObjectId> ids;  // ids[placed_index]

  // The bounds the default view frames: the terrain's, or everything's without terrain.
  [[nodiscard]] const core::Aabb& framing() const;
  // A flight speed for the map: a quarter of the framing's diagonal per second (at least 1).
  [[nodiscard]] float speed() const;
  [[nodiscard]] render::Camera camera(const render::CameraPose& pose, float aspect) const;
  [[nodiscard]] const mission::LoadedMission* loaded() const { return game.current(); }
};

// Errors: the game's and the load's (load failures are printed to stderr, then viewer.load).
// `seed`: the world's simulation seed (as `sortie run --seed`).
core::Result<MissionView> load_mission_view(const std::string& game_dir, const std::string& mission,
                                            const std::string& sample_scale, const render::MissionOverlays& overlays,
                                            std::uint64_t seed = 1);

}  // namespace sortie::viewer
