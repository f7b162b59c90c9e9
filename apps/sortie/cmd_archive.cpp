// `sortie archive list|extract|pack|add|remove|rename`: archive tools.
//
// The verbs are format-neutral; everything format-specific sits behind the small functions in
// the "backends" section (open_nres, pack_nres, edit_nres; open_rsli, pack_rsli, edit_rsli). Another archive format adds its own
// open_<fmt> (and pack_<fmt> if it can be written) and one line in open_archive / pack_archive.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/archive_files.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"

namespace sortie::cli {
namespace {

namespace fs = std::filesystem;
using core::Diagnostic;
using core::Json;

struct ArchiveOptions {
  std::string archive;  // input archive (list, extract, add, remove, rename)
  std::string source;   // pack: directory or manifest
  std::string out;      // -o
  std::vector<std::string> names;
  std::string file;        // add: payload file
  std::string entry_name;  // add --name
  std::string type;        // add --type
  std::string method;      // add/pack --method (RsLi)
  std::string format;      // pack --format for a directory without a manifest
  std::uint32_t attr1 = 0, attr2 = 0, attr3 = 0;
  std::string old_name, new_name;
  bool json = false;
  bool compatible = false;
  bool canonical = false;
  bool replace = false;
};

core::Profile profile_of(const ArchiveOptions& o) { return o.compatible ? core::Profile::compatible : core::Profile::strict; }

// ---------------------------------------------------------------------------------------------
// Format-neutral view of an opened archive.
struct ArchiveItem {
  std::string name;        // display name (UTF-8)
  std::string type_label;  // "MAT0", "7", "lzss" ...
  std::uint64_t size = 0;
  std::uint64_t offset = 0;
  core::ByteView data;  // payload (decoded), valid while OpenedArchive lives
};

struct OpenedArchive {
  std::string format;  // "nres"
  Json model;          // full JSON model (list --json)
  std::vector<ArchiveItem> items;
  std::vector<std::pair<std::uint64_t, core::ByteView>> extra_blobs;  // non-entry bytes to keep (offset, bytes)
  // Lookup by the user's (UTF-8) name; nullopt when absent.
  std::function<std::optional<std::size_t>(std::string_view)> find;
  // Manifest for a full extraction, given the payload file names and extra-blob file names.
  std::function<Json(std::span<const std::string>, std::span<const std::string>)> manifest;
  std::shared_ptr<const void> keep_alive;
};

// User-typed names are UTF-8; archive names are Windows-1251 bytes.
std::string to_archive_name(std::string_view utf8) {
  auto cp = core::utf8_to_cp1251(utf8);
  return cp ? *cp : std::string(utf8);
}

// ----- backends: NRes -------------------------------------------------------------------------
core::Result<OpenedArchive> open_nres(core::Bytes bytes, const std::string& path, core::Profile profile) {
  iron3d::NresReadOptions ro;
  ro.profile = profile;
  ro.file_name = path;
  SORTIE_TRY(auto read, iron3d::read_nres(std::move(bytes), ro));
  auto archive = std::make_shared<const iron3d::NresArchive>(std::move(read));
  OpenedArchive o;
  o.format = "nres";
  o.model = iron3d::nres_to_json(*archive);
  o.items.reserve(archive->entries.size());
  for (std::size_t i = 0; i < archive->entries.size(); ++i) {
    const auto& e = archive->entries[i];
    auto tag = iron3d::nres_type_tag_text(e.type_id);
    o.items.push_back({core::cp1251_to_utf8(e.name.text()).utf8, tag ? *tag : std::to_string(e.type_id), e.size,
                       e.data_offset, archive->payload(i)});
  }
  for (std::size_t g = 0; g < archive->gaps.size(); ++g)
    if (!archive->gap_is_zero(g)) o.extra_blobs.emplace_back(archive->gaps[g].offset, archive->gap_bytes(g));
  o.find = [archive](std::string_view name) { return archive->find(to_archive_name(name)); };
  o.manifest = [archive](std::span<const std::string> files, std::span<const std::string> blobs) {
    std::vector<std::string> gap_files(archive->gaps.size());
    std::size_t k = 0;
    for (std::size_t g = 0; g < archive->gaps.size(); ++g)
      if (!archive->gap_is_zero(g) && k < blobs.size()) gap_files[g] = blobs[k++];
    return iron3d::nres_manifest(*archive, files, gap_files);
  };
  o.keep_alive = archive;
  return o;
}

// Reads a file named in a manifest, refusing paths that leave the manifest directory.
std::function<core::Result<core::Bytes>(const std::string&)> manifest_loader(const fs::path& base) {
  return [base](const std::string& file) -> core::Result<core::Bytes> {
    const fs::path rel(file);
    for (const auto& part : rel)
      if (part == "..")
        return core::fail(Diagnostic::error("manifest.path", "file path leaves the manifest directory").expect("relative path inside", file));
    if (rel.empty() || rel.is_absolute())
      return core::fail(Diagnostic::error("manifest.path", "file path must be relative").expect("relative path", file));
    return core::read_file(base / rel);
  };
}

core::Result<core::Bytes> pack_nres(const Json& manifest, const fs::path& base, bool canonical) {
  SORTIE_TRY(auto packed, iron3d::nres_pack_manifest(manifest, manifest_loader(base), {canonical}));
  if (packed.resized > 0)
    std::cerr << fmt::format("note: {} payload(s) changed size; offsets recomputed (gaps kept, sort table rebuilt)\n",
                             packed.resized);
  return std::move(packed.bytes);
}

// Applies one edit to an NRes archive and encodes it.
core::Result<core::Bytes> edit_nres(const core::Bytes& bytes, const std::string& path, const ArchiveOptions& o,
                                    const std::function<core::Status(iron3d::NresEditor&, const iron3d::NresArchive&)>& edit) {
  iron3d::NresReadOptions ro;
  ro.profile = profile_of(o);
  ro.file_name = path;
  SORTIE_TRY(const auto archive, iron3d::read_nres(bytes, ro));
  iron3d::NresEditor editor(archive);
  SORTIE_CHECK(edit(editor, archive));
  return o.canonical ? editor.encode_canonical() : editor.encode_lossless_layout();
}

// ----- backends: RsLi -------------------------------------------------------------------------
bool is_rsli(core::ByteView bytes) { return bytes.size() >= 4 && std::memcmp(bytes.data(), "NL\0\1", 4) == 0; }

// Payloads are decoded only when `payloads` is set (extract); list needs the table only.
core::Result<OpenedArchive> open_rsli(const core::Bytes& bytes, const std::string& path, core::Profile profile,
                                      bool payloads) {
  struct Held {
    iron3d::RsliArchive archive;
    std::vector<core::Bytes> decoded;
  };
  auto held = std::make_shared<Held>();
  SORTIE_TRY(held->archive, iron3d::read_rsli(bytes, iron3d::RsliReadOptions::from_profile(profile, path)));
  const iron3d::RsliArchive& a = held->archive;
  if (payloads) {
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
      SORTIE_TRY(auto data, iron3d::decode_rsli_entry(a, i));
      held->decoded.push_back(std::move(data));
    }
  }
  OpenedArchive o;
  o.format = "rsli";
  o.model = iron3d::rsli_json(a);
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const auto& e = a.entries[i];
    o.items.push_back({core::cp1251_to_utf8(e.name.text()).utf8, std::string(iron3d::rsli_method_name(e.method_bits())),
                       e.unpacked_size, e.effective_offset,
                       payloads ? core::ByteView(held->decoded[i]) : core::ByteView()});
  }
  const core::ByteView body = iron3d::rsli_body_bytes(a);
  if (!body.empty()) o.extra_blobs.emplace_back(a.table_end(), body);
  o.find = [held](std::string_view name) { return iron3d::find_rsli_entry(held->archive, to_archive_name(name)); };
  o.manifest = [held](std::span<const std::string> files, std::span<const std::string> blobs) {
    return iron3d::rsli_manifest(held->archive, files, held->decoded, blobs.empty() ? std::string() : blobs[0]);
  };
  o.keep_alive = held;
  return o;
}

