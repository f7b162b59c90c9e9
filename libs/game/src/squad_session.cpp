#include "sortie/game/squad_session.hpp"

#include "sortie/game/squad_snapshot.hpp"

namespace sortie::game {

SquadSession::SquadSession(std::unique_ptr<squad::SquadWorld> world, SquadView view, SquadControls controls,
                           std::uint64_t seed)
    : world_(std::move(world)), view_(std::move(view)), controls_(controls), seed_(seed) {}
SquadSession::SquadSession(SquadSession&&) noexcept = default;
SquadSession& SquadSession::operator=(SquadSession&&) noexcept = default;
SquadSession::~SquadSession() = default;

core::Result<SquadSession> SquadSession::create(const squad::SquadMap& map, const SquadSessionOptions& options) {
  squad::SimConfig config;
  config.seed = options.seed;
  SORTIE_TRY(squad::SquadWorld world, squad::SquadWorld::create(map, config));
  SquadSession s(std::make_unique<squad::SquadWorld>(std::move(world)), SquadView(options.view),
                 SquadControls(options.view.yaw), options.seed);
  s.view_.observe(take_snapshot(s.sim()));
  return s;
}

core::Status SquadSession::tick(const squad::InputFrame& frame) {
  SORTIE_CHECK(world_->step(frame));
  view_.observe(take_snapshot(world_->sim()));
  return {};
}

core::Result<unsigned> SquadSession::frame(const SquadKeys& keys, unsigned ticks) {
  const SquadControlOutput out = controls_.update(keys);
  if (out.toggle_overlay) view_.set_overlay(!view_.options().overlay);
  if (out.toggle_pause) paused_ = !paused_;
  if (out.restart) {
    seed_ = next_seed(seed_);
    ++restarts_;
    SORTIE_CHECK(world_->restart(seed_));
    view_.reset();
    SORTIE_CHECK(tick({}));  // the session command applies on this tick
    return 1u;
  }
  unsigned run = paused_ ? (out.step_once ? 1u : 0u) : ticks;
  for (unsigned k = 0; k < run; ++k) SORTIE_CHECK(tick(k == 0 ? out.frame : out.held));
  return run;
}

core::Status SquadSession::draw(render::Framebuffer& target, SquadFrameStats* stats) {
  return view_.render(take_snapshot(world_->sim(), view_.options().overlay), target, stats);
}

}  // namespace sortie::game
