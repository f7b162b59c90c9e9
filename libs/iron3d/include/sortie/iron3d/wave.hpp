#pragma once
// RIFF/WAVE sound payloads (spec §24, seed 001 "Sound resources и SWAV"): the entries of
// sounds.lib / voices.lib. Every non-empty retail entry is RIFF/WAVE at 22,050 Hz, either PCM
// (format tag 1) or Microsoft ADPCM (format tag 2, MSACM32 in the original).
//
// The container is kept chunk by chunk (id, payload, pad byte) with the raw RIFF size, so
// write(read(x)) == x; the `fmt ` chunk has a typed view; decode_wave turns PCM 8/16-bit and
// MS ADPCM (4-bit, mono or stereo) into interleaved signed 16-bit samples. The MS ADPCM decoder
// is written here (no codec library is an allowed dependency) and matches the reference
// algorithm bit for bit: predictor (s1*c1 + s2*c2) >> 8, nibble * delta added and clamped to
// 16 bits, delta = max(16, (adapt[nibble] * delta) >> 8); header samples are emitted sample2
// first. Every block is decoded whole: a `fact` chunk is kept and reported (wave_fact_frames)
// but does not cut the last block, as sox and the original's MSACM block conversion do.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/format.hpp"

namespace sortie::iron3d {

inline constexpr std::uint16_t kWaveFormatPcm = 1;
inline constexpr std::uint16_t kWaveFormatMsAdpcm = 2;

struct WaveChunk {
  std::array<char, 4> id{};
  core::Bytes data;
  // Pad byte after an odd-sized chunk (its value kept); absent when the RIFF ends first.
  std::optional<std::uint8_t> pad;
  [[nodiscard]] std::string_view id_text() const { return {id.data(), id.size()}; }
  bool operator==(const WaveChunk&) const = default;
};

struct Wave {
  std::uint32_t riff_size = 0;  // raw header field (4 + chunk bytes for a well-formed file)
  std::vector<WaveChunk> chunks;
  core::Bytes leftover;  // < 8 bytes inside the RIFF region after the last chunk (compatible only)
  core::Bytes trailing;  // bytes after the RIFF region
  [[nodiscard]] const WaveChunk* find(std::string_view id) const;  // first chunk with this id
  bool operator==(const Wave&) const = default;
};

struct WaveFormat {
  std::uint16_t format_tag = 0;
  std::uint16_t channels = 0;
  std::uint32_t sample_rate = 0;
  std::uint32_t byte_rate = 0;
  std::uint16_t block_align = 0;
  std::uint16_t bits_per_sample = 0;
  // MS ADPCM extension (format tag 2): cbSize >= 4 + 4 * num_coef.
  std::uint16_t samples_per_block = 0;
  std::vector<std::array<std::int16_t, 2>> coefficients;
  bool operator==(const WaveFormat&) const = default;
};

// Interleaved signed 16-bit samples: samples.size() == frames * channels.
struct DecodedWave {
  std::uint32_t sample_rate = 0;
  std::uint16_t channels = 0;
  std::uint16_t source_format = 0;  // format tag it was decoded from
  std::vector<std::int16_t> samples;
  [[nodiscard]] std::size_t frames() const { return channels ? samples.size() / channels : 0; }
  bool operator==(const DecodedWave&) const = default;
};

struct WaveReadResult {
  Wave wave;
  core::Diagnostics warnings;  // compatible profile: RIFF size beyond the file, leftover bytes
};

// Container codes: wave.size (< 12 bytes), wave.magic (not RIFF....WAVE), wave.riff_size (RIFF
// size past the end of the file; compatible: warning, chunks read to the end of the file),
// wave.chunk_size (a chunk runs past the RIFF region), wave.leftover (1..7 bytes that cannot
// hold a chunk header; compatible: kept with a warning).
core::Result<WaveReadResult> read_wave(core::ByteView data, const ReadOptions& options = {});
core::Bytes write_wave(const Wave& wave);

// Format codes: wave.fmt_missing, wave.fmt_size (shorter than 16, or an ADPCM extension that
// does not fit), wave.format_unsupported (tag other than 1/2, PCM bits other than 8/16, ADPCM
// bits other than 4), wave.channels (0; ADPCM: more than 2), wave.sample_rate (0),
// wave.block_align (PCM: != channels * bits / 8; ADPCM: too small for the header, or
// samples_per_block larger than a block holds).
core::Result<WaveFormat> wave_format(const Wave& wave);

// Decode codes: the format codes, wave.data_missing, wave.adpcm_predictor (a block's predictor
// index >= the coefficient count).
core::Result<DecodedWave> decode_wave(const Wave& wave);
core::Result<DecodedWave> decode_wave(core::ByteView data, const ReadOptions& options = {});

// The frame count of a `fact` chunk, when there is one with at least 4 bytes.
std::optional<std::uint32_t> wave_fact_frames(const Wave& wave);

// One MS ADPCM block of `block` bytes (possibly a short last block) into `out` (interleaved,
// frames = 2 + (block.size() - 7 * channels) * 2 / channels, at most samples_per_block).
// Returns the frame count written.
core::Result<std::size_t> decode_ms_adpcm_block(core::ByteView block, const WaveFormat& format, std::int16_t* out,
                                                std::size_t max_frames);

// The seven standard MS ADPCM coefficient pairs.
std::span<const std::array<std::int16_t, 2>> ms_adpcm_standard_coefficients();

// MS ADPCM encoding (wave_encode.cpp). Each block and channel starts from its first two
// samples as they are (the header holds them exactly); the predictor is the one of the seven
// standard pairs whose encoding of the block has the least squared error, and the initial delta
// is estimated from the block's opening prediction residuals, then refined by trying half and
// double of it with the chosen predictor. Every nibble is the residual over delta rounded to
// nearest, and the encoder advances its state with the decoder's step (the trials run in
// lockstep, four to a vector), so the error it measures is what decoders play. The last block is written short (only
// the frames left; a mono block with an odd nibble count ends on a zero low nibble) and a `fact` chunk holds the true
// frame count.
struct MsAdpcmEncodeOptions {
  // Frames per block; 0 takes the Windows MSACM choice for the rate (ms_adpcm_default_block_align).
  std::uint16_t samples_per_block = 0;
};

// The block align Windows' MS ADPCM codec (and sox) picks: 256 bytes per channel up to
// 11,025 Hz, 512 up to 22,050 Hz, 1024 above; samples per block 2 * block_align / channels - 12
// (22,050 Hz: 512 bytes and 1012 frames mono, 1024 bytes and 1012 frames stereo).
std::uint16_t ms_adpcm_default_block_align(std::uint32_t sample_rate, std::uint16_t channels);
// The block size that holds `samples_per_block` frames: 7 * channels + ceil((spb - 2) * channels / 2).
std::size_t ms_adpcm_block_align(std::uint16_t channels, std::size_t samples_per_block);

// Interleaved 16-bit samples to a MS ADPCM wave (fmt, fact, data; write it with write_wave).
// Codes: wave.channels (0 or more than 2), wave.sample_rate (0), wave.samples (a sample count
// that is not a whole number of frames, or more data than a RIFF file holds), wave.block_align
// (samples_per_block below 2, or a block over 65,535 bytes).
core::Result<Wave> encode_ms_adpcm(std::uint32_t sample_rate, std::uint16_t channels,
                                   std::span<const std::int16_t> samples, const MsAdpcmEncodeOptions& options = {});

// Builders: a canonical PCM 16-bit file, and a file from a format + data payload (ADPCM fixtures).
Wave make_pcm16_wave(std::uint32_t sample_rate, std::uint16_t channels, std::span<const std::int16_t> samples);
Wave make_wave(const WaveFormat& format, core::ByteView data, std::optional<std::uint32_t> fact_frames = {});
core::Bytes write_wave_format(const WaveFormat& format);  // the `fmt ` chunk payload

core::Json wave_json(const Wave& wave);
FormatInfo wave_format_info();

}  // namespace sortie::iron3d