core::Result<core::Bytes> pack_rsli(const Json& manifest, const fs::path& base) {
  SORTIE_TRY(auto packed, iron3d::rsli_pack_manifest(manifest, manifest_loader(base)));
  if (!packed.original)
    std::cerr << fmt::format("note: library rebuilt ({} entr{} packed anew; sort table and XOR keys recomputed)\n",
                             packed.repacked, packed.repacked == 1 ? "y" : "ies");
  return std::move(packed.bytes);
}

using RsliEdit = std::function<core::Status(iron3d::RsliEditor&)>;

core::Result<core::Bytes> edit_rsli(const core::Bytes& bytes, const std::string& path, const ArchiveOptions& o,
                                    const RsliEdit& edit) {
  SORTIE_TRY(const auto archive, iron3d::read_rsli(bytes, iron3d::RsliReadOptions::from_profile(profile_of(o), path)));
  SORTIE_TRY(auto editor, iron3d::RsliEditor::open(archive));
  SORTIE_CHECK(edit(editor));
  return editor.write();
}

// ----- dispatch -------------------------------------------------------------------------------
core::Result<OpenedArchive> open_archive(const std::string& path, core::Profile profile, bool payloads = true) {
  SORTIE_TRY(auto bytes, core::read_file(path));
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "NRes", 4) == 0) return open_nres(std::move(bytes), path, profile);
  if (is_rsli(bytes)) return open_rsli(bytes, path, profile, payloads);
  return core::fail(Diagnostic::error("archive.unknown", "not an archive sortie can open")
                        .of(path)
                        .at(0)
                        .expect("NRes magic \"NRes\" or RsLi \"NL\" 00 01",
                                core::to_hex(core::ByteView(bytes).first(std::min<std::size_t>(4, bytes.size())))));
}

