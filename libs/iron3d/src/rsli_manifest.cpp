// RsLi extraction manifest and packing from a manifest (for `sortie archive extract|pack`).
#include <fmt/format.h>

#include "sortie/core/hash.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/rsli.hpp"
#include "sortie/iron3d/rsli_codec.hpp"

namespace sortie::iron3d {

using core::Diagnostic;
using core::fail;
using core::Json;

namespace {

std::size_t body_end(const RsliArchive& a) {
  return a.image.size() - (a.ao_overlay ? kRsliTrailerSize : 0);
}

core::Result<core::Bytes> hex_field(const Json& j, const char* key, std::string_view where, std::size_t size = 0) {
  if (!j.contains(key) || !j[key].is_string())
    return fail(Diagnostic::error("manifest.field", "missing hex field").in(fmt::format("{}.{}", where, key)));
  SORTIE_TRY(auto bytes, core::from_hex(j[key].get<std::string>()));
  if (size != 0 && bytes.size() != size)
    return fail(Diagnostic::error("manifest.field", "hex field has the wrong length")
                    .in(fmt::format("{}.{}", where, key))
                    .expect(fmt::format("{} bytes", size), fmt::format("{} bytes", bytes.size())));
  return bytes;
}

}  // namespace

core::ByteView rsli_body_bytes(const RsliArchive& a) {
  const std::size_t start = std::min(a.table_end(), body_end(a));
  return core::ByteView(a.image).subspan(start, body_end(a) - start);
}

Json rsli_manifest(const RsliArchive& a, std::span<const std::string> files, std::span<const core::Bytes> decoded,
                   const std::string& body_file) {
  const std::vector<core::ByteView> views(decoded.begin(), decoded.end());
  return rsli_manifest(a, files, std::span<const core::ByteView>(views), body_file);
}

Json rsli_manifest(const RsliArchive& a, std::span<const std::string> files, std::span<const core::ByteView> decoded,
                   const std::string& body_file) {
  Json m;
  m["format"] = "rsli";
  m["header_hex"] = core::to_hex(core::ByteView(a.header.raw));
  m["table_hex"] = core::to_hex(core::ByteView(a.image).subspan(kRsliHeaderSize, a.table_end() - kRsliHeaderSize));
  m["trailer_hex"] = a.ao_overlay ? Json(core::to_hex(core::ByteView(a.image).last(kRsliTrailerSize))) : Json(nullptr);
  m["file_size"] = a.image.size();
  m["body"] = rsli_body_bytes(a).empty() ? Json(nullptr) : Json{{"offset", a.table_end()}, {"file", body_file}};
  Json entries = Json::array();
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const RsliEntry& e = a.entries[i];
    Json j;
    j["index"] = i;
    j["name"] = core::cp1251_to_utf8(e.name.text()).utf8;
    j["name_hex"] = core::to_hex(core::as_bytes(e.name.raw));
    j["file"] = i < files.size() ? files[i] : std::string();
    j["method"] = std::string(rsli_method_name(e.method_bits()));
    j["flags"] = static_cast<std::uint16_t>(e.flags);
    j["service_hex"] = core::to_hex(core::ByteView(e.service));
    j["stored_cell"] = e.stored_cell;
    j["sort_to_original"] = e.sort_to_original;
    j["unpacked_size"] = e.unpacked_size;
    j["data_offset_raw"] = e.data_offset_raw;
    j["packed_size"] = e.packed_size;
    j["content_hash"] = i < decoded.size() ? core::hash_hex(core::hash64(decoded[i])) : std::string();
    entries.push_back(std::move(j));
  }
  m["entries"] = std::move(entries);
  return m;
}

