// Archive facade: detection, open, lookup, payloads and extraction (archive.hpp).
#include "sortie/iron3d/archive.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "archive_internal.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/archive_files.hpp"

namespace sortie::iron3d {

namespace fs = std::filesystem;
using core::Diagnostic;
using core::fail;

std::string_view to_string(ArchiveFormat format) {
  return format == ArchiveFormat::nres ? "nres" : "rsli";
}

std::optional<ArchiveFormat> parse_archive_format(std::string_view name) {
  if (name == "nres") return ArchiveFormat::nres;
  if (name == "rsli") return ArchiveFormat::rsli;
  return std::nullopt;
}

std::optional<ArchiveFormat> detect_archive(core::ByteView bytes) {
  if (nres_has_magic(bytes)) return ArchiveFormat::nres;
  if (rsli_has_magic(bytes)) return ArchiveFormat::rsli;
  return std::nullopt;
}

namespace detail {

std::string archive_name(std::string_view utf8) {
  auto cp = core::utf8_to_cp1251(utf8);
  return cp ? std::move(*cp) : std::string(utf8);
}

Diagnostic located(Diagnostic d, const std::string& file) {
  if (d.file.empty()) d.file = file;
  return d;
}

}  // namespace detail

struct Archive::State {
  ArchiveFormat format = ArchiveFormat::nres;
  std::string file_name;
  std::optional<NresArchive> nres;
  std::optional<RsliArchive> rsli;
  std::vector<ArchiveItem> items;
  // RsLi payloads, decoded on first use; the vector is sized once, so views stay put.
  mutable std::mutex decode_mutex;
  mutable std::vector<std::optional<core::Bytes>> decoded;
};

core::Result<Archive> Archive::open(core::SharedBytes bytes, const ArchiveOpenOptions& options) {
  const auto format = detect_archive(bytes.view());
  if (!format)
    return fail(Diagnostic::error("archive.unknown", "not an archive sortie can open")
                    .of(options.file_name)
                    .at(0)
                    .expect("NRes magic \"NRes\" or RsLi \"NL\" 00 01",
                            core::to_hex(bytes.view().first(std::min<std::size_t>(4, bytes.size())))));
  auto s = std::make_shared<State>();
  s->format = *format;
  s->file_name = options.file_name;
  if (*format == ArchiveFormat::nres) {
    NresReadOptions ro;
    ro.profile = options.profile;
    ro.file_name = options.file_name;
    SORTIE_TRY(s->nres, read_nres(std::move(bytes), ro));
    s->items.reserve(s->nres->entries.size());
    for (const NresEntry& e : s->nres->entries) {
      auto tag = nres_type_tag_text(e.type_id);
      s->items.push_back({core::cp1251_to_utf8(e.name.text()).utf8, tag ? std::move(*tag) : std::to_string(e.type_id),
                          e.size, e.data_offset});
    }
  } else {
    SORTIE_TRY(s->rsli, read_rsli(bytes.view(), RsliReadOptions::from_profile(options.profile, options.file_name)));
    s->items.reserve(s->rsli->entries.size());
    for (const RsliEntry& e : s->rsli->entries)
      s->items.push_back({core::cp1251_to_utf8(e.name.text()).utf8, std::string(rsli_method_name(e.method_bits())),
                          e.unpacked_size, e.effective_offset});
    s->decoded.resize(s->rsli->entries.size());
  }
  return Archive(std::move(s));
}

core::Result<Archive> Archive::open_file(const fs::path& path, core::Profile profile) {
  SORTIE_TRY(auto bytes, core::SharedBytes::from_file(path));
  return open(std::move(bytes), {profile, path.string()});
}

ArchiveFormat Archive::format() const {
  return state_->format;
}
const std::string& Archive::file_name() const {
  return state_->file_name;
}
std::size_t Archive::size() const {
  return state_->items.size();
}
const std::vector<ArchiveItem>& Archive::items() const {
  return state_->items;
}
const NresArchive* Archive::nres() const {
  return state_->nres ? &*state_->nres : nullptr;
}
const RsliArchive* Archive::rsli() const {
  return state_->rsli ? &*state_->rsli : nullptr;
}

std::optional<std::size_t> Archive::find(std::string_view name) const {
  const std::string cp = detail::archive_name(name);
  return state_->nres ? state_->nres->find(cp) : find_rsli_entry(*state_->rsli, cp);
}

core::Result<core::ByteView> Archive::payload(std::size_t index) const {
  if (index >= size())
    return fail(Diagnostic::error("archive.entry_index", "no entry with this index")
                    .of(state_->file_name)
                    .expect(fmt::format("< {}", size()), std::to_string(index)));
  if (state_->nres) return state_->nres->payload(index);
  const std::lock_guard lock(state_->decode_mutex);
  std::optional<core::Bytes>& slot = state_->decoded[index];
  if (!slot) {
    auto data = decode_rsli_entry(*state_->rsli, index);
    if (!data) return fail(detail::located(std::move(data.error()), state_->file_name));
    slot = std::move(*data);
  }
  return core::ByteView(*slot);
}

core::Json Archive::to_json() const {
  return state_->nres ? nres_to_json(*state_->nres) : rsli_json(*state_->rsli);
}

const core::Diagnostics& Archive::warnings() const {
  return state_->nres ? state_->nres->warnings : state_->rsli->warnings;
}

// ----- extract -------------------------------------------------------------------------------

namespace {

// Bytes outside every entry that a repack needs, with their offset in the archive.
std::vector<std::pair<std::uint64_t, core::ByteView>> preserved_regions(const Archive& a) {
  std::vector<std::pair<std::uint64_t, core::ByteView>> out;
  if (const NresArchive* n = a.nres()) {
    for (std::size_t g = 0; g < n->gaps.size(); ++g)
      if (!n->gap_is_zero(g)) out.emplace_back(n->gaps[g].offset, n->gap_bytes(g));
  } else if (const RsliArchive* r = a.rsli()) {
    if (const core::ByteView body = rsli_body_bytes(*r); !body.empty()) out.emplace_back(r->table_end(), body);
  }
  return out;
}

core::Status make_directory(const fs::path& dir, std::string_view what) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return fail(
        Diagnostic::error("io.mkdir", fmt::format("cannot create the {}: {}", what, ec.message())).of(dir.string()));
  return {};
}

}  // namespace

