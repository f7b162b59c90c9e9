#pragma once
// The five clocks of seed 003 ("Жизненный цикл кадра"), kept apart on purpose:
//   1. PlatformClock    - monotonic real time (injectable; tests use ManualPlatformClock);
//   2. GameClock        - simulated time: advances by the fixed step times the speed scale,
//                         stands still while paused; the only time game logic reads;
//   3. calculation step - GameClock::step_us (fixed) and the tick counter;
//   4. AnimationClock   - presentation-local time of animations and effects;
//   5. MaintenanceClock - real time that decides when caches are swept (~20 s / ~60 s).
// Everything is integer microseconds, so no clock drifts with float rounding.
#include <cstdint>

namespace sortie::world {

inline constexpr std::uint64_t kMicrosPerSecond = 1'000'000;
inline constexpr std::uint32_t kDefaultStepUs = 16'000;  // spec §26.2: 16 ms per tick
inline constexpr std::uint32_t kScaleOne = 1000;         // speed scale in per mille

class PlatformClock {
 public:
  virtual ~PlatformClock() = default;
  [[nodiscard]] virtual std::uint64_t now_us() = 0;
};

// std::chrono::steady_clock.
class SteadyPlatformClock final : public PlatformClock {
 public:
  std::uint64_t now_us() override;
};

// A clock the caller moves by hand (tests, headless runs).
class ManualPlatformClock final : public PlatformClock {
 public:
  std::uint64_t now_us() override { return now_; }
  void advance(std::uint64_t us) { now_ += us; }

 private:
  std::uint64_t now_ = 0;
};

struct GameClock {
  std::uint32_t step_us = kDefaultStepUs;  // calculation step (clock 3)
  std::uint64_t tick = 0;                  // completed calculation steps
  std::uint64_t time_us = 0;               // game time (clock 2)
  std::uint64_t dt_us = 0;                 // game time added by the current/last step
  std::uint32_t scale_permille = kScaleOne;
  bool paused = false;

  // Game time one step adds under the current pause/scale: step_us * scale / 1000, or 0.
  [[nodiscard]] std::uint64_t step_game_us() const {
    return paused ? 0 : (std::uint64_t{step_us} * scale_permille) / kScaleOne;
  }
  [[nodiscard]] float dt_seconds() const { return static_cast<float>(dt_us) / static_cast<float>(kMicrosPerSecond); }
};

// Presentation-local clock of animations and effects (clock 4). Never hashed.
struct AnimationClock {
  std::uint64_t time_us = 0;
  std::uint64_t dt_us = 0;
  void advance(std::uint64_t us) {
    dt_us = us;
    time_us += us;
  }
};

// Real clock of cache maintenance (clock 5). Never hashed.
struct MaintenanceClock {
  std::uint64_t time_us = 0;
  void advance(std::uint64_t us) { time_us += us; }
};

// Fixed-step pacing (spec §26.2): the real time a frame took is accumulated; every full step
// gives one tick, at most max_ticks per frame. When more is available than the cap, the rest
// is dropped (counted) and the accumulator reset, so a stall never causes a spiral.
class StepPacer {
 public:
  explicit StepPacer(std::uint32_t step_us = kDefaultStepUs, std::uint32_t max_ticks = 8)
      : step_us_(step_us), max_ticks_(max_ticks) {}
  // Returns how many calculation steps this frame runs.
  std::uint32_t frame(std::uint64_t elapsed_us);
  [[nodiscard]] std::uint64_t accumulator_us() const { return acc_us_; }
  [[nodiscard]] std::uint64_t dropped_us() const { return dropped_us_; }
  [[nodiscard]] std::uint64_t dropped_frames() const { return dropped_frames_; }

 private:
  std::uint32_t step_us_;
  std::uint32_t max_ticks_;
  std::uint64_t acc_us_ = 0;
  std::uint64_t dropped_us_ = 0;
  std::uint64_t dropped_frames_ = 0;
};

}  // namespace sortie::world
