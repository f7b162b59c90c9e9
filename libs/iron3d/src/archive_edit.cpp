// Archive facade: pack from a directory or a manifest; add / remove / rename (archive.hpp).
#include <fmt/format.h>

#include <algorithm>

#include "archive_internal.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/archive.hpp"
#include "sortie/iron3d/archive_files.hpp"

namespace sortie::iron3d {

namespace fs = std::filesystem;
using core::Diagnostic;
using core::fail;
using core::Json;

// ----- pack ----------------------------------------------------------------------------------

ArchiveFileLoader archive_file_loader(const fs::path& base) {
  return [base](const std::string& file) -> core::Result<core::Bytes> {
    const fs::path rel(file);
    for (const auto& part : rel)
      if (part == "..")
        return fail(Diagnostic::error("manifest.path", "file path leaves the manifest directory")
                        .expect("relative path inside", file));
    if (rel.empty() || rel.is_absolute())
      return fail(Diagnostic::error("manifest.path", "file path must be relative").expect("relative path", file));
    return core::read_file(base / rel);
  };
}

core::Result<Json> plain_directory_manifest(const fs::path& dir, ArchiveFormat format, RsliMethod method) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& de : fs::directory_iterator(dir, ec))
    if (de.is_regular_file()) names.push_back(de.path().filename().string());
  if (ec) return fail(Diagnostic::error("io.read", "cannot list the directory: " + ec.message()).of(dir.string()));
  std::sort(names.begin(), names.end());
  Json entries = Json::array();
  for (const auto& n : names) {
    if (format == ArchiveFormat::nres)
      entries.push_back({{"name", n}, {"file", n}, {"type_id", 0}});
    else
      entries.push_back(
          {{"name", n}, {"file", n}, {"method", std::string(rsli_method_name(static_cast<std::uint16_t>(method)))}});
  }
  return Json{{"format", std::string(to_string(format))}, {"entries", std::move(entries)}};
}

core::Result<ArchivePackResult> pack_archive_manifest(const Json& manifest, const ArchiveFileLoader& load,
                                                      bool canonical) {
  const std::string name = manifest.is_object() ? manifest.value("format", std::string()) : std::string();
  const auto format = parse_archive_format(name);
  if (!format)
    return fail(Diagnostic::error("manifest.format", "manifest names no format sortie can pack")
                    .in("format")
                    .expect("\"nres\" or \"rsli\"", name.empty() ? "missing" : name));
  ArchivePackResult result;
  result.format = *format;
  result.entries = manifest.contains("entries") && manifest["entries"].is_array() ? manifest["entries"].size() : 0;
  if (*format == ArchiveFormat::nres) {
    SORTIE_TRY(auto packed, nres_pack_manifest(manifest, load, {canonical}));
    result.bytes = std::move(packed.bytes);
    result.resized = packed.resized;
  } else {
    SORTIE_TRY(auto packed, rsli_pack_manifest(manifest, load));
    result.bytes = std::move(packed.bytes);
    result.rebuilt = !packed.original;
    result.repacked = packed.repacked;
  }
  return result;
}

core::Result<ArchivePackResult> pack_archive(const fs::path& source, const ArchivePackOptions& options) {
  std::error_code ec;
  if (fs::is_directory(source, ec) && !fs::exists(source / kArchiveManifestName, ec)) {
    SORTIE_TRY(const Json manifest, plain_directory_manifest(source, options.plain_format, options.plain_method));
    SORTIE_TRY(auto result, pack_archive_manifest(manifest, archive_file_loader(source), options.canonical));
    result.from_manifest = false;
    return result;
  }
  const fs::path path = fs::is_directory(source, ec) ? source / kArchiveManifestName : source;
  SORTIE_TRY(const std::string text, core::read_text_file(path));
  const Json manifest = Json::parse(text, nullptr, false);
  if (manifest.is_discarded())
    return fail(Diagnostic::error("manifest.json", "manifest is not valid JSON").of(path.string()));
  auto result = pack_archive_manifest(manifest, archive_file_loader(path.parent_path()), options.canonical);
  if (!result) return fail(detail::located(std::move(result.error()), path.string()));
  return result;
}

// ----- edit ----------------------------------------------------------------------------------

