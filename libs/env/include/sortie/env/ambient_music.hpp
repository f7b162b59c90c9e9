#pragma once
// Ambient music (seed 001 "Ambient variations и переход день/ночь").
//
//   - open(): the THEME loop starts at mission open (loop "theme", music bus).
//   - tick(dt_seconds, sky_rgb): elapsed += dt; when elapsed > delay (strictly) one variation is
//     chosen and played, elapsed restarts at 0 and delay = 10 + rand() % 10 seconds. The first
//     delay is 0, so the first positive tick plays the first variation.
//   - Pools: DEFAULT_VARIATION1..n when there is neither a DAY nor a NIGHT pool; otherwise DAY
//     when the length of the first active sky object's base RGB (before glare) is > 1.1, NIGHT
//     when it is <= 1.1 (no sky object: night). A chosen empty pool stays empty: no fallback to
//     default or to the other pool; the index becomes -1, no sample plays, the timer goes on.
//   - Index: the two 16-bit states of Iron3D, a = (a << 1) xor b; b = (b >> 1) xor a;
//     index = b % length. With more than one entry the previous index is redrawn away (the
//     last index survives a day/night switch). A degenerate state (e.g. a = b = 0 gives 0
//     forever) would redraw without end; sortie stops after 64 draws and takes the next index
//     in the pool (documented deviation: bad state never hangs).
//   - pause keeps the timer and the index: ticks while paused change nothing.
//   - rand() is a 15-bit value (0..32767) from a seeded core::Rng stream.
//   - Variations come from the variation library when given, else from the theme's library.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/env/sound_event.hpp"

namespace sortie::env {

inline constexpr float kDayRgbLength = 1.1f;
inline constexpr int kMaxVariationDraws = 64;

// The two 16-bit state generator.
class TwoStateGenerator {
 public:
  TwoStateGenerator(std::uint16_t a, std::uint16_t b) : a_(a), b_(b) {}
  std::uint16_t next() {
    a_ = static_cast<std::uint16_t>((a_ << 1) ^ b_);
    b_ = static_cast<std::uint16_t>((b_ >> 1) ^ a_);
    return b_;
  }
  [[nodiscard]] std::uint16_t a() const { return a_; }
  [[nodiscard]] std::uint16_t b() const { return b_; }

 private:
  std::uint16_t a_;
  std::uint16_t b_;
};

enum class VariationPool : std::uint8_t { default_pool, day, night };
std::string_view to_string(VariationPool pool);
// The DAY/NIGHT rule alone: day when the sky's base RGB has length > 1.1, else night (no sky:
// night). Which pool plays also needs the configuration (AmbientMusic::pool_for).
VariationPool sky_pool(std::optional<core::Vec3> sky_base_rgb);

struct AmbientMusicConfig {
  SoundRef theme;                                // THEME (its archive is the loop library)
  std::optional<std::string> variation_library;  // LIBRARY of ambient_music_variation
  std::vector<std::string> default_pool;         // DEFAULT_VARIATION1..n entry names
  std::vector<std::string> day_pool;             // DAY_VARIATION1..n
  std::vector<std::string> night_pool;           // NIGHT_VARIATION1..n
  std::uint16_t state_a = 0x1234;                // the generator's initial states
  std::uint16_t state_b = 0x5678;
};

struct VariationChoice {
  std::int64_t time_ms = 0;
  VariationPool pool = VariationPool::default_pool;
  int index = -1;                   // -1: empty pool, nothing played
  int draws = 0;                    // generator outputs used
  std::uint32_t delay_seconds = 0;  // the next delay drawn after this choice
};

class AmbientMusic {
 public:
  AmbientMusic(AmbientMusicConfig config, std::uint64_t seed);
  // The THEME StartLoop (nothing when no theme is configured).
  std::vector<SoundEvent> open(std::int64_t time_ms);
  // One frame. Appends a OneShot (music bus) when a variation plays; returns the choice made.
  std::optional<VariationChoice> tick(double dt_seconds, std::optional<core::Vec3> sky_base_rgb, std::int64_t time_ms,
                                      std::vector<SoundEvent>& out);
  void set_paused(bool paused) { paused_ = paused; }
  [[nodiscard]] bool paused() const { return paused_; }
  [[nodiscard]] int last_index() const { return last_index_; }
  [[nodiscard]] double elapsed() const { return elapsed_; }
  [[nodiscard]] double delay() const { return delay_; }
  [[nodiscard]] VariationPool pool_for(std::optional<core::Vec3> sky_base_rgb) const;
  [[nodiscard]] const AmbientMusicConfig& config() const { return config_; }

 private:
  AmbientMusicConfig config_;
  TwoStateGenerator generator_;
  core::Rng rng_;
  double elapsed_ = 0.0;
  double delay_ = 0.0;
  int last_index_ = -1;
  bool paused_ = false;
};

}  // namespace sortie::env
