// The squad mode: `sortie-viewer squad MAP [--seed N] [--threads N] [--overlay] [--plain]`, the
// squad-tactics game (libs/game SquadSession). The mode only reads the held keys into SquadKeys
// and paces the simulation's fixed 60 Hz tick from the platform time (world::StepPacer, at most 8
// ticks per frame); the simulation, picture, horror layer, overlay, pause, single step and restart
// live in libs/game (squad_session.hpp).
//   W/A/S/D move (relative to the screen), Shift sprint, Space manual aim on/off, Left/Right turn
//   the aim, Tab next target in the aim cone, 1/2/3 wedge/line/ring, O overlay, P pause, N one
//   tick while paused, R restart with the next seed.
// Stdout: one "squad:" line of the session's state at tick 0, every simulated second, and after
// each pause, step and restart (the scripted tests read it).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "sortie/cli/options.hpp"
#include "sortie/game/squad_session.hpp"
#include "sortie/squad/map.hpp"
#include "sortie/squad/squad_world.hpp"
#include "sortie/world/clock.hpp"
#include "viewer_mode.hpp"

namespace sortie::viewer {
namespace {

constexpr auto kPerSecond = static_cast<std::uint64_t>(squad::kTickRate);

struct SquadOptions {
  std::string map;
  std::uint64_t seed = 1;
  unsigned threads = 0;
  bool overlay = false;
  bool plain = false;
};

game::SquadKeys keys_of(const InputState& s) {
  game::SquadKeys k;
  k.up = s.down(Key::w);
  k.left = s.down(Key::a);
  k.down = s.down(Key::s);
  k.right = s.down(Key::d);
  k.sprint = s.down(Key::shift);
  k.manual = s.down(Key::space);
  k.aim_left = s.down(Key::left);
  k.aim_right = s.down(Key::right);
  k.cycle = s.down(Key::tab);
  k.wedge = s.down(Key::digit1);
  k.line = s.down(Key::digit2);
  k.ring = s.down(Key::digit3);
  k.overlay = s.down(Key::o);
  k.pause = s.down(Key::p);
  k.step = s.down(Key::n);
  k.restart = s.down(Key::r);
  return k;
}

class SquadMode final : public ViewerMode {
 public:
  SquadMode(game::SquadSession session, std::string name, float yaw)
      : session_(std::move(session)), name_(std::move(name)), up_(game::screen_up_direction(yaw)) {}

  [[nodiscard]] std::string title() const override { return "sortie-viewer squad: " + name_; }
  void on_event(const InputEvent&, const InputState&, int, int) override {}

  core::Status step(double dt, const InputState& state) override {
    if (!reported_) report();  // tick 0
    const auto us = static_cast<std::uint64_t>(std::llround(std::max(dt, 0.0) * 1e6));
    const unsigned ticks = pacer_.frame(us);
    const game::SquadKeys keys = keys_of(state);
    // A frame without a tick leaves the keys for the next one, so a press is not lost on a fast
    // screen (the controls see it as pressed when the next tick comes); pause, step and restart
    // act at once.
    if (ticks == 0 && !session_.paused() && !keys.pause && !keys.restart) return {};
    const bool was_paused = session_.paused();
    const std::uint32_t restarts = session_.restarts();
    SORTIE_TRY(const unsigned ran, session_.frame(keys, ticks));
    const std::uint64_t tick = session_.sim().tick();
    if (session_.restarts() != restarts || session_.paused() != was_paused || (session_.paused() && ran > 0) ||
        tick / kPerSecond != reported_tick_ / kPerSecond)
      report();
    return {};
  }

  core::Status draw(render::Renderer&, render::Framebuffer& target) override {
    session_.set_size(target.width(), target.height());
    return session_.draw(target);
  }

  [[nodiscard]] std::vector<std::string> hud() const override {
    const auto& sim = session_.sim();
    const auto& q = sim.squads().front();
    return {fmt::format("{}  seed {}  tick {} ({:.1f} s)  friendly hits {}{}", name_, session_.seed(), sim.tick(),
                        static_cast<double>(sim.tick()) / squad::kTickRate, sim.stats().friendly_hits,
                        session_.paused() ? "  PAUSED (N steps)" : ""),
            fmt::format("{}  {}  {}{}  soldiers {}  kills {}", squad::to_string(q.state), squad::to_string(q.formation),
                        q.manual ? "manual aim" : "auto aim", q.sprinting ? "  sprint" : "", sim.live_agents(),
                        sim.stats().kills)};
  }

 private:
  // The session's state on stdout: the disc and the live soldiers' centre in squad coordinates,
  // and how far up the screen the centre is (its component along the camera's up direction).
  void report() {
    const auto& sim = session_.sim();
    const auto& q = sim.squads().front();
    core::Vec2 sum{};
    std::uint32_t live = 0;
    for (const auto& a : sim.agents())
      if (a.alive) {
        sum = sum + a.pos;
        ++live;
      }
    const core::Vec2 centre = live > 0 ? sum * (1.0f / static_cast<float>(live)) : q.disc;
    std::cout << fmt::format(
        "squad: tick {} seed {} disc {:.3f},{:.3f} centre {:.3f},{:.3f} up {:.3f} state {} friendly_hits {} "
        "live {} paused {} hash {:016x}\n",
        sim.tick(), session_.seed(), q.disc.x, q.disc.y, centre.x, centre.y, core::dot(centre, up_),
        squad::to_string(q.state), sim.stats().friendly_hits, live, session_.paused() ? 1 : 0, sim.state_hash());
    reported_ = true;
    reported_tick_ = sim.tick();
  }

  game::SquadSession session_;
  std::string name_;
  core::Vec2 up_;
  world::StepPacer pacer_{squad::kSquadStepUs};
  bool reported_ = false;
  std::uint64_t reported_tick_ = 0;
};

}  // namespace

SORTIE_VIEWER_MODE(
    squad, "play the squad-tactics game on a map (docs/squad-maps.md)", [](CLI::App& app) -> ModeFactory {
      auto o = std::make_shared<SquadOptions>();
      app.footer(
          "Keys: W/A/S/D move (on the screen), Shift sprint, Space manual aim, Left/Right turn the aim, Tab next\n"
          "target, 1/2/3 wedge/line/ring, O overlay, P pause, N one tick while paused, R restart (next seed),\n"
          "F12 screenshot, Escape quits. docs/squad-game.md\n\nExample:\n  sortie-viewer squad data/squad/rooms.txt "
          "--seed 7\n");
      app.add_option("map", o->map, "map file (data/squad/*.txt, docs/squad-maps.md)")->required();
      cli::add_number(&app, "--seed", o->seed, "seed of the simulation (R restarts with the next one)");
      cli::add_number(&app, "--threads", o->threads, "render threads of the picture (0 = every core)", 0u, 256u);
      app.add_flag("--overlay", o->overlay, "start with the debug overlay on (O toggles it)");
      app.add_flag("--plain", o->plain, "without the horror layer");
      return [o]() -> core::Result<std::unique_ptr<ViewerMode>> {
        SORTIE_TRY(auto map, squad::load_squad_map(o->map));
        game::SquadSessionOptions so;
        so.seed = o->seed;
        so.view.threads = o->threads != 0 ? o->threads : std::max(1u, std::thread::hardware_concurrency());
        so.view.overlay = o->overlay;
        so.view.horror = !o->plain;
        SORTIE_TRY(auto session, game::SquadSession::create(map, so));
        return std::unique_ptr<ViewerMode>(std::make_unique<SquadMode>(std::move(session), map.name, so.view.yaw));
      };
    });

}  // namespace sortie::viewer
