#include "sortie/iron3d/wave.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "sortie/core/file_io.hpp"
#include "sortie_test/process.hpp"

using namespace sortie;
using namespace sortie::iron3d;

namespace {

WaveFormat adpcm_format(std::uint16_t channels, std::uint16_t block_align, std::uint16_t samples_per_block) {
  WaveFormat f;
  f.format_tag = kWaveFormatMsAdpcm;
  f.channels = channels;
  f.sample_rate = 22050;
  f.block_align = block_align;
  f.bits_per_sample = 4;
  f.samples_per_block = samples_per_block;
  f.byte_rate = 22050u * block_align / samples_per_block;
  const auto std_coef = ms_adpcm_standard_coefficients();
  f.coefficients.assign(std_coef.begin(), std_coef.end());
  return f;
}

void put_header(core::ByteWriter& w, std::uint8_t predictor, std::int16_t delta, std::int16_t s1, std::int16_t s2) {
  w.u8(predictor), w.i16(delta), w.i16(s1), w.i16(s2);
}

std::vector<std::int16_t> decode(const Wave& w) {
  auto d = decode_wave(w);
  EXPECT_TRUE(d) << d.error().to_string();
  return d ? d->samples : std::vector<std::int16_t>{};
}

}  // namespace

TEST(Wave, pcm16_writes_reads_and_decodes) {
  const std::vector<std::int16_t> s = {0, 1, -1, 32767, -32768, 1234};
  const auto w = make_pcm16_wave(22050, 2, s);
  const auto bytes = write_wave(w);
  // 12 (RIFF header) + 8 + 16 (fmt) + 8 + 12 (data) = 56; riff_size = 56 - 8 = 48
  ASSERT_EQ(bytes.size(), 56u);
  EXPECT_EQ(core::load_u32(bytes.data() + 4), 48u);
  auto r = read_wave(bytes);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(write_wave(r->wave), bytes);
  auto d = decode_wave(r->wave);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->samples, s);
  EXPECT_EQ(d->frames(), 3u);
  EXPECT_EQ(d->channels, 2u);
  EXPECT_EQ(d->sample_rate, 22050u);
}

TEST(Wave, pcm8_is_unsigned_centred_on_128) {
  WaveFormat f;
  f.format_tag = kWaveFormatPcm, f.channels = 1, f.sample_rate = 22050, f.byte_rate = 22050, f.block_align = 1;
  f.bits_per_sample = 8;
  const core::Bytes data = {0, 128, 255, 129, 127};
  // (0 - 128) * 256 = -32768; 0; (255 - 128) * 256 = 32512; 256; -256. The odd data chunk gets a pad byte.
  const auto w = make_wave(f, data);
  EXPECT_EQ(decode(w), (std::vector<std::int16_t>{-32768, 0, 32512, 256, -256}));
  const auto bytes = write_wave(w);
  ASSERT_EQ(bytes.size() % 2, 0u);
  auto back = read_wave(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->wave.chunks.back().pad, std::uint8_t{0});
  EXPECT_EQ(write_wave(back->wave), bytes);
}

TEST(Wave, ms_adpcm_mono_blocks_by_hand) {
  core::ByteWriter w;
  // Block 1 (9 bytes, 6 frames): predictor 0 (256, 0), delta 16, sample1 100, sample2 50.
  put_header(w, 0, 16, 100, 50);
  w.u8(0x12), w.u8(0x8F);
  // Block 2, short (8 bytes -> 2 + 1 * 2 = 4 frames): predictor 1 (512, -256), delta 100,
  // sample1 1000, sample2 900.
  put_header(w, 1, 100, 1000, 900);
  w.u8(0x70);
  const auto wave = make_wave(adpcm_format(1, 9, 6), w.buffer());
  // Block 1: sample2, sample1 first: 50, 100.
  //  n=1: pred (100*256 + 50*0) >> 8 = 100; 100 + 1*16 = 116; delta (230*16) >> 8 = 14 -> 16
  //  n=2: pred 116; 116 + 2*16 = 148; delta 16
  //  n=8 (-8): pred 148; 148 - 8*16 = 20; delta (768*16) >> 8 = 48
  //  n=F (-1): pred 20; 20 - 48 = -28; delta (230*48) >> 8 = 43
  // Block 2: 900, 1000;
  //  n=7: pred (1000*512 - 900*256) >> 8 = 281600 >> 8 = 1100; 1100 + 7*100 = 1800; delta (512*100) >> 8 = 200
  //  n=0: pred (1800*512 - 1000*256) >> 8 = 665600 >> 8 = 2600; 2600 + 0 = 2600
  EXPECT_EQ(decode(wave), (std::vector<std::int16_t>{50, 100, 116, 148, 20, -28, 900, 1000, 1800, 2600}));
}

