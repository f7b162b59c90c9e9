#include "sortie/env/ambience.hpp"

#include "sortie/assets/archive_repository.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/text.hpp"

namespace sortie::env {

bool AmbienceOptions::any() const {
  return !music.theme.name.empty() || !music.default_pool.empty() || !music.day_pool.empty() ||
         !music.night_pool.empty() || weather.has_value();
}

core::Result<std::unique_ptr<Ambience>> Ambience::open(const AmbienceOptions& options, ArchiveOpener game_opener,
                                                       const BackendFactory& open_backend, std::ostream& warnings) {
  std::unique_ptr<Ambience> a(new Ambience(warnings));
  ArchiveOpener opener = std::move(game_opener);
  std::string default_archive = options.default_archive;
  if (!options.sounds.empty()) {
    SORTIE_TRY(auto bytes, core::read_file(options.sounds));
    default_archive = options.sounds.filename().string();
    SORTIE_TRY(auto path, assets::normalize_path(default_archive, assets::PathPolicy::host_compatible));
    SORTIE_TRY(std::shared_ptr<const assets::MountedArchive> lib, assets::mount_archive(path, std::move(bytes)));
    opener = [lib, name = default_archive, rest = std::move(opener)](
                 std::string_view archive) -> core::Result<std::shared_ptr<const assets::MountedArchive>> {
      if (core::iequals_ascii(archive, name)) return lib;
      if (rest) return rest(archive);
      return core::fail(core::Diagnostic::error("asset.archive_missing", "archive not found").of(std::string(archive)));
    };
  }
  if (options.weather)
    a->environment_ = std::make_unique<Environment>(*options.weather, options.seed, 1.0, options.lightning);
  if (open_backend) a->backend_ = open_backend(warnings);
  if (!a->backend_) a->backend_ = std::make_unique<NullAudioBackend>();
  a->bank_ = std::make_unique<SoundBank>(std::move(opener), default_archive);
  a->mixer_ = std::make_unique<SoundMixer>(*a->bank_, *a->backend_);
  a->music_ = std::make_unique<AmbientMusic>(options.music, options.seed);
  if (options.mute) a->mixer_->set_muted(true);
  a->pending_ = a->music_->open(0);
  return a;
}

void Ambience::set_paused(bool paused) {
  mixer_->set_paused(paused);
  music_->set_paused(paused);
}

void Ambience::apply(std::int64_t time_ms, const CameraFrame& camera, const std::vector<SoundEvent>& events) {
  const auto results = mixer_->apply_frame(camera, time_ms, events);
  for (const auto& r : results) {
    if (r.ok() || !r.lookup) continue;  // loop bookkeeping misses are the mixer's to count
    if (warned_.insert(r.diagnostic.file + "|" + r.diagnostic.code).second)
      warnings_ << "warning: " << r.diagnostic.to_string() << "\n";  // to_string() ends with [code]
  }
}

const EnvironmentFrame* Ambience::update(std::int64_t time_ms, const CameraFrame& camera,
                                         std::span<const SoundEvent> extra) {
  if (last_ms_ && time_ms < *last_ms_) time_ms = *last_ms_;
  const std::int64_t dt_ms = last_ms_ ? time_ms - *last_ms_ : 0;
  last_ms_ = time_ms;
  std::vector<SoundEvent> events = std::move(pending_);
  pending_.clear();
  const EnvironmentFrame* frame = nullptr;
  if (environment_) {
    frame = &environment_->update(time_ms, camera);
    events.insert(events.end(), frame->sounds.begin(), frame->sounds.end());
  }
  events.insert(events.end(), extra.begin(), extra.end());
  // The DAY/NIGHT pool follows the schedule's first active sky object (none: night).
  const std::optional<core::Vec3> sky = frame != nullptr ? frame->sky_base_rgb : std::nullopt;
  music_->tick(static_cast<double>(dt_ms) / 1000.0, sky, time_ms, events);
  apply(time_ms, camera, events);
  mixer_->advance(dt_ms);
  return frame;
}

}  // namespace sortie::env
