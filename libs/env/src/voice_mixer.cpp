#include "sortie/env/voice_mixer.hpp"

#include <algorithm>
#include <cmath>

namespace sortie::env {

StereoGain spatial_gain(const SourceParams& params, const Listener& listener) {
  if (!params.positional) return {};
  const float min_d = params.min_distance > 0.0f ? params.min_distance : kDefaultMinDistance;
  const float max_d = params.max_distance > min_d ? params.max_distance : std::max(min_d, kDefaultMaxDistance);
  const core::Vec3 to{params.position.x - listener.position.x, params.position.y - listener.position.y,
                      params.position.z - listener.position.z};
  const float distance = std::sqrt(core::dot(to, to));
  const float attenuation = distance <= min_d ? 1.0f : min_d / std::min(distance, max_d);
  float pan = 0.0f;
  const core::Vec3 right = core::cross(listener.forward, listener.up);
  const float right_len = std::sqrt(core::dot(right, right));
  if (distance > 0.0f && right_len > 0.0f) pan = std::clamp(core::dot(to, right) / (distance * right_len), -1.0f, 1.0f);
  return {attenuation * std::min(1.0f, 1.0f - pan), attenuation * std::min(1.0f, 1.0f + pan)};
}

VoiceMixer::VoiceMixer(std::uint32_t device_rate) : device_rate_(device_rate ? device_rate : 1) {}

VoiceMixer::Voice* VoiceMixer::find(SourceId id) {
  for (auto& v : voices_)
    if (v.used && v.id == id) return &v;
  return nullptr;
}

const VoiceMixer::Voice* VoiceMixer::find(SourceId id) const {
  for (const auto& v : voices_)
    if (v.used && v.id == id) return &v;
  return nullptr;
}

BackendStatus VoiceMixer::start_source(SourceId id, const iron3d::DecodedWave& sample, const SourceParams& params,
                                       float gain, std::uint64_t position_frames) {
  Voice* slot = find(id);
  if (!slot) {
    auto it = std::find_if(voices_.begin(), voices_.end(), [](const Voice& v) { return !v.used; });
    if (it == voices_.end()) return BackendStatus::failed;  // all kMaxVoices voices busy
    slot = &*it;
  }
  *slot = Voice{};
  slot->id = id;
  slot->used = true;
  slot->sample = &sample;
  slot->params = params;
  slot->gain = gain;
  const std::size_t frames = sample.frames();
  slot->position = static_cast<double>(params.loop && frames ? position_frames % frames : position_frames);
  slot->ended = sample.channels == 0 || (!params.loop && slot->position >= static_cast<double>(frames));
  return BackendStatus::ok;
}

BackendStatus VoiceMixer::update_source(SourceId id, const SourceParams& params, float gain) {
  Voice* v = find(id);
  if (!v) return BackendStatus::failed;
  v->params.volume = params.volume;
  v->params.bus = params.bus;
  v->params.positional = params.positional;
  v->params.position = params.position;
  v->params.min_distance = params.min_distance;
  v->params.max_distance = params.max_distance;
  v->params.frequency_ratio = params.frequency_ratio;
  v->gain = gain;
  return BackendStatus::ok;
}

BackendStatus VoiceMixer::stop_source(SourceId id) {
  Voice* v = find(id);
  if (!v) return BackendStatus::failed;
  *v = Voice{};
  return BackendStatus::ok;
}

BackendStatus VoiceMixer::set_listener(const Listener& listener) {
  listener_ = listener;
  return BackendStatus::ok;
}

BackendStatus VoiceMixer::set_paused(bool paused) {
  paused_ = paused;
  return BackendStatus::ok;
}

BackendStatus VoiceMixer::set_muted(bool muted) {
  muted_ = muted;
  return BackendStatus::ok;
}

std::size_t VoiceMixer::active_voices() const {
  return static_cast<std::size_t>(std::count_if(voices_.begin(), voices_.end(), [](const Voice& v) { return v.used; }));
}

std::optional<double> VoiceMixer::position(SourceId id) const {
  const Voice* v = find(id);
  if (!v) return std::nullopt;
  return v->position;
}

bool VoiceMixer::ended(SourceId id) const {
  const Voice* v = find(id);
  return v && v->ended;
}

void VoiceMixer::mix_voice(Voice& v, std::size_t frames) {
  const iron3d::DecodedWave& s = *v.sample;
  const std::size_t length = s.frames();
  const std::size_t channels = s.channels;
  const double ratio = v.params.frequency_ratio > 0.0f ? static_cast<double>(v.params.frequency_ratio) : 1.0;
  const double step = static_cast<double>(s.sample_rate) * ratio / static_cast<double>(device_rate_);
  const StereoGain g = spatial_gain(v.params, listener_);
  const float left = muted_ ? 0.0f : v.gain * g.left;
  const float right = muted_ ? 0.0f : v.gain * g.right;
  const std::size_t last_channel = channels > 1 ? 1 : 0;
  for (std::size_t f = 0; f < frames; ++f) {
    if (v.params.loop) {
      if (v.position >= static_cast<double>(length)) v.position = std::fmod(v.position, static_cast<double>(length));
    } else if (v.position >= static_cast<double>(length)) {
      v.ended = true;
      return;
    }
    const auto i = static_cast<std::size_t>(v.position);
    const auto t = static_cast<float>(v.position - static_cast<double>(i));
    const std::size_t j = i + 1 < length ? i + 1 : (v.params.loop ? 0 : i);
    const std::int16_t* a = &s.samples[i * channels];
    const std::int16_t* b = &s.samples[j * channels];
    const float l = static_cast<float>(a[0]) + (static_cast<float>(b[0]) - static_cast<float>(a[0])) * t;
    const float r = static_cast<float>(a[last_channel]) +
                    (static_cast<float>(b[last_channel]) - static_cast<float>(a[last_channel])) * t;
    block_[2 * f] += l * left;
    block_[2 * f + 1] += r * right;
    v.position += step;
  }
}

void VoiceMixer::render(std::span<std::int16_t> out) {
  const std::size_t total = out.size() / 2;
  std::fill(out.begin(), out.end(), std::int16_t{0});
  rendered_frames_ += total;
  if (paused_) return;
  for (std::size_t done = 0; done < total;) {
    const std::size_t frames = std::min(kBlockFrames, total - done);
    std::fill(block_.begin(), block_.end(), 0.0f);
    for (auto& v : voices_)
      if (v.used && !v.ended && v.sample && v.sample->frames() > 0) mix_voice(v, frames);
    for (std::size_t k = 0; k < frames * 2; ++k)
      out[done * 2 + k] = static_cast<std::int16_t>(std::lround(std::clamp(block_[k], -32768.0f, 32767.0f)));
    done += frames;
  }
}

}  // namespace sortie::env