TEST(Wave, ms_adpcm_clamps_and_shifts_arithmetically) {
  core::ByteWriter w;
  // predictor 1: pred (32000*512 - 0) >> 8 = 64000; + 7*16 = 64112 -> clamped 32767
  put_header(w, 1, 16, 32000, 0);
  w.u8(0x70);
  // predictor 3 (192, 64): pred (-1*192 + 0*64) >> 8 = -192 >> 8 = -1 (floor); nibble 0 -> -1
  put_header(w, 3, 16, -1, 0);
  w.u8(0x00);
  const auto wave = make_wave(adpcm_format(1, 8, 4), w.buffer());
  const auto s = decode(wave);
  ASSERT_EQ(s.size(), 8u);
  EXPECT_EQ(s[2], 32767);
  // next: pred (32767*512 - 32000*256) >> 8 = (16776704 - 8192000) >> 8 = 8584704 >> 8 = 33534; +0 -> 32767
  EXPECT_EQ(s[3], 32767);
  EXPECT_EQ(s[6], -1);
  // next: pred (-1*192 + -1*64) >> 8 = -256 >> 8 = -1
  EXPECT_EQ(s[7], -1);
}

TEST(Wave, ms_adpcm_stereo_interleaves_high_nibble_left) {
  core::ByteWriter w;
  // predictors L=0 R=0; deltas 16, 32; sample1 10, -10; sample2 5, -5 (the header is
  // channel-interleaved field by field).
  w.u8(0), w.u8(0), w.i16(16), w.i16(32), w.i16(10), w.i16(-10), w.i16(5), w.i16(-5);
  w.u8(0x1F);
  const auto wave = make_wave(adpcm_format(2, 15, 3), w.buffer());
  // frame 0: 5, -5; frame 1: 10, -10; frame 2: L n=1: 10 + 16 = 26; R n=F (-1): -10 - 32 = -42
  EXPECT_EQ(decode(wave), (std::vector<std::int16_t>{5, -5, 10, -10, 26, -42}));
}

TEST(Wave, fact_chunk_is_reported_but_blocks_decode_whole) {
  // sox and the MSACM block conversion both ignore `fact` when decoding: so do we.
  core::ByteWriter w;
  put_header(w, 0, 16, 100, 50);
  w.u8(0x12), w.u8(0x8F);
  const auto wave = make_wave(adpcm_format(1, 9, 6), w.buffer(), 4);
  EXPECT_EQ(wave_fact_frames(wave), 4u);
  EXPECT_EQ(decode(wave), (std::vector<std::int16_t>{50, 100, 116, 148, 20, -28}));
}

TEST(Wave, rejects_predictor_outside_the_table) {
  core::ByteWriter w;
  put_header(w, 7, 16, 0, 0);
  w.u8(0);
  auto d = decode_wave(make_wave(adpcm_format(1, 8, 4), w.buffer()));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "wave.adpcm_predictor");
  EXPECT_EQ(d.error().field, "data.blocks[0]");
}

TEST(Wave, rejects_samples_per_block_larger_than_a_block) {
  // block 8 bytes mono holds 2 + 1 * 2 = 4 frames, 5 claimed
  auto d = decode_wave(make_wave(adpcm_format(1, 8, 5), core::Bytes(8, 0)));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "wave.block_align");
}

TEST(Wave, rejects_coefficient_table_past_the_fmt_chunk) {
  auto w = make_wave(adpcm_format(1, 8, 4), core::Bytes(8, 0));
  auto& fmt = w.chunks[0].data;
  core::store_u16(fmt.data() + 20, 200);  // num_coef 200 does not fit
  auto d = decode_wave(w);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "wave.fmt_size");
}