core::Result<core::Bytes> pack_archive(const Json& manifest, const fs::path& base, bool canonical) {
  const std::string format = manifest.is_object() ? manifest.value("format", std::string()) : std::string();
  if (format == "nres") return pack_nres(manifest, base, canonical);
  if (format == "rsli") return pack_rsli(manifest, base);
  return core::fail(Diagnostic::error("manifest.format", "manifest names no format sortie can pack")
                        .in("format")
                        .expect("\"nres\" or \"rsli\"", format.empty() ? "missing" : format));
}

// ---------------------------------------------------------------------------------------------
int report(const Diagnostic& d) {
  print_error(d);
  if (d.code.starts_with("nres.sort")) std::cerr << "hint: --compatible accepts an archive whose sort table is invalid\n";
  if (d.code == "rsli.corrupt_table" || d.code == "rsli.ao_trailer" || d.code == "rsli.deflate_eof_quirk")
    std::cerr << "hint: --compatible accepts this RsLi quirk (reported as a warning)\n";
  return exit_code_for(d);
}

int run_list(const ArchiveOptions& o) {
  auto a = open_archive(o.archive, profile_of(o), false);
  if (!a) {
    if (o.json) print_json({{"file", o.archive}, {"valid", false}, {"diagnostic", a.error().to_json()}});
    return report(a.error());
  }
  if (o.json) {
    Json j = a->model;
    j["file"] = o.archive;
    print_json(j);
    return kExitOk;
  }
  std::cout << fmt::format("{}: {} archive, {} entries\n", o.archive, a->format, a->items.size());
  std::cout << fmt::format("{:>6}  {:<8} {:>10} {:>10}  {}\n", "index", "type", "size", "offset", "name");
  for (std::size_t i = 0; i < a->items.size(); ++i) {
    const auto& it = a->items[i];
    std::cout << fmt::format("{:>6}  {:<8} {:>10} {:>#10x}  {}\n", i, it.type_label, it.size, it.offset, it.name);
  }
  if (a->model.contains("warnings"))
    for (const auto& w : a->model["warnings"]) std::cout << "warning: " << w.value("message", "") << "\n";
  return kExitOk;
}

