#pragma once
// A mission drawn into PNG files: what `sortie render` does, what `sortie run --out` writes as
// snapshot.png, and the scene and weather composition the viewer's mission mode draws each frame.
//
// render_mission opens the game (mission::open_game) and loads the mission, or takes a mission
// that is loaded already (at its world's current state), builds the MissionScene with the
// world's snapshot applied, and renders one frame per view (the default framing, a --camera
// pose, the top view, or N frames of a turntable), each with the weather of a schedule at a
// moment when one is given (its lightning the mission's effect, docs/effects.md) and the world's
// live effects at the world's time, written atomically as PNG.
//
// Layering: this is the presentation layer over the runtime (libs/mission); it reads the loaded
// mission's prepared visuals and a snapshot of its world, and never writes the world.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/json.hpp"
#include "sortie/env/environment.hpp"
#include "sortie/mission/open_game.hpp"
#include "sortie/render/limits.hpp"  // kMaxOrbitFrames
#include "sortie/render/mission_scene.hpp"
#include "sortie/render/renderer.hpp"
#include "sortie/render/scene_camera.hpp"
#include "sortie/render/view_spec.hpp"
#include "sortie/render/weather.hpp"

namespace sortie::render {

struct MissionRenderRequest {
  // The game and mission to load (mission empty: the game's first); ignored when `loaded` is set.
  mission::GameSource source;
  std::string mission;
  // A mission loaded already: drawn at its world's current state (`sortie run --out`).
  const mission::LoadedMission* loaded = nullptr;

  std::filesystem::path out;  // the PNG; with orbit > 0 OUT_000.png, OUT_001.png ...
  ImageSize size{1280, 720};
  // The view: `camera`, else `top`, else `orbit` frames (1..kMaxOrbitFrames), else the default
  // framing of the terrain (or of everything without terrain).
  std::optional<CameraPose> camera;
  bool top = false;
  std::uint32_t orbit = 0;
  MissionOverlays overlays;
  bool objects = true;         // false: the terrain and overlays only
  bool allow_missing = false;  // a failed load draws the failed objects as magenta checkers
  unsigned threads = 0;        // render threads, 0 = every core

  // A weather schedule (text form) drawn over each perspective view at `weather_at_seconds`; or,
  // with `mission_weather`, the mission's own (MISSIONS/<m>/sky.weather; none: no weather).
  std::filesystem::path weather;
  bool mission_weather = false;
  double weather_at_seconds = 5.0;
  std::uint64_t weather_seed = 1;
};

struct MissionRenderResult {
  std::filesystem::path game;  // the game directory (empty for a given loaded mission)
  std::string mission;         // the name the load reported
  // Set when the load failed and allow_missing is off: nothing was drawn.
  std::optional<mission::MissionLoadReport> failed_load;

  ImageSize size;
  std::vector<std::filesystem::path> files;
  MissionSceneStats scene;
  std::vector<MissingPlacement> missing;  // drawn as checkers (allow_missing)
  bool terrain_untextured = false;
  core::Diagnostics terrain_failures;
  core::Diagnostics warnings;     // the weather's lightning fell back to the stand-in, an effect texture failed
  std::size_t effect_bodies = 0;  // effect bodies (weather and world) drawn in the last frame
  std::size_t effect_lights = 0;  // their point lights
  unsigned threads = 0;
  std::string isa;
  double load_ms = 0.0;
  double render_ms = 0.0;
  double write_ms = 0.0;
  FrameStats last_frame;

  // The `sortie render --json` report ({"ok": true, ...}).
  [[nodiscard]] core::Json to_json() const;
  // The `sortie render` lines: missing objects, what was drawn, timings, the files written.
  [[nodiscard]] std::string to_text() const;
};

// Errors: the game's (open_game), a fatal load error, the weather file's, the scene's, the
// renderer's, the PNG writes' (io.*).
core::Result<MissionRenderResult> render_mission(const MissionRenderRequest& request);

// A commander's view over the player's clan in a loaded mission's world: group_pose over
// LoadedMission::player_clan_positions toward the terrain's centre, as the viewer's game starts;
// none without a world, terrain or such objects. `sortie run --out` draws snapshot.png
// from it (MissionRenderRequest::camera).
std::optional<CameraPose> player_group_pose(const mission::LoadedMission& m);

// The scene of a loaded mission with its world's current snapshot applied (the viewer's
// mission mode; render_mission).
core::Result<MissionScene> loaded_mission_scene(const mission::LoadedMission& loaded, MissionSceneOptions options = {});

// The weather drawing over a frame: its draw calls after the frame's and its point lights (the
// lightning effects'), both copied into `storage`, which must outlive the frame, and the clear
// colour of the active sky object when there is one.
void draw_weather_over(Frame& frame, const WeatherDrawing& weather, FrameOverlay& storage);

// The weather of `schedule` (a new env::Environment with `seed`, its strikes starting `lightning`:
// null for env::choose_lightning_effect's stand-in) at `at_ms` seen from `pose` in a picture of
// width x height: the frames before it at 100 ms steps, then one of 1/60 s, so rain streaks are
// one viewer frame long; the last frame becomes the drawing's state. Errors: the drawing's.
core::Status weather_at(const env::WeatherSchedule& schedule, std::uint64_t seed, std::int64_t at_ms,
                        const CameraPose& pose, std::uint32_t width, std::uint32_t height, WeatherDrawing& drawing,
                        std::shared_ptr<const assets::PreparedEffect> lightning = nullptr);

// The world's live effects (fx.start) of a loaded mission at its world's time, drawn into
// `drawing` seen from `eye`: a runner synced to the world and updated once. Errors: the drawing's.
core::Status world_effects_now(const mission::LoadedMission& loaded, env::EffectRunner& runner, EffectDrawing& drawing,
                               const core::Vec3& eye);

}  // namespace sortie::render
