// PCM and Microsoft ADPCM decoding of RIFF/WAVE payloads (see wave.hpp).
#include <fmt/format.h>

#include <algorithm>

#include "sortie/iron3d/wave.hpp"
#include "wave_adpcm.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

namespace {

using Channel = detail::AdpcmChannel;

inline std::int16_t expand(Channel& ch, int nibble) {
  return detail::adpcm_expand(ch, nibble);
}

// Decoding one block is a serial chain (each sample predicts the next), so a single block runs
// at the latency of that chain. Blocks are independent: kBatch whole blocks of one channel
// layout are decoded in lockstep, which lets the CPU overlap the chains (about 3x faster than
// one block at a time on x86-64). Returns false, touching nothing, when a predictor index is
// out of range (the caller then decodes block by block and reports the error).
constexpr std::size_t kBatch = 4;

template <std::size_t kChannels>
bool decode_batch(const std::uint8_t* data, std::size_t block_align, const WaveFormat& f, std::int16_t* out) {
  constexpr std::size_t kChains = kBatch * kChannels;
  const std::size_t frames = f.samples_per_block;
  Channel st[kChains];
  for (std::size_t k = 0; k < kBatch; ++k) {
    const std::uint8_t* p = data + k * block_align;
    for (std::size_t c = 0; c < kChannels; ++c) {
      const std::uint8_t predictor = p[c];
      if (predictor >= f.coefficients.size()) return false;
      Channel& ch = st[k * kChannels + c];
      ch.c1 = f.coefficients[predictor][0];
      ch.c2 = f.coefficients[predictor][1];
      ch.delta = core::load_i16(p + kChannels + 2 * c);
      ch.s1 = core::load_i16(p + 3 * kChannels + 2 * c);
      ch.s2 = core::load_i16(p + 5 * kChannels + 2 * c);
    }
  }
  for (std::size_t k = 0; k < kBatch; ++k) {
    std::int16_t* o = out + k * frames * kChannels;
    for (std::size_t c = 0; c < kChannels; ++c) {
      o[c] = static_cast<std::int16_t>(st[k * kChannels + c].s2);
      o[kChannels + c] = static_cast<std::int16_t>(st[k * kChannels + c].s1);
    }
  }
  const std::size_t header = 7 * kChannels;
  const std::size_t bytes = (frames - 2) * kChannels / 2;  // whole nibble bytes
  for (std::size_t j = 0; j < bytes; ++j) {
    for (std::size_t k = 0; k < kBatch; ++k) {
      const int b = data[k * block_align + header + j];
      std::int16_t* o = out + k * frames * kChannels + 2 * kChannels + 2 * j;
      if constexpr (kChannels == 1) {
        o[0] = expand(st[k], b >> 4);
        o[1] = expand(st[k], b & 0x0F);
      } else {
        o[0] = expand(st[2 * k], b >> 4);
        o[1] = expand(st[2 * k + 1], b & 0x0F);
      }
    }
  }
  if constexpr (kChannels == 1) {
    if (((frames - 2) & 1u) != 0)  // an odd nibble count ends on a high nibble
      for (std::size_t k = 0; k < kBatch; ++k)
        out[k * frames + frames - 1] = expand(st[k], data[k * block_align + header + bytes] >> 4);
  }
  return true;
}

}  // namespace