std::string default_extract_dir(const std::string& archive) {
  const fs::path p(archive);
  std::string ext = p.extension().string();
  if (!ext.empty()) ext[0] = '_';
  return p.stem().string() + ext;
}

int run_extract(const ArchiveOptions& o) {
  auto a = open_archive(o.archive, profile_of(o));
  if (!a) return report(a.error());
  const fs::path dir = o.out.empty() ? fs::path(default_extract_dir(o.archive)) : fs::path(o.out);
  std::vector<std::string> display(a->items.size());
  for (std::size_t i = 0; i < a->items.size(); ++i) display[i] = a->items[i].name;
  const std::vector<std::string> files = iron3d::archive_safe_file_names(display);

  std::vector<std::size_t> chosen;
  if (o.names.empty()) {
    for (std::size_t i = 0; i < a->items.size(); ++i) chosen.push_back(i);
  } else {
    for (const auto& n : o.names) {
      auto idx = a->find(n);
      if (!idx) return report(Diagnostic::error("archive.entry_not_found", "no entry with this name").of(o.archive).expect("an entry name", n));
      chosen.push_back(*idx);
    }
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return report(Diagnostic::error("io.mkdir", "cannot create the output directory: " + ec.message()).of(dir.string()));
  Progress progress("extract", chosen.size());
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const std::size_t i = chosen[k];
    auto st = core::write_file_atomic(dir / files[i], a->items[i].data);
    if (!st) return report(st.error());
    progress.update(k + 1, files[i]);
  }
  progress.finish();
  if (!o.names.empty()) {
    std::cout << fmt::format("extracted {} of {} entries to {}\n", chosen.size(), a->items.size(), dir.string());
    return kExitOk;
  }
  std::vector<std::string> blob_files;
  if (!a->extra_blobs.empty()) {
    fs::create_directories(dir / iron3d::kArchiveGapDir, ec);
    if (ec) return report(Diagnostic::error("io.mkdir", "cannot create the gap directory: " + ec.message()).of(dir.string()));
  }
  for (const auto& [offset, bytes] : a->extra_blobs) {
    blob_files.push_back(fmt::format("{}/{:#x}.bin", iron3d::kArchiveGapDir, offset));
    auto st = core::write_file_atomic(dir / blob_files.back(), bytes);
    if (!st) return report(st.error());
  }
  Json manifest = a->manifest(files, blob_files);
  manifest["source"] = fs::path(o.archive).filename().string();
  auto st = core::write_file_atomic(dir / iron3d::kArchiveManifestName, core::dump_json(manifest));
  if (!st) return report(st.error());
  std::cout << fmt::format("extracted {} entries to {} (manifest {})\n", chosen.size(), dir.string(),
                           (dir / iron3d::kArchiveManifestName).string());
  if (!blob_files.empty())
    std::cout << fmt::format("kept {} non-zero unindexed region(s) in {}\n", blob_files.size(),
                             (dir / iron3d::kArchiveGapDir).string());
  return kExitOk;
}

// A directory without a manifest: every regular file becomes an entry (sorted by file name,
// type 0, canonical layout).
core::Result<Json> manifest_from_plain_directory(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& de : fs::directory_iterator(dir, ec))
    if (de.is_regular_file()) names.push_back(de.path().filename().string());
  if (ec) return core::fail(Diagnostic::error("io.read", "cannot list the directory: " + ec.message()).of(dir.string()));
  std::sort(names.begin(), names.end());
  Json entries = Json::array();
  for (const auto& n : names) entries.push_back({{"name", n}, {"file", n}, {"type_id", 0}});
  return Json{{"format", "nres"}, {"entries", entries}};
}

