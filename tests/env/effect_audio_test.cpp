// The audio side of effects (docs/effects.md): an FX sound command reaches the mixer and the
// backend as a positional source with the FX's min/max distance and frequency ratio, and a strike
// of the weather plays its lightning effect's thunder that way.
#include <gtest/gtest.h>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/core/text.hpp"
#include "sortie/env/audio.hpp"
#include "sortie/env/effect.hpp"
#include "sortie/env/environment.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/wave.hpp"

namespace sortie::env::effect_audio_test {
namespace {

std::shared_ptr<const assets::MountedArchive> sounds_lib() {
  std::vector<std::int16_t> s(22050);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::int16_t>((i % 50) * 100);
  auto bytes =
      iron3d::NresBuilder().add(0, "BOOM.WAV", iron3d::write_wave(iron3d::make_pcm16_wave(22050, 1, s))).build();
  return *assets::mount_archive(*assets::normalize_path("sounds.lib", assets::PathPolicy::host_compatible),
                                std::move(*bytes));
}

// Records the parameters every source starts with.
class ParamsBackend final : public AudioBackend {
 public:
  [[nodiscard]] std::string_view name() const override { return "params"; }
  [[nodiscard]] bool has_device() const override { return true; }
  BackendStatus start_source(SourceId, const iron3d::DecodedWave& w, const SourceParams& p, float,
                             std::uint64_t) override {
    started.push_back(p);
    frames.push_back(w.frames());
    return BackendStatus::ok;
  }
  BackendStatus update_source(SourceId, const SourceParams&, float) override { return BackendStatus::ok; }
  BackendStatus stop_source(SourceId) override { return BackendStatus::ok; }
  BackendStatus set_listener(const Listener&) override { return BackendStatus::ok; }
  BackendStatus set_paused(bool) override { return BackendStatus::ok; }
  BackendStatus set_muted(bool) override { return BackendStatus::ok; }
  std::vector<SourceParams> started;
  std::vector<std::size_t> frames;
};

TEST(EffectAudio, a_strike_plays_the_effects_sound_command_with_its_distances_and_ratio) {
  auto fx = assets::lightning_fxid("sounds.lib", "BOOM.WAV", "bolt");
  auto sound = assets::read_sound_fields(fx.commands[1]);
  sound.params = {250.0f, 4000.0f, 0.5f, 0.0f};  // not the seed's: the mixer must take the FX's numbers
  assets::write_sound_fields(fx.commands[1], sound);
  auto prepared = assets::prepare_effect(fx, "effects.rlb", "storm");
  ASSERT_TRUE(prepared.has_value()) << prepared.error().to_string();
  auto weather = read_weather_text(core::as_bytes(std::string_view(
      "sortie-weather 1\nmaterial lightning m\nsample lightning other.wav\nlightning_bounds 0 0 10 10 0\n"
      "key 0 none 1 lightning\n")));
  ASSERT_TRUE(weather.has_value());
  Environment env(*weather, 9, 1.0, std::make_shared<const assets::PreparedEffect>(std::move(*prepared)));

  auto lib = sounds_lib();
  SoundBank bank(
      [lib](std::string_view name) -> core::Result<std::shared_ptr<const assets::MountedArchive>> {
        if (core::iequals_ascii(name, "sounds.lib")) return lib;
        return core::fail(core::Diagnostic::error("asset.archive_missing", "no archive").of(std::string(name)));
      },
      "sounds.lib");
  ParamsBackend backend;
  SoundMixer mixer(bank, backend);
  const auto cam = CameraFrame::look({0, 0, 10}, {1, 0, 0});
  std::optional<LightningStrike> strike;
  for (std::int64_t t = 0; t <= 4000 && !strike; t += 20) {
    const auto& f = env.update(t, cam);
    for (const auto& r : mixer.apply_frame(cam, t, f.sounds)) EXPECT_TRUE(r.ok()) << r.diagnostic.to_string();
    if (!f.lightning.empty()) strike = f.lightning.front();
  }
  ASSERT_TRUE(strike);
  ASSERT_EQ(backend.started.size(), 1u);
  const SourceParams& p = backend.started[0];
  EXPECT_EQ(p.bus, Bus::effects);
  EXPECT_FALSE(p.loop);
  EXPECT_TRUE(p.positional);
  EXPECT_EQ(p.position, strike->position);
  EXPECT_EQ(p.min_distance, 250.0f);
  EXPECT_EQ(p.max_distance, 4000.0f);
  EXPECT_EQ(p.frequency_ratio, 0.5f);
  EXPECT_EQ(backend.frames[0], 22050u);  // BOOM.WAV, not the schedule's other.wav
  // At half the frequency the one-shot plays for two seconds of mixer time.
  ASSERT_EQ(mixer.sources().size(), 1u);
  mixer.advance(1900);
  EXPECT_EQ(mixer.sources().size(), 1u);
  mixer.advance(200);
  EXPECT_TRUE(mixer.sources().empty());
}

}  // namespace
}  // namespace sortie::env::effect_audio_test
