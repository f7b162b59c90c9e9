#include "sortie/iron3d/wave.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "asset_util.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

const WaveChunk* Wave::find(std::string_view id) const {
  for (const auto& c : chunks)
    if (c.id_text() == id) return &c;
  return nullptr;
}

core::Result<WaveReadResult> read_wave(core::ByteView data, const ReadOptions& options) {
  core::ByteReader r(data, options.file_name);
  r.set_code_prefix("wave");
  WaveReadResult out;
  Wave& w = out.wave;
  if (data.size() < 12)
    return core::fail(r.error_at(0, "wave.size", "shorter than a RIFF/WAVE header")
                          .expect(">= 12 bytes", fmt::format("{} bytes", data.size())));
  if (std::memcmp(data.data(), "RIFF", 4) != 0 || std::memcmp(data.data() + 8, "WAVE", 4) != 0)
    return core::fail(
        r.error_at(0, "wave.magic", "not a RIFF/WAVE file").expect("RIFF....WAVE", core::to_hex(data.first(12))));
  w.riff_size = core::load_u32(data.data() + 4);
  std::uint64_t region_end = 8ull + w.riff_size;
  if (region_end < 12) region_end = 12;  // a size below 4 still holds the form type we read
  if (region_end > data.size()) {
    auto d = r.error_at(4, "wave.riff_size", "RIFF size runs past the end of the file")
                 .in("riff_size")
                 .expect(fmt::format("<= {}", data.size() - 8), fmt::format("{}", w.riff_size));
    SORTIE_CHECK(detail::soft_fail(options, &out.warnings, std::move(d)));
    region_end = data.size();
  }
  SORTIE_CHECK(r.seek(12));
  while (r.offset() < region_end) {
    const std::size_t at = r.offset();
    const std::size_t left = static_cast<std::size_t>(region_end) - at;
    r.set_field(fmt::format("chunks[{}]", w.chunks.size()));
    if (left < 8) {
      auto d = r.error("wave.leftover", "bytes after the last chunk too short for a chunk header")
                   .expect("a chunk header (8 bytes) or the end", fmt::format("{} bytes", left));
      SORTIE_CHECK(detail::soft_fail(options, &out.warnings, std::move(d)));
      SORTIE_TRY(const auto rest, r.bytes(left));
      w.leftover.assign(rest.begin(), rest.end());
      break;
    }
    WaveChunk c;
    std::memcpy(c.id.data(), r.cursor(), 4);
    const std::uint32_t size = core::load_u32(r.cursor() + 4);
    if (size > left - 8)
      return core::fail(r.error("wave.chunk_size", fmt::format("chunk '{}' runs past the RIFF region", c.id_text()))
                            .expect(fmt::format("<= {} bytes", left - 8), fmt::format("{} bytes", size)));
    SORTIE_CHECK(r.skip(8));
    SORTIE_TRY(const auto payload, r.bytes(size));
    c.data.assign(payload.begin(), payload.end());
    if ((size & 1u) != 0 && r.offset() < region_end) {
      SORTIE_TRY(c.pad, r.u8());
    }
    w.chunks.push_back(std::move(c));
  }
  r.set_field({});
  SORTIE_TRY(const auto rest, r.bytes(r.remaining()));
  w.trailing.assign(rest.begin(), rest.end());
  return out;
}

core::Bytes write_wave(const Wave& wave) {
  core::ByteWriter w;
  w.bytes(std::string_view("RIFF"));
  w.u32(wave.riff_size);
  w.bytes(std::string_view("WAVE"));
  for (const auto& c : wave.chunks) {
    w.bytes(c.id_text());
    w.u32(static_cast<std::uint32_t>(c.data.size()));
    w.bytes(core::ByteView(c.data));
    if (c.pad) w.u8(*c.pad);
  }
  w.bytes(core::ByteView(wave.leftover));
  w.bytes(core::ByteView(wave.trailing));
  return w.take();
}

std::optional<std::uint32_t> wave_fact_frames(const Wave& wave) {
  const WaveChunk* fact = wave.find("fact");
  if (!fact || fact->data.size() < 4) return std::nullopt;
  return core::load_u32(fact->data.data());
}

std::span<const std::array<std::int16_t, 2>> ms_adpcm_standard_coefficients() {
  static constexpr std::array<std::array<std::int16_t, 2>, 7> kCoef = {
      {{256, 0}, {512, -256}, {0, 0}, {192, 64}, {240, 0}, {460, -208}, {392, -232}}};
  return kCoef;
}

