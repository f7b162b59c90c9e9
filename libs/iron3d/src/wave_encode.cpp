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

// The nibble nearest to residual / delta, in -8..7, as its 4-bit code.
inline int quantize(int residual, int delta) {
  const int half = delta / 2;
  const int q = residual >= 0 ? (residual + half) / delta : -((-residual + half) / delta);
  return std::clamp(q, -8, 7) & 0x0F;
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

// Encodes frames 2..frames-1 of one channel with predictor `coef` and initial `delta`; stores
// the codes in `out` when given. Returns the squared error, or stops early (returning a value
// >= `bound`) once the error reaches `bound`.
std::uint64_t encode_run(const std::int16_t* x, std::size_t stride, std::size_t frames,
                         const std::array<std::int16_t, 2>& coef, int delta, std::uint64_t bound, std::uint8_t* out) {
  detail::AdpcmChannel ch;
  ch.c1 = coef[0];
  ch.c2 = coef[1];
  ch.delta = delta;
  ch.s2 = x[0];
  ch.s1 = x[stride];
  std::uint64_t error = 0;
  for (std::size_t i = 2; i < frames; ++i) {
    const int target = x[i * stride];
    const int nibble = quantize(target - detail::adpcm_predict(ch), ch.delta);
    const int decoded = detail::adpcm_expand(ch, nibble);
    const auto e = static_cast<std::int64_t>(target - decoded);
    error += static_cast<std::uint64_t>(e * e);
    if (error >= bound) return error;
    if (out) out[i - 2] = static_cast<std::uint8_t>(nibble);
  }
  return error;
}

// The predictor (least error at the estimated delta), then the delta (estimate, half, double).
Code choose_code(const std::int16_t* x, std::size_t stride, std::size_t frames,
                 std::span<const std::array<std::int16_t, 2>> coefs) {
  Code best;
  if (frames <= 2) return Code{0, detail::kAdpcmMinDelta, 0};
  for (std::size_t k = 0; k < coefs.size(); ++k) {
    const int delta = estimate_delta(x, stride, frames, coefs[k]);
    const std::uint64_t e = encode_run(x, stride, frames, coefs[k], delta, best.error, nullptr);
    if (e < best.error) best = Code{static_cast<std::uint8_t>(k), delta, e};
  }
  const int estimate = best.delta;
  for (const int delta : {std::max(detail::kAdpcmMinDelta, estimate / 2), std::min(kMaxHeaderDelta, estimate * 2)}) {
    if (delta == estimate) continue;
    const std::uint64_t e = encode_run(x, stride, frames, coefs[best.predictor], delta, best.error, nullptr);
    if (e < best.error) best.delta = delta, best.error = e;
  }
  return best;
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
  std::vector<std::uint8_t> codes[2] = {std::vector<std::uint8_t>(spb), std::vector<std::uint8_t>(spb)};
  for (std::size_t start = 0; start < frames; start += spb) {
    const std::size_t n = std::min(spb, frames - start);
    Code chosen[2];
    std::int16_t first[2] = {};
    std::int16_t second[2] = {};
    for (std::size_t c = 0; c < channels; ++c) {
      const std::int16_t* x = samples.data() + start * channels + c;
      first[c] = x[0];
      second[c] = n > 1 ? x[channels] : x[0];
      chosen[c] = choose_code(x, channels, n, coefs);
      if (n > 2)
        encode_run(x, channels, n, coefs[chosen[c].predictor], chosen[c].delta,
                   std::numeric_limits<std::uint64_t>::max(), codes[c].data());
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
