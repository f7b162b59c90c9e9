// `sortie env frame|run` and `sortie sound list|decode`.
#include <gtest/gtest.h>

#include <cmath>

#include "cli_harness.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/wave.hpp"

namespace sortie::cli_test {
namespace {

class CliEnvTest : public CliTest {
 protected:
  fs::path schedule() {
    const fs::path p = dir_ / "storm.weather";
    const std::string_view text =
        "sortie-weather 1\nmaterial rain rain_drop\nsample rain atm_rain1.wav\nmaterial lightning bolt\n"
        "sample lightning sounds.lib/thunder.wav\nlightning_bounds 0 0 10 10 5\n"
        "key 0 rain 0.5 lightning\nkey 1 rain 1 lightning\n";
    put_bytes(p, core::as_bytes(text));
    return p;
  }
  fs::path sounds_lib() {
    const std::vector<std::int16_t> pcm = {1, -2, 3, -4};
    iron3d::WaveFormat f;
    f.format_tag = iron3d::kWaveFormatMsAdpcm, f.channels = 1, f.sample_rate = 22050, f.block_align = 9;
    f.bits_per_sample = 4, f.samples_per_block = 6, f.byte_rate = 22050 * 9 / 6;
    const auto c = iron3d::ms_adpcm_standard_coefficients();
    f.coefficients.assign(c.begin(), c.end());
    auto bytes = iron3d::NresBuilder()
                     .add(0, "PCM.WAV", iron3d::write_wave(iron3d::make_pcm16_wave(22050, 2, pcm)))
                     .add(0, "ADPCM.WAV",
                          iron3d::write_wave(iron3d::make_wave(f, core::Bytes{0, 16, 0, 100, 0, 50, 0, 0x12, 0x8F})))
                     .add(0, "ALIEN_ME.WAV", {})
                     .build();
    const fs::path p = dir_ / "sounds.lib";
    put_bytes(p, *bytes);
    return p;
  }
};

TEST_F(CliEnvTest, frame_prints_the_formula_numbers) {
  // vfov 90, aspect 1: half 50 x 50; fov pi/2; scalar 1000 / (pi/2) = 636.6197723675814;
  // snow 636.62 * 0.0195 = 12.414085561167837; ratio 2.48 clamps: 0.1875 * 1000 = 187.5 -> 188
  const auto r = run_sortie({"env", "frame", "--vfov-deg", "90", "--aspect", "1", "--viewport", "1000x500", "--kind",
                             "snow", "--intensity", "0.1875", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_NEAR(j.at("half_x").get<double>(), 50.0, 1e-12);
  EXPECT_NEAR(j.at("half_y").get<double>(), 50.0, 1e-12);
  EXPECT_NEAR(j.at("horizontal_fov").get<double>(), 1.5707963267948966, 1e-15);
  EXPECT_NEAR(j.at("size_scalar").get<double>(), 636.6197723675814, 1e-9);
  EXPECT_NEAR(j.at("point_size").get<double>(), 12.414085561167837, 1e-12);
  EXPECT_EQ(j.at("count"), 188);
  const auto text = run_sortie({"env", "frame", "--vfov-deg", "90", "--aspect", "1", "--viewport", "1000x500", "--kind",
                                "rain", "--intensity", "1"});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("count: 1000\n"), std::string::npos) << text.out;
}

TEST_F(CliEnvTest, frame_help_lists_aspect_as_optional_with_the_viewport_default) {
  const auto help = run_sortie({"env", "frame", "--help"});
  ASSERT_EQ(help.exit_code, 0) << help.err;
  const auto at = help.out.find("--aspect");
  ASSERT_NE(at, std::string::npos) << help.out;
  const std::string line = help.out.substr(at, help.out.find('\n', at) - at);
  EXPECT_EQ(line.find("REQUIRED"), std::string::npos) << line;
  EXPECT_NE(line.find("default: viewport W/H"), std::string::npos) << line;
  for (const char* required : {"--vfov-deg", "--viewport", "--kind", "--intensity"}) {
    const auto o = help.out.find(required);
    ASSERT_NE(o, std::string::npos) << required;
    EXPECT_NE(help.out.substr(o, help.out.find('\n', o) - o).find("REQUIRED"), std::string::npos) << required;
  }
  // Without --aspect the frame takes the viewport's: 1000 / 500.
  const auto r = run_sortie(
      {"env", "frame", "--vfov-deg", "90", "--viewport", "1000x500", "--kind", "rain", "--intensity", "0.5", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json().at("aspect"), 2.0);
}

TEST_F(CliEnvTest, numeric_options_out_of_range_exit_2_naming_the_option) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--vfov-deg", "0", "--aspect", "1", "--viewport", "10x10", "--kind", "rain", "--intensity", "0.5"},
       "--vfov-deg"},
      {{"--vfov-deg", "60", "--aspect", "-1", "--viewport", "10x10", "--kind", "rain", "--intensity", "0.5"},
       "--aspect"},
      {{"--vfov-deg", "60", "--aspect", "1", "--viewport", "0x10", "--kind", "rain", "--intensity", "0.5"},
       "--viewport"},
      {{"--vfov-deg", "60", "--aspect", "1", "--viewport", "10x10", "--kind", "rain", "--intensity", "1.01"},
       "--intensity"},
      {{"--vfov-deg", "60", "--aspect", "1", "--viewport", "10x10", "--kind", "rain", "--intensity", "nan"},
       "--intensity"},
      {{"--vfov-deg", "60", "--aspect", "1", "--viewport", "10x10", "--kind", "hail", "--intensity", "0.5"}, "--kind"},
  };
  for (const auto& [args, option] : cases) {
    std::vector<std::string> full = {"env", "frame"};
    full.insert(full.end(), args.begin(), args.end());
    const auto r = run_sortie(full);
    EXPECT_EQ(r.exit_code, 2) << option;
    EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
  }
  const auto s = run_sortie({"env", "run", schedule().string(), "--seconds", "-3"});
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_NE(s.err.find("--seconds"), std::string::npos) << s.err;
}

TEST_F(CliEnvTest, run_prints_the_event_list) {
  const auto sched = schedule();
  const auto r = run_sortie({"env", "run", sched.string(), "--seconds", "30", "--seed", "4", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  const auto& ev = j.at("events");
  ASSERT_GE(ev.size(), 2u);
  EXPECT_EQ(ev[0].at("type"), "StartLoop");
  EXPECT_EQ(ev[0].at("sample").at("name"), "atm_rain1.wav");
  EXPECT_EQ(ev[1].at("type"), "SetLoopVolume");
  for (const auto& s : j.at("lightning_strikes")) {
    EXPECT_EQ(s.at("position")[2], 5.0);
    EXPECT_EQ(s.at("body_top"), 605.0);
  }
  const auto& att = j.at("lightning_attempts");
  ASSERT_GE(att.size(), 1u);
  for (const auto& a : att) {
    // delay = round_even((1 - min(I, 0.95)) * 60000 * r15 / 32767)
    const double i = std::min(a.at("intensity").get<double>(), 0.95);
    const double want = std::nearbyint((1.0 - i) * 60000.0 * a.at("r15").get<double>() / 32767.0);
    EXPECT_NEAR(a.at("delay_ms").get<double>(), want, 1.0);
  }
  EXPECT_EQ(r.out, run_sortie({"env", "run", sched.string(), "--seconds", "30", "--seed", "4", "--json"}).out);
  const auto bad = dir_ / "bad.weather";
  put_bytes(bad, core::as_bytes(std::string_view("sortie-weather 7\n")));
  const auto b = run_sortie({"env", "run", bad.string(), "--seconds", "1"});
  EXPECT_EQ(b.exit_code, 1);
  EXPECT_NE(b.err.find("weather.version"), std::string::npos) << b.err;
  EXPECT_EQ(run_sortie({"env", "run", (dir_ / "absent").string(), "--seconds", "1"}).exit_code, 2);
}

TEST_F(CliEnvTest, run_reports_the_active_sky_and_its_pool) {
  const fs::path p = dir_ / "sky.weather";
  // day: 0.9 0.9 0.9, length sqrt(2.43) = 1.5588 > 1.1; night 0.1 0.2 0.4: sqrt(0.21) = 0.4583
  put_bytes(p, core::as_bytes(std::string_view(
                   "sortie-weather 1\nsky day 0.9 0.9 0.9 until 60\nsky night 0.1 0.2 0.4 from 60 until 90\n")));
  const auto r = run_sortie({"env", "run", p.string(), "--seconds", "120", "--step-ms", "1000", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  const auto& c = j.at("sky_changes");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].at("time_ms"), 0);
  EXPECT_EQ(c[0].at("name"), "day");
  EXPECT_EQ(c[0].at("pool"), "day");
  EXPECT_NEAR(c[0].at("length").get<double>(), 1.5588457, 1e-6);
  EXPECT_EQ(c[1].at("time_ms"), 60000);
  EXPECT_EQ(c[1].at("name"), "night");
  EXPECT_EQ(c[1].at("pool"), "night");
  EXPECT_NEAR(c[1].at("base_rgb")[2].get<double>(), 0.4, 1e-6);
  EXPECT_EQ(c[2].at("time_ms"), 90000);
  EXPECT_TRUE(c[2].at("name").is_null());
  EXPECT_EQ(c[2].at("pool"), "night");
  const auto text = run_sortie({"env", "run", p.string(), "--seconds", "120", "--step-ms", "1000"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("     0.000 s  Sky           name=day rgb=(0.9, 0.9, 0.9) length=1.5588"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("    90.000 s  Sky           none pool=night\n"), std::string::npos) << text.out;
  // Without sky objects nothing changes: no Sky line, an empty list.
  const auto sched = schedule();
  const auto plain = run_sortie({"env", "run", sched.string(), "--seconds", "5"});
  EXPECT_EQ(plain.out.find("Sky"), std::string::npos) << plain.out;
  EXPECT_TRUE(run_sortie({"env", "run", sched.string(), "--seconds", "5", "--json"}).json().at("sky_changes").empty());
}

TEST_F(CliEnvTest, sound_list_and_decode) {
  const auto lib = sounds_lib();
  const auto l = run_sortie({"sound", "list", lib.string(), "--json"});
  ASSERT_EQ(l.exit_code, 0) << l.err;
  const auto j = l.json();
  ASSERT_EQ(j.at("entries").size(), 3u);
  EXPECT_EQ(j.at("entries")[0].at("status"), "decoded_sample");
  EXPECT_EQ(j.at("entries")[0].at("frames"), 2);
  EXPECT_EQ(j.at("entries")[1].at("encoding"), "ms_adpcm");
  EXPECT_EQ(j.at("entries")[2].at("status"), "entry_empty");
  EXPECT_EQ(j.at("decoded"), 2);

  const auto out = dir_ / "out.wav";
  const auto d = run_sortie({"sound", "decode", lib.string(), "adpcm.wav", "-o", out.string()});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  auto decoded = iron3d::decode_wave(file_bytes(out));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->source_format, iron3d::kWaveFormatPcm);
  EXPECT_EQ(decoded->samples, (std::vector<std::int16_t>{50, 100, 116, 148, 20, -28}));

  const auto missing = run_sortie({"sound", "decode", lib.string(), "nope.wav", "-o", (dir_ / "x.wav").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("sound.entry_missing"), std::string::npos) << missing.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.wav"));
  const auto empty = run_sortie({"sound", "decode", lib.string(), "ALIEN_ME.WAV", "-o", (dir_ / "y.wav").string()});
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.err.find("sound.entry_empty"), std::string::npos) << empty.err;
  EXPECT_EQ(run_sortie({"sound", "list", (dir_ / "absent.lib").string()}).exit_code, 2);
}

}  // namespace
}  // namespace sortie::cli_test
