#include "sortie/iron3d/trf.hpp"

#include <fmt/format.h>

#include "asset_util.hpp"
#include "sortie/core/text.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

std::vector<std::string> TrfTable::names() const {
  std::vector<std::string> out;
  out.reserve(archive.entries.size());
  for (const auto& e : archive.entries) out.emplace_back(core::trim(e.name.text()));
  return out;
}

core::Result<TrfTable> read_trf(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) {
  NresReadOptions no;
  no.profile = options.profile;
  no.file_name = options.file_name;
  TrfTable t;
  SORTIE_TRY(t.archive, read_nres(data, no));
  if (warnings != nullptr)
    for (const auto& w : t.archive.warnings) warnings->push_back(w);
  for (std::size_t i = 0; i < t.archive.entries.size(); ++i) {
    if (!core::trim(t.archive.entries[i].name.text()).empty()) continue;
    SORTIE_CHECK(detail::soft_fail(options, warnings,
                                   Diagnostic::error("trf.empty_name", "TRF entry names no prototype (empty name)")
                                       .of(options.file_name)
                                       .at(t.archive.directory_offset + i * kNresRecordSize + 20)
                                       .in(fmt::format("entries[{}].name", i))
                                       .expect("a prototype name", "''")));
  }
  return t;
}

core::Bytes write_trf(const TrfTable& table) {
  return write_nres_lossless(table.archive);
}

core::Result<core::Bytes> build_trf(const std::vector<std::string>& names) {
  NresBuilder b;
  for (const auto& n : names) b.add(0, n, {});
  return b.build();
}

core::Json trf_json(const TrfTable& table) {
  core::Json j;
  j["format"] = "trf";
  core::Json rows = core::Json::array();
  for (std::size_t i = 0; i < table.archive.entries.size(); ++i) {
    const auto& e = table.archive.entries[i];
    core::Json o;
    o["index"] = i;
    o["name"] = core::legacy_text_json(core::trim(e.name.text()));
    o["type_id"] = e.type_id;
    o["attr1"] = e.attr1;
    o["attr2"] = e.attr2;
    o["attr3"] = e.attr3;
    o["size"] = e.size;
    rows.push_back(std::move(o));
  }
  j["names"] = std::move(rows);
  return j;
}

namespace {

int detect_trf(core::ByteView data, std::string_view file_name) {
  return detail::has_extension(file_name, ".trf") && nres_has_magic(data) ? kDetectContent
         : detail::has_extension(file_name, ".trf")                       ? kDetectName
                                                                          : kDetectNone;
}

constexpr FormatAdapter<TrfTable> kTrfFormat{
    .name = "trf",
    .description = "Iron3D TRF table (NRes of prototype names; MISSIONS\\SCRIPTS\\*.trf)",
    .detect = &detect_trf,
    .read = [](core::ByteView d, const ReadOptions& o, core::Diagnostics* w) { return read_trf(d, o, w); },
    .json = &trf_json,
    .write = [](const TrfTable& t) -> core::Result<core::Bytes> { return write_trf(t); },
    .inspect_warnings = InspectWarnings::when_any,
};

}  // namespace

FormatInfo trf_format_info() {
  return format_info<TrfTable, kTrfFormat>();
}

}  // namespace sortie::iron3d