int run_pack(const ArchiveOptions& o) {
  const fs::path src(o.source);
  fs::path base = src;
  Json manifest;
  std::error_code ec;
  if (fs::is_directory(src, ec) && !fs::exists(src / iron3d::kArchiveManifestName, ec)) {
    auto m = manifest_from_plain_directory(src);
    if (!m) return report(m.error());
    manifest = std::move(*m);
    if (o.format == "rsli") {
      // Same file list as an RsLi library: names are stored uppercased, every entry packed with --method.
      const std::string method = o.method.empty() ? "stored" : o.method;
      if (!iron3d::parse_rsli_method(method))
        return report(Diagnostic::error("usage.method", "bad --method")
                          .expect("stored, xor, lzss, xor-lzss, lzhuf, xor-lzhuf, deflate", method));
      Json entries = Json::array();
      for (const auto& e : manifest["entries"]) entries.push_back({{"name", e["name"]}, {"file", e["file"]}, {"method", method}});
      manifest = Json{{"format", "rsli"}, {"entries", entries}};
    } else if (!o.format.empty() && o.format != "nres") {
      return report(Diagnostic::error("usage.format", "bad --format").expect("nres or rsli", o.format));
    }
    std::cerr << fmt::format("note: {} has no {}; packing every file in it ({})\n", src.string(),
                             iron3d::kArchiveManifestName,
                             o.format == "rsli" ? "RsLi, names uppercased" : "type 0, canonical layout");
  } else {
    const fs::path mpath = fs::is_directory(src, ec) ? src / iron3d::kArchiveManifestName : src;
    base = mpath.parent_path();
    auto text = core::read_text_file(mpath);
    if (!text) return report(text.error());
    manifest = Json::parse(*text, nullptr, false);
    if (manifest.is_discarded())
      return report(Diagnostic::error("manifest.json", "manifest is not valid JSON").of(mpath.string()));
  }
  auto bytes = pack_archive(manifest, base, o.canonical);
  if (!bytes) return report(bytes.error());
  auto st = core::write_file_atomic(o.out, *bytes);
  if (!st) return report(st.error());
  std::cout << fmt::format("packed {} entries into {} ({} bytes)\n", manifest["entries"].size(), o.out, bytes->size());
  return kExitOk;
}

// Type ids: a number (decimal or 0x hex) or a four-character tag such as MAT0.
core::Result<std::uint32_t> parse_type(std::string_view t) {
  if (t.size() == 4 && !std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(t[static_cast<std::size_t>(i)]);
    return v;
  }
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(std::string(t), &used, 0);
    if (used == t.size() && v <= 0xffffffffull) return static_cast<std::uint32_t>(v);
  } catch (const std::exception&) {
  }
  return core::fail(Diagnostic::error("usage.type", "bad --type").expect("a number (7, 0x15) or a 4-character tag (MAT0)", std::string(t)));
}

// Shared by add/remove/rename: read, edit, write (atomically) to -o or in place.
int run_edit(const ArchiveOptions& o,
             const std::function<core::Status(iron3d::NresEditor&, const iron3d::NresArchive&)>& edit,
             const RsliEdit& edit_lib, std::string_view done) {
  auto bytes = core::read_file(o.archive);
  if (!bytes) return report(bytes.error());
  const bool nres = bytes->size() >= 4 && std::memcmp(bytes->data(), "NRes", 4) == 0;
  if (!nres && !is_rsli(*bytes))
    return report(Diagnostic::error("archive.unknown", "not an archive sortie can edit (NRes or RsLi)").of(o.archive).at(0));
  auto out = nres ? edit_nres(*bytes, o.archive, o, edit) : edit_rsli(*bytes, o.archive, o, edit_lib);
  if (!out) {
    Diagnostic d = out.error();
    if (d.file.empty()) d.file = o.archive;
    return report(d);
  }
  const std::string target = o.out.empty() ? o.archive : o.out;
  auto st = core::write_file_atomic(target, *out);
  if (!st) return report(st.error());
  std::cout << fmt::format("{}: {} ({} bytes)\n", target, done, out->size());
  return kExitOk;
}

