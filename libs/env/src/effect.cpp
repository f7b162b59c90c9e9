#include "sortie/env/effect.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "sortie/assets/visual_store.hpp"
#include "sortie/core/rng.hpp"

namespace sortie::env {
namespace {

using assets::EffectBodyFields;
using assets::EffectLightFields;
using assets::EffectSoundFields;
using assets::EffectWindow;
using assets::PreparedEffect;
using assets::PreparedEffectCommand;

constexpr std::uint64_t kEffectStream = 0x46584944ull;  // "FXID"

// The command's own progress u through its window at normalised lifetime tn; nullopt outside it.
std::optional<float> window_progress(const EffectWindow& w, float tn) {
  if (tn < w.start || tn > w.end) return std::nullopt;
  const float span = w.end - w.start;
  return span > 0.0f ? (tn - w.start) / span : 1.0f;
}

// min + (max - min) * u^power; a power <= 0 (a zero-filled body) is linear.
float shaped(float min, float max, float u, float power) {
  const float p = power > 0.0f ? power : 1.0f;
  return min + (max - min) * (p == 1.0f ? u : std::pow(u, p));
}

core::Vec3 shaped(const core::Vec3& min, const core::Vec3& max, float u, const core::Vec3& power) {
  return {shaped(min.x, max.x, u, power.x), shaped(min.y, max.y, u, power.y), shaped(min.z, max.z, u, power.z)};
}

core::Vec3 mul(const core::Vec3& a, const core::Vec3& b) {
  return {a.x * b.x, a.y * b.y, a.z * b.z};
}

std::string vec_text(const core::Vec3& v) {
  return fmt::format("({:.1f}, {:.1f}, {:.1f})", v.x, v.y, v.z);
}

std::string reference_text(const PreparedEffectCommand& c) {
  if (c.reference_name.empty()) return "no reference";
  return c.reference_archive.empty() ? c.reference_name : c.reference_archive + "/" + c.reference_name;
}

std::string run_phrase(const PreparedEffectCommand& c) {
  if (std::holds_alternative<EffectLightFields>(c.fields)) return fmt::format("command {} light", c.index);
  if (std::holds_alternative<EffectSoundFields>(c.fields))
    return fmt::format("command {} sound {}", c.index, reference_text(c));
  return fmt::format("command {} body {}", c.index, c.reference_name.empty() ? "(no material)" : c.reference_name);
}

}  // namespace

// ---- the library ----------------------------------------------------------------------------

EffectLibrary::EffectLibrary(std::span<const std::shared_ptr<const PreparedEffect>> effects) {
  for (const auto& e : effects) add(e);
}

std::shared_ptr<const EffectLibrary> EffectLibrary::from_store(const assets::VisualStore& store) {
  return std::make_shared<const EffectLibrary>(store.effects());
}

void EffectLibrary::add(std::shared_ptr<const PreparedEffect> effect) {
  if (!effect) return;
  by_key_[assets::EffectRef{effect->archive, effect->entry}.key()] = std::move(effect);
}

std::shared_ptr<const PreparedEffect> EffectLibrary::find(std::string_view name) const {
  const auto it = by_key_.find(assets::EffectRef::parse(name).key());
  return it == by_key_.end() ? nullptr : it->second;
}

std::vector<std::string> EffectLibrary::names() const {
  std::vector<std::string> out;
  for (const auto& [key, e] : by_key_) out.push_back(e->label());
  return out;
}

// ---- one instance ---------------------------------------------------------------------------

float EffectInstance::progress(std::int64_t time_ms) const {
  if (end_ms <= start_ms) return 1.0f;
  const double tn = static_cast<double>(time_ms - start_ms) / static_cast<double>(end_ms - start_ms);
  return static_cast<float>(std::clamp(tn, 0.0, 1.0));
}

core::Vec3 effect_scale(const PreparedEffect& effect) {
  const auto& s = effect.fx.header.scale;
  if (s[0] == 0.0f && s[1] == 0.0f && s[2] == 0.0f) return {1.0f, 1.0f, 1.0f};
  return {s[0], s[1], s[2]};
}

core::Vec3 effect_origin(const EffectInstance& instance) {
  core::Vec3 o = instance.position;
  if (!instance.effect || (instance.effect->fx.header.flags & 0x0008u) == 0) return o;
  const auto& shift = instance.effect->fx.header.random_shift;
  core::Rng rng(instance.seed, kEffectStream);
  o.x += (rng.unit_f32() * 2.0f - 1.0f) * shift[0];
  o.y += (rng.unit_f32() * 2.0f - 1.0f) * shift[1];
  o.z += (rng.unit_f32() * 2.0f - 1.0f) * shift[2];
  return o;
}

void evaluate_effect(const EffectInstance& instance, std::int64_t time_ms, EffectFrame& out) {
  if (!instance.effect || !instance.alive_at(time_ms)) return;
  const PreparedEffect& e = *instance.effect;
  const float tn = instance.progress(time_ms);
  const float v = e.value_at(tn);
  const core::Vec3 origin = effect_origin(instance);
  const core::Vec3 scale = effect_scale(e);
  for (const PreparedEffectCommand& c : e.commands) {
    if (!c.executed()) continue;
    if (const auto* l = std::get_if<EffectLightFields>(&c.fields)) {
      const auto u = window_progress(l->window, tn);
      if (!u) continue;
      EffectLight light;
      light.instance = instance.id;
      light.command = c.index;
      light.position = origin + mul(scale, core::lerp(l->offset_min, l->offset_max, *u));
      light.radius = l->range_min + (l->range_max - l->range_min) * *u;
      light.color = l->color * (l->strength * v);
      out.lights.push_back(light);
    } else if (const auto* b = std::get_if<EffectBodyFields>(&c.fields)) {
      const auto u = window_progress(b->window, tn);
      if (!u) continue;
      EffectBody body;
      body.instance = instance.id;
      body.command = c.index;
      body.size = mul(scale, shaped(b->size_min, b->size_max, *u, b->size_power));
      body.center = origin + mul(scale, shaped(b->offset_min, b->offset_max, *u, b->offset_power));
      const float a = b->alpha_source >= 0.0f ? *u : v;
      body.alpha = std::clamp(shaped(b->alpha_min, b->alpha_max, a, b->alpha_power), 0.0f, 1.0f);
      body.material = c.reference_name;
      body.prepared = c.material;
      out.bodies.push_back(std::move(body));
    }
  }
}

void effect_sounds(const EffectInstance& instance, std::int64_t after_ms, std::int64_t until_ms,
                   std::vector<SoundEvent>& out) {
  if (!instance.effect) return;
  const PreparedEffect& e = *instance.effect;
  const std::int64_t life = instance.end_ms - instance.start_ms;
  const core::Vec3 origin = effect_origin(instance);
  const core::Vec3 scale = effect_scale(e);
  for (const PreparedEffectCommand& c : e.commands) {
    const auto* s = std::get_if<EffectSoundFields>(&c.fields);
    if (s == nullptr || !c.executed()) continue;
    const std::int64_t at =
        instance.start_ms + std::llround(static_cast<double>(s->window.start) * static_cast<double>(life));
    if (at <= after_ms || at > until_ms) continue;
    SoundEvent ev;
    ev.kind = SoundEventKind::one_shot;
    ev.time_ms = at;
    ev.sample = SoundRef{c.reference_archive, c.reference_name};
    ev.bus = Bus::effects;
    ev.positional = true;
    ev.position = origin + mul(scale, s->offset);
    ev.volume = 1.0f;
    ev.min_distance = s->min_distance();
    ev.max_distance = s->max_distance();
    ev.frequency_ratio = s->frequency_ratio();
    out.push_back(std::move(ev));
  }
}

std::string describe_effect(const PreparedEffect& e) {
  std::vector<std::string> runs;
  std::vector<std::string> keeps;
  for (const PreparedEffectCommand& c : e.commands) {
    if (c.executed())
      runs.push_back(run_phrase(c));
    else
      keeps.push_back(fmt::format("command {} opcode {}{} ({})", c.index, c.opcode,
                                  c.reference_name.empty() ? std::string() : " " + reference_text(c), c.kept_because));
  }
  for (const auto& h : e.header_kept) keeps.push_back(h);
  std::string line = runs.empty() ? "runs nothing" : "runs " + fmt::format("{}", fmt::join(runs, ", "));
  if (!keeps.empty()) line += "; keeps, not executed: " + fmt::format("{}", fmt::join(keeps, "; "));
  return line;
}

std::string describe_effect_start(const EffectInstance& instance) {
  if (!instance.effect)
    return fmt::format("fx {} '{}' at {:.3f} s: not among the mission's effects, nothing runs", instance.id,
                       instance.name, static_cast<double>(instance.start_ms) / 1000.0);
  const PreparedEffect& e = *instance.effect;
  return fmt::format("fx {} '{}' ({}) at {:.3f} s at {} for {:.3f} s: {}", instance.id, instance.name, e.label(),
                     static_cast<double>(instance.start_ms) / 1000.0, vec_text(effect_origin(instance)),
                     static_cast<double>(instance.end_ms - instance.start_ms) / 1000.0, describe_effect(e));
}

// ---- the runner -----------------------------------------------------------------------------

void EffectRunner::begin(EffectInstance instance) {
  pending_traces_.push_back(describe_effect_start(instance));
  heard_.push_back(Heard{instance.id, instance.start_ms - 1});
  instances_.push_back(std::move(instance));
}

std::uint32_t EffectRunner::start(std::shared_ptr<const PreparedEffect> effect, std::string name, core::Vec3 position,
                                  std::int64_t start_ms, std::uint64_t seed) {
  EffectInstance i;
  i.id = next_id_++;
  i.name = std::move(name);
  i.position = position;
  i.start_ms = start_ms;
  i.end_ms = start_ms + (effect ? effect->lifetime_ms : 0);
  i.seed = seed;
  i.effect = std::move(effect);
  begin(std::move(i));
  return instances_.back().id;
}

void EffectRunner::sync(std::span<const EffectInstanceState> live, const EffectLibrary& library) {
  // Ended: ids the world no longer lists (their remaining sounds are not given).
  for (std::size_t k = instances_.size(); k-- > 0;) {
    const std::uint32_t id = instances_[k].id;
    const bool listed = std::any_of(live.begin(), live.end(), [&](const EffectInstanceState& s) { return s.id == id; });
    if (!listed) {
      instances_.erase(instances_.begin() + static_cast<std::ptrdiff_t>(k));
      heard_.erase(heard_.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  for (const EffectInstanceState& s : live) {
    const bool known = std::any_of(instances_.begin(), instances_.end(), [&](const auto& i) { return i.id == s.id; });
    if (known || std::find(missing_.begin(), missing_.end(), s.id) != missing_.end()) continue;
    EffectInstance i;
    i.id = s.id;
    i.name = s.name;
    i.position = s.position;
    i.start_ms = static_cast<std::int64_t>(s.start_us / 1000);
    i.end_ms = static_cast<std::int64_t>(s.end_us / 1000);
    i.seed = s.id;
    i.effect = library.find(s.name);
    if (!i.effect) {
      missing_.push_back(s.id);
      pending_traces_.push_back(describe_effect_start(i));
      continue;
    }
    begin(std::move(i));
  }
  if (missing_.size() > 4096) missing_.erase(missing_.begin(), missing_.begin() + 2048);
}

const EffectFrame& EffectRunner::update(std::int64_t time_ms) {
  if (started_ && time_ms < now_) time_ms = now_;
  started_ = true;
  now_ = time_ms;
  frame_.time_ms = time_ms;
  frame_.lights.clear();
  frame_.bodies.clear();
  frame_.sounds.clear();
  frame_.traces = std::move(pending_traces_);
  pending_traces_.clear();
  for (std::size_t k = 0; k < instances_.size(); ++k) {
    effect_sounds(instances_[k], heard_[k].until_ms, time_ms, frame_.sounds);
    heard_[k].until_ms = std::max(heard_[k].until_ms, time_ms);
    evaluate_effect(instances_[k], time_ms, frame_);
  }
  std::stable_sort(frame_.sounds.begin(), frame_.sounds.end(),
                   [](const SoundEvent& a, const SoundEvent& b) { return a.time_ms < b.time_ms; });
  // Dropped once over (their sounds were given above).
  for (std::size_t k = instances_.size(); k-- > 0;) {
    if (instances_[k].end_ms > time_ms) continue;
    instances_.erase(instances_.begin() + static_cast<std::ptrdiff_t>(k));
    heard_.erase(heard_.begin() + static_cast<std::ptrdiff_t>(k));
  }
  frame_.live = static_cast<std::size_t>(std::count_if(instances_.begin(), instances_.end(),
                                                       [&](const EffectInstance& i) { return i.alive_at(time_ms); }));
  return frame_;
}

}  // namespace sortie::env
