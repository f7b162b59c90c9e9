// Extraction manifest and re-packing from it (`sortie archive extract|pack`).
#include <fmt/format.h>

#include <cstring>

#include "nres_internal.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {

using core::Diagnostic;
using core::fail;
using core::Json;

core::Json nres_manifest(const NresArchive& archive, std::span<const std::string> files,
                         std::span<const std::string> gap_files) {
  Json m = detail::nres_json_view(archive);
  for (std::size_t i = 0; i < m["entries"].size(); ++i)
    m["entries"][i]["file"] = i < files.size() ? files[i] : std::string();
  for (std::size_t g = 0; g < m["gaps"].size(); ++g)
    if (!archive.gap_is_zero(g) && g < gap_files.size()) m["gaps"][g]["file"] = gap_files[g];
  return m;
}

namespace {

Diagnostic bad(std::string field, std::string message) {
  return Diagnostic::error("manifest.field", std::move(message)).in(std::move(field));
}

core::Result<std::uint32_t> get_u32_field(const Json& j, const char* key, const std::string& where, bool required,
                                          std::uint32_t fallback = 0) {
  if (!j.contains(key)) {
    if (required) return fail(bad(where.empty() ? key : where + "." + key, "missing field"));
    return fallback;
  }
  const Json& v = j[key];
  std::optional<std::uint64_t> n;
  if (v.is_number_unsigned())
    n = v.get<std::uint64_t>();
  else if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
    n = static_cast<std::uint64_t>(v.get<std::int64_t>());
  if (!n || *n > 0xffffffffull)
    return fail(bad(where.empty() ? key : where + "." + key, "expected an unsigned 32-bit number")
                    .expect("0..4294967295", v.dump()));
  return static_cast<std::uint32_t>(*n);
}

struct PackEntry {
  std::uint32_t type_id, attr1, attr2, attr3;
  core::FixedString name;
  core::Bytes payload;
  std::optional<std::uint32_t> size, data_offset, sort_index;
};

core::Result<core::FixedString> manifest_name(const Json& je, const std::string& where) {
  std::optional<core::FixedString> raw;
  if (je.contains("name_hex")) {
    if (!je["name_hex"].is_string()) return fail(bad(where + ".name_hex", "expected a hex string"));
    auto bytes = core::from_hex(je["name_hex"].get<std::string>());
    if (!bytes || bytes->size() != kNresNameSize)
      return fail(bad(where + ".name_hex", "expected 72 hex digits (the 36-byte name field)"));
    raw = core::FixedString{std::string(core::as_chars(*bytes))};
    if (!raw->has_nul()) return fail(bad(where + ".name_hex", "name field has no NUL"));
  }
  if (je.contains("name")) {
    if (!je["name"].is_string()) return fail(bad(where + ".name", "expected a string"));
    const auto text = core::utf8_to_cp1251(je["name"].get<std::string>());
    if (!text) return fail(bad(where + ".name", "name is not representable in Windows-1251"));
    if (!raw || raw->text() != *text) {
      auto status = nres_validate_new_name(*text);
      if (!status) return fail(std::move(status.error()).within(where + ".name"));
      return core::FixedString::make(*text, kNresNameSize);
    }
  }
  if (!raw) return fail(bad(where, "entry needs \"name\" or \"name_hex\""));
  return *raw;
}

}  // namespace

