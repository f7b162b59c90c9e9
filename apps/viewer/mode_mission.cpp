// The mission mode (default): `sortie-viewer [GAME_DIR] --mission M [--camera X,Y,Z,YAW,PITCH]`.
// Free-flight camera (WASD, Q/E down/up, right button + mouse to look, Shift faster, wheel
// speed), click to pick an object, the world ticking at its own fixed step (world::FrameLoop).
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <optional>

#include "sortie/assets/sample_game.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/render/mission_scene.hpp"
#include "sortie/render/scene_camera.hpp"
#include "sortie/render/view_spec.hpp"
#include "sortie/world/clock.hpp"
#include "sortie/world/frame_loop.hpp"
#include "viewer_mode.hpp"

namespace sortie::viewer {
namespace {

struct MissionOptions {
  std::string game_dir;
  std::string mission;
  std::string camera;
  std::string overlay;
  std::string sample_scale = "demo";
};

class MissionMode final : public ViewerMode {
 public:
  MissionMode(mission::GameContext game, render::MissionScene scene, std::string mission,
              std::vector<world::ObjectId> ids, world::World& world)
      : game_(std::move(game)), scene_(std::move(scene)), mission_(std::move(mission)), ids_(std::move(ids)) {
    const auto& b = scene_.terrain_bounds().empty() ? scene_.bounds() : scene_.terrain_bounds();
    speed_ = std::max(1.0f, 0.25f * core::length(b.extent()));
    loop_ = std::make_unique<world::FrameLoop>(world, clock_);
    loop_->set_renderer([this](const world::WorldSnapshot& snap) {
      if (snap.tick != applied_tick_) {
        scene_.apply_snapshot(snap, ids_);
        applied_tick_ = snap.tick;
      }
      tick_ = snap.tick;
    });
  }
  void set_pose(const render::CameraPose& pose) {
    pose_ = pose;
    pose_set_ = true;
  }

  [[nodiscard]] std::string title() const override { return "sortie-viewer: " + mission_; }

  void on_event(const InputEvent& e, const InputState& state, int width, int height) override {
    switch (e.type) {
      case InputEvent::Type::mouse_move:
        if (state.buttons[3]) {
          pose_.yaw = core::wrap_angle(pose_.yaw - 0.0035f * static_cast<float>(e.dx));
          pose_.pitch = std::clamp(pose_.pitch - 0.0035f * static_cast<float>(e.dy), -1.55f, 1.55f);
        }
        break;
      case InputEvent::Type::wheel:
        speed_ *= std::pow(1.25f, static_cast<float>(e.wheel));
        speed_ = std::clamp(speed_, 0.01f, 1e6f);
        break;
      case InputEvent::Type::mouse_down:
        if (e.button == 1) pick(e.x, e.y, width, height);
        break;
      default:
        break;
    }
  }

  core::Status step(double dt, const InputState& s) override {
    const float t = static_cast<float>(dt) * speed_ * (s.down(Key::shift) ? 4.0f : 1.0f);
    const core::Vec3 forward = render::pose_forward(pose_);
    const core::Vec3 right{std::sin(pose_.yaw), -std::cos(pose_.yaw), 0.0f};
    core::Vec3 move{};
    if (s.down(Key::w)) move = move + forward;
    if (s.down(Key::s)) move = move - forward;
    if (s.down(Key::d)) move = move + right;
    if (s.down(Key::a)) move = move - right;
    if (s.down(Key::e)) move = move + core::Vec3{0.0f, 0.0f, 1.0f};
    if (s.down(Key::q)) move = move - core::Vec3{0.0f, 0.0f, 1.0f};
    if (pose_set_) pose_.eye = pose_.eye + move * t;
    // The simulation: platform time in, 0..8 fixed ticks out (world::StepPacer), then the
    // snapshot goes to the scene through the loop's renderer callback.
    clock_.advance(static_cast<std::uint64_t>(std::llround(dt * 1e6)));
    auto report = loop_->run_frame();
    if (!report) return core::fail(report.error());
    return {};
  }

  core::Status draw(render::Renderer& renderer, render::Framebuffer& target) override {
    aspect_ = static_cast<float>(target.width()) / static_cast<float>(std::max(1u, target.height()));
    if (!pose_set_) {  // the default view of `sortie render`, for this window's shape
      const auto& b = scene_.terrain_bounds().empty() ? scene_.bounds() : scene_.terrain_bounds();
      set_pose(render::default_pose(b, aspect_));
    }
    render::Frame frame = scene_.frame(camera());
    // The picked object carries a marker label (drawn over everything, yellow).
    std::vector<render::Label> labels(frame.labels.begin(), frame.labels.end());
    if (const auto at = selected_ >= 0 ? scene_.object_position(selected_) : std::nullopt) {
      render::Label l;
      l.text = fmt::format("[{}]", selected_);
      l.position = *at;
      l.color = render::Rgba8{255, 230, 60, 255};
      l.scale = 2;
      labels.push_back(std::move(l));
      frame.labels = labels;
    }
    return renderer.render(frame, target, &stats_);
  }

