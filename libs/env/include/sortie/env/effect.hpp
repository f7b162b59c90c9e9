#pragma once
// Effects at run time (issue #18 part 4; docs/effects.md): an FXID definition prepared by
// libs/assets (assets::PreparedEffect) started at a point and a time, executed on a clock of
// integer milliseconds. Each update yields what presentation applies, the way the weather's
// EnvironmentFrame does:
//
//   lights   opcode 1: a point light at origin + scale * lerp(offset min, max, u), radius
//            lerp(range min, max, u), colour RGB * strength * v;
//   bodies   opcode 3: a body of size min + (max - min) * u^power (per axis, times the scale),
//            centred at origin + its offset, alpha min + (max - min) * a^power (a = u or v by the
//            alpha source), with its material;
//   sounds   opcode 2: one sound command (a positional one-shot: the sample archive + name,
//            min/max distance, frequency ratio) when the lifetime reaches the command's window;
//   traces   one line per started instance: what it executes, what it keeps (opcodes 4..10,
//            disabled commands, header parts sortie does not run).
//
// u is the command's own progress through its window, v the effect value of the header's
// time_mode (assets::PreparedEffect::value_at). An instance lives on [start, start + lifetime):
// nothing of it shows before or after. The only randomness (the header's random shift, flags
// 0x8) comes from the instance's seeded stream: the same instance is the same at the same time,
// whatever the frame rate.
//
// Who starts instances: the world's `fx.start` command (effect_world.hpp; the runner follows the
// world's live instances with sync()), and the weather's lightning (environment.hpp).
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/assets/prepared_effect.hpp"
#include "sortie/assets/prepared_visual.hpp"
#include "sortie/core/math.hpp"
#include "sortie/env/sound_event.hpp"

namespace sortie::assets {
class VisualStore;
}

namespace sortie::env {

// The effects a mission prepared, by name: "lightning" (effects.rlb) or "archive/name",
// ASCII case-insensitive (assets::EffectRef).
class EffectLibrary {
 public:
  EffectLibrary() = default;
  explicit EffectLibrary(std::span<const std::shared_ptr<const assets::PreparedEffect>> effects);
  // Every effect of a prepared-visual store (VisualStore::effects()).
  static std::shared_ptr<const EffectLibrary> from_store(const assets::VisualStore& store);
  // Adds (or replaces) an effect under the name archive/entry.
  void add(std::shared_ptr<const assets::PreparedEffect> effect);
  [[nodiscard]] std::shared_ptr<const assets::PreparedEffect> find(std::string_view name) const;
  [[nodiscard]] std::size_t size() const { return by_key_.size(); }
  // The names, "archive/entry" in key order (for diagnostics).
  [[nodiscard]] std::vector<std::string> names() const;