core::Result<ArchiveExtractResult> extract_archive(const Archive& archive, const fs::path& dir,
                                                   const ArchiveExtractOptions& options) {
  std::vector<std::size_t> chosen;
  if (options.names.empty()) {
    chosen.resize(archive.size());
    for (std::size_t i = 0; i < chosen.size(); ++i) chosen[i] = i;
  } else {
    for (const std::string& n : options.names) {
      const auto index = archive.find(n);
      if (!index)
        return fail(Diagnostic::error("archive.entry_not_found", "no entry with this name")
                        .of(archive.file_name())
                        .expect("an entry name", n));
      chosen.push_back(*index);
    }
  }
  std::vector<core::ByteView> data(archive.size());
  for (const std::size_t i : chosen) {
    SORTIE_TRY(data[i], archive.payload(i));
  }
  std::vector<std::string> display(archive.size());
  for (std::size_t i = 0; i < display.size(); ++i) display[i] = archive.items()[i].name;
  const std::vector<std::string> files = archive_safe_file_names(display);

  SORTIE_CHECK(make_directory(dir, "output directory"));
  ArchiveExtractResult result;
  result.entries = archive.size();
  for (const std::size_t i : chosen) {
    SORTIE_CHECK(core::write_file_atomic(dir / files[i], data[i]));
    ++result.extracted;
    if (options.progress) options.progress(result.extracted, chosen.size(), files[i]);
  }
  if (!options.names.empty()) return result;

  const auto regions = preserved_regions(archive);
  if (!regions.empty()) SORTIE_CHECK(make_directory(dir / kArchiveGapDir, "gap directory"));
  for (const auto& [offset, bytes] : regions) {
    result.preserved.push_back(fmt::format("{}/{:#x}.bin", kArchiveGapDir, offset));
    SORTIE_CHECK(core::write_file_atomic(dir / result.preserved.back(), bytes));
  }
  core::Json manifest;
  if (const NresArchive* n = archive.nres()) {
    std::vector<std::string> gap_files(n->gaps.size());
    for (std::size_t g = 0, k = 0; g < n->gaps.size(); ++g)
      if (!n->gap_is_zero(g)) gap_files[g] = result.preserved[k++];
    manifest = nres_manifest(*n, files, gap_files);
  } else {
    manifest = rsli_manifest(*archive.rsli(), files, std::span<const core::ByteView>(data),
                             result.preserved.empty() ? std::string() : result.preserved.front());
  }
  manifest["source"] = fs::path(archive.file_name()).filename().string();
  result.manifest = dir / kArchiveManifestName;
  SORTIE_CHECK(core::write_file_atomic(result.manifest, core::dump_json(manifest)));
  return result;
}

}  // namespace sortie::iron3d
