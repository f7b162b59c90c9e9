#include "land_file.hpp"

#include <fmt/format.h>

#include "sortie/core/text.hpp"

namespace sortie::iron3d::detail {

core::Result<NresArchive> read_land_container(core::ByteView file, const ReadOptions& options,
                                              core::Diagnostics* findings) {
  NresReadOptions no;
  no.profile = options.profile;
  no.file_name = options.file_name;
  SORTIE_TRY(auto archive, read_nres(file, no));
  if (findings)
    for (const auto& w : archive.warnings) findings->push_back(w);
  return archive;
}

std::vector<LandStream> land_streams(const NresArchive& archive) {
  std::vector<LandStream> out;
  out.reserve(archive.size());
  for (std::size_t i = 0; i < archive.size(); ++i) {
    const auto& e = archive.entries[i];
    out.push_back({e.type_id, e.attr1, e.attr2, e.attr3, e.name, archive.payload(i), e.data_offset});
  }
  return out;
}

namespace {
NresEntrySpec spec_of(const LandStreamOut& s) {
  NresEntrySpec spec;
  spec.type_id = s.header.type_id;
  spec.attr1 = s.header.attr1;
  spec.attr2 = s.header.attr2;
  spec.attr3 = s.header.attr3;
  spec.name = s.header.name.raw;
  spec.payload = s.payload;
  return spec;
}
}  // namespace

core::Result<core::Bytes> build_land_container(const std::vector<LandStreamOut>& streams) {
  std::vector<NresEntrySpec> specs;
  specs.reserve(streams.size());
  for (const auto& s : streams) specs.push_back(spec_of(s));
  return build_nres(specs);
}

core::Result<core::Bytes> rebuild_land_container(const std::vector<LandStreamOut>& streams, const NresArchive& original,
                                                 std::string_view code_prefix) {
  NresEditor editor(original);
  if (editor.size() != streams.size())
    return core::fail(core::Diagnostic::error(fmt::format("{}.write.layout", code_prefix),
                                              "entry count differs from the original archive's layout")
                          .in("entries")
                          .expect(fmt::format("{} entries", editor.size()), fmt::format("{} entries", streams.size())));
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const auto& h = streams[i].header;
    if (editor.entry(i).name.raw != h.name.raw)
      return core::fail(core::Diagnostic::error(fmt::format("{}.write.layout", code_prefix),
                                                "entry name differs from the original archive's layout")
                            .in(fmt::format("entries[{}].name", i))
                            .expect(std::string(editor.entry(i).name.text()), std::string(h.name.text())));
    SORTIE_CHECK(editor.set_attributes(i, h.type_id, h.attr1, h.attr2, h.attr3));
    SORTIE_CHECK(editor.replace(i, streams[i].payload));
  }
  return editor.encode_lossless_layout();
}

bool file_name_is(std::string_view path, std::string_view name) {
  const auto slash = path.find_last_of("/\\");
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return core::iequals_ascii(base, name);
}

}  // namespace sortie::iron3d::detail
