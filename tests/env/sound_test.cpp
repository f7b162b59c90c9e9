// Sound bank and mixer: the "Проверки звука" list of seed 001.
#include <gtest/gtest.h>

#include <algorithm>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/core/text.hpp"
#include "sortie/env/audio.hpp"
#include "sortie/env/environment.hpp"
#include "sortie/iron3d/nres.hpp"

using namespace sortie;
using namespace sortie::env;

namespace {

// 1 second of mono PCM at 22,050 Hz, 22,050 frames.
core::Bytes pcm_wave(std::size_t frames = 22050) {
  std::vector<std::int16_t> s(frames);
  for (std::size_t i = 0; i < frames; ++i) s[i] = static_cast<std::int16_t>(i % 100);
  return iron3d::write_wave(iron3d::make_pcm16_wave(22050, 1, s));
}

core::Bytes adpcm_wave() {
  iron3d::WaveFormat f;
  f.format_tag = iron3d::kWaveFormatMsAdpcm, f.channels = 1, f.sample_rate = 22050, f.block_align = 9;
  f.bits_per_sample = 4, f.samples_per_block = 6, f.byte_rate = 22050 * 9 / 6;
  const auto c = iron3d::ms_adpcm_standard_coefficients();
  f.coefficients.assign(c.begin(), c.end());
  return iron3d::write_wave(iron3d::make_wave(f, core::Bytes{0, 16, 0, 100, 0, 50, 0, 0x12, 0x8F}));
}

// sounds.lib with a PCM loop, an ADPCM one-shot, the empty ALIEN_ME.WAV and a broken entry.
std::shared_ptr<const assets::MountedArchive> sounds_lib() {
  auto bytes = iron3d::NresBuilder()
                   .add(0, "atm_rain1.wav", pcm_wave())
                   .add(0, "THUNDER.WAV", adpcm_wave())
                   .add(0, "ALIEN_ME.WAV", {})
                   .add(0, "broken.wav", core::Bytes{'R', 'I', 'F', 'F', 0, 0})
                   .build();
  auto path = assets::normalize_path("sounds.lib", assets::PathPolicy::host_compatible);
  return *assets::mount_archive(*path, std::move(*bytes));
}

ArchiveOpener opener(std::shared_ptr<const assets::MountedArchive> lib, int* opens = nullptr) {
  return [lib, opens](std::string_view name) -> core::Result<std::shared_ptr<const assets::MountedArchive>> {
    if (opens) ++*opens;
    if (core::iequals_ascii(name, "sounds.lib")) return lib;
    return core::fail(core::Diagnostic::error("asset.archive_missing", "archive not found").of(std::string(name)));
  };
}

SoundEvent one_shot(std::string name) {
  SoundEvent e;
  e.kind = SoundEventKind::one_shot;
  e.sample = {"sounds.lib", std::move(name)};
  e.positional = true;
  e.position = {1, 2, 3};
  e.min_distance = 100, e.max_distance = 1500;
  return e;
}

SoundEvent start_loop(std::string loop, std::string name, float volume = 1.0f) {
  SoundEvent e;
  e.kind = SoundEventKind::start_loop;
  e.loop = std::move(loop);
  e.sample = {"", std::move(name)};
  e.bus = Bus::ambient;
  e.volume = volume;
  return e;
}

// A backend with a device that answers ok and records what it was told.
class RecordingBackend final : public AudioBackend {
 public:
  [[nodiscard]] std::string_view name() const override { return "recording"; }
  [[nodiscard]] bool has_device() const override { return true; }
  BackendStatus start_source(SourceId id, const iron3d::DecodedWave&, const SourceParams&, float gain,
                             std::uint64_t) override {
    log.push_back("start " + std::to_string(id) + " gain " + std::to_string(gain));
    return BackendStatus::ok;
  }
  BackendStatus update_source(SourceId id, const SourceParams&, float gain) override {
    log.push_back("update " + std::to_string(id) + " gain " + std::to_string(gain));
    return BackendStatus::ok;
  }
  BackendStatus stop_source(SourceId id) override {
    log.push_back("stop " + std::to_string(id));
    return BackendStatus::ok;
  }
  BackendStatus set_listener(const Listener& l) override {
    listener = l;
    log.push_back("listener");
    return BackendStatus::ok;
  }
  BackendStatus set_paused(bool p) override {
    log.push_back(p ? "pause" : "resume");
    return BackendStatus::ok;
  }
  BackendStatus set_muted(bool m) override {
    log.push_back(m ? "mute" : "unmute");
    return BackendStatus::ok;
  }
  std::vector<std::string> log;
  Listener listener;
};

}  // namespace

