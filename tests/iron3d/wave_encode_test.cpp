// MS ADPCM encoder: format fields, block layout, predictor choice, quality bounds, hostile
// arguments, and sox decoding our files to the samples our decoder gives.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/wave.hpp"
#include "sortie_test/process.hpp"

using namespace sortie;
using namespace sortie::iron3d;

namespace {

constexpr double kPi = 3.14159265358979323846;

// A sine of `amplitude` at `hz`, `frames` long, 22,050 Hz, into channel `channel` of `channels`.
void add_sine(std::vector<std::int16_t>& out, std::uint16_t channels, std::uint16_t channel, double hz,
              double amplitude) {
  const std::size_t frames = out.size() / channels;
  for (std::size_t i = 0; i < frames; ++i)
    out[i * channels + channel] =
        static_cast<std::int16_t>(std::lround(amplitude * std::sin(2.0 * kPi * hz * static_cast<double>(i) / 22050.0)));
}

// Signal-to-noise ratio in dB of `decoded` against `source` over channel `channel`.
double snr_db(const std::vector<std::int16_t>& source, const std::vector<std::int16_t>& decoded, std::uint16_t channels,
              std::uint16_t channel) {
  double signal = 0.0, noise = 0.0;
  for (std::size_t i = channel; i < source.size(); i += channels) {
    const double s = source[i];
    const double e = s - decoded[i];
    signal += s * s;
    noise += e * e;
  }
  return noise == 0.0 ? 200.0 : 10.0 * std::log10(signal / noise);
}

DecodedWave round_trip(const std::vector<std::int16_t>& pcm, std::uint16_t channels,
                       const MsAdpcmEncodeOptions& options = {}) {
  auto wave = encode_ms_adpcm(22050, channels, pcm, options);
  EXPECT_TRUE(wave) << wave.error().to_string();
  if (!wave) return {};
  auto decoded = decode_wave(write_wave(*wave));
  EXPECT_TRUE(decoded) << decoded.error().to_string();
  return decoded ? *decoded : DecodedWave{};
}

const WaveChunk& data_chunk(const Wave& w) {
  const WaveChunk* d = w.find("data");
  EXPECT_NE(d, nullptr);
  static const WaveChunk none;
  return d ? *d : none;
}

}  // namespace

TEST(WaveEncode, default_format_is_the_windows_codec_choice_at_22050_hz) {
  // Windows' msadp32 (and sox): 512 bytes per channel at 22,050 Hz; 2 * 512 - 12 = 1012 frames.
  EXPECT_EQ(ms_adpcm_default_block_align(22050, 1), 512);
  EXPECT_EQ(ms_adpcm_default_block_align(22050, 2), 1024);
  EXPECT_EQ(ms_adpcm_default_block_align(11025, 1), 256);
  EXPECT_EQ(ms_adpcm_default_block_align(8000, 2), 512);
  EXPECT_EQ(ms_adpcm_default_block_align(44100, 1), 1024);
  EXPECT_EQ(ms_adpcm_block_align(1, 1012), 512u);
  EXPECT_EQ(ms_adpcm_block_align(2, 1012), 1024u);
  EXPECT_EQ(ms_adpcm_block_align(1, 500), 256u);
  EXPECT_EQ(ms_adpcm_block_align(1, 5), 9u);  // 7 + ceil(3 / 2)

  const std::vector<std::int16_t> mono(3000, 0);
  auto w = encode_ms_adpcm(22050, 1, mono);
  ASSERT_TRUE(w) << w.error().to_string();
  auto f = wave_format(*w);
  ASSERT_TRUE(f) << f.error().to_string();
  EXPECT_EQ(f->format_tag, kWaveFormatMsAdpcm);
  EXPECT_EQ(f->channels, 1);
  EXPECT_EQ(f->sample_rate, 22050u);
  EXPECT_EQ(f->block_align, 512);
  EXPECT_EQ(f->samples_per_block, 1012);
  EXPECT_EQ(f->bits_per_sample, 4);
  EXPECT_EQ(f->byte_rate, 11155u);  // 22050 * 512 / 1012 = 11155.77, truncated as msadp32 does
  EXPECT_TRUE(std::equal(f->coefficients.begin(), f->coefficients.end(), ms_adpcm_standard_coefficients().begin(),
                         ms_adpcm_standard_coefficients().end()));
  EXPECT_EQ(wave_fact_frames(*w), 3000u);
  ASSERT_EQ(w->chunks.size(), 3u);
  EXPECT_EQ(w->chunks[0].id_text(), "fmt ");
  EXPECT_EQ(w->chunks[0].data.size(), 50u);  // 16 + cbSize field + 4 + 7 * 4
  EXPECT_EQ(w->chunks[1].id_text(), "fact");
  EXPECT_EQ(w->chunks[2].id_text(), "data");
  // 3000 = 2 * 1012 + 976: two full blocks and a short one of 7 + 974 / 2 bytes.
  EXPECT_EQ(data_chunk(*w).data.size(), 2u * 512 + 7 + 487);
  const auto bytes = write_wave(*w);
  EXPECT_EQ(w->riff_size, bytes.size() - 8);
  auto back = read_wave(bytes, {core::Profile::strict, "enc.wav"});
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->wave, *w);

  auto s = encode_ms_adpcm(22050, 2, std::vector<std::int16_t>(20, 0));
  ASSERT_TRUE(s);
  EXPECT_EQ(wave_format(*s)->block_align, 1024);
  EXPECT_EQ(wave_format(*s)->samples_per_block, 1012);
  EXPECT_EQ(wave_format(*s)->byte_rate, 22311u);  // 22050 * 1024 / 1012
}