core::Result<WaveFormat> wave_format(const Wave& wave) {
  const WaveChunk* fc = wave.find("fmt ");
  auto err = [](std::string code, std::string msg) {
    return Diagnostic::error(std::move(code), std::move(msg)).in("fmt");
  };
  if (!fc) return core::fail(err("wave.fmt_missing", "no 'fmt ' chunk").expect("a 'fmt ' chunk", "none"));
  const auto& d = fc->data;
  if (d.size() < 16)
    return core::fail(err("wave.fmt_size", "'fmt ' chunk shorter than 16 bytes")
                          .expect(">= 16 bytes", fmt::format("{} bytes", d.size())));
  WaveFormat f;
  f.format_tag = core::load_u16(d.data());
  f.channels = core::load_u16(d.data() + 2);
  f.sample_rate = core::load_u32(d.data() + 4);
  f.byte_rate = core::load_u32(d.data() + 8);
  f.block_align = core::load_u16(d.data() + 12);
  f.bits_per_sample = core::load_u16(d.data() + 14);
  if (f.channels == 0) return core::fail(err("wave.channels", "zero channels").expect(">= 1", "0"));
  if (f.sample_rate == 0) return core::fail(err("wave.sample_rate", "zero sample rate").expect(">= 1", "0"));
  if (f.format_tag == kWaveFormatPcm) {
    if (f.bits_per_sample != 8 && f.bits_per_sample != 16)
      return core::fail(err("wave.format_unsupported", "PCM sample size not supported")
                            .expect("8 or 16 bits", fmt::format("{} bits", f.bits_per_sample)));
    const std::uint32_t want = static_cast<std::uint32_t>(f.channels) * (f.bits_per_sample / 8);
    if (f.block_align != want)
      return core::fail(err("wave.block_align", "PCM block align is not channels * bytes per sample")
                            .expect(fmt::format("{}", want), fmt::format("{}", f.block_align)));
    return f;
  }
  if (f.format_tag != kWaveFormatMsAdpcm)
    return core::fail(err("wave.format_unsupported", "format tag not supported")
                          .expect("1 (PCM) or 2 (MS ADPCM)", fmt::format("{}", f.format_tag)));
  if (f.bits_per_sample != 4)
    return core::fail(err("wave.format_unsupported", "MS ADPCM sample size not supported")
                          .expect("4 bits", fmt::format("{} bits", f.bits_per_sample)));
  if (f.channels > 2)
    return core::fail(
        err("wave.channels", "MS ADPCM with more than two channels").expect("1 or 2", fmt::format("{}", f.channels)));
  if (d.size() < 22)
    return core::fail(err("wave.fmt_size", "MS ADPCM 'fmt ' chunk without its extension")
                          .expect(">= 22 bytes", fmt::format("{} bytes", d.size())));
  const std::uint16_t cb = core::load_u16(d.data() + 16);
  f.samples_per_block = core::load_u16(d.data() + 18);
  const std::uint16_t num_coef = core::load_u16(d.data() + 20);
  const std::size_t need = 22 + 4ull * num_coef;
  if (cb < 4 + 4ull * num_coef || d.size() < need)
    return core::fail(err("wave.fmt_size", "MS ADPCM coefficient table does not fit the 'fmt ' chunk")
                          .expect(fmt::format(">= {} bytes (cbSize >= {})", need, 4 + 4 * num_coef),
                                  fmt::format("{} bytes (cbSize {})", d.size(), cb)));
  f.coefficients.resize(num_coef);
  for (std::size_t i = 0; i < num_coef; ++i)
    f.coefficients[i] = {core::load_i16(d.data() + 22 + 4 * i), core::load_i16(d.data() + 24 + 4 * i)};
  const std::size_t header = 7u * f.channels;
  if (f.block_align < header)
    return core::fail(err("wave.block_align", "MS ADPCM block smaller than its header")
                          .expect(fmt::format(">= {}", header), fmt::format("{}", f.block_align)));
  const std::size_t max_frames = 2 + (f.block_align - header) * 2 / f.channels;
  if (f.samples_per_block < 2 || f.samples_per_block > max_frames)
    return core::fail(err("wave.block_align", "samples per block do not match the block size")
                          .expect(fmt::format("2..{}", max_frames), fmt::format("{}", f.samples_per_block)));
  return f;
}

core::Bytes write_wave_format(const WaveFormat& f) {
  core::ByteWriter w;
  w.u16(f.format_tag);
  w.u16(f.channels);
  w.u32(f.sample_rate);
  w.u32(f.byte_rate);
  w.u16(f.block_align);
  w.u16(f.bits_per_sample);
  if (f.format_tag == kWaveFormatMsAdpcm) {
    w.u16(static_cast<std::uint16_t>(4 + 4 * f.coefficients.size()));
    w.u16(f.samples_per_block);
    w.u16(static_cast<std::uint16_t>(f.coefficients.size()));
    for (const auto& c : f.coefficients) w.i16(c[0]), w.i16(c[1]);
  }
  return w.take();
}