namespace {

Diagnostic not_found(const Archive& archive, std::string_view name) {
  return Diagnostic::error("archive.entry_not_found", "no entry with this name")
      .of(archive.file_name())
      .expect("an entry name", std::string(name));
}

Diagnostic exists(const Archive& archive, std::size_t index, std::string_view message, std::string_view name) {
  return Diagnostic::error("archive.entry_exists", std::string(message))
      .of(archive.file_name())
      .in(fmt::format("entries[{}].name", index))
      .expect("a new name", std::string(name));
}

using NresEdit = std::function<core::Status(NresEditor&)>;
using RsliEdit = std::function<core::Status(RsliEditor&)>;

// Applies one edit with the format's editor and encodes the result.
core::Result<core::Bytes> edit(const Archive& archive, const ArchiveWriteOptions& options, const NresEdit& nres_edit,
                               const RsliEdit& rsli_edit) {
  auto run = [&]() -> core::Result<core::Bytes> {
    if (const NresArchive* n = archive.nres()) {
      NresEditor editor(*n);
      SORTIE_CHECK(nres_edit(editor));
      return options.canonical ? editor.encode_canonical() : editor.encode_lossless_layout();
    }
    SORTIE_TRY(auto editor, RsliEditor::open(*archive.rsli()));
    SORTIE_CHECK(rsli_edit(editor));
    return editor.write();
  };
  auto out = run();
  if (!out) return fail(detail::located(std::move(out.error()), archive.file_name()));
  return out;
}

}  // namespace

core::Result<core::Bytes> add_archive_entry(const Archive& archive, ArchiveNewEntry entry,
                                            const ArchiveWriteOptions& options) {
  const std::string name = detail::archive_name(entry.name);
  return edit(
      archive, options,
      [&](NresEditor& ed) -> core::Status {
        if (const auto existing = ed.find(name)) {
          if (!entry.replace) return fail(exists(archive, *existing, "an entry with this name exists", entry.name));
          SORTIE_CHECK(ed.replace(*existing, std::move(entry.payload)));
          if (entry.type_id) {
            const auto& e = ed.entry(*existing);
            SORTIE_CHECK(ed.set_attributes(*existing, *entry.type_id, e.attr1, e.attr2, e.attr3));
          }
          return {};
        }
        SORTIE_CHECK(nres_validate_new_name(name));
        SORTIE_CHECK(
            ed.add({entry.type_id.value_or(0), entry.attr1, entry.attr2, entry.attr3, name, std::move(entry.payload)}));
        return {};
      },
      [&](RsliEditor& ed) -> core::Status {
        std::optional<RsliMethod> method = entry.method;
        if (const auto existing = ed.find(name)) {
          if (!entry.replace) return fail(exists(archive, *existing, "an entry with this name exists", entry.name));
          const auto bits =
              static_cast<std::uint16_t>(static_cast<std::uint16_t>(ed.items()[*existing].flags) & kRsliMethodMask);
          if (!method && rsli_method_known(bits)) method = static_cast<RsliMethod>(bits);
          return ed.replace(*existing, entry.payload, method.value_or(RsliMethod::stored));
        }
        return ed.add(name, entry.payload, method.value_or(RsliMethod::stored));
      });
}

core::Result<core::Bytes> remove_archive_entries(const Archive& archive, std::span<const std::string> names,
                                                 const ArchiveWriteOptions& options) {
  auto remove_all = [&](auto& ed) -> core::Status {
    for (const std::string& n : names) {
      const auto index = ed.find(detail::archive_name(n));
      if (!index) return fail(not_found(archive, n));
      SORTIE_CHECK(ed.remove(*index));
    }
    return {};
  };
  return edit(
      archive, options, [&](NresEditor& ed) { return remove_all(ed); }, [&](RsliEditor& ed) { return remove_all(ed); });
}

core::Result<core::Bytes> rename_archive_entry(const Archive& archive, std::string_view old_name,
                                               std::string_view new_name, const ArchiveWriteOptions& options) {
  const std::string from = detail::archive_name(old_name);
  const std::string to = detail::archive_name(new_name);
  return edit(
      archive, options,
      [&](NresEditor& ed) -> core::Status {
        const auto index = ed.find(from);
        if (!index) return fail(not_found(archive, old_name));
        // Names match case-insensitively: renaming onto another entry's name would leave two
        // entries answering to it. A change of case only is a rename of the same entry.
        if (const auto other = ed.find(to); other && *other != *index)
          return fail(exists(archive, *other, "another entry has this name", new_name));
        return ed.rename(*index, to);
      },
      [&](RsliEditor& ed) -> core::Status {
        const auto index = ed.find(from);
        if (!index) return fail(not_found(archive, old_name));
        return ed.rename(*index, to);  // the editor refuses a duplicate (rsli.edit.duplicate_name)
      });
}

core::Status set_entry_type_and_method(ArchiveNewEntry& entry, std::string_view type, std::string_view method) {
  if (!type.empty()) {
    entry.type_id = parse_nres_type_id(type);
    if (!entry.type_id)
      return core::fail(core::Diagnostic::error("usage.type", "bad --type")
                            .expect("a number (7, 0x15) or a 4-character tag (MAT0)", std::string(type)));
  }
  if (!method.empty()) {
    entry.method = parse_rsli_method(method);
    if (!entry.method)
      return core::fail(core::Diagnostic::error("usage.method", "bad --method")
                            .expect("stored, xor, lzss, xor-lzss, lzhuf, xor-lzhuf, deflate", std::string(method)));
  }
  return {};
}

}  // namespace sortie::iron3d
