// The join mode: `sortie-viewer join HOST:PORT --name NAME [GAME_DIR] [--ticks N]` — the viewer
// as a net client of `sortie serve` (issue #13 part 3). It follows the session like `sortie
// join` (a spectator: no orders), draws the mission scene of the session's mission (loaded from
// GAME_DIR, default the embedded sample, as the server does) with the mirrors' transforms of the
// replica each frame, and after the last frame follows on to --ticks (or the session's end) and
// prints the replica's final state hash, the number the server prints. The session loop is libs/net's
// (net::JoinSession, the one `sortie join` runs), pumped once per frame without waiting. The
// server plays the mission's scenario (net/server_scenario.hpp); its objectives and outcome reach
// the replica as world state, and the HUD lists them as `sortie-viewer`'s mission game marks them.
#include <fmt/format.h>

#include <iostream>

#include "flight_input.hpp"
#include "mission_view.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/mission_scenario.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/net/join_session.hpp"
#include "sortie/net/session_report.hpp"
#include "sortie/render/scene_camera.hpp"
#include "viewer_mode.hpp"

namespace sortie::viewer {
namespace {

struct JoinModeOptions {
  net::JoinOptions join;
  std::string game_dir;
  std::string sample_scale = "demo";
};

class JoinMode final : public ViewerMode {
 public:
  JoinMode(JoinModeOptions options, std::unique_ptr<net::JoinSession> session)
      : options_(std::move(options)), session_(std::move(session)) {}

  [[nodiscard]] std::string title() const override { return "sortie-viewer: join " + options_.join.address; }

  void on_event(const InputEvent& e, const InputState& state, int, int) override { input_.on_event(e, state); }

  core::Status step(double dt, const InputState&) override {
    SORTIE_CHECK(session_->pump());
    if (!view_ && session_->ready()) {
      SORTIE_TRY(auto view,
                 load_mission_view(options_.game_dir, session_->replica()->mission_path(), options_.sample_scale, {}));
      // The local copy must be the served mission (another sample or game draws objects off its
      // ground): refused with a clear message before anything is drawn.
      const mission::LoadedMission& local = *view.loaded();
      std::vector<std::string> keys;
      for (const world::Handle h : local.world->queue())
        if (const world::WorldObject* o = local.world->find(h)) keys.push_back(o->prototype_key);
      SORTIE_CHECK(net::check_local_mission(*session_->replica(), nav::triangle_soup_from(local.data->land_msh), keys));
      view_ = std::make_unique<MissionView>(std::move(view));
    }
    if (view_) {
      const auto& world = session_->replica()->world();
      if (world.clock().tick != applied_tick_ || !applied_) {
        view_->scene.apply_snapshot(*world.snapshot(), view_->ids);
        applied_tick_ = world.clock().tick;
        applied_ = true;
      }
    }
    input_.step(static_cast<std::uint64_t>(std::llround(dt * 1e6)), width_, height_);
    return {};
  }

  core::Status draw(render::Renderer& renderer, render::Framebuffer& target) override {
    width_ = target.width();
    height_ = target.height();
    const float aspect = static_cast<float>(width_) / static_cast<float>(std::max(1u, height_));
    if (!view_) {
      target.clear(render::Rgba8{24, 26, 32, 255});
      return {};
    }
    if (!input_.started()) input_.start(render::default_pose(view_->framing(), aspect), view_->speed(), kSceneVfov);
    return renderer.render(view_->scene.frame(view_->camera(input_.pose(), aspect)), target);
  }

  [[nodiscard]] std::vector<std::string> hud() const override {
    const auto& c = session_->client();
    std::vector<std::string> lines;
    lines.push_back(fmt::format("join {} as {}: {}  player {}  tick {}  objects {}", options_.join.address,
                                options_.join.name, net::to_string(c.state()), c.player(), c.ticks(),
                                c.replica() != nullptr ? c.replica()->world().live_count() : 0));
    const auto summary =
        c.replica() != nullptr ? mission::summarize_scenario(c.replica()->world(), nullptr) : std::nullopt;
    if (summary) {  // the served scenario's objectives and outcome (replicated world state)
      for (const auto& o : summary->objectives) {
        const char* mark = o.status == scenario::ObjectiveStatus::completed ? "[x]"
                           : o.status == scenario::ObjectiveStatus::failed  ? "[!]"
                                                                            : "[ ]";
        lines.push_back(fmt::format("{} {}", mark, o.text));
      }
      if (summary->outcome != scenario::Outcome::none)
        lines.push_back(fmt::format("mission {}: {}", scenario::to_string(summary->outcome), summary->reason));
    }
    return lines;
  }

  int finish() override {
    auto hash = session_->finish(options_.join.timeout_ms);  // the window is closed: bounded
    if (!hash) {
      std::cerr << "sortie-viewer: " << hash.error().to_string() << "\n";  // to_string ends with " [code]"
      return hash.error().code == "join.timeout" ? 2 : 1;
    }
    const auto& c = session_->client();
    std::cout << fmt::format("player {} joined at tick {}, followed {} ticks\n", c.player(), c.live_tick(), c.ticks());
    if (const auto scenario = mission::summarize_scenario(c.replica()->world(), nullptr))
      std::cout << scenario->to_text();
    std::cout << "final state hash: " << core::hash_hex(*hash) << "\n";
    return 0;
  }

 private:
  JoinModeOptions options_;
  std::unique_ptr<net::JoinSession> session_;
  std::unique_ptr<MissionView> view_;
  FlightInput input_;
  std::uint64_t applied_tick_ = 0;
  bool applied_ = false;
  std::uint32_t width_ = 1280;
  std::uint32_t height_ = 720;
};

}  // namespace

SORTIE_VIEWER_MODE(join, "join a `sortie serve` session and watch it", [](CLI::App& app) -> ModeFactory {
  auto o = std::make_shared<JoinModeOptions>();
  app.add_option("address", o->join.address, "server HOST:PORT")->required();
  app.add_option("--name", o->join.name, "player name")->required();
  app.add_option("game_dir", o->game_dir, "game directory with the session's mission (default: the embedded sample)");
  cli::add_number(&app, "--ticks", o->join.ticks,
                  "follow N ticks, then print the final hash (0: until the session ends)", std::uint64_t{0},
                  net::kMaxSessionTicks);
  cli::add_number(&app, "--timeout-ms", o->join.timeout_ms, "give up when the server does not answer / finish in time",
                  std::uint64_t{1}, std::uint64_t{3'600'000});
  app.add_option("--sample", o->sample_scale, "scale of the embedded sample: demo or corpus")
      ->check(CLI::IsMember({"demo", "corpus"}));
  return [o]() -> core::Result<std::unique_ptr<ViewerMode>> {
    SORTIE_TRY(auto session, net::JoinSession::connect(o->join));
    return std::unique_ptr<ViewerMode>(std::make_unique<JoinMode>(*o, std::move(session)));
  };
});

}  // namespace sortie::viewer