TEST(SoundBank, missing_empty_invalid_and_decoded_are_distinct) {
  SoundBank bank(opener(sounds_lib()), "sounds.lib");
  EXPECT_EQ(bank.lookup({"", "atm_rain1.wav"}).status, SoundLookupStatus::decoded_sample);
  EXPECT_EQ(bank.lookup({"sounds.lib", "thunder.wav"}).status, SoundLookupStatus::decoded_sample);
  EXPECT_EQ(bank.lookup({"sounds.lib", "nope.wav"}).status, SoundLookupStatus::entry_missing);
  EXPECT_EQ(bank.lookup({"sounds.lib", "alien_me.wav"}).status, SoundLookupStatus::entry_empty);
  EXPECT_EQ(bank.lookup({"sounds.lib", "broken.wav"}).status, SoundLookupStatus::wave_invalid);
  EXPECT_EQ(bank.lookup({"voices.lib", "x.wav"}).status, SoundLookupStatus::archive_unavailable);
  const auto adpcm = bank.lookup({"sounds.lib", "THUNDER.WAV"});
  ASSERT_TRUE(adpcm.ok());
  EXPECT_EQ(adpcm.sample->samples, (std::vector<std::int16_t>{50, 100, 116, 148, 20, -28}));
  EXPECT_EQ(adpcm.sample->source_format, iron3d::kWaveFormatMsAdpcm);
}

TEST(SoundBank, one_decoded_sample_per_identity_resolved_lazily) {
  int opens = 0;
  SoundBank bank(opener(sounds_lib(), &opens), "sounds.lib");
  EXPECT_EQ(opens, 0);  // nothing is read before the first lookup
  const auto a = bank.lookup({"", "atm_rain1.wav"});
  const auto b = bank.lookup({"SOUNDS.LIB", "ATM_RAIN1.WAV"});  // same identity, other spelling
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.sample.get(), b.sample.get());
  EXPECT_EQ(bank.stats().decoded, 1u);
  EXPECT_EQ(bank.stats().cache_hits, 1u);
  EXPECT_EQ(opens, 1);
}

TEST(SoundBank, missing_resource_carries_the_whole_chain) {
  SoundBank bank(opener(sounds_lib()), "sounds.lib");
  const auto miss = bank.lookup({"", "atm_rain9.wav"}, "weather.rain_sample");
  EXPECT_EQ(miss.diagnostic.code, "sound.entry_missing");
  EXPECT_EQ(miss.diagnostic.file, "sounds.lib:atm_rain9.wav");
  EXPECT_EQ(miss.diagnostic.field, "weather.rain_sample");
  EXPECT_NE(miss.diagnostic.message.find("atm_rain9.wav"), std::string::npos);
  EXPECT_NE(miss.diagnostic.message.find("sounds.lib"), std::string::npos);
  const auto bad = bank.lookup({"", "broken.wav"}, "fx.boom");
  EXPECT_EQ(bad.diagnostic.code, "sound.wave_invalid");
  EXPECT_NE(bad.diagnostic.message.find("wave.size"), std::string::npos);  // the reader's own finding
  const auto lib = bank.lookup({"voices.lib", "v.wav"}, "mission.voice");
  EXPECT_EQ(lib.diagnostic.code, "sound.archive_unavailable");
  EXPECT_NE(lib.diagnostic.message.find("asset.archive_missing"), std::string::npos);
  EXPECT_EQ(lib.diagnostic.field, "mission.voice");
}