core::Result<std::size_t> decode_ms_adpcm_block(core::ByteView block, const WaveFormat& format, std::int16_t* out,
                                                std::size_t max_frames) {
  const std::size_t nch = format.channels;
  const std::size_t header = 7 * nch;
  if (nch == 0 || nch > 2 || block.size() < header)
    return core::fail(Diagnostic::error("wave.block_align", "MS ADPCM block shorter than its header")
                          .expect(fmt::format(">= {} bytes", header), fmt::format("{} bytes", block.size())));
  std::size_t frames = 2 + (block.size() - header) * 2 / nch;
  frames = std::min({frames, static_cast<std::size_t>(format.samples_per_block), max_frames});
  const std::uint8_t* p = block.data();
  Channel st[2];
  for (std::size_t c = 0; c < nch; ++c) {
    const std::uint8_t predictor = p[c];
    if (predictor >= format.coefficients.size())
      return core::fail(Diagnostic::error("wave.adpcm_predictor", "block predictor index outside the coefficient table")
                            .at(c)
                            .expect(fmt::format("< {}", format.coefficients.size()), fmt::format("{}", predictor)));
    st[c].c1 = format.coefficients[predictor][0];
    st[c].c2 = format.coefficients[predictor][1];
    st[c].delta = core::load_i16(p + nch + 2 * c);
    st[c].s1 = core::load_i16(p + 3 * nch + 2 * c);
    st[c].s2 = core::load_i16(p + 5 * nch + 2 * c);
  }
  if (frames == 0) return frames;
  for (std::size_t c = 0; c < nch; ++c) out[c] = static_cast<std::int16_t>(st[c].s2);
  if (frames == 1) return frames;
  for (std::size_t c = 0; c < nch; ++c) out[nch + c] = static_cast<std::int16_t>(st[c].s1);
  const std::uint8_t* nib = p + header;
  std::int16_t* o = out + 2 * nch;
  const std::size_t nibbles = (frames - 2) * nch;
  if (nch == 1) {
    Channel ch = st[0];
    std::size_t j = 0;
    for (; j + 1 < nibbles; j += 2) {
      const int b = nib[j >> 1];
      o[j] = expand(ch, b >> 4);
      o[j + 1] = expand(ch, b & 0x0F);
    }
    if (j < nibbles) o[j] = expand(ch, nib[j >> 1] >> 4);
  } else {
    // Stereo: the high nibble of each byte belongs to channel 0, the low one to channel 1.
    Channel left = st[0];
    Channel right = st[1];
    for (std::size_t j = 0; j < nibbles; j += 2) {
      const int b = nib[j >> 1];
      o[j] = expand(left, b >> 4);
      o[j + 1] = expand(right, b & 0x0F);
    }
  }
  return frames;
}

core::Result<DecodedWave> decode_wave(const Wave& wave) {
  SORTIE_TRY(const auto f, wave_format(wave));
  const WaveChunk* dc = wave.find("data");
  if (!dc)
    return core::fail(
        Diagnostic::error("wave.data_missing", "no 'data' chunk").in("data").expect("a 'data' chunk", "none"));
  const core::Bytes& data = dc->data;
  DecodedWave out;
  out.sample_rate = f.sample_rate;
  out.channels = f.channels;
  out.source_format = f.format_tag;
  if (f.format_tag == kWaveFormatPcm) {
    const std::size_t frames = data.size() / f.block_align;  // a partial last frame is not a frame
    out.samples.resize(frames * f.channels);
    if (f.bits_per_sample == 16) {
      for (std::size_t i = 0; i < out.samples.size(); ++i) out.samples[i] = core::load_i16(data.data() + 2 * i);
    } else {
      for (std::size_t i = 0; i < out.samples.size(); ++i)
        out.samples[i] = static_cast<std::int16_t>((static_cast<int>(data[i]) - 128) * 256);
    }
    return out;
  }
  const std::size_t nch = f.channels;
  const std::size_t header = 7 * nch;
  const std::size_t full = data.size() / f.block_align;
  const std::size_t rest = data.size() % f.block_align;
  std::size_t frames = full * f.samples_per_block;
  if (rest >= header) frames += std::min<std::size_t>(f.samples_per_block, 2 + (rest - header) * 2 / nch);
  out.samples.resize(frames * nch);
  std::size_t done = 0;
  std::size_t off = 0;
  const std::size_t spb = f.samples_per_block;
  while (off + kBatch * f.block_align <= data.size() && done + kBatch * spb <= frames) {
    const bool ok = nch == 1 ? decode_batch<1>(data.data() + off, f.block_align, f, out.samples.data() + done)
                             : decode_batch<2>(data.data() + off, f.block_align, f, out.samples.data() + done * 2);
    if (!ok) break;
    off += kBatch * f.block_align;
    done += kBatch * spb;
  }
  for (; done < frames && off + header <= data.size(); off += f.block_align) {
    const std::size_t len = std::min<std::size_t>(f.block_align, data.size() - off);
    auto n = decode_ms_adpcm_block(core::ByteView(data).subspan(off, len), f, out.samples.data() + done * nch,
                                   frames - done);
    if (!n) {
      Diagnostic d = std::move(n).error();
      d.field = fmt::format("data.blocks[{}]", off / f.block_align);
      if (d.offset) d.offset = *d.offset + off;
      return core::fail(std::move(d));
    }
    done += *n;
  }
  out.samples.resize(done * nch);
  return out;
}

core::Result<DecodedWave> decode_wave(core::ByteView data, const ReadOptions& options) {
  SORTIE_TRY(auto res, read_wave(data, options));
  auto d = decode_wave(res.wave);
  if (!d) {
    Diagnostic e = std::move(d).error();
    if (e.file.empty()) e.file = options.file_name;
    return core::fail(std::move(e));
  }
  return d;
}

}  // namespace sortie::iron3d
