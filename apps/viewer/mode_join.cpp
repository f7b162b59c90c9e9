// The join mode: `sortie-viewer join HOST:PORT --name NAME [GAME_DIR] [--ticks N] [--clan C]
// [--spectate]` — the viewer as a net client of `sortie serve` (issue #13 part 3, issue #19
// part 7). It follows the session like `sortie join` (net::JoinSession, pumped once per frame
// without waiting), draws the mission scene of the session's mission (loaded from GAME_DIR,
// default the embedded sample, as the server does) with the replica's objects each frame, and
// plays: net::JoinPlay claims the units of the player's clan (--clan, default the mission's
// player clan) and the mission game (game_controls.hpp over game::MissionGame, the local game's
// selection, orders, groups, follow, stop and piloting) orders them; the orders go to the server
// as movement commands, which it checks (ownership), logs and sends to every replica. The server
// plays the mission's scenario (net/server_scenario.hpp); its objectives and outcome reach the
// replica as world state and the game's HUD shows them. After the last frame it follows on to
// --ticks (or the session's end) and prints the player's units and the replica's final state
// hash, the number the server prints.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "flight_input.hpp"
#include "game_controls.hpp"
#include "mission_view.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/bootstrap.hpp"
#include "sortie/mission/mission_scenario.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/net/join_play.hpp"
#include "sortie/net/join_session.hpp"
#include "sortie/net/session_report.hpp"
#include "sortie/render/scene_camera.hpp"
#include "sortie/world/world.hpp"
#include "viewer_mode.hpp"

namespace sortie::viewer {
namespace {

struct JoinModeOptions {
  net::JoinOptions join;
  std::string game_dir;
  std::string sample_scale = "demo";
  std::string clan;       // empty: the mission's player clan
  bool spectate = false;  // watch only: no units claimed, no orders
};

class JoinMode final : public ViewerMode {
 public:
  JoinMode(JoinModeOptions options, std::unique_ptr<net::JoinSession> session)
      : options_(std::move(options)), session_(std::move(session)) {}

  [[nodiscard]] std::string title() const override { return "sortie-viewer: join " + options_.join.address; }
  // Scripted frames count from when the player's units are in (or the session is over).
  [[nodiscard]] bool ready() const override { return units_reported_ || session_->over(); }

  void on_event(const InputEvent& e, const InputState& state, int width, int height) override {
    if (controls_) return controls_->on_event(e, state, width, height);
    input_.on_event(e, state);
  }

  // The bootstrap's trace goes onto the mirrored world as soon as the server's welcome makes it,
  // before any tick is applied (the world's own channels: queue, behavior, wizard, control, ...;
  // docs/traces.md).
  core::Status attach(mission::Bootstrap& boot) override {
    if (boot.shared_trace()) session_->client().trace_world(boot.shared_trace());
    return {};
  }

  core::Status step(double dt, const InputState&) override {
    SORTIE_CHECK(session_->pump());
    if (!view_ && session_->ready()) SORTIE_CHECK(start_view());
    const auto dt_us = static_cast<std::uint64_t>(std::llround(dt * 1e6));
    if (play_ && !session_->over()) SORTIE_CHECK(play_->step());
    if (view_) {
      const auto& world = session_->replica()->world();
      if (world.clock().tick != applied_tick_ || !applied_) {
        view_->scene.apply_snapshot(*world.snapshot(), view_->ids);
        applied_tick_ = world.clock().tick;
        applied_ = true;
      }
    }
    if (controls_ && input_.started()) {
      SORTIE_CHECK(controls_->step(dt_us, width_, height_));
      report_units();
    } else {
      input_.step(dt_us, width_, height_);
    }
    return {};
  }

  core::Status draw(render::Renderer& renderer, render::Framebuffer& target) override {
    width_ = target.width();
    height_ = target.height();
    aspect_ = static_cast<float>(width_) / static_cast<float>(std::max(1u, height_));
    if (!view_) {
      target.clear(render::Rgba8{24, 26, 32, 255});
      return {};
    }
    if (!input_.started()) input_.start(render::default_pose(view_->framing(), aspect_), view_->speed(), kSceneVfov);
    const render::Camera cam = controls_ ? controls_->camera(aspect_) : view_->camera(input_.pose(), aspect_);
    render::Frame frame = view_->scene.frame(cam);
    frame.keep_depth = false;  // nothing here reads the depth plane back (picking casts rays)
    std::vector<render::DrawCall> draws(frame.draws.begin(), frame.draws.end());
    if (controls_) {
      const auto extra = controls_->game().overlay();
      draws.insert(draws.end(), extra.begin(), extra.end());
      frame.draws = draws;
    }
    SORTIE_CHECK(renderer.render(frame, target));
    if (controls_) controls_->draw(target, cam);
    return {};
  }