TEST(SoundMixer, backend_may_be_absent_without_changing_the_simulation) {
  SoundBank bank_a(opener(sounds_lib()), "sounds.lib");
  SoundBank bank_b(opener(sounds_lib()), "sounds.lib");
  NullAudioBackend none;
  RecordingBackend device;
  SoundMixer a(bank_a, none);
  SoundMixer b(bank_b, device);
  const auto cam = CameraFrame::look({1, 2, 3}, {0, 1, 0});
  const std::vector<SoundEvent> events = {start_loop("rain", "atm_rain1.wav", 0.5f), one_shot("THUNDER.WAV")};
  const auto ra = a.apply_frame(cam, 0, events);
  const auto rb = b.apply_frame(cam, 0, events);
  for (auto* m : {&a, &b}) m->advance(250);
  ASSERT_EQ(ra.size(), 2u);
  EXPECT_EQ(ra[0].backend, BackendStatus::no_device);
  EXPECT_EQ(rb[0].backend, BackendStatus::ok);
  EXPECT_EQ(ra[0].source, rb[0].source);
  ASSERT_EQ(a.sources().size(), b.sources().size());
  for (std::size_t i = 0; i < a.sources().size(); ++i) {
    EXPECT_EQ(a.sources()[i].position_frames, b.sources()[i].position_frames);
    EXPECT_EQ(a.sources()[i].params, b.sources()[i].params);
  }
  // Every call to the no-device backend was answered, none silently: listener, start, and the
  // one-shot (6 frames) stopped when it ended.
  EXPECT_EQ(none.calls(), (std::vector<BackendCall>{BackendCall::set_listener, BackendCall::start_source,
                                                    BackendCall::start_source, BackendCall::stop_source}));
  EXPECT_EQ(a.backend_unanswered(), 4u);
  EXPECT_EQ(b.backend_unanswered(), 0u);
  EXPECT_EQ(NullAudioBackend::kMessage, "3D Sound was not initialized");
}

TEST(SoundMixer, one_decoded_sample_is_shared_by_many_sources) {
  SoundBank bank(opener(sounds_lib()), "sounds.lib");
  NullAudioBackend none;
  SoundMixer m(bank, none);
  auto e = one_shot("atm_rain1.wav");
  m.apply(e);
  e.position = {9, 9, 9};
  m.apply(e);
  m.apply(start_loop("rain", "atm_rain1.wav"));
  ASSERT_EQ(m.sources().size(), 3u);
  EXPECT_EQ(m.sources()[0].sample.get(), m.sources()[1].sample.get());
  EXPECT_EQ(m.sources()[0].sample.get(), m.sources()[2].sample.get());
  EXPECT_NE(m.sources()[0].params.position, m.sources()[1].params.position);
  EXPECT_EQ(bank.stats().decoded, 1u);
}

TEST(SoundMixer, listener_follows_the_camera_frame_before_the_events) {
  SoundBank bank(opener(sounds_lib()), "sounds.lib");
  RecordingBackend device;
  SoundMixer m(bank, device);
  const auto cam = CameraFrame::look({10, 20, 30}, {0, 1, 0});
  const std::vector<SoundEvent> events = {one_shot("THUNDER.WAV")};
  m.apply_frame(cam, 500, events);
  const Listener expected{{10, 20, 30}, cam.forward(), cam.up(), 500};
  EXPECT_EQ(m.listener(), expected);
  EXPECT_EQ(device.listener, expected);
  EXPECT_NEAR(expected.forward.y, 1.0f, 1e-6f);
  EXPECT_NEAR(expected.up.z, 1.0f, 1e-6f);
  ASSERT_EQ(device.log.size(), 2u);
  EXPECT_EQ(device.log[0], "listener");
  EXPECT_EQ(device.log[1].substr(0, 5), "start");
}

TEST(SoundMixer, loop_survives_pause_and_resume) {
  SoundBank bank(opener(sounds_lib()), "sounds.lib");
  NullAudioBackend none;
  SoundMixer m(bank, none);
  m.apply(start_loop("rain", "atm_rain1.wav"));
  // 1500 ms at 22,050 Hz = 33,075 frames; the loop is 22,050 frames: 33,075 - 22,050 = 11,025
  m.advance(1500);
  ASSERT_NE(m.loop("rain"), nullptr);
  EXPECT_EQ(m.loop("rain")->position_frames, 11025u);
  const SourceId id = m.loop("rain")->id;
  m.set_paused(true);
  m.advance(5000);
  EXPECT_EQ(m.loop("rain")->position_frames, 11025u);
  EXPECT_EQ(m.time_ms(), 1500);
  m.set_paused(false);
  m.advance(100);  // 1600 ms = 35,280 frames -> 13,230 in the loop
  EXPECT_EQ(m.loop("rain")->position_frames, 13230u);
  EXPECT_EQ(m.loop("rain")->id, id);
}