int run_add(const ArchiveOptions& o) {
  auto payload = core::read_file(o.file);
  if (!payload) return report(payload.error());
  const std::string name = to_archive_name(o.entry_name.empty() ? fs::path(o.file).filename().string() : o.entry_name);
  std::optional<std::uint32_t> type;
  if (!o.type.empty()) {
    auto t = parse_type(o.type);
    if (!t) return report(t.error());
    type = *t;
  }
  return run_edit(
      o,
      [&](iron3d::NresEditor& ed, const iron3d::NresArchive&) -> core::Status {
        if (auto existing = ed.find(name)) {
          if (!o.replace)
            return core::fail(Diagnostic::error("archive.entry_exists", "an entry with this name exists (use --replace)")
                                  .in(fmt::format("entries[{}].name", *existing))
                                  .expect("a new name", o.entry_name.empty() ? o.file : o.entry_name));
          SORTIE_CHECK(ed.replace(*existing, std::move(*payload)));
          if (type) {
            const auto& e = ed.entry(*existing);
            SORTIE_CHECK(ed.set_attributes(*existing, *type, e.attr1, e.attr2, e.attr3));
          }
          return {};
        }
        SORTIE_CHECK(iron3d::nres_validate_new_name(name));
        SORTIE_TRY(const auto idx, ed.add({type.value_or(0), o.attr1, o.attr2, o.attr3, name, std::move(*payload)}));
        (void)idx;
        return {};
      },
      [&](iron3d::RsliEditor& ed) -> core::Status {
        std::optional<iron3d::RsliMethod> method;
        if (!o.method.empty()) {
          method = iron3d::parse_rsli_method(o.method);
          if (!method)
            return core::fail(Diagnostic::error("usage.method", "bad --method")
                                  .expect("stored, xor, lzss, xor-lzss, lzhuf, xor-lzhuf, deflate", o.method));
        }
        if (auto existing = ed.find(name)) {
          if (!o.replace)
            return core::fail(Diagnostic::error("archive.entry_exists", "an entry with this name exists (use --replace)")
                                  .in(fmt::format("entries[{}].name", *existing))
                                  .expect("a new name", o.entry_name.empty() ? o.file : o.entry_name));
          const auto bits = static_cast<std::uint16_t>(static_cast<std::uint16_t>(ed.items()[*existing].flags) &
                                                       iron3d::kRsliMethodMask);
          if (!method && iron3d::rsli_method_known(bits)) method = static_cast<iron3d::RsliMethod>(bits);
          return ed.replace(*existing, *payload, method.value_or(iron3d::RsliMethod::stored));
        }
        return ed.add(name, *payload, method.value_or(iron3d::RsliMethod::stored));
      },
      "entry '" + (o.entry_name.empty() ? fs::path(o.file).filename().string() : o.entry_name) + "' written");
}

int run_remove(const ArchiveOptions& o) {
  return run_edit(
      o,
      [&](iron3d::NresEditor& ed, const iron3d::NresArchive&) -> core::Status {
        for (const auto& n : o.names) {
          auto idx = ed.find(to_archive_name(n));
          if (!idx) return core::fail(Diagnostic::error("archive.entry_not_found", "no entry with this name").expect("an entry name", n));
          SORTIE_CHECK(ed.remove(*idx));
        }
        return {};
      },
      [&](iron3d::RsliEditor& ed) -> core::Status {
        for (const auto& n : o.names) {
          auto idx = ed.find(to_archive_name(n));
          if (!idx) return core::fail(Diagnostic::error("archive.entry_not_found", "no entry with this name").expect("an entry name", n));
          SORTIE_CHECK(ed.remove(*idx));
        }
        return {};
      },
      fmt::format("{} entr{} removed", o.names.size(), o.names.size() == 1 ? "y" : "ies"));
}

