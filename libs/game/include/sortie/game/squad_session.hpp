#pragma once
// A played squad session without a window: the simulation on libs/world (SquadWorld), the
// picture (SquadView) and the controls (SquadControls), with the viewer's pause, single step,
// overlay and restart. The viewer's squad mode reads its keyboard (or the viewer's scripted
// events) into SquadKeys, calls frame() with the ticks its 60 Hz pacing allows, and draw()s.
//
//   auto session = SquadSession::create(map, {.seed = 7});
//   session->frame(keys, 1);        // one tick with these keys (pressed buttons act once)
//   session->draw(framebuffer);
#include <cstdint>
#include <memory>

#include "sortie/core/diagnostic.hpp"
#include "sortie/game/squad_controls.hpp"
#include "sortie/game/squad_view.hpp"
#include "sortie/render/framebuffer.hpp"
#include "sortie/squad/map.hpp"
#include "sortie/squad/squad_world.hpp"

namespace sortie::game {

struct SquadSessionOptions {
  std::uint64_t seed = 1;
  SquadViewOptions view;
};

class SquadSession {
 public:
  // Codes as SquadSim::create.
  static core::Result<SquadSession> create(const squad::SquadMap& map, const SquadSessionOptions& options = {});
  SquadSession(SquadSession&&) noexcept;
  SquadSession& operator=(SquadSession&&) noexcept;
  ~SquadSession();

  // One displayed frame: applies the keys (O toggles the overlay, P pauses, R restarts with the
  // next seed), then runs `ticks` simulation ticks (none while paused; N steps one tick while
  // paused). Pressed buttons reach the first tick only. Returns the ticks run.
  core::Result<unsigned> frame(const SquadKeys& keys, unsigned ticks = 1);
  // The picture of the current tick.
  core::Status draw(render::Framebuffer& target, SquadFrameStats* stats = nullptr);

  [[nodiscard]] bool paused() const { return paused_; }
  [[nodiscard]] bool overlay() const { return view_.options().overlay; }
  [[nodiscard]] std::uint64_t seed() const { return seed_; }
  [[nodiscard]] std::uint32_t restarts() const { return restarts_; }
  [[nodiscard]] const squad::SquadSim& sim() const { return world_->sim(); }
  [[nodiscard]] const squad::SquadWorld& world() const { return *world_; }
  [[nodiscard]] SquadView& view() { return view_; }
  void set_size(std::uint32_t width, std::uint32_t height) { view_.set_size(width, height); }

  // The seed a restart takes after `seed` (R): the next one.
  static std::uint64_t next_seed(std::uint64_t seed) { return seed + 1; }

 private:
  SquadSession(std::unique_ptr<squad::SquadWorld> world, SquadView view, SquadControls controls, std::uint64_t seed);
  core::Status tick(const squad::InputFrame& frame);

  std::unique_ptr<squad::SquadWorld> world_;
  SquadView view_;
  SquadControls controls_;
  std::uint64_t seed_ = 1;
  std::uint32_t restarts_ = 0;
  bool paused_ = false;
};

}  // namespace sortie::game
