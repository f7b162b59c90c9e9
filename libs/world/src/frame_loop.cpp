#include "sortie/world/frame_loop.hpp"

#include "sortie/world/world.hpp"

namespace sortie::world {

std::string_view to_string(FramePhase phase) {
  switch (phase) {
    case FramePhase::collect_platform_events:
      return "collect_platform_events";
    case FramePhase::build_input_snapshot:
      return "build_input_snapshot";
    case FramePhase::advance_game_clock:
      return "advance_game_clock";
    case FramePhase::calculate_world_queue:
      return "calculate_world_queue";
    case FramePhase::apply_deferred_operations:
      return "apply_deferred_operations";
    case FramePhase::update_animation_and_effects:
      return "update_animation_and_effects";
    case FramePhase::publish_render_snapshot:
      return "publish_render_snapshot";
    case FramePhase::render_world:
      return "render_world";
    case FramePhase::end_frame_callbacks:
      return "end_frame_callbacks";
    case FramePhase::maintenance:
      return "maintenance";
  }
  return "unknown";
}

FrameLoop::FrameLoop(World& world, PlatformClock& clock, std::uint32_t max_ticks_per_frame,
                     std::uint64_t presentation_seed)
    : world_(world),
      clock_(clock),
      pacer_(world.clock().step_us, max_ticks_per_frame),
      presentation_rng_(presentation_seed, /*stream=*/2) {}

std::uint64_t FrameLoop::at_end_of_render(Callback fn) {
  const std::uint64_t seq = next_callback_++;
  end_of_render_.emplace_back(seq, std::move(fn));
  return seq;
}

core::Result<FrameReport> FrameLoop::run_frame() {
  FrameReport report;
  report.frame = frame_++;
  const std::uint64_t now = clock_.now_us();
  report.elapsed_us = started_ ? now - last_now_us_ : 0;
  last_now_us_ = now;
  started_ = true;

  report.phases.push_back(FramePhase::collect_platform_events);
  report.phases.push_back(FramePhase::build_input_snapshot);
  if (input_) input_(world_);  // commands for the next tick; input accumulates between steps

  report.phases.push_back(FramePhase::advance_game_clock);
  report.ticks = pacer_.frame(report.elapsed_us);

  report.phases.push_back(FramePhase::calculate_world_queue);
  for (std::uint32_t i = 0; i < report.ticks; ++i) {
    SORTIE_CHECK(world_.tick());  // each tick applies its own deferred operations
  }
  report.phases.push_back(FramePhase::apply_deferred_operations);

  report.phases.push_back(FramePhase::update_animation_and_effects);
  const GameClock& game = world_.clock();
  const std::uint64_t anim_us = game.paused ? 0 : (report.elapsed_us * game.scale_permille) / kScaleOne;
  animation_clock_.advance(anim_us);
  if (animation_) animation_(animation_clock_, presentation_rng_);

  if (render_enabled_) {
    report.phases.push_back(FramePhase::publish_render_snapshot);
    snapshot_ = world_.snapshot();
    report.phases.push_back(FramePhase::render_world);
    if (renderer_) renderer_(*snapshot_);
    report.rendered = true;
  }

  report.phases.push_back(FramePhase::end_frame_callbacks);
  auto callbacks = std::move(end_of_render_);  // callbacks queued by callbacks run next frame
  end_of_render_.clear();
  for (auto& [seq, fn] : callbacks) fn();

  report.phases.push_back(FramePhase::maintenance);
  world_.advance_maintenance_clock(report.elapsed_us);
  world_.run_due_maintenance();
  return report;
}

}  // namespace sortie::world