 private:
  std::map<std::string, std::shared_ptr<const assets::PreparedEffect>> by_key_;
};

// One running effect.
struct EffectInstance {
  std::uint32_t id = 0;
  std::shared_ptr<const assets::PreparedEffect> effect;
  std::string name;       // as it was started ("lightning")
  core::Vec3 position{};  // where it was started (before the header's random shift)
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;  // start_ms + the header's lifetime
  std::uint64_t seed = 0;   // of its random stream
  [[nodiscard]] bool alive_at(std::int64_t time_ms) const { return time_ms >= start_ms && time_ms < end_ms; }
  // Normalised lifetime tn at time_ms, clamped to 0..1.
  [[nodiscard]] float progress(std::int64_t time_ms) const;
};

// The instance's origin: its position, shifted (flags 0x8) per axis by a uniform draw in
// [-random_shift, +random_shift] of its seeded stream.
core::Vec3 effect_origin(const EffectInstance& instance);
// The header's scale; an all-zero scale (a zero-filled header) is 1.
core::Vec3 effect_scale(const assets::PreparedEffect& effect);

struct EffectLight {
  std::uint32_t instance = 0;
  std::size_t command = 0;
  core::Vec3 position{};
  core::Vec3 color{};   // may exceed 1 (the light at its source)
  float radius = 0.0f;  // world units: nothing beyond
};

struct EffectBody {
  std::uint32_t instance = 0;
  std::size_t command = 0;
  core::Vec3 center{};
  core::Vec3 size{};                                         // x width, y depth, z height (world units)
  float alpha = 0.0f;                                        // 0..1
  std::string material;                                      // the reference's name ("" when the body names none)
  std::shared_ptr<const assets::PreparedMaterial> prepared;  // null when the mission did not prepare it
};

struct EffectFrame {
  std::int64_t time_ms = 0;
  std::vector<EffectLight> lights;
  std::vector<EffectBody> bodies;
  std::vector<SoundEvent> sounds;   // sound commands due since the previous update, in time order
  std::vector<std::string> traces;  // instances started (and world instances not found) since then
  std::size_t live = 0;             // instances alive at time_ms
};

// What `instance` shows at time_ms (lights, bodies), appended to `out`; nothing outside its life.
void evaluate_effect(const EffectInstance& instance, std::int64_t time_ms, EffectFrame& out);
// Its sound commands due in (after_ms, until_ms], appended in command order.
void effect_sounds(const EffectInstance& instance, std::int64_t after_ms, std::int64_t until_ms,
                   std::vector<SoundEvent>& out);
// What an effect runs and keeps: "runs command 0 light, command 1 sound sounds.lib/THUNDER1.WAV,
// command 2 body env_lightning; keeps, not executed: command 3 opcode 7 material.lib/smoke (opcode 7
// is not executed); flag 0x0040 (starts inactive)".
std::string describe_effect(const assets::PreparedEffect& effect);
// The trace line of its start, e.g. "fx 3 'lightning' (effects.rlb/lightning) at 12.345 s at
// (100.0, 20.0, 312.0) for 0.250 s: runs command 0 light, command 1 sound sounds.lib/THUNDER1.WAV,
// command 2 body env_lightning; keeps command 3 opcode 7 (not executed)".
std::string describe_effect_start(const EffectInstance& instance);

// One live instance as the world holds it (effect_world.hpp's state; world time in microseconds).
// The runner's instance of it has the same id, start_ms = start_us / 1000 and end_ms = end_us /
// 1000, seed = id.
struct EffectInstanceState {
  std::uint32_t id = 0;
  std::string name;
  core::Vec3 position{};
  std::uint64_t start_us = 0;
  std::uint64_t end_us = 0;
  bool operator==(const EffectInstanceState&) const = default;
};

// Runs instances on one clock: started here (the weather) or followed from the world (sync).
class EffectRunner {
 public:
  // Starts an instance (ids 1, 2, ... in start order, apart from the world's).
  std::uint32_t start(std::shared_ptr<const assets::PreparedEffect> effect, std::string name, core::Vec3 position,
                      std::int64_t start_ms, std::uint64_t seed);
  // Follows the world's live instances: a new id starts (its definition from `library`; a name
  // the library lacks is one trace line, nothing runs), an id no longer listed ends.
  void sync(std::span<const EffectInstanceState> live, const EffectLibrary& library);
  // Moves to time_ms (never backwards): the lights and bodies of every live instance, the sounds
  // due since the previous update, the traces since then; instances past their end are dropped.
  const EffectFrame& update(std::int64_t time_ms);
  [[nodiscard]] const EffectFrame& frame() const { return frame_; }
  [[nodiscard]] const std::vector<EffectInstance>& instances() const { return instances_; }

 private:
  struct Heard {
    std::uint32_t id;
    std::int64_t until_ms;  // sounds up to here were given
  };
  void begin(EffectInstance instance);
  std::vector<EffectInstance> instances_;
  std::vector<Heard> heard_;  // parallel to instances_
  std::vector<std::string> pending_traces_;
  std::vector<std::uint32_t> missing_;  // world ids whose name the library lacks (traced once)
  std::uint32_t next_id_ = 1;
  std::int64_t now_ = 0;
  bool started_ = false;
  EffectFrame frame_;
};

}  // namespace sortie::env
