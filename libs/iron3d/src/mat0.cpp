#include "sortie/iron3d/mat0.hpp"

#include <fmt/format.h>

#include "asset_util.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

std::size_t mat0_prefix_size(std::uint32_t version) {
  if (version < 2) return 0;
  if (version == 2) return 2;
  if (version == 3) return 6;
  return 10;
}

core::Result<Mat0> read_mat0(core::ByteView payload, std::uint32_t version, const ReadOptions& options,
                             core::Diagnostics* warnings) {
  core::ByteReader r(payload, options.file_name);
  r.set_code_prefix("mat0");
  if (payload.size() < 4)
    return core::fail(r.error_at(0, "mat0.size", "MAT0 payload shorter than 4 bytes")
                          .in("length")
                          .expect(">= 4 bytes", fmt::format("{} bytes", payload.size())));
  if (version > kMat0MaxKnownVersion)
    SORTIE_CHECK(
        detail::soft_fail(options, warnings,
                          r.error_at(0, "mat0.version", "unknown MAT0 version (entry attr2)")
                              .in("version")
                              .expect(fmt::format("0..{}", kMat0MaxKnownVersion), fmt::format("{}", version))));
  Mat0 mat;
  mat.version = version;
  SORTIE_TRY(const std::uint16_t phase_count, r.u16());
  SORTIE_TRY(const std::uint16_t block_count, r.u16());
  if (block_count >= kMat0MaxAnimBlocks)
    return core::fail(r.error_at(2, "mat0.block_count", "too many animation blocks")
                          .in("animation_block_count")
                          .expect(fmt::format("< {}", kMat0MaxAnimBlocks), fmt::format("{}", block_count)));
  const std::size_t prefix = mat0_prefix_size(version);
  if (r.remaining() < prefix)
    return core::fail(r.error("mat0.phase_count", "MAT0 prefix does not fit")
                          .in("prefix")
                          .expect(fmt::format("{} bytes", prefix), fmt::format("{} bytes left", r.remaining())));
  if (version >= 2) {
    SORTIE_TRY(mat.metadata_a, r.u8());
    SORTIE_TRY(mat.metadata_b, r.u8());
  }
  if (version >= 3) {
    SORTIE_TRY(mat.metadata_c_raw, r.u32());
  }
  if (version >= 4) {
    SORTIE_TRY(mat.metadata_d_raw, r.u32());
  }
  if (static_cast<std::size_t>(phase_count) * kMat0PhaseSize > r.remaining())
    return core::fail(
        r.error_at(0, "mat0.phase_count", "phases run past the end of the payload")
            .in("phase_count")
            .expect(fmt::format("{} x 34 bytes", phase_count), fmt::format("{} bytes left", r.remaining())));
  mat.phases.reserve(phase_count);
  for (std::size_t i = 0; i < phase_count; ++i) {
    r.set_field(fmt::format("phases[{}]", i));
    Mat0Phase p;
    SORTIE_TRY(auto params, r.bytes(18));
    std::copy(params.begin(), params.end(), p.parameters.begin());
    SORTIE_TRY(p.texture_name, r.fixed_string(16));
    mat.phases.push_back(std::move(p));
  }
  mat.animation_blocks.reserve(block_count);
  for (std::size_t b = 0; b < block_count; ++b) {
    const std::size_t at = r.offset();
    if (r.remaining() < 6)
      return core::fail(r.error("mat0.block", "animation block header does not fit")
                            .in(fmt::format("animation_blocks[{}]", b))
                            .expect("6 bytes", fmt::format("{} bytes left", r.remaining())));
    Mat0AnimBlock blk;
    SORTIE_TRY(blk.header_raw, r.u32());
    SORTIE_TRY(const std::uint16_t key_count, r.u16());
    if (static_cast<std::size_t>(key_count) * 6 > r.remaining())
      return core::fail(
          r.error_at(at + 4, "mat0.block", "animation keys run past the end of the payload")
              .in(fmt::format("animation_blocks[{}].key_count", b))
              .expect(fmt::format("{} x 6 bytes", key_count), fmt::format("{} bytes left", r.remaining())));
    blk.keys.reserve(key_count);
    for (std::size_t k = 0; k < key_count; ++k) {
      Mat0AnimKey key;
      SORTIE_TRY(key.k0, r.u16());
      SORTIE_TRY(key.k1, r.u16());
      SORTIE_TRY(key.k2, r.u16());
      blk.keys.push_back(key);
    }
    mat.animation_blocks.push_back(std::move(blk));
  }
  r.set_field({});
  if (!r.at_end())
    return core::fail(r.error("mat0.trailing", "trailing bytes after the last MAT0 record")
                          .expect("end of payload", fmt::format("{} more bytes", r.remaining())));
  return mat;
}

core::Bytes write_mat0(const Mat0& mat) {
  core::ByteWriter w;
  w.u16(static_cast<std::uint16_t>(mat.phases.size()));
  w.u16(static_cast<std::uint16_t>(mat.animation_blocks.size()));
  if (mat.version >= 2) {
    w.u8(mat.metadata_a);
    w.u8(mat.metadata_b);
  }
  if (mat.version >= 3) w.u32(mat.metadata_c_raw);
  if (mat.version >= 4) w.u32(mat.metadata_d_raw);
  for (const auto& p : mat.phases) {
    w.bytes(core::ByteView(p.parameters));
    w.fixed_string(p.texture_name);
  }
  for (const auto& b : mat.animation_blocks) {
    w.u32(b.header_raw);
    w.u16(static_cast<std::uint16_t>(b.keys.size()));
    for (const auto& k : b.keys) {
      w.u16(k.k0);
      w.u16(k.k1);
      w.u16(k.k2);
    }
  }
  return w.take();
}