TEST(WaveEncode, silence_is_exact_and_costs_the_minimum_delta) {
  const std::vector<std::int16_t> pcm(1012, 0);
  auto w = encode_ms_adpcm(22050, 1, pcm);
  ASSERT_TRUE(w);
  const auto& d = data_chunk(*w).data;
  ASSERT_EQ(d.size(), 512u);
  // predictor 0, delta 16, samples 0 and 0, then 505 bytes of zero codes.
  EXPECT_EQ(d[0], 0);
  EXPECT_EQ(d[1], 16);
  EXPECT_EQ(d[2], 0);
  for (std::size_t i = 3; i < d.size(); ++i) ASSERT_EQ(d[i], 0) << i;
  EXPECT_EQ(round_trip(pcm, 1).samples, pcm);
}

TEST(WaveEncode, picks_the_predictor_that_fits_the_block) {
  // A ramp is predicted exactly by 2 * s1 - s2 (pair 1: 512, -256); a constant by s1 (pair 0:
  // 256, 0), which wins the tie with pair 1 by its lower index.
  std::vector<std::int16_t> ramp(40);
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<std::int16_t>(-1000 + 37 * i);
  auto r = encode_ms_adpcm(22050, 1, ramp, {40});
  ASSERT_TRUE(r);
  EXPECT_EQ(data_chunk(*r).data[0], 1);
  EXPECT_EQ(round_trip(ramp, 1, {40}).samples, ramp);

  const std::vector<std::int16_t> level(40, 1234);
  auto c = encode_ms_adpcm(22050, 1, level, {40});
  ASSERT_TRUE(c);
  EXPECT_EQ(data_chunk(*c).data[0], 0);
  EXPECT_EQ(round_trip(level, 1, {40}).samples, level);
}

TEST(WaveEncode, block_headers_hold_the_first_two_samples_exactly) {
  std::vector<std::int16_t> pcm(22050);
  add_sine(pcm, 1, 0, 997.0, 20000.0);
  const auto d = round_trip(pcm, 1, {100});
  ASSERT_EQ(d.samples.size(), pcm.size());
  for (std::size_t b = 0; b < pcm.size(); b += 100) {
    EXPECT_EQ(d.samples[b], pcm[b]) << b;
    EXPECT_EQ(d.samples[b + 1], pcm[b + 1]) << b;
  }
}

// Measured with this encoder (sox 14.4's encoder on the same input, decoded by sox): 440 Hz
// 56.0 dB (55.7), 3 kHz 29.7 dB (29.6), full-scale white noise 19.1 dB (19.1). The bounds sit
// 3..6 dB below, so a change of heuristics that stays on par with sox passes, while losing the
// predictor choice or the delta estimate (each worth far more on these signals) fails.
TEST(WaveEncode, quality_is_on_par_with_sox) {
  std::vector<std::int16_t> low(22050);
  add_sine(low, 1, 0, 440.0, 16384.0);  // -6 dBFS
  EXPECT_GE(snr_db(low, round_trip(low, 1).samples, 1, 0), 50.0);
  std::vector<std::int16_t> high(22050);
  add_sine(high, 1, 0, 3000.0, 16384.0);
  EXPECT_GE(snr_db(high, round_trip(high, 1).samples, 1, 0), 26.0);
  std::vector<std::int16_t> noise(22050);
  std::uint32_t lcg = 7;
  for (auto& s : noise) {
    lcg = lcg * 1664525u + 1013904223u;
    s = static_cast<std::int16_t>(static_cast<std::int32_t>(lcg >> 16) - 32768);
  }
  EXPECT_GE(snr_db(noise, round_trip(noise, 1).samples, 1, 0), 16.0);
}

