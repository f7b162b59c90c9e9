#include "sortie/env/sound_event.hpp"

#include "sortie/core/text.hpp"

namespace sortie::env {

SoundRef SoundRef::parse(std::string_view text) {
  const auto sep = text.find_last_of("/\\");
  if (sep == std::string_view::npos) return {{}, std::string(text)};
  return {std::string(text.substr(0, sep)), std::string(text.substr(sep + 1))};
}

std::string SoundRef::to_string() const {
  return archive.empty() ? name : archive + "/" + name;
}

std::string SoundRef::key() const {
  return core::ascii_upper(archive) + "/" + core::ascii_upper(name);
}

std::string_view to_string(Bus bus) {
  switch (bus) {
    case Bus::master:
      return "master";
    case Bus::effects:
      return "effects";
    case Bus::ambient:
      return "ambient";
    case Bus::voice:
      return "voice";
    case Bus::music:
      return "music";
  }
  return "master";
}

std::string_view to_string(SoundEventKind kind) {
  switch (kind) {
    case SoundEventKind::start_loop:
      return "StartLoop";
    case SoundEventKind::set_loop_volume:
      return "SetLoopVolume";
    case SoundEventKind::stop_loop:
      return "StopLoop";
    case SoundEventKind::one_shot:
      return "OneShot";
  }
  return "OneShot";
}

core::Json sound_event_json(const SoundEvent& e) {
  core::Json j;
  j["type"] = std::string(to_string(e.kind));
  j["time_ms"] = e.time_ms;
  j["bus"] = std::string(to_string(e.bus));
  if (!e.loop.empty()) j["loop"] = e.loop;
  if (e.kind == SoundEventKind::start_loop || e.kind == SoundEventKind::one_shot) {
    j["sample"] = {{"archive", e.sample.archive}, {"name", e.sample.name}};
    j["frequency_ratio"] = e.frequency_ratio;
  }
  if (e.kind != SoundEventKind::stop_loop) j["volume"] = e.volume;
  if (e.positional) {
    j["position"] = {e.position.x, e.position.y, e.position.z};
    j["min_distance"] = e.min_distance;
    j["max_distance"] = e.max_distance;
  }
  return j;
}

}  // namespace sortie::env