TEST(Wave, rejects_unsupported_format_tag) {
  auto f = adpcm_format(1, 8, 4);
  f.format_tag = 0x55;  // MP3
  auto d = decode_wave(make_wave(f, core::Bytes(8, 0)));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "wave.format_unsupported");
}

TEST(Wave, rejects_missing_chunks) {
  Wave w = make_pcm16_wave(22050, 1, std::vector<std::int16_t>{1});
  w.chunks.pop_back();
  auto d = decode_wave(w);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "wave.data_missing");
  w.chunks.clear();
  d = decode_wave(w);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "wave.fmt_missing");
}

TEST(Wave, rejects_not_riff) {
  auto r = read_wave(core::as_bytes(std::string_view("RIFX\x04\0\0\0WAVE", 12)));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "wave.magic");
  r = read_wave(core::Bytes{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "wave.size");
}

TEST(Wave, rejects_chunk_size_past_the_end) {
  auto bytes = write_wave(make_pcm16_wave(22050, 1, std::vector<std::int16_t>{1, 2}));
  core::store_u32(bytes.data() + 12 + 8 + 16 + 4, 0xFFFFFFF0u);  // data chunk size
  auto r = read_wave(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "wave.chunk_size");
  EXPECT_EQ(r.error().offset, 36u);
}

TEST(Wave, riff_size_past_the_end_is_an_error_or_a_kept_warning) {
  auto bytes = write_wave(make_pcm16_wave(22050, 1, std::vector<std::int16_t>{1, 2}));
  core::store_u32(bytes.data() + 4, 1000);
  auto r = read_wave(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "wave.riff_size");
  ReadOptions compat;
  compat.profile = core::Profile::compatible;
  r = read_wave(bytes, compat);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(write_wave(r->wave), bytes);
  EXPECT_EQ(decode(r->wave), (std::vector<std::int16_t>{1, 2}));
}

TEST(Wave, keeps_trailing_bytes_and_unknown_chunks) {
  auto w = make_pcm16_wave(22050, 1, std::vector<std::int16_t>{7});
  WaveChunk list;
  list.id = {'L', 'I', 'S', 'T'};
  list.data = {'a', 'b', 'c'};
  list.pad = 0x99;
  w.chunks.insert(w.chunks.begin() + 1, list);
  w.riff_size += 8 + 4;
  w.trailing = {1, 2, 3};
  const auto bytes = write_wave(w);
  auto r = read_wave(bytes);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->wave, w);
  EXPECT_EQ(write_wave(r->wave), bytes);
}

