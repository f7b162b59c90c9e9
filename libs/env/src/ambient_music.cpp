#include "sortie/env/ambient_music.hpp"

namespace sortie::env {

std::string_view to_string(VariationPool pool) {
  switch (pool) {
    case VariationPool::default_pool:
      return "default";
    case VariationPool::day:
      return "day";
    case VariationPool::night:
      return "night";
  }
  return "default";
}

AmbientMusic::AmbientMusic(AmbientMusicConfig config, std::uint64_t seed)
    : config_(std::move(config)),
      generator_(config_.state_a, config_.state_b),
      rng_(seed, 0x4D555349ull /* "MUSI" */) {}

std::vector<SoundEvent> AmbientMusic::open(std::int64_t time_ms) {
  std::vector<SoundEvent> out;
  if (config_.theme.empty()) return out;
  SoundEvent e;
  e.kind = SoundEventKind::start_loop;
  e.time_ms = time_ms;
  e.loop = "theme";
  e.sample = config_.theme;
  e.bus = Bus::music;
  out.push_back(std::move(e));
  return out;
}

VariationPool sky_pool(std::optional<core::Vec3> rgb) {
  return rgb && core::length(*rgb) > kDayRgbLength ? VariationPool::day : VariationPool::night;
}

VariationPool AmbientMusic::pool_for(std::optional<core::Vec3> rgb) const {
  if (config_.day_pool.empty() && config_.night_pool.empty()) return VariationPool::default_pool;
  return sky_pool(rgb);
}

std::optional<VariationChoice> AmbientMusic::tick(double dt_seconds, std::optional<core::Vec3> sky_base_rgb,
                                                  std::int64_t time_ms, std::vector<SoundEvent>& out) {
  if (paused_) return std::nullopt;
  elapsed_ += dt_seconds;
  if (!(elapsed_ > delay_)) return std::nullopt;
  VariationChoice c;
  c.time_ms = time_ms;
  c.pool = pool_for(sky_base_rgb);
  const auto& pool = c.pool == VariationPool::day     ? config_.day_pool
                     : c.pool == VariationPool::night ? config_.night_pool
                                                      : config_.default_pool;
  const int len = static_cast<int>(pool.size());
  if (len == 0) {
    last_index_ = -1;
  } else {
    int index = generator_.next() % len;
    c.draws = 1;
    while (len > 1 && index == last_index_ && c.draws < kMaxVariationDraws) {
      index = generator_.next() % len;
      ++c.draws;
    }
    if (len > 1 && index == last_index_) index = (index + 1) % len;
    last_index_ = index;
    SoundEvent e;
    e.kind = SoundEventKind::one_shot;
    e.time_ms = time_ms;
    e.sample = {config_.variation_library.value_or(config_.theme.archive), pool[static_cast<std::size_t>(index)]};
    e.bus = Bus::music;
    out.push_back(std::move(e));
  }
  c.index = last_index_;
  elapsed_ = 0.0;
  c.delay_seconds = 10 + rng_.below(32768) % 10;
  delay_ = c.delay_seconds;
  return c;
}

}  // namespace sortie::env
