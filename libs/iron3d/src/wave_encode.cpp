// Microsoft ADPCM encoding of 16-bit PCM (see wave.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "sortie/iron3d/wave.hpp"
#include "wave_adpcm.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

namespace {

// Residuals looked at to estimate a block's initial delta, and the divisor that turns their
// mean magnitude into a delta: the adaptation settles where codes of magnitude 2..4 are common.
constexpr std::size_t kDeltaProbe = 8;
constexpr std::uint64_t kDeltaDivisor = 3;
constexpr int kMaxHeaderDelta = std::numeric_limits<std::int16_t>::max();

struct Code {
  std::uint8_t predictor = 0;
  int delta = detail::kAdpcmMinDelta;
  std::uint64_t error = std::numeric_limits<std::uint64_t>::max();
};

// The nibble nearest to residual / delta (halves away from zero), in -8..7, as its 4-bit code.
// The magnitude k is the largest of 0..8 with 2|residual| >= (2k - 1) delta, found by a binary
// search of comparisons: a division would sit on the serial sample-to-sample chain.
inline int quantize(int residual, int delta) {
  const int a = 2 * (residual < 0 ? -residual : residual);
  int k = 0;
  if (a >= 7 * delta) k = 4;
  if (a >= (2 * k + 3) * delta) k += 2;
  if (a >= (2 * k + 1) * delta) k += 1;
  if (k == 7 && a >= 15 * delta) k = 8;
  const int q = residual < 0 ? -k : std::min(k, 7);
  return q & 0x0F;
}

// A delta for predictor `coef` from the block's first prediction residuals (true past samples).
int estimate_delta(const std::int16_t* x, std::size_t stride, std::size_t frames,
                   const std::array<std::int16_t, 2>& coef) {
  std::uint64_t sum = 0;
  std::uint64_t count = 0;
  for (std::size_t i = 2; i < frames && i < 2 + kDeltaProbe; ++i) {
    const int predicted = (x[(i - 1) * stride] * coef[0] + x[(i - 2) * stride] * coef[1]) >> 8;
    const int residual = x[i * stride] - predicted;
    sum += static_cast<std::uint64_t>(residual < 0 ? -static_cast<std::int64_t>(residual) : residual);
    ++count;
  }
  if (count == 0) return detail::kAdpcmMinDelta;
  const std::uint64_t delta = sum / (count * kDeltaDivisor);
  return static_cast<int>(
      std::clamp<std::uint64_t>(delta, detail::kAdpcmMinDelta, static_cast<std::uint64_t>(kMaxHeaderDelta)));
}

struct Trial {
  std::array<std::int16_t, 2> coef{};
  int delta = detail::kAdpcmMinDelta;
};

// Encodes frames 2..frames-1 of one channel N times, once per trial (predictor pair and initial
// delta), storing each trial's codes and squared error. The N chains are independent, so they
// run in lockstep: the CPU overlaps them (each alone is a serial chain of dependent steps).
template <std::size_t N>
void encode_trials(const std::int16_t* x, std::size_t stride, std::size_t frames, const std::array<Trial, N>& trials,
                   std::array<std::uint64_t, N>& errors, std::array<std::uint8_t*, N> codes) {
  std::array<detail::AdpcmChannel, N> ch;
  for (std::size_t k = 0; k < N; ++k) {
    ch[k].c1 = trials[k].coef[0];
    ch[k].c2 = trials[k].coef[1];
    ch[k].delta = trials[k].delta;
    ch[k].s2 = x[0];
    ch[k].s1 = x[stride];
    errors[k] = 0;
  }
  for (std::size_t i = 2; i < frames; ++i) {
    const int target = x[i * stride];
    for (std::size_t k = 0; k < N; ++k) {
      const int nibble = quantize(target - detail::adpcm_predict(ch[k]), ch[k].delta);
      const int e = target - detail::adpcm_expand(ch[k], nibble);
      errors[k] += static_cast<std::uint64_t>(static_cast<std::int64_t>(e) * e);
      codes[k][i - 2] = static_cast<std::uint8_t>(nibble);
    }
  }
}

// Scratch code buffers: 7 predictor trials, then 2 more deltas for the winner.
struct CodeBuffers {
  explicit CodeBuffers(std::size_t frames) {
    for (auto& b : trials) b.resize(frames);
  }
  std::array<std::vector<std::uint8_t>, 9> trials;
};

// The predictor (least error at its estimated delta), then the delta (the estimate, half or
// double of it). Returns the code and which scratch buffer holds its codes.
std::pair<Code, std::size_t> choose_code(const std::int16_t* x, std::size_t stride, std::size_t frames,
                                         std::span<const std::array<std::int16_t, 2>> coefs, CodeBuffers& buffers) {
  if (frames <= 2) return {Code{0, detail::kAdpcmMinDelta, 0}, 0};
  std::array<Trial, 7> first;
  for (std::size_t k = 0; k < 7; ++k) first[k] = {coefs[k], estimate_delta(x, stride, frames, coefs[k])};
  std::array<std::uint64_t, 7> errors{};
  std::array<std::uint8_t*, 7> codes{};
  for (std::size_t k = 0; k < 7; ++k) codes[k] = buffers.trials[k].data();
  encode_trials(x, stride, frames, first, errors, codes);
  std::size_t best = 0;
  for (std::size_t k = 1; k < 7; ++k)
    if (errors[k] < errors[best]) best = k;
  Code code{static_cast<std::uint8_t>(best), first[best].delta, errors[best]};
  std::size_t where = best;
  const int estimate = first[best].delta;
  const std::array<Trial, 2> second = {Trial{coefs[best], std::max(detail::kAdpcmMinDelta, estimate / 2)},
                                       Trial{coefs[best], std::min(kMaxHeaderDelta, estimate * 2)}};
  std::array<std::uint64_t, 2> errors2{};
  encode_trials(x, stride, frames, second, errors2, {buffers.trials[7].data(), buffers.trials[8].data()});
  for (std::size_t k = 0; k < 2; ++k)
    if (errors2[k] < code.error) code.delta = second[k].delta, code.error = errors2[k], where = 7 + k;
  return {code, where};
}

Diagnostic encode_error(std::string code, std::string message) {
  return Diagnostic::error(std::move(code), std::move(message));
}

}  // namespace

