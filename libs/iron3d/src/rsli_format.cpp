// RsLi in the format table: detection, inspect JSON, check (decodes every entry), roundtrip.
#include <fmt/format.h>

#include "sortie/core/json.hpp"
#include "sortie/iron3d/rsli.hpp"

namespace sortie::iron3d {

core::Json rsli_json(const RsliArchive& a) {
  using core::Json;
  const auto& raw = a.header.raw;
  Json header;
  header["magic"] = "NL";
  header["reserved"] = raw[2];
  header["version"] = raw[3];
  header["entry_count"] = a.header.entry_count();
  header["presorted_flag"] = a.header.presorted_flag();
  header["presorted"] = a.header.presorted();
  header["xor_seed"] = a.header.xor_seed();
  header["table_key"] = a.header.table_key();
  header["raw_hex"] = core::to_hex(core::ByteView(raw));
  Json entries = Json::array();
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const RsliEntry& e = a.entries[i];
    Json j;
    j["index"] = i;
    j["name"] = core::fixed_string_json(e.name);
    j["service_hex"] = core::to_hex(core::ByteView(e.service));
    j["flags"] = static_cast<std::uint16_t>(e.flags);
    j["method"] = Json{{"name", std::string(rsli_method_name(e.method_bits()))}, {"number", e.method_bits()}};
    j["sort_to_original"] = e.sort_to_original;
    j["stored_cell"] = e.stored_cell;
    j["unpacked_size"] = e.unpacked_size;
    j["data_offset_raw"] = e.data_offset_raw;
    j["effective_offset"] = e.effective_offset;
    j["packed_size"] = e.packed_size;
    if (e.eof_quirk) j["eof_quirk"] = true;
    entries.push_back(std::move(j));
  }
  Json out;
  out["format"] = "rsli";
  out["header"] = std::move(header);
  out["ao_overlay"] = a.ao_overlay ? Json(*a.ao_overlay) : Json(nullptr);
  out["table_rebuilt"] = a.table_rebuilt;
  out["file_size"] = a.image.size();
  out["entries"] = std::move(entries);
  if (!a.warnings.empty()) out["warnings"] = core::diagnostics_json(a.warnings);
  return out;
}

bool rsli_has_magic(core::ByteView bytes) {
  return bytes.size() >= 4 && bytes[0] == 'N' && bytes[1] == 'L' && bytes[2] == 0 && bytes[3] == 1;
}

namespace {

int detect(core::ByteView data, std::string_view /*file_name*/) {
  return rsli_has_magic(data) ? kDetectContainer : kDetectNone;
}

core::Result<RsliArchive> read(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) {
  SORTIE_TRY(auto archive, read_rsli(data, RsliReadOptions::from_profile(options.profile, options.file_name)));
  if (warnings) warnings->insert(warnings->end(), archive.warnings.begin(), archive.warnings.end());
  return archive;
}

// A check decodes every entry: an archive whose payload does not unpack is invalid.
core::Result<core::Diagnostics> validate(const RsliArchive& archive, const ReadOptions&) {
  for (std::size_t i = 0; i < archive.entries.size(); ++i) SORTIE_CHECK(decode_rsli_entry(archive, i));
  return core::Diagnostics{};
}

constexpr FormatAdapter<RsliArchive> kRsliFormat{
    .name = "rsli",
    .description = "RsLi library archive (gamefont.rlb, sprites.lib)",
    .detect = &detect,
    .read = &read,
    .json = &rsli_json,
    .write = [](const RsliArchive& a) -> core::Result<core::Bytes> { return write_rsli(a); },
    .validate = &validate,
};

}  // namespace

FormatInfo rsli_format_info() {
  return format_info<RsliArchive, kRsliFormat>();
}

}  // namespace sortie::iron3d