core::Result<RsliPackResult> rsli_pack_manifest(const Json& m, const RsliFileLoader& load) {
  if (!m.is_object() || !m.contains("entries") || !m["entries"].is_array())
    return fail(Diagnostic::error("manifest.field", "manifest has no entries array").in("entries"));
  // The original library, when the manifest describes one.
  std::optional<RsliArchive> original;
  if (m.contains("header_hex") && m.contains("table_hex")) {
    SORTIE_TRY(auto header, hex_field(m, "header_hex", "manifest", kRsliHeaderSize));
    SORTIE_TRY(auto table, hex_field(m, "table_hex", "manifest"));
    core::Bytes image = header;
    image.insert(image.end(), table.begin(), table.end());
    if (m.contains("body") && m["body"].is_object()) {
      SORTIE_TRY(auto body, load(m["body"].value("file", std::string())));
      image.insert(image.end(), body.begin(), body.end());
    }
    if (m.contains("trailer_hex") && m["trailer_hex"].is_string()) {
      SORTIE_TRY(auto trailer, hex_field(m, "trailer_hex", "manifest", kRsliTrailerSize));
      image.insert(image.end(), trailer.begin(), trailer.end());
    }
    SORTIE_TRY(auto a, read_rsli(image, RsliReadOptions::from_profile(core::Profile::compatible, "manifest")));
    original = std::move(a);
  }

  const Json& entries = m["entries"];
  std::vector<core::Bytes> contents;
  bool unchanged = original && entries.size() == original->entries.size();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Json& j = entries[i];
    const std::string where = fmt::format("entries[{}]", i);
    if (!j.is_object() || !j.contains("file") || !j["file"].is_string())
      return fail(Diagnostic::error("manifest.field", "entry has no file").in(where + ".file"));
    SORTIE_TRY(auto data, load(j["file"].get<std::string>()));
    if (unchanged) {
      const RsliEntry& e = original->entries[i];
      unchanged = j.value("index", -1) == static_cast<long long>(i) &&
                  j.value("name", std::string()) == core::cp1251_to_utf8(e.name.text()).utf8 &&
                  j.value("method", std::string()) == rsli_method_name(e.method_bits()) &&
                  j.value("content_hash", std::string()) == core::hash_hex(core::hash64(data));
    }
    contents.push_back(std::move(data));
  }
  if (unchanged) return RsliPackResult{original->image, true, 0};

  RsliEditor ed = RsliEditor::create(0);
  if (original) {
    std::optional<std::array<std::uint8_t, kRsliTrailerSize>> trailer;
    if (original->ao_overlay) {
      trailer.emplace();
      std::copy_n(original->image.end() - static_cast<std::ptrdiff_t>(kRsliTrailerSize), kRsliTrailerSize,
                  trailer->begin());
    }
    ed = RsliEditor::create(original->header, trailer);
  }
  std::optional<RsliEditor> source;
  if (original) {
    SORTIE_TRY(auto opened, RsliEditor::open(*original));
    source = std::move(opened);
  }
  std::size_t repacked = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Json& j = entries[i];
    const std::string where = fmt::format("entries[{}]", i);
    const std::string method_name = j.value("method", std::string("stored"));
    const auto method = parse_rsli_method(method_name);
    const auto name_cp = core::utf8_to_cp1251(j.value("name", std::string()));
    if (!name_cp) return fail(Diagnostic::error("manifest.field", "name is not CP1251 text").in(where + ".name"));
    RsliEditor::Item item;
    const long long index = j.value("index", -1LL);
    const bool has_original = source && index >= 0 && static_cast<std::size_t>(index) < source->items().size();
    if (has_original) {
      const RsliEntry& e = original->entries[static_cast<std::size_t>(index)];
      item = source->items()[static_cast<std::size_t>(index)];
      const bool same_content = j.value("content_hash", std::string()) == core::hash_hex(core::hash64(contents[i]));
      if (!same_content || method_name != rsli_method_name(e.method_bits())) {
        if (!method)
          return fail(Diagnostic::error("manifest.method", "unknown packing method")
                          .in(where + ".method")
                          .expect("stored, xor, lzss, xor_lzss, lzhuf, xor_lzhuf, deflate", method_name));
        SORTIE_TRY(auto packed, pack_rsli_payload(contents[i], *method));
        item.packed = std::move(packed);
        item.unpacked_size = static_cast<std::uint32_t>(contents[i].size());
        item.flags = static_cast<std::int16_t>((static_cast<std::uint16_t>(item.flags) & ~kRsliMethodMask) |
                                               static_cast<std::uint16_t>(*method));
        ++repacked;
      }
      if (*name_cp != e.name.text()) {
        if (name_cp->empty() || name_cp->size() > kRsliNameSize || name_cp->find('\0') != std::string::npos)
          return fail(
              Diagnostic::error("rsli.edit.name", "entry name must be 1..12 bytes without NUL").in(where + ".name"));
        item.name = core::FixedString::make(core::ascii_upper(*name_cp), kRsliNameSize);
      }
    } else {
      if (!method)
        return fail(Diagnostic::error("manifest.method", "unknown packing method")
                        .in(where + ".method")
                        .expect("stored, xor, lzss, xor_lzss, lzhuf, xor_lzhuf, deflate", method_name));
      if (name_cp->empty() || name_cp->size() > kRsliNameSize || name_cp->find('\0') != std::string::npos)
        return fail(
            Diagnostic::error("rsli.edit.name", "entry name must be 1..12 bytes without NUL").in(where + ".name"));
      SORTIE_TRY(auto packed, pack_rsli_payload(contents[i], *method));
      item.name = core::FixedString::make(core::ascii_upper(*name_cp), kRsliNameSize);
      item.flags = static_cast<std::int16_t>(*method);
      item.unpacked_size = static_cast<std::uint32_t>(contents[i].size());
      item.packed = std::move(packed);
      ++repacked;
    }
    auto st = ed.add_item(std::move(item));
    if (!st) return fail(std::move(st).error().within(where));
  }
  SORTIE_TRY(auto bytes, ed.write());
  return RsliPackResult{std::move(bytes), false, repacked};
}

}  // namespace sortie::iron3d