namespace {

WaveChunk chunk(std::string_view id, core::Bytes data) {
  WaveChunk c;
  std::copy(id.begin(), id.end(), c.id.begin());
  c.data = std::move(data);
  if ((c.data.size() & 1u) != 0) c.pad = 0;
  return c;
}

void fix_riff_size(Wave& w) {
  std::uint64_t n = 4;
  for (const auto& c : w.chunks) n += 8 + c.data.size() + (c.pad ? 1 : 0);
  w.riff_size = static_cast<std::uint32_t>(n);
}

}  // namespace

Wave make_wave(const WaveFormat& format, core::ByteView data, std::optional<std::uint32_t> fact_frames) {
  Wave w;
  w.chunks.push_back(chunk("fmt ", write_wave_format(format)));
  if (fact_frames) {
    core::ByteWriter fw;
    fw.u32(*fact_frames);
    w.chunks.push_back(chunk("fact", fw.take()));
  }
  w.chunks.push_back(chunk("data", core::Bytes(data.begin(), data.end())));
  fix_riff_size(w);
  return w;
}

Wave make_pcm16_wave(std::uint32_t sample_rate, std::uint16_t channels, std::span<const std::int16_t> samples) {
  WaveFormat f;
  f.format_tag = kWaveFormatPcm;
  f.channels = channels;
  f.sample_rate = sample_rate;
  f.block_align = static_cast<std::uint16_t>(2 * channels);
  f.byte_rate = sample_rate * f.block_align;
  f.bits_per_sample = 16;
  core::ByteWriter dw(samples.size() * 2);
  for (std::int16_t s : samples) dw.i16(s);
  return make_wave(f, dw.buffer());
}

core::Json wave_json(const Wave& wave) {
  core::Json j;
  j["format"] = "wave";
  j["riff_size"] = wave.riff_size;
  core::Json chunks = core::Json::array();
  for (const auto& c : wave.chunks) {
    core::Json o{{"id", core::legacy_text_json(c.id_text())}, {"size", c.data.size()}};
    if (c.pad) o["pad"] = *c.pad;
    chunks.push_back(std::move(o));
  }
  j["chunks"] = std::move(chunks);
  j["leftover_bytes"] = wave.leftover.size();
  j["trailing_bytes"] = wave.trailing.size();
  if (auto f = wave_format(wave)) {
    j["encoding"] = f->format_tag == kWaveFormatPcm ? "pcm" : "ms_adpcm";
    j["channels"] = f->channels;
    j["sample_rate"] = f->sample_rate;
    j["bits_per_sample"] = f->bits_per_sample;
    j["block_align"] = f->block_align;
    if (f->format_tag == kWaveFormatMsAdpcm) j["samples_per_block"] = f->samples_per_block;
    if (const auto fact = wave_fact_frames(wave)) j["fact_frames"] = *fact;
    if (auto d = decode_wave(wave)) {
      j["frames"] = d->frames();
      j["duration_seconds"] = static_cast<double>(d->frames()) / d->sample_rate;
    } else {
      j["decode_error"] = d.error().to_json();
    }
  } else {
    j["format_error"] = f.error().to_json();
  }
  return j;
}

namespace {

int detect(core::ByteView data, std::string_view file_name) {
  if (data.size() >= 12 && std::memcmp(data.data(), "RIFF", 4) == 0 && std::memcmp(data.data() + 8, "WAVE", 4) == 0)
    return kDetectContent;
  return detail::has_extension(file_name, ".wav") ? kDetectName : kDetectNone;
}

constexpr FormatAdapter<Wave> kWaveFormat{
    .name = "wave",
    .description = "RIFF/WAVE sound (PCM or MS ADPCM; sounds.lib entries)",
    .detect = &detect,
    .read = [](core::ByteView d, const ReadOptions& o, core::Diagnostics* w) -> core::Result<Wave> {
      SORTIE_TRY(auto res, read_wave(d, o));
      if (w) w->insert(w->end(), res.warnings.begin(), res.warnings.end());
      return std::move(res.wave);
    },
    .json = &wave_json,
    .write = [](const Wave& w) -> core::Result<core::Bytes> { return write_wave(w); },
    .validate = [](const Wave& wave, const ReadOptions&) -> core::Result<core::Diagnostics> {
      SORTIE_CHECK(decode_wave(wave));  // a file that reads but does not decode is invalid
      return core::Diagnostics{};
    },
    .inspect_warnings = InspectWarnings::always,
};

}  // namespace

FormatInfo wave_format_info() {
  return format_info<Wave, kWaveFormat>();
}

}  // namespace sortie::iron3d