TEST(SoundMixer, mute_keeps_positions_and_time) {
  SoundBank bank(opener(sounds_lib()), "sounds.lib");
  RecordingBackend device;
  SoundMixer m(bank, device);
  m.apply(start_loop("rain", "atm_rain1.wav", 0.5f));
  m.set_bus_volume(Bus::ambient, 0.5f);
  // gain = volume 0.5 * ambient 0.5 * master 1 = 0.25
  EXPECT_EQ(m.effective_gain(*m.loop("rain")), 0.25f);
  m.advance(200);  // 4,410 frames
  m.set_muted(true);
  EXPECT_EQ(m.effective_gain(*m.loop("rain")), 0.0f);
  m.advance(300);  // 500 ms = 11,025 frames: time runs on while muted
  EXPECT_EQ(m.loop("rain")->position_frames, 11025u);
  EXPECT_EQ(m.time_ms(), 500);
  m.set_muted(false);
  EXPECT_EQ(m.effective_gain(*m.loop("rain")), 0.25f);
  EXPECT_EQ(m.loop("rain")->params.volume, 0.5f);  // the source's own volume was never touched
  m.set_bus_volume(Bus::master, 0.5f);
  EXPECT_EQ(m.effective_gain(*m.loop("rain")), 0.125f);
  EXPECT_NE(std::find(device.log.begin(), device.log.end(), "mute"), device.log.end());
}

TEST(SoundMixer, loop_events_follow_the_loop) {
  SoundBank bank(opener(sounds_lib()), "sounds.lib");
  NullAudioBackend none;
  SoundMixer m(bank, none);
  SoundEvent vol;
  vol.kind = SoundEventKind::set_loop_volume;
  vol.loop = "rain";
  vol.volume = 0.75f;
  EXPECT_EQ(m.apply(vol).diagnostic.code, "sound.loop_not_playing");
  m.apply(start_loop("rain", "atm_rain1.wav", 0.25f));
  EXPECT_TRUE(m.apply(vol).ok());
  EXPECT_EQ(m.loop("rain")->params.volume, 0.75f);
  SoundEvent stop;
  stop.kind = SoundEventKind::stop_loop;
  stop.loop = "rain";
  EXPECT_TRUE(m.apply(stop).ok());
  EXPECT_EQ(m.loop("rain"), nullptr);
  // a start whose sample cannot be found keeps the simulation going and says why
  const auto r = m.apply(start_loop("snow", "atm_snow.wav"));
  EXPECT_EQ(r.lookup, SoundLookupStatus::entry_missing);
  EXPECT_EQ(r.diagnostic.field, "loop snow");
  EXPECT_TRUE(m.sources().empty());
}

TEST(SoundMixer, environment_events_replay_to_the_same_sources) {
  // The deterministic check compares the list of sound events and the logical sources, never a
  // device waveform.
  auto sched = read_weather_text(core::as_bytes(
      std::string_view("sortie-weather 1\nmaterial rain r\nsample rain atm_rain1.wav\nmaterial lightning l\n"
                       "sample lightning sounds.lib/THUNDER.WAV\nlightning_bounds 0 0 100 100 0\nkey 0 rain 0.5 "
                       "lightning\nkey 30 rain 1 lightning\n")));
  ASSERT_TRUE(sched) << sched.error().to_string();
  auto run = [&] {
    Environment env(*sched, 77);
    SoundBank bank(opener(sounds_lib()), "sounds.lib");
    NullAudioBackend none;
    SoundMixer mixer(bank, none);
    std::vector<SoundEvent> events;
    std::size_t failures = 0;
    const auto cam = CameraFrame::look({50, 50, 2}, {1, 0, 0});
    for (std::int64_t t = 0; t <= 40000; t += 50) {
      const auto& f = env.update(t, cam);
      for (const auto& r : mixer.apply_frame(f.camera, t, f.sounds)) failures += !r.ok();
      mixer.advance(50);
      events.insert(events.end(), f.sounds.begin(), f.sounds.end());
    }
    EXPECT_EQ(failures, 0u);
    EXPECT_NE(mixer.loop("rain"), nullptr);
    return std::make_pair(events, mixer.loop("rain")->position_frames);
  };
  const auto a = run();
  EXPECT_GT(a.first.size(), 100u);  // SetLoopVolume on every frame of the 0.5 -> 1 ramp
  EXPECT_EQ(a, run());
}
