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

// Four lanes of 32-bit integers / doubles (GCC and Clang vector extensions: SSE2 on x86-64).
using Lanes = std::int32_t __attribute__((vector_size(16)));
using LaneDoubles = double __attribute__((vector_size(32)));

inline Lanes select(Lanes mask, Lanes yes, Lanes no) {
  return (mask & yes) | (~mask & no);
}

// One step of four chains. The code is the residual over delta rounded to nearest (halves away
// from zero) and clamped to -8..7: its magnitude m is the largest of 0..8 with
// 2 |residual| >= (2m - 1) delta, found by comparisons (a division would sit on the serial
// chain), 8 only downward. Then the decoder's step, adpcm_expand() of wave_adpcm.hpp, written
// lane-wise with the same integer results. Returns the codes; updates the state and the squared
// errors.
inline Lanes step(Lanes target, Lanes c1, Lanes c2, Lanes& delta, Lanes& s1, Lanes& s2, LaneDoubles& error) {
  const Lanes predicted = (s1 * c1 + s2 * c2) >> 8;
  const Lanes residual = target - predicted;
  const Lanes negative = residual >> 31;  // -1 or 0 per lane
  const Lanes a = ((residual ^ negative) - negative) * 2;
  const Lanes d = delta;
  // Comparisons give -1 per true lane.
  // Multiples of d by shifts and adds (a 32-bit lane multiply is several instructions on SSE2).
  const Lanes d2 = d + d, d4 = d2 + d2, d8 = d4 + d4;
  const Lanes above4 = a >= d8 - d;  // 7d
  Lanes m = above4 & 4;
  const Lanes above2 = a >= (above4 & d8) + d2 + d;  // (2m + 3) d, m = 0 or 4
  m += above2 & 2;
  const Lanes md = (above4 & d4) + (above2 & d2);       // m d
  m -= (a >= md + md + d);                              // (2m + 1) d
  m -= (m == 7) & (a >= d8 + d8 - d);                   // 15d
  const Lanes mag = select(negative, m, m - (m >> 3));  // upward codes stop at 7
  const Lanes q = (mag ^ negative) - negative;
  // q d = sign * (the set bits of |q| times d).
  const Lanes magd =
      (((mag & 1) != 0) & d) + (((mag & 2) != 0) & d2) + (((mag & 4) != 0) & d4) + (((mag & 8) != 0) & d8);
  Lanes sample = ((magd ^ negative) - negative) + predicted;
  sample = select(sample < -32768, Lanes{} - 32768, sample);
  sample = select(sample > 32767, Lanes{} + 32767, sample);
  // kAdpcmAdapt by magnitude: 230 up to 3, then 307, 409, 512, 614, 768.
  const Lanes adapt =
      230 + ((mag >= 4) & 77) + ((mag >= 5) & 102) + ((mag >= 6) & 103) + ((mag >= 7) & 102) + ((mag >= 8) & 154);
  Lanes next = (adapt * d) >> 8;
  next = select(next < detail::kAdpcmMinDelta, Lanes{} + detail::kAdpcmMinDelta, next);
  next = select(next > detail::kAdpcmMaxDelta, Lanes{} + detail::kAdpcmMaxDelta, next);
  delta = next;
  s2 = s1;
  s1 = sample;
  const LaneDoubles e = __builtin_convertvector(target - sample, LaneDoubles);
  error += e * e;
  return q & 0x0F;
}

// Encodes frames 2..frames-1 of one channel N times, once per trial (predictor pair and initial
// delta), storing each trial's codes and squared error. The trials are independent chains: they
// run in lockstep, four to a vector.
template <std::size_t N>
void encode_trials(const std::int16_t* x, std::size_t stride, std::size_t frames, const std::array<Trial, N>& trials,
                   std::array<std::uint64_t, N>& errors, std::array<std::uint8_t*, N> codes) {
  constexpr std::size_t kVectors = (N + 3) / 4;
  Lanes c1[kVectors], c2[kVectors], delta[kVectors], s1[kVectors], s2[kVectors];
  LaneDoubles error[kVectors];
  for (std::size_t v = 0; v < kVectors; ++v) {
    for (std::size_t j = 0; j < 4; ++j) {
      const Trial& t = trials[std::min(N - 1, 4 * v + j)];  // spare lanes repeat the last trial
      c1[v][j] = t.coef[0];
      c2[v][j] = t.coef[1];
      delta[v][j] = t.delta;
      s2[v][j] = x[0];
      s1[v][j] = x[stride];
    }
    error[v] = LaneDoubles{};
  }
  for (std::size_t i = 2; i < frames; ++i) {
    const Lanes target = Lanes{} + static_cast<std::int32_t>(x[i * stride]);
    for (std::size_t v = 0; v < kVectors; ++v) {
      const Lanes q = step(target, c1[v], c2[v], delta[v], s1[v], s2[v], error[v]);
      for (std::size_t j = 0; j < 4 && 4 * v + j < N; ++j) codes[4 * v + j][i - 2] = static_cast<std::uint8_t>(q[j]);
    }
  }
  // Sums of squares below 2^53 (a block of 65,535 frames of 17-bit errors): exact in a double.
  for (std::size_t k = 0; k < N; ++k) errors[k] = static_cast<std::uint64_t>(error[k / 4][k % 4]);
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
  return std::size_t{7} * channels + (nibbles + 1) / 2;
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