std::uint16_t ms_adpcm_default_block_align(std::uint32_t sample_rate, std::uint16_t channels) {
  const std::uint32_t per_channel = sample_rate <= 11025 ? 256 : sample_rate <= 22050 ? 512 : 1024;
  return static_cast<std::uint16_t>(std::min<std::uint32_t>(per_channel * std::max<std::uint16_t>(channels, 1), 65535));
}

std::size_t ms_adpcm_block_align(std::uint16_t channels, std::size_t samples_per_block) {
  const std::size_t nibbles = (samples_per_block < 2 ? 0 : samples_per_block - 2) * channels;
  return 7u * channels + (nibbles + 1) / 2;
}

core::Result<Wave> encode_ms_adpcm(std::uint32_t sample_rate, std::uint16_t channels,
                                   std::span<const std::int16_t> samples, const MsAdpcmEncodeOptions& options) {
  if (channels == 0 || channels > 2)
    return core::fail(encode_error("wave.channels", "MS ADPCM encodes one or two channels")
                          .expect("1 or 2", fmt::format("{}", channels)));
  if (sample_rate == 0) return core::fail(encode_error("wave.sample_rate", "zero sample rate").expect(">= 1", "0"));
  if (samples.size() % channels != 0)
    return core::fail(encode_error("wave.samples", "sample count is not a whole number of frames")
                          .expect(fmt::format("a multiple of {}", channels), fmt::format("{}", samples.size())));
  std::size_t spb = options.samples_per_block;
  if (spb == 0) spb = 2u * ms_adpcm_default_block_align(sample_rate, channels) / channels - 12;
  if (spb < 2)
    return core::fail(
        encode_error("wave.block_align", "samples per block below 2").expect(">= 2", fmt::format("{}", spb)));
  const std::size_t block_align = ms_adpcm_block_align(channels, spb);
  if (block_align > 65535)
    return core::fail(encode_error("wave.block_align", "a block of this many samples exceeds 65,535 bytes")
                          .expect("<= 65535 bytes", fmt::format("{} bytes", block_align)));
  const std::size_t frames = samples.size() / channels;
  const std::size_t full_blocks = frames / spb;
  const std::size_t rest = frames % spb;
  const std::uint64_t data_size = static_cast<std::uint64_t>(full_blocks) * block_align +
                                  (rest == 0 ? 0 : ms_adpcm_block_align(channels, std::max<std::size_t>(rest, 2)));
  // RIFF size = 4 + fmt (8 + 50) + fact (8 + 4) + data (8 + size + pad) must fit 32 bits.
  constexpr std::uint64_t kOverhead = 4 + 58 + 12 + 8 + 1;
  if (data_size > std::numeric_limits<std::uint32_t>::max() - kOverhead)
    return core::fail(
        encode_error("wave.samples", "too many samples for one RIFF file")
            .expect(fmt::format("<= {} data bytes", std::numeric_limits<std::uint32_t>::max() - kOverhead),
                    fmt::format("{} data bytes", data_size)));

  WaveFormat f;
  f.format_tag = kWaveFormatMsAdpcm;
  f.channels = channels;
  f.sample_rate = sample_rate;
  f.block_align = static_cast<std::uint16_t>(block_align);
  f.bits_per_sample = 4;
  f.samples_per_block = static_cast<std::uint16_t>(spb);
  f.byte_rate = static_cast<std::uint32_t>(static_cast<std::uint64_t>(sample_rate) * block_align / spb);
  const auto coefs = ms_adpcm_standard_coefficients();
  f.coefficients.assign(coefs.begin(), coefs.end());

  core::Bytes data;
  data.reserve(static_cast<std::size_t>(data_size));
  CodeBuffers buffers[2] = {CodeBuffers(spb), CodeBuffers(spb)};
  const std::uint8_t* codes[2] = {nullptr, nullptr};
  for (std::size_t start = 0; start < frames; start += spb) {
    const std::size_t n = std::min(spb, frames - start);
    Code chosen[2];
    std::int16_t first[2] = {};
    std::int16_t second[2] = {};
    for (std::size_t c = 0; c < channels; ++c) {
      const std::int16_t* x = samples.data() + start * channels + c;
      first[c] = x[0];
      second[c] = n > 1 ? x[channels] : x[0];
      const auto [code, where] = choose_code(x, channels, n, coefs, buffers[c]);
      chosen[c] = code;
      codes[c] = buffers[c].trials[where].data();
    }
    for (std::size_t c = 0; c < channels; ++c) data.push_back(chosen[c].predictor);
    auto put16 = [&data](int v) {
      const auto u = static_cast<std::uint16_t>(v);
      data.push_back(static_cast<std::uint8_t>(u & 0xFF));
      data.push_back(static_cast<std::uint8_t>(u >> 8));
    };
    for (std::size_t c = 0; c < channels; ++c) put16(chosen[c].delta);
    for (std::size_t c = 0; c < channels; ++c) put16(second[c]);  // sample 1 (played second)
    for (std::size_t c = 0; c < channels; ++c) put16(first[c]);   // sample 2 (played first)
    // Codes interleaved by frame and channel, the first of each pair in the high nibble.
    const std::size_t nibbles = (n > 2 ? n - 2 : 0) * channels;
    for (std::size_t t = 0; t < nibbles; t += 2) {
      const int hi = codes[t % channels][t / channels];
      const int lo = t + 1 < nibbles ? codes[(t + 1) % channels][(t + 1) / channels] : 0;
      data.push_back(static_cast<std::uint8_t>((hi << 4) | lo));
    }
  }
  return make_wave(f, data, static_cast<std::uint32_t>(frames));
}

}  // namespace sortie::iron3d