int run_rename(const ArchiveOptions& o) {
  return run_edit(
      o,
      [&](iron3d::NresEditor& ed, const iron3d::NresArchive&) -> core::Status {
        auto idx = ed.find(to_archive_name(o.old_name));
        if (!idx) return core::fail(Diagnostic::error("archive.entry_not_found", "no entry with this name").expect("an entry name", o.old_name));
        // Names match case-insensitively: a rename onto another entry's name would leave two
        // entries answering to it (add refuses the same). A change of case only is allowed.
        if (auto other = ed.find(to_archive_name(o.new_name)); other && *other != *idx)
          return core::fail(Diagnostic::error("archive.entry_exists", "another entry has this name")
                                .in(fmt::format("entries[{}].name", *other))
                                .expect("a new name", o.new_name));
        return ed.rename(*idx, to_archive_name(o.new_name));
      },
      [&](iron3d::RsliEditor& ed) -> core::Status {
        auto idx = ed.find(to_archive_name(o.old_name));
        if (!idx) return core::fail(Diagnostic::error("archive.entry_not_found", "no entry with this name").expect("an entry name", o.old_name));
        return ed.rename(*idx, to_archive_name(o.new_name));
      },
      fmt::format("renamed '{}' to '{}'", o.old_name, o.new_name));
}

void add_common(CLI::App* cmd, ArchiveOptions& o) {
  cmd->add_flag("--compatible", o.compatible,
                "compatible profile: accept an archive whose sort table is invalid (lookup scans linearly)");
}

void add_write_flags(CLI::App* cmd, ArchiveOptions& o) {
  cmd->add_option("-o,--output", o.out, "write the result here instead of replacing ARCHIVE (atomic either way)");
  cmd->add_flag("--canonical", o.canonical,
                "repack compactly (payloads aligned to 8, unindexed bytes dropped); default keeps the original layout");
  add_common(cmd, o);
}

}  // namespace