core::Result<Mat0> read_mat0_entry(const NresArchive& archive, std::size_t index, const ReadOptions& options,
                                   core::Diagnostics* warnings) {
  if (index >= archive.size())
    return core::fail(Diagnostic::error("mat0.entry_type", "entry index past the archive")
                          .of(options.file_name)
                          .expect(fmt::format("< {}", archive.size()), fmt::format("{}", index)));
  const auto& e = archive.entries[index];
  const std::string where = fmt::format("{}:{}", options.file_name, e.name.text());
  if (e.type_id != kMat0TypeId)
    return core::fail(Diagnostic::error("mat0.entry_type", "entry is not a MAT0 material")
                          .of(where)
                          .in("type_id")
                          .expect("MAT0 (0x3054414d)", fmt::format("0x{:08x}", e.type_id)));
  ReadOptions eo = options;
  eo.file_name = where;
  auto m = read_mat0(archive.payload(index), e.attr2, eo, warnings);
  if (!m) {
    auto d = std::move(m).error();
    if (d.offset) d.offset = *d.offset + e.data_offset;
    return core::fail(std::move(d));
  }
  return m;
}

std::vector<std::string> mat0_texture_names(const Mat0& mat) {
  std::vector<std::string> out;
  for (const auto& p : mat.phases) {
    auto t = detail::ref_text(p.texture_name);
    if (!t.empty()) out.emplace_back(t);
  }
  return out;
}

core::Result<Mat0> build_mat0(const std::vector<std::string>& textures, bool loop_phases) {
  Mat0 mat;
  for (std::size_t i = 0; i < textures.size(); ++i) {
    Mat0Phase p;
    p.parameters = {255, 255, 255, 0, 255, 255, 255, 255};
    if (textures[i].size() > 16 || textures[i].find('\0') != std::string::npos)
      return core::fail(Diagnostic::error("builder.name", "texture name does not fit 16 bytes")
                            .in(fmt::format("phases[{}].texture_name", i))
                            .expect("<= 16 bytes, no NUL", textures[i]));
    p.texture_name = core::FixedString::make(textures[i], 16);
    mat.phases.push_back(std::move(p));
  }
  if (loop_phases && !mat.phases.empty()) {
    Mat0AnimBlock b;
    b.header_raw = 0;  // mode 0 loop, no interpolation
    for (std::size_t i = 0; i < mat.phases.size(); ++i)
      b.keys.push_back({static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(i * 100), 0});
    mat.animation_blocks.push_back(std::move(b));
  }
  return mat;
}

core::Json mat0_json(const Mat0& mat) {
  core::Json j;
  j["format"] = "mat0";
  j["version"] = mat.version;
  if (mat.version >= 2) {
    j["metadata_a"] = mat.metadata_a;
    j["metadata_b"] = mat.metadata_b;
  }
  if (mat.version >= 3) j["metadata_c_raw"] = mat.metadata_c_raw;
  if (mat.version >= 4) j["metadata_d_raw"] = mat.metadata_d_raw;
  core::Json phases = core::Json::array();
  for (const auto& p : mat.phases) {
    core::Json e;
    e["parameters_hex"] = core::to_hex(core::ByteView(p.parameters));
    e["texture_name"] = core::fixed_string_json(p.texture_name);
    phases.push_back(std::move(e));
  }
  j["phases"] = std::move(phases);
  core::Json blocks = core::Json::array();
  for (const auto& b : mat.animation_blocks) {
    core::Json e;
    e["header_raw"] = b.header_raw;
    e["mode"] = b.mode();
    e["interpolation_mask"] = b.interpolation_mask();
    core::Json keys = core::Json::array();
    for (const auto& k : b.keys) keys.push_back({k.k0, k.k1, k.k2});
    e["keys"] = std::move(keys);
    blocks.push_back(std::move(e));
  }
  j["animation_blocks"] = std::move(blocks);
  return j;
}

namespace {

// An extracted MAT0 entry carries no magic; only the name tells (`*.mat0`). The version is
// the entry's attr2, not in the payload: standalone files are read as version 6.
int detect(core::ByteView, std::string_view file_name) {
  return detail::has_extension(file_name, ".mat0") ? kDetectName : kDetectNone;
}

constexpr FormatAdapter<Mat0> kMat0Format{
    .name = "mat0",
    .description = "Iron3D MAT0 material payload (extracted entry, *.mat0; read as version 6)",
    .detect = &detect,
    .read = [](core::ByteView d, const ReadOptions& o,
               core::Diagnostics* w) { return read_mat0(d, kMat0MaxKnownVersion, o, w); },
    .json = &mat0_json,
    .write = [](const Mat0& m) -> core::Result<core::Bytes> { return write_mat0(m); },
    .inspect_warnings = InspectWarnings::always,
};

}  // namespace

FormatInfo mat0_format_info() {
  return format_info<Mat0, kMat0Format>();
}

}  // namespace sortie::iron3d
