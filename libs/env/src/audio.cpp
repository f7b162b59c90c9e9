#include "sortie/env/audio.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace sortie::env {

std::string_view to_string(BackendStatus status) {
  switch (status) {
    case BackendStatus::ok:
      return "ok";
    case BackendStatus::no_device:
      return "no_device";
    case BackendStatus::failed:
      return "failed";
  }
  return "failed";
}

Listener listener_from_camera(const CameraFrame& camera, std::int64_t time_ms) {
  return {camera.position, camera.forward(), camera.up(), time_ms};
}

SoundMixer::SoundMixer(SoundBank& bank, AudioBackend& backend) : bank_(bank), backend_(backend) {}

SoundMixer::~SoundMixer() {
  for (const MixerSource& s : sources_) (void)backend_.stop_source(s.id);
}

BackendStatus SoundMixer::note(BackendStatus s) {
  if (s != BackendStatus::ok) ++backend_unanswered_;
  return s;
}

void SoundMixer::set_listener(const CameraFrame& camera, std::int64_t time_ms) {
  listener_ = listener_from_camera(camera, time_ms);
  note(backend_.set_listener(listener_));
}

float SoundMixer::effective_gain(const MixerSource& s) const {
  if (muted_) return 0.0f;
  return s.params.volume * bus_volume(s.params.bus) * bus_volume(Bus::master);
}

const MixerSource* SoundMixer::loop(std::string_view name) const {
  for (const auto& s : sources_)
    if (!s.loop.empty() && s.loop == name) return &s;
  return nullptr;
}

void SoundMixer::refresh_position(MixerSource& s) const {
  const double rate = s.sample ? static_cast<double>(s.sample->sample_rate) : 0.0;
  const double ratio = s.params.frequency_ratio > 0.0f ? static_cast<double>(s.params.frequency_ratio) : 1.0;
  const double frames = std::floor(static_cast<double>(s.played_ms) * rate * ratio / 1000.0);
  auto pos = static_cast<std::uint64_t>(std::max(0.0, std::min(frames, 1.8e19)));
  const std::uint64_t length = s.sample ? s.sample->frames() : 0;
  if (s.params.loop) pos = length ? pos % length : 0;
  s.position_frames = pos;
}

void SoundMixer::trace_source(std::string_view what, const MixerSource& s) const {
  if (trace_ == nullptr) return;
  trace_->write("sound", fmt::format("{} source {} {}{} bus {} at {} ms ({} voices)", what, s.id,
                                     s.loop.empty() ? "one-shot" : "loop '" + s.loop + "'",
                                     s.ref.archive.empty() ? " " + s.ref.name : " " + s.ref.archive + "/" + s.ref.name,
                                     to_string(s.params.bus), time_ms_, sources_.size()));
}

ApplyResult SoundMixer::apply(const SoundEvent& e) {
  ApplyResult r;
  r.kind = e.kind;
  auto find_loop = [&]() {
    return std::find_if(sources_.begin(), sources_.end(),
                        [&](const MixerSource& s) { return !s.loop.empty() && s.loop == e.loop; });
  };
  switch (e.kind) {
    case SoundEventKind::start_loop:
    case SoundEventKind::one_shot: {
      const bool is_loop = e.kind == SoundEventKind::start_loop;
      if (is_loop) {
        if (auto it = find_loop(); it != sources_.end()) {  // a restart replaces the loop
          note(backend_.stop_source(it->id));
          trace_source("stop (restarted)", *it);
          sources_.erase(it);
        }
      }
      auto found = bank_.lookup(e.sample, is_loop ? "loop " + e.loop : std::string("one-shot"));
      r.lookup = found.status;
      if (!found.ok()) {
        if (trace_ != nullptr)
          trace_->write("sound", fmt::format("no sample for {}: {}", is_loop ? "loop '" + e.loop + "'" : "one-shot",
                                             found.diagnostic.to_string()));
        r.diagnostic = std::move(found.diagnostic);
        return r;
      }
      MixerSource s;
      s.id = next_id_++;
      s.loop = is_loop ? e.loop : std::string();
      s.ref = e.sample;
      s.sample = std::move(found.sample);
      s.params = {e.bus,    is_loop,        e.positional,   e.position,
                  e.volume, e.min_distance, e.max_distance, e.frequency_ratio};
      r.source = s.id;
      r.backend = note(backend_.start_source(s.id, *s.sample, s.params, effective_gain(s), 0));
      sources_.push_back(std::move(s));
      trace_source("start", sources_.back());
      return r;
    }
    case SoundEventKind::set_loop_volume: {
      auto it = find_loop();
      if (it == sources_.end()) {
        r.diagnostic = core::Diagnostic::error("sound.loop_not_playing",
                                               fmt::format("SetLoopVolume for loop '{}' that is not playing", e.loop))
                           .expect("a started loop", e.loop);
        return r;
      }
      it->params.volume = e.volume;
      r.source = it->id;
      r.backend = note(backend_.update_source(it->id, it->params, effective_gain(*it)));
      return r;
    }
    case SoundEventKind::stop_loop: {
      auto it = find_loop();
      if (it == sources_.end()) {
        r.diagnostic = core::Diagnostic::error("sound.loop_not_playing",
                                               fmt::format("StopLoop for loop '{}' that is not playing", e.loop))
                           .expect("a started loop", e.loop);
        return r;
      }
      r.source = it->id;
      r.backend = note(backend_.stop_source(it->id));
      trace_source("stop", *it);
      sources_.erase(it);
      return r;
    }
  }
  return r;
}

std::vector<ApplyResult> SoundMixer::apply_frame(const CameraFrame& camera, std::int64_t time_ms,
                                                 std::span<const SoundEvent> events) {
  set_listener(camera, time_ms);
  std::vector<ApplyResult> out;
  out.reserve(events.size());
  for (const auto& e : events) out.push_back(apply(e));
  return out;
}

void SoundMixer::advance(std::int64_t dt_ms) {
  if (dt_ms <= 0 || paused_) return;
  time_ms_ += dt_ms;
  for (auto it = sources_.begin(); it != sources_.end();) {
    it->played_ms += dt_ms;
    refresh_position(*it);
    if (!it->params.loop && (!it->sample || it->position_frames >= it->sample->frames())) {
      note(backend_.stop_source(it->id));
      trace_source("ended", *it);
      it = sources_.erase(it);
      continue;
    }
    ++it;
  }
}

void SoundMixer::set_paused(bool paused) {
  paused_ = paused;
  note(backend_.set_paused(paused));
}

void SoundMixer::set_muted(bool muted) {
  muted_ = muted;
  note(backend_.set_muted(muted));
  for (const auto& s : sources_) note(backend_.update_source(s.id, s.params, effective_gain(s)));
}

void SoundMixer::set_bus_volume(Bus bus, float volume) {
  bus_volume_[static_cast<std::size_t>(bus)] = std::clamp(volume, 0.0f, 1.0f);
  for (const auto& s : sources_)
    if (bus == Bus::master || s.params.bus == bus) note(backend_.update_source(s.id, s.params, effective_gain(s)));
}

}  // namespace sortie::env