SORTIE_COMMAND(archive, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<ArchiveOptions>();
  auto* cmd = root.add_subcommand("archive", "List, extract, pack and edit NRes and RsLi archives (.rlb, .lib)");
  cmd->require_subcommand(1);
  cmd->footer(
      "Examples:\n"
      "  sortie archive list objects.rlb                     table of entries (--json: every field)\n"
      "  sortie archive extract textures.lib -o tex/         every entry + tex/_manifest.json\n"
      "  sortie archive extract objects.rlb -o out/ b_bunk   only the named entries\n"
      "  sortie archive pack tex/ -o textures.lib            rebuild from an extract directory\n"
      "  sortie archive add material.lib new.mat0 --type MAT0 -o material2.lib\n"
      "  sortie archive remove material.lib OLD_MAT\n"
      "  sortie archive rename material.lib OLD_MAT NEW_MAT\n"
      "  sortie archive add gamefont.rlb font.bin --name FONT.FNT --method lzss\n"
      "\n"
      "Workflow: extract, edit or replace files in the directory, pack. The manifest keeps every\n"
      "header field, so pack rebuilds an unchanged directory byte for byte. Names are matched\n"
      "ASCII case-insensitively, as the game does. Exit codes: 0 ok, 1 invalid archive or\n"
      "entry not found, 2 usage or I/O error.\n");

  auto* list = cmd->add_subcommand("list", "List the entries of an archive");
  list->add_option("archive", o->archive, "archive file")->required();
  list->add_flag("--json", o->json, "every header and directory field as JSON");
  add_common(list, *o);
  list->footer("Examples:\n  sortie archive list objects.rlb\n  sortie archive list --json Material.lib\n");
  list->callback([o, &outcome] { outcome.exit_code = run_list(*o); });

  auto* extract = cmd->add_subcommand("extract", "Write entries to files (all of them: plus a manifest for pack)");
  extract->add_option("archive", o->archive, "archive file")->required();
  extract->add_option("names", o->names, "entry names to extract (default: all, with _manifest.json)");
  extract->add_option("-o,--output", o->out, "output directory (default: ARCHIVE's name with '_' for '.', e.g. objects_rlb)");
  add_common(extract, *o);
  extract->footer(
      "Entry names become safe file names (characters like / \\ : * ? replaced by _, clashes get ~1, ~2).\n"
      "_manifest.json maps files back to entries and keeps every field; non-zero unindexed bytes\n"
      "go to _gaps/. Examples:\n  sortie archive extract objects.rlb -o objects/\n  sortie archive extract textures.lib grass.0 -o .\n");
  extract->callback([o, &outcome] { outcome.exit_code = run_extract(*o); });

  auto* pack = cmd->add_subcommand("pack", "Build an archive from an extract directory (or a manifest)");
  pack->add_option("source", o->source, "directory made by extract, a _manifest.json, or any directory of files")->required();
  pack->add_option("-o,--output", o->out, "archive to write (atomic)")->required();
  pack->add_flag("--canonical", o->canonical, "compact layout: payloads aligned to 8, unindexed bytes dropped");
  pack->add_option("--format", o->format, "for a directory without a manifest: nres (default) or rsli");
  pack->add_option("--method", o->method,
                   "with --format rsli: stored (default), xor, lzss, xor-lzss, lzhuf, xor-lzhuf, deflate");
  pack->footer(
      "With a manifest, unchanged files give the original archive byte for byte; a file that\n"
      "changed size moves the payloads after it (gaps kept). To rename, edit \"name\" in the\n"
      "manifest. A directory without a manifest packs every file in it, named after the file.\n"
      "An RsLi manifest may change \"method\" per entry; unchanged entries keep their packed bytes.\n"
      "Examples:\n  sortie archive pack objects/ -o objects.rlb\n  sortie archive pack --canonical objects/_manifest.json -o small.rlb\n"
      "  sortie archive pack fonts/ --format rsli --method lzss -o gamefont.rlb\n");
  pack->callback([o, &outcome] { outcome.exit_code = run_pack(*o); });

  auto* add = cmd->add_subcommand("add", "Add a file as a new entry (or --replace an existing one)");
  add->add_option("archive", o->archive, "NRes or RsLi archive")->required();
  add->add_option("file", o->file, "payload file")->required();
  add->add_option("--name", o->entry_name, "entry name, 1..35 bytes (default: the file's name)");
  add->add_option("--type", o->type, "type id: number (7, 0x15) or 4-character tag (MAT0, Texm, WEAR)");
  add->add_option("--attr1", o->attr1, "attr1 of the new entry");
  add->add_option("--attr2", o->attr2, "attr2 of the new entry");
  add->add_option("--attr3", o->attr3, "attr3 of the new entry");
  add->add_flag("--replace", o->replace, "replace the payload of an existing entry with that name");
  add->add_option("--method", o->method,
                  "RsLi packing: stored, xor, lzss, xor-lzss, lzhuf, xor-lzhuf, deflate (default: stored for a new "
                  "entry, the entry's own method with --replace)");
  add_write_flags(add, *o);
  add->footer("Examples:\n  sortie archive add material.lib rust.mat0 --name RUST --type MAT0\n  sortie archive add objects.rlb b_bunk --replace -o objects_new.rlb\n");
  add->callback([o, &outcome] { outcome.exit_code = run_add(*o); });

  auto* remove = cmd->add_subcommand("remove", "Remove entries by name");
  remove->add_option("archive", o->archive, "NRes or RsLi archive")->required();
  remove->add_option("names", o->names, "entry names")->required();
  add_write_flags(remove, *o);
  remove->footer("Example:\n  sortie archive remove material.lib OLD_MAT -o material2.lib\n");
  remove->callback([o, &outcome] { outcome.exit_code = run_remove(*o); });

  auto* rename = cmd->add_subcommand("rename", "Rename an entry (new name 1..35 bytes)");
  rename->add_option("archive", o->archive, "NRes or RsLi archive")->required();
  rename->add_option("old", o->old_name, "current entry name")->required();
  rename->add_option("new", o->new_name, "new entry name")->required();
  add_write_flags(rename, *o);
  rename->footer("Example:\n  sortie archive rename material.lib OLD_MAT NEW_MAT\n");
  rename->callback([o, &outcome] { outcome.exit_code = run_rename(*o); });
});

}  // namespace sortie::cli