TEST(WaveEncode, stereo_keeps_its_channels_apart) {
  // Left 440 Hz, right 1,250 Hz at a third of the level: each decoded channel matches its own
  // source and not the other one (the cross "SNR" is below 3 dB).
  std::vector<std::int16_t> pcm(std::size_t{2} * 15000);
  add_sine(pcm, 2, 0, 440.0, 16384.0);
  add_sine(pcm, 2, 1, 1250.0, 5000.0);
  const auto d = round_trip(pcm, 2);
  ASSERT_EQ(d.channels, 2);
  ASSERT_EQ(d.samples.size(), pcm.size());        // 15000 = 14 * 1012 + 832: the short block is exact
  EXPECT_GE(snr_db(pcm, d.samples, 2, 0), 50.0);  // measured 56.0 dB (as mono)
  EXPECT_GE(snr_db(pcm, d.samples, 2, 1), 33.0);  // measured 37.9 dB: -16 dBFS nears the delta floor
  // Channels are coded independently on the same block grid: each decoded channel is exactly
  // the decoded mono encoding of that channel.
  for (std::uint16_t c = 0; c < 2; ++c) {
    std::vector<std::int16_t> mono(pcm.size() / 2);
    for (std::size_t i = 0; i < mono.size(); ++i) mono[i] = pcm[2 * i + c];
    const auto m = round_trip(mono, 1);
    ASSERT_EQ(m.samples.size(), mono.size());
    std::size_t diff = 0;
    for (std::size_t i = 0; i < mono.size(); ++i) diff += m.samples[i] != d.samples[2 * i + c];
    EXPECT_EQ(diff, 0u) << "channel " << c;
  }
  std::vector<std::int16_t> swapped(pcm.size());
  for (std::size_t i = 0; i < pcm.size(); i += 2) swapped[i] = d.samples[i + 1], swapped[i + 1] = d.samples[i];
  EXPECT_LT(snr_db(pcm, swapped, 2, 0), 3.0);
}

TEST(WaveEncode, short_last_block_holds_only_the_frames_left) {
  std::vector<std::int16_t> pcm(3 * 500 + 101);
  add_sine(pcm, 1, 0, 300.0, 12000.0);
  auto w = encode_ms_adpcm(22050, 1, pcm, {500});
  ASSERT_TRUE(w);
  EXPECT_EQ(wave_format(*w)->block_align, 256);
  // 101 frames: header + 99 codes in 50 bytes (the last low nibble is padding).
  EXPECT_EQ(data_chunk(*w).data.size(), 3u * 256 + 7 + 50);
  EXPECT_EQ(wave_fact_frames(*w), pcm.size());
  auto d = decode_wave(*w);
  ASSERT_TRUE(d);
  // Decoders play every nibble: the pad code is one extra frame, the `fact` count says so.
  ASSERT_EQ(d->frames(), pcm.size() + 1);
  EXPECT_GE(snr_db(pcm, std::vector<std::int16_t>(d->samples.begin(), d->samples.end() - 1), 1, 0), 40.0);

  // One frame left: a header-only block repeating that sample; two frames: the header alone.
  for (const std::size_t tail : {1u, 2u}) {
    std::vector<std::int16_t> t(500 + tail, 5);
    t.back() = -7;
    auto tw = encode_ms_adpcm(22050, 1, t, {500});
    ASSERT_TRUE(tw);
    EXPECT_EQ(data_chunk(*tw).data.size(), 256u + 7);
    const auto td = decode_wave(*tw);
    ASSERT_TRUE(td);
    ASSERT_EQ(td->frames(), 502u);
    EXPECT_EQ(td->samples[500], tail == 1 ? -7 : 5);
    EXPECT_EQ(td->samples[501], -7);
  }
}

TEST(WaveEncode, extreme_signals_stay_decodable_and_bounded) {
  // Full-scale square wave (rails every 5 samples) and alternating rails: the decoder's clamp
  // is part of the encoder's model, so the error stays small and nothing wraps.
  std::vector<std::int16_t> square(4000);
  for (std::size_t i = 0; i < square.size(); ++i) square[i] = (i / 5) % 2 ? -32768 : 32767;
  EXPECT_GE(snr_db(square, round_trip(square, 1).samples, 1, 0), 10.0);
  std::vector<std::int16_t> alt(4000);
  for (std::size_t i = 0; i < alt.size(); ++i) alt[i] = i % 2 ? -32768 : 32767;
  const auto d = round_trip(alt, 1);
  ASSERT_EQ(d.samples.size(), alt.size());
  EXPECT_GE(snr_db(alt, d.samples, 1, 0), 6.0);
}