core::Result<NresPackResult> nres_pack_manifest(const core::Json& manifest, const NresFileLoader& load,
                                                const NresPackOptions& options) {
  if (!manifest.is_object() || manifest.value("format", std::string()) != "nres")
    return fail(Diagnostic::error("manifest.format", "not an NRes manifest")
                    .in("format")
                    .expect("\"nres\"", manifest.is_object() && manifest.contains("format") ? manifest["format"].dump()
                                                                                            : "missing"));
  if (!manifest.contains("entries") || !manifest["entries"].is_array())
    return fail(bad("entries", "expected an array of entries"));
  const Json& jentries = manifest["entries"];
  std::vector<PackEntry> entries;
  entries.reserve(jentries.size());
  bool have_layout = manifest.contains("total_size") && manifest.contains("directory_offset");
  for (std::size_t i = 0; i < jentries.size(); ++i) {
    const Json& je = jentries[i];
    const std::string where = fmt::format("entries[{}]", i);
    if (!je.is_object()) return fail(bad(where, "expected an object"));
    PackEntry e{};
    SORTIE_TRY(e.type_id, get_u32_field(je, "type_id", where, false));
    SORTIE_TRY(e.attr1, get_u32_field(je, "attr1", where, false));
    SORTIE_TRY(e.attr2, get_u32_field(je, "attr2", where, false));
    SORTIE_TRY(e.attr3, get_u32_field(je, "attr3", where, false));
    SORTIE_TRY(e.name, manifest_name(je, where));
    if (!je.contains("file") || !je["file"].is_string())
      return fail(bad(where + ".file", "expected the payload file name"));
    SORTIE_TRY(e.payload, load(je["file"].get<std::string>()));
    for (auto [key, slot] :
         {std::pair{"size", &e.size}, {"data_offset", &e.data_offset}, {"sort_index", &e.sort_index}}) {
      if (!je.contains(key)) {
        have_layout = false;
        continue;
      }
      SORTIE_TRY(*slot, get_u32_field(je, key, where, true));
    }
    entries.push_back(std::move(e));
  }

  NresPackResult result;
  if (options.canonical || !have_layout) {
    std::vector<detail::RowRef> rows(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const PackEntry& e = entries[i];
      rows[i] = {e.type_id, e.attr1, e.attr2, e.attr3, e.name.raw, e.payload};
    }
    SORTIE_TRY(result.bytes, detail::encode_canonical(rows));
    return result;
  }

  // Original layout: rebuild the image at the recorded offsets (placeholder zeros for resized
  // payloads), validate it, then let the editor move resized payloads.
  SORTIE_TRY(const std::uint32_t total, get_u32_field(manifest, "total_size", "", true));
  SORTIE_TRY(const std::uint32_t dir, get_u32_field(manifest, "directory_offset", "", true));
  SORTIE_TRY(const std::uint32_t version, get_u32_field(manifest, "version", "", false, kNresVersion));
  const NresLimits limits{};
  if (total > limits.max_input || std::uint64_t{dir} + entries.size() * kNresRecordSize != total ||
      dir < kNresHeaderSize)
    return fail(Diagnostic::error("manifest.layout", "total_size / directory_offset do not match the entry count")
                    .expect(fmt::format("directory_offset + {} * 64 == total_size <= 256 MiB", entries.size()),
                            fmt::format("{} + {} != {}", dir, entries.size() * kNresRecordSize, total)));
  core::Bytes image(total, 0);
  std::vector<std::size_t> resized;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const PackEntry& e = entries[i];
    if (std::uint64_t{*e.data_offset} + *e.size > dir || *e.data_offset < kNresHeaderSize)
      return fail(Diagnostic::error("manifest.layout", "entry outside the data region")
                      .in(fmt::format("entries[{}].data_offset", i))
                      .expect(fmt::format("[0x10, {:#x})", dir), fmt::format("{:#x}+{}", *e.data_offset, *e.size)));
    if (e.payload.size() == *e.size) {
      if (!e.payload.empty()) std::memcpy(image.data() + *e.data_offset, e.payload.data(), e.payload.size());
    } else {
      resized.push_back(i);
    }
  }
  if (manifest.contains("gaps") && manifest["gaps"].is_array()) {
    const Json& gaps = manifest["gaps"];
    for (std::size_t g = 0; g < gaps.size(); ++g) {
      const std::string where = fmt::format("gaps[{}]", g);
      if (!gaps[g].is_object() || !gaps[g].contains("file")) continue;  // all-zero gap
      SORTIE_TRY(const std::uint32_t off, get_u32_field(gaps[g], "offset", where, true));
      if (!gaps[g]["file"].is_string()) return fail(bad(where + ".file", "expected a file name"));
      SORTIE_TRY(const core::Bytes bytes, load(gaps[g]["file"].get<std::string>()));
      if (std::uint64_t{off} + bytes.size() > dir || off < kNresHeaderSize)
        return fail(Diagnostic::error("manifest.layout", "gap outside the data region").in(where + ".offset"));
      if (!bytes.empty()) std::memcpy(image.data() + off, bytes.data(), bytes.size());
    }
  }
  detail::put_header(image, version, static_cast<std::uint32_t>(entries.size()), total);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const PackEntry& e = entries[i];
    std::uint8_t* rec = image.data() + dir + i * kNresRecordSize;
    core::store_u32(rec, e.type_id);
    core::store_u32(rec + 4, e.attr1);
    core::store_u32(rec + 8, e.attr2);
    core::store_u32(rec + 12, *e.size);
    core::store_u32(rec + 16, e.attr3);
    std::memcpy(rec + 20, e.name.raw.data(), kNresNameSize);
    core::store_u32(rec + 56, *e.data_offset);
    core::store_u32(rec + 60, *e.sort_index);
  }
  NresReadOptions ro;
  ro.profile = core::Profile::compatible;
  ro.file_name = "manifest";
  SORTIE_TRY(auto archive, read_nres(std::move(image), ro));
  result.resized = resized.size();
  // Unchanged sizes: the image is the original, unless an edited name broke a sort column
  // that was valid in the source; then the editor re-encodes with a rebuilt table.
  if (resized.empty() && (archive.lookup_order_valid || !manifest.value("lookup_order_valid", true))) {
    result.bytes = core::Bytes(archive.bytes().begin(), archive.bytes().end());
    result.original_layout = true;
    return result;
  }
  NresEditor editor(archive);
  for (std::size_t i : resized) SORTIE_CHECK(editor.replace(i, entries[i].payload));
  SORTIE_TRY(result.bytes, editor.encode_lossless_layout());
  return result;
}

}  // namespace sortie::iron3d
