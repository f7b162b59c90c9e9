// NRes in the format table: detect, inspect (JSON model), check, roundtrip.

#include "nres_internal.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {

core::Json detail::nres_json_view(const NresArchive& archive) {
  core::Json j;
  j["format"] = "nres";
  j["version"] = archive.version;
  j["entry_count"] = archive.entry_count;
  j["total_size"] = archive.total_size;
  j["directory_offset"] = archive.directory_offset;
  j["lookup_order_valid"] = archive.lookup_order_valid;
  core::Json entries = core::Json::array();
  for (std::size_t i = 0; i < archive.entries.size(); ++i) {
    const NresEntry& e = archive.entries[i];
    core::Json je;
    je["index"] = i;
    je["name"] = core::cp1251_to_utf8(e.name.text()).utf8;
    je["name_hex"] = core::to_hex(e.name.bytes());
    je["type_id"] = e.type_id;
    if (auto tag = nres_type_tag_text(e.type_id)) je["type_tag"] = *tag;
    je["attr1"] = e.attr1;
    je["attr2"] = e.attr2;
    je["size"] = e.size;
    je["attr3"] = e.attr3;
    je["data_offset"] = e.data_offset;
    je["sort_index"] = e.sort_index;
    entries.push_back(std::move(je));
  }
  j["entries"] = std::move(entries);
  core::Json gaps = core::Json::array();
  for (std::size_t g = 0; g < archive.gaps.size(); ++g)
    gaps.push_back(
        {{"offset", archive.gaps[g].offset}, {"size", archive.gaps[g].size}, {"all_zero", archive.gap_is_zero(g)}});
  j["gaps"] = std::move(gaps);
  return j;
}

core::Json nres_to_json(const NresArchive& archive) {
  core::Json j = detail::nres_json_view(archive);
  if (!archive.warnings.empty()) j["warnings"] = core::diagnostics_json(archive.warnings);
  return j;
}

namespace {

NresReadOptions read_options(const ReadOptions& o) {
  NresReadOptions r;
  r.profile = o.profile;
  r.file_name = o.file_name;
  return r;
}

int detect(core::ByteView data, std::string_view /*file_name*/) {
  return nres_has_magic(data) ? kDetectContainer : kDetectNone;
}

// The archive's warnings stay in its JSON view (nres_to_json) and are the check's findings.
core::Result<NresArchive> read(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) {
  SORTIE_TRY(auto archive, read_nres(data, read_options(options)));
  if (warnings) warnings->insert(warnings->end(), archive.warnings.begin(), archive.warnings.end());
  return archive;
}

constexpr FormatAdapter<NresArchive> kNresFormat{
    .name = "nres",
    .description = "NRes archive (.rlb, .lib; also the container of .msh, Land.msh, Land.map)",
    .detect = &detect,
    .read = &read,
    .json = &nres_to_json,
    .write = [](const NresArchive& a) -> core::Result<core::Bytes> { return write_nres_lossless(a); },
};

}  // namespace

FormatInfo nres_format_info() {
  return format_info<NresArchive, kNresFormat>();
}

}  // namespace sortie::iron3d