TEST(WaveEncode, no_frames_is_an_empty_data_chunk) {
  auto w = encode_ms_adpcm(22050, 2, std::vector<std::int16_t>{});
  ASSERT_TRUE(w);
  EXPECT_TRUE(data_chunk(*w).data.empty());
  EXPECT_EQ(wave_fact_frames(*w), 0u);
  auto d = decode_wave(write_wave(*w));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->frames(), 0u);
}

TEST(WaveEncode, rejects_three_channels) {
  auto w = encode_ms_adpcm(22050, 3, std::vector<std::int16_t>(9));
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, "wave.channels");
  EXPECT_EQ(encode_ms_adpcm(22050, 0, std::vector<std::int16_t>(4)).error().code, "wave.channels");
}

TEST(WaveEncode, rejects_zero_sample_rate) {
  EXPECT_EQ(encode_ms_adpcm(0, 1, std::vector<std::int16_t>(4)).error().code, "wave.sample_rate");
}

TEST(WaveEncode, rejects_partial_stereo_frame) {
  auto w = encode_ms_adpcm(22050, 2, std::vector<std::int16_t>(7));
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, "wave.samples");
  EXPECT_EQ(w.error().found, "7");
}

TEST(WaveEncode, rejects_block_of_one_sample_and_blocks_over_64k) {
  EXPECT_EQ(encode_ms_adpcm(22050, 1, std::vector<std::int16_t>(4), {1}).error().code, "wave.block_align");
  // Stereo 65535 frames per block: 14 + 65533 bytes.
  auto big = encode_ms_adpcm(22050, 2, std::vector<std::int16_t>(4), {65535});
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code, "wave.block_align");
  EXPECT_EQ(big.error().found, "65547 bytes");
  // Mono 65535 frames per block fits: 7 + 32767 bytes.
  EXPECT_TRUE(encode_ms_adpcm(22050, 1, std::vector<std::int16_t>(4), {65535}));
}

// sox decodes what we encode to exactly the samples our decoder gives (mono with a short last
// block ending on a pad nibble, stereo with a short last block).
class WaveEncodeSox : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::program_on_path("sox"))
      GTEST_SKIP() << "sox not on PATH (Debian package 'sox'): MS ADPCM peer comparison skipped";
    dir = std::filesystem::temp_directory_path() / ("sortie_wave_encode_sox_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
  }
  void TearDown() override {
    if (!dir.empty()) std::filesystem::remove_all(dir);
  }
  void compare(std::uint16_t channels, std::size_t frames) {
    std::vector<std::int16_t> pcm(frames * channels);
    for (std::uint16_t c = 0; c < channels; ++c) add_sine(pcm, channels, c, 330.0 * (c + 1), 14000.0);
    std::uint32_t lcg = 99;
    for (auto& s : pcm) {
      lcg = lcg * 1664525u + 1013904223u;
      s = static_cast<std::int16_t>(std::clamp(s + (static_cast<std::int32_t>(lcg >> 20) - 2048), -32768, 32767));
    }
    auto w = encode_ms_adpcm(22050, channels, pcm);
    ASSERT_TRUE(w) << w.error().to_string();
    const auto ours_path = dir / "ours.wav";
    const auto back_path = dir / "back.wav";
    ASSERT_TRUE(core::write_file_atomic(ours_path, write_wave(*w)));
    ASSERT_EQ(test::run_program({"sox", ours_path.string(), "-e", "signed-integer", "-b", "16", back_path.string()}),
              0);
    auto ours = decode_wave(write_wave(*w));
    ASSERT_TRUE(ours) << ours.error().to_string();
    auto back = core::read_file(back_path);
    ASSERT_TRUE(back);
    auto peer = decode_wave(*back);
    ASSERT_TRUE(peer) << peer.error().to_string();
    EXPECT_EQ(peer->channels, channels);
    EXPECT_GE(ours->frames(), frames);
    ASSERT_EQ(peer->samples.size(), ours->samples.size());
    std::size_t diff = 0;
    for (std::size_t i = 0; i < ours->samples.size(); ++i) diff += ours->samples[i] != peer->samples[i];
    EXPECT_EQ(diff, 0u);
  }
  std::filesystem::path dir;
};

TEST_F(WaveEncodeSox, mono_decodes_like_ours) {
  compare(1, 22050 + 333);  // 22 blocks of 1012 + 119 frames (117 codes: a pad nibble)
}
TEST_F(WaveEncodeSox, stereo_decodes_like_ours) {
  compare(2, 11025 + 77);  // 10 blocks of 1012 + 982 frames
}