  [[nodiscard]] std::vector<std::string> hud() const override {
    const auto& c = session_->client();
    std::vector<std::string> lines;
    lines.push_back(fmt::format("join {} as {}: {}  player {}  tick {}  objects {}", options_.join.address,
                                options_.join.name, net::to_string(c.state()), c.player(), c.ticks(),
                                c.replica() != nullptr ? c.replica()->world().live_count() : 0));
    if (controls_) {  // the game's HUD shows the objectives, the selection and the minimap
      lines.push_back(fmt::format("{} units of clan {}", play_->player_units().size(),
                                  play_->player_clan_name().empty() ? "-" : play_->player_clan_name()));
      if (!controls_->status().empty()) lines.push_back(controls_->status());
      return lines;
    }
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
    if (play_) {
      // The player's units where the session ended (the replica equals the server's world).
      std::cout << fmt::format("game: {} orders sent\n", play_->orders_sent());
      for (const auto& id : play_->player_units()) {
        const auto& p = live_object(play_->world(), id)->transform.position;
        std::cout << fmt::format("game: unit {} at {:.1f},{:.1f}\n", id.to_string(), p.x, p.y);
      }
    }
    if (const auto scenario = mission::summarize_scenario(c.replica()->world(), nullptr))
      std::cout << scenario->to_text();
    std::cout << "final state hash: " << core::hash_hex(*hash) << "\n";
    return 0;
  }

 private:
  // The session's mission, loaded locally for the picture and the mission's data; then the game.
  core::Status start_view() {
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
    net::JoinPlayOptions po;
    po.clan = options_.clan;
    po.claim = !options_.spectate;
    SORTIE_TRY(play_, net::JoinPlay::create(session_->client(), *view_->loaded(), po));
    const float ground = view_->framing().empty() ? 0.0f : view_->framing().center().z;
    controls_ = std::make_unique<GameControls>(
        *play_, view_->scene, input_, [this] { return view_->camera(input_.pose(), aspect_); },
        [this](const render::CameraPose& pose) { input_.start(pose, view_->speed(), kSceneVfov); }, ground);
    std::cout << fmt::format("game: joined as player {}, clan {}\n", session_->client().player(),
                             options_.spectate ? std::string("none (spectating)") : play_->player_clan_name());
    return {};
  }

  // Once the claimed units are the player's (or 2 s after the claim: a unit another player took
  // first stays theirs): how many, and the camera over the first.
  void report_units() {
    if (units_reported_ || (!play_->claim_sent() && !options_.spectate)) return;
    const auto units = play_->player_units();
    if (units.size() < play_->claimed() && session_->client().ticks() < play_->claim_tick() + 125) return;
    units_reported_ = true;
    std::cout << fmt::format("game: {} units of clan {} to command\n", units.size(), play_->player_clan_name());
    for (const auto& id : units) {
      const auto& p = live_object(play_->world(), id)->transform.position;
      std::cout << fmt::format("game: unit {} from {:.1f},{:.1f}\n", id.to_string(), p.x, p.y);
    }
    if (units.empty()) return;
    const world::WorldObject* o = live_object(play_->world(), units.front());
    const core::Vec3 c = o->transform.position;
    const core::Vec3 centre = view_->framing().center();
    render::CameraPose pose;
    pose.yaw = std::atan2(centre.y - c.y, centre.x - c.x);
    pose.pitch = -0.6f;
    pose.eye = c - render::pose_forward(pose) * 55.0f;
    input_.start(pose, view_->speed(), kSceneVfov);
  }

  JoinModeOptions options_;
  std::unique_ptr<net::JoinSession> session_;
  std::unique_ptr<MissionView> view_;
  std::unique_ptr<net::JoinPlay> play_;
  std::unique_ptr<GameControls> controls_;
  FlightInput input_;
  std::uint64_t applied_tick_ = 0;
  bool applied_ = false;
  bool units_reported_ = false;
  std::uint32_t width_ = 1280;
  std::uint32_t height_ = 720;
  float aspect_ = 16.0f / 9.0f;
};

}  // namespace

SORTIE_VIEWER_MODE(join, "join a `sortie serve` session and play it (--spectate: watch)",
                   [](CLI::App& app) -> ModeFactory {
                     auto o = std::make_shared<JoinModeOptions>();
                     app.add_option("address", o->join.address, "server HOST:PORT")->required();
                     app.add_option("--name", o->join.name, "player name")->required();
                     app.add_option("game_dir", o->game_dir,
                                    "game directory with the session's mission (default: the embedded sample)");
                     cli::add_number(&app, "--ticks", o->join.ticks,
                                     "follow N ticks, then print the final hash (0: until the session ends)",
                                     std::uint64_t{0}, net::kMaxSessionTicks);
                     cli::add_number(&app, "--timeout-ms", o->join.timeout_ms,
                                     "give up when the server does not answer / finish in time", std::uint64_t{1},
                                     std::uint64_t{3'600'000});
                     app.add_option("--sample", o->sample_scale, "scale of the embedded sample: demo or corpus")
                         ->check(CLI::IsMember({"demo", "corpus"}));
                     app.add_option("--clan", o->clan,
                                    "the clan to play: take its units (default: the mission's player clan)");
                     app.add_flag("--spectate", o->spectate, "watch only: take no units, give no orders");
                     return [o]() -> core::Result<std::unique_ptr<ViewerMode>> {
                       SORTIE_TRY(auto session, net::JoinSession::connect(o->join));
                       return std::unique_ptr<ViewerMode>(std::make_unique<JoinMode>(*o, std::move(session)));
                     };
                   });

}  // namespace sortie::viewer
