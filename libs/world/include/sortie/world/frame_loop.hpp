#pragma once
// The main-loop schedule (seed 003 "Главный цикл", spec §26.3): one frame runs the phases
//   collect platform events -> build input snapshot -> advance game clock (pacing)
//   -> calculate world queue (0..max ticks) -> apply deferred (inside World::tick)
//   -> update animation and effects -> [publish render snapshot -> render world]
//   -> end-of-render callbacks -> maintenance
// in this order, always. The renderer is a callback that only sees an immutable snapshot;
// the world never includes the renderer.
#include <cstdint>
#include <functional>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/world/clock.hpp"
#include "sortie/world/snapshot.hpp"

namespace sortie::world {

class World;

enum class FramePhase : std::uint8_t {
  collect_platform_events,
  build_input_snapshot,
  advance_game_clock,
  calculate_world_queue,
  apply_deferred_operations,
  update_animation_and_effects,
  publish_render_snapshot,
  render_world,
  end_frame_callbacks,
  maintenance,
};

std::string_view to_string(FramePhase phase);

struct FrameReport {
  std::uint64_t frame = 0;
  std::uint64_t elapsed_us = 0;  // platform time since the previous frame
  std::uint32_t ticks = 0;       // calculation steps run this frame
  bool rendered = false;
  std::vector<FramePhase> phases;
};

class FrameLoop {
 public:
  // Collects platform events (window messages, input) and turns them into commands for the
  // next tick (World::submit). Runs once per frame, even when no tick runs.
  using InputCollector = std::function<void(World&)>;
  using AnimationUpdater = std::function<void(const AnimationClock&, core::Rng& presentation_rng)>;
  using Renderer = std::function<void(const WorldSnapshot&)>;
  using Callback = std::function<void()>;

  FrameLoop(World& world, PlatformClock& clock, std::uint32_t max_ticks_per_frame = 8,
            std::uint64_t presentation_seed = 0);

  void set_input_collector(InputCollector fn) { input_ = std::move(fn); }
  void set_animation_updater(AnimationUpdater fn) { animation_ = std::move(fn); }
  void set_renderer(Renderer fn) { renderer_ = std::move(fn); }
  void set_render_enabled(bool enabled) { render_enabled_ = enabled; }
  // One-shot callback run at the end of the current frame, after the renderer is done with
  // the frame's resources; callbacks run in the order they were queued (sequence order).
  std::uint64_t at_end_of_render(Callback fn);

  core::Result<FrameReport> run_frame();

  [[nodiscard]] const AnimationClock& animation_clock() const { return animation_clock_; }
  [[nodiscard]] const StepPacer& pacer() const { return pacer_; }
  [[nodiscard]] core::Rng& presentation_rng() { return presentation_rng_; }
  [[nodiscard]] const SnapshotPtr& last_snapshot() const { return snapshot_; }

 private:
  World& world_;
  PlatformClock& clock_;
  StepPacer pacer_;
  AnimationClock animation_clock_;
  core::Rng presentation_rng_;  // a separate stream: presentation never draws from the simulation
  InputCollector input_;
  AnimationUpdater animation_;
  Renderer renderer_;
  bool render_enabled_ = true;
  std::vector<std::pair<std::uint64_t, Callback>> end_of_render_;
  std::uint64_t next_callback_ = 1;
  std::uint64_t frame_ = 0;
  std::uint64_t last_now_us_ = 0;
  bool started_ = false;
  SnapshotPtr snapshot_;
};

}  // namespace sortie::world