// MS ADPCM against sox: our writer makes a PCM file, sox encodes it to MS ADPCM, then both sox
// and sortie decode that file; the samples must be identical.
class WaveSox : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::program_on_path("sox"))
      GTEST_SKIP() << "sox not on PATH (Debian package 'sox'): MS ADPCM peer comparison skipped";
    dir_ = std::filesystem::temp_directory_path() / ("sortie_wave_sox_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  void compare(std::uint16_t channels, std::size_t frames) {
    std::vector<std::int16_t> pcm(frames * channels);
    std::uint32_t lcg = 12345;
    for (std::size_t i = 0; i < frames; ++i)
      for (std::size_t c = 0; c < channels; ++c) {
        lcg = lcg * 1664525u + 1013904223u;
        const double t = static_cast<double>(i) / 22050.0;
        const double tone = 12000.0 * std::sin(2.0 * 3.14159265358979 * (220.0 + 440.0 * t) * t * (c + 1));
        const double noise = static_cast<double>(static_cast<std::int32_t>(lcg >> 16) - 32768) * 0.2;
        pcm[i * channels + c] =
            static_cast<std::int16_t>(std::clamp(tone + noise + (i % 4000 < 50 ? 30000.0 : 0.0), -32768.0, 32767.0));
      }
    const auto in = dir_ / "in.wav";
    const auto adpcm = dir_ / "adpcm.wav";
    const auto back = dir_ / "back.wav";
    ASSERT_TRUE(core::write_file_atomic(in, write_wave(make_pcm16_wave(22050, channels, pcm))));
    ASSERT_EQ(test::run_program({"sox", in.string(), "-e", "ms-adpcm", adpcm.string()}), 0);
    ASSERT_EQ(test::run_program({"sox", adpcm.string(), "-e", "signed-integer", "-b", "16", back.string()}), 0);
    auto adpcm_bytes = core::read_file(adpcm);
    ASSERT_TRUE(adpcm_bytes);
    auto ours = decode_wave(*adpcm_bytes);
    ASSERT_TRUE(ours) << ours.error().to_string();
    EXPECT_EQ(ours->source_format, kWaveFormatMsAdpcm);
    auto back_bytes = core::read_file(back);
    ASSERT_TRUE(back_bytes);
    auto peer = decode_wave(*back_bytes);
    ASSERT_TRUE(peer) << peer.error().to_string();
    EXPECT_EQ(peer->source_format, kWaveFormatPcm);
    EXPECT_EQ(ours->channels, channels);
    // sox pads the last block and writes the true length into `fact`.
    EXPECT_EQ(wave_fact_frames(read_wave(*adpcm_bytes)->wave), frames);
    EXPECT_GE(ours->frames(), frames);
    ASSERT_EQ(ours->samples.size(), peer->samples.size());
    std::size_t diff = 0;
    for (std::size_t i = 0; i < ours->samples.size(); ++i) diff += ours->samples[i] != peer->samples[i];
    EXPECT_EQ(diff, 0u);
    // Lossless container: our reader writes the sox file back byte for byte.
    auto rw = read_wave(*adpcm_bytes);
    ASSERT_TRUE(rw);
    EXPECT_EQ(write_wave(rw->wave), *adpcm_bytes);
  }
  std::filesystem::path dir_;
};

TEST_F(WaveSox, mono_decode_matches_sox) {
  compare(1, 22050 * 2 + 333);
}
TEST_F(WaveSox, stereo_decode_matches_sox) {
  compare(2, 22050 + 77);
}

TEST(Wave, batched_blocks_decode_like_single_blocks) {
  // 11 blocks (two batches of four and three single blocks) of random nibbles, mono and stereo,
  // odd and even nibble counts: the whole-file decode equals a block-by-block decode.
  for (const auto& [channels, block_align, spb] :
       {std::tuple<std::uint16_t, std::uint16_t, std::uint16_t>{1, 20, 27}, {1, 20, 28}, {2, 30, 18}}) {
    const auto f = adpcm_format(channels, block_align, spb);
    core::Bytes data;
    std::uint32_t lcg = 99;
    for (int b = 0; b < 11; ++b)
      for (std::size_t i = 0; i < block_align; ++i) {
        lcg = lcg * 1664525u + 1013904223u;
        std::uint8_t v = static_cast<std::uint8_t>(lcg >> 24);
        if (i < channels) v %= 7;  // predictor
        data.push_back(v);
      }
    auto whole = decode_wave(make_wave(f, data));
    ASSERT_TRUE(whole) << whole.error().to_string();
    std::vector<std::int16_t> single(11u * spb * channels);
    for (std::size_t b = 0; b < 11; ++b) {
      auto n = decode_ms_adpcm_block(core::ByteView(data).subspan(b * block_align, block_align), f,
                                     single.data() + b * spb * channels, spb);
      ASSERT_TRUE(n);
      EXPECT_EQ(*n, spb);
    }
    EXPECT_EQ(whole->samples, single) << channels << " channels, " << spb << " frames per block";
  }
}

TEST(Wave, rejects_bad_predictor_inside_a_batch_at_its_block) {
  const auto f = adpcm_format(1, 8, 4);
  core::Bytes data(8 * 6, 0);
  for (std::size_t b = 0; b < 6; ++b) data[b * 8 + 1] = 16;  // delta 16
  data[5 * 8] = 9;                                           // block 5: predictor 9 of 7
  auto d = decode_wave(make_wave(f, data));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "wave.adpcm_predictor");
  EXPECT_EQ(d.error().field, "data.blocks[5]");
  data[5 * 8] = 0;
  data[2 * 8] = 7;  // inside the first batch
  d = decode_wave(make_wave(f, data));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().field, "data.blocks[2]");
}