  [[nodiscard]] std::vector<std::string> hud() const override {
    std::vector<std::string> lines;
    constexpr float kDeg = 180.0f / core::kPi;
    lines.push_back(
        fmt::format("{}  tick {}  {} triangles drawn  eye {:.1f},{:.1f},{:.1f} yaw {:.0f} pitch {:.0f}  speed {:.1f}",
                    mission_, tick_, stats_.triangles_setup, pose_.eye.x, pose_.eye.y, pose_.eye.z, pose_.yaw * kDeg,
                    pose_.pitch * kDeg, speed_));
    lines.insert(lines.end(), selection_.begin(), selection_.end());
    return lines;
  }

  [[nodiscard]] bool relative_mouse() const override { return false; }

 private:
  render::Camera camera() const { return render::pose_camera(pose_, aspect_, scene_.bounds()); }

  void pick(int x, int y, int width, int height) {
    selection_.clear();
    selected_ = -1;
    const render::Viewport vp{0, 0, width, height};
    aspect_ = static_cast<float>(width) / static_cast<float>(std::max(1, height));
    const auto hit = scene_.pick(camera(), vp, static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
    if (!hit) {
      selection_.push_back("pick: nothing");
    } else if (hit->placed_index < 0) {
      selection_.push_back(
          fmt::format("pick: terrain at {:.1f},{:.1f},{:.1f}", hit->point.x, hit->point.y, hit->point.z));
    } else {
      selected_ = hit->placed_index;
      describe(hit->placed_index);
    }
    for (const auto& l : selection_) std::cout << l << "\n";
  }

  void describe(std::int32_t index) {
    const auto* loaded = game_.current();
    if (loaded == nullptr || !loaded->data) return;
    const auto i = static_cast<std::size_t>(index);
    const auto* placement = scene_.visuals().placement(index);
    const auto& tma = loaded->data->tma.objects;
    const std::string name = i < tma.size() ? tma[i].instance_name : std::string();
    selection_.push_back(fmt::format("pick: objects[{}] '{}' ({})", index, name,
                                     placement != nullptr ? placement->resource_name : std::string("?")));
    if (i < loaded->objects.size())
      selection_.push_back(
          fmt::format("  id {}  {}", loaded->objects[i].id.to_string(), loaded->objects[i].unit ? "unit" : "object"));
    if (placement != nullptr) {
      std::string protos;
      for (const auto& c : placement->components)
        if (c.prototype != nullptr) protos += (protos.empty() ? "" : ", ") + c.prototype->key;
      selection_.push_back("  prototype: " + protos);
    }
    if (i < tma.size()) {
      std::string props;
      for (const auto& p : tma[i].properties)
        props += fmt::format("{}{}={}", props.empty() ? "" : "; ", p.name, p.raw[0]);
      selection_.push_back("  properties: " + props);
    }
  }

  mission::GameContext game_;
  render::MissionScene scene_;
  std::string mission_;
  std::vector<world::ObjectId> ids_;
  world::ManualPlatformClock clock_;
  std::unique_ptr<world::FrameLoop> loop_;
  std::uint64_t applied_tick_ = ~std::uint64_t{0};
  std::uint64_t tick_ = 0;
  render::CameraPose pose_;
  bool pose_set_ = false;
  float speed_ = 10.0f;
  float aspect_ = 16.0f / 9.0f;
  render::FrameStats stats_;
  std::vector<std::string> selection_;
  std::int32_t selected_ = -1;
};

core::Result<std::unique_ptr<ViewerMode>> make_mission_mode(const MissionOptions& o) {
  std::optional<render::CameraPose> pose;
  if (!o.camera.empty()) {
    SORTIE_TRY(auto p, render::parse_camera_pose(o.camera));
    pose = p;
  }
  SORTIE_TRY(auto overlays, render::parse_overlays(o.overlay));
  std::filesystem::path dir = o.game_dir;
  if (dir.empty()) {
    assets::SampleOptions so;
    so.scale = o.sample_scale == "corpus" ? assets::SampleScale::corpus : assets::SampleScale::demo;
    SORTIE_TRY(dir, assets::ensure_cached_sample(so, assets::default_cache_root()));
  }
  SORTIE_TRY(auto game, mission::GameContext::open(dir));
  std::string name = o.mission;
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
  world::World& w = *loaded->world;
  auto mode = std::make_unique<MissionMode>(std::move(game), std::move(scene), report.mission, std::move(ids), w);
  if (pose) mode->set_pose(*pose);
  return std::unique_ptr<ViewerMode>(std::move(mode));
}

}  // namespace

// Shared with `sortie render`: the same scene, camera and pose parsing, so a screenshot of the
// viewer at --camera P equals `sortie render --camera P` of the same size.
SORTIE_VIEWER_MODE(mission, "fly over a mission (the default mode)", [](CLI::App& app) -> ModeFactory {
  auto o = std::make_shared<MissionOptions>();
  app.add_option("game_dir", o->game_dir, "game directory (default: the embedded sample)");
  app.add_option("--mission,-m", o->mission, "mission name or data.tma path (default: the first mission)");
  app.add_option("--camera", o->camera, "start pose X,Y,Z,YAW,PITCH (degrees; default: the whole map)");
  app.add_option("--overlay", o->overlay, "overlays: areals,routes,labels");
  app.add_option("--sample", o->sample_scale, "scale of the embedded sample: demo or corpus")
      ->check(CLI::IsMember({"demo", "corpus"}));
  return [o]() -> core::Result<std::unique_ptr<ViewerMode>> {
    SORTIE_TRY(auto mode, make_mission_mode(*o));
    return mode;
  };
});

}  // namespace sortie::viewer
