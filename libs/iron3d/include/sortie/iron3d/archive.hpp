#pragma once
// One archive facade over NRes (spec §3) and RsLi (§4): open by content (§2.4), list, find an
// entry by the user's name, read payloads, extract with a manifest, pack from a directory or
// a manifest, add / remove / rename entries. `sortie archive` is a thin client of these calls.
//
//   auto a = Archive::open_file("textures.lib");           // NRes or RsLi, by content
//   for (const ArchiveItem& item : a->items()) ...         // name, type label, size, offset
//   extract_archive(*a, "tex/");                           // files + _manifest.json (+ _gaps/)
//   auto packed = pack_archive("tex/");                    // the same bytes, if nothing changed
//   auto edited = remove_archive_entries(*a, {"OLD_MAT"}); // encoded bytes; the caller writes
//
// Extract directory layout (what pack reads back): one file per entry, named by
// archive_safe_file_names; `_manifest.json` (nres_manifest or rsli_manifest, plus "source");
// bytes outside every entry that a repack must keep in `_gaps/0x<offset>.bin` (NRes gaps that
// are not all zero; the RsLi body after the table).
//
// Names given by users are UTF-8; entry names are Windows-1251 bytes and are matched ASCII
// case-insensitively, as the game does. Errors are Diagnostics located at the archive's file:
// "archive.unknown", "archive.entry_not_found", "archive.entry_exists", "archive.entry_index",
// the readers' and editors' nres.* / rsli.*, the manifest's manifest.*, io.* for files.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/mapped_file.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"

namespace sortie::iron3d {

enum class ArchiveFormat : std::uint8_t { nres, rsli };
std::string_view to_string(ArchiveFormat format);                          // "nres", "rsli"
std::optional<ArchiveFormat> parse_archive_format(std::string_view name);  // the inverse

// Spec §2.4: NRes magic -> nres, RsLi magic -> rsli, anything else -> nullopt. Asks
// nres_has_magic / rsli_has_magic, the checks the format table's nres and rsli rows use.
std::optional<ArchiveFormat> detect_archive(core::ByteView bytes);

// One entry as the tools show it.
struct ArchiveItem {
  std::string name;          // display name (UTF-8)
  std::string type_label;    // NRes: type tag ("MAT0") or decimal id; RsLi: method ("lzss")
  std::uint64_t size = 0;    // NRes: payload size; RsLi: unpacked size
  std::uint64_t offset = 0;  // NRes: data_offset; RsLi: effective offset
};

struct ArchiveOpenOptions {
  core::Profile profile = core::Profile::strict;
  std::string file_name;  // for diagnostics and the manifest's "source"
};

class Archive {
 public:
  // Detects the format by content and reads it (NRes borrows `bytes`; RsLi copies them).
  static core::Result<Archive> open(core::SharedBytes bytes, const ArchiveOpenOptions& options = {});
  // Maps the file (core::SharedBytes::from_file), then open(). io.* when it cannot be read.
  static core::Result<Archive> open_file(const std::filesystem::path& path,
                                         core::Profile profile = core::Profile::strict);

  [[nodiscard]] ArchiveFormat format() const;
  [[nodiscard]] const std::string& file_name() const;
  [[nodiscard]] std::size_t size() const;
  [[nodiscard]] const std::vector<ArchiveItem>& items() const;
  // The first entry answering to `name` (UTF-8; converted to Windows-1251 when it can be).
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;
  // The entry's bytes: a view into the archive (NRes) or the decoded payload (RsLi, decoded
  // on first use and kept). Valid while this archive or a copy of it lives.
  [[nodiscard]] core::Result<core::ByteView> payload(std::size_t index) const;
  // Every header and directory field (nres_to_json / rsli_json).
  [[nodiscard]] core::Json to_json() const;
  // Compatible-profile findings of the reader.
  [[nodiscard]] const core::Diagnostics& warnings() const;
  // The format's own model; nullptr for the other format.
  [[nodiscard]] const NresArchive* nres() const;
  [[nodiscard]] const RsliArchive* rsli() const;

 private:
  struct State;
  explicit Archive(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;  // shared by copies; immutable apart from the RsLi decode cache
};

// ----- extract -------------------------------------------------------------------------------

struct ArchiveExtractOptions {
  // Entries to write (names as find() takes them). Empty: every entry, the manifest and the
  // bytes outside entries, so pack_archive can rebuild the archive.
  std::vector<std::string> names;
  // Called after each entry file is written: (done, total, file name).
  std::function<void(std::size_t, std::size_t, std::string_view)> progress;
};

struct ArchiveExtractResult {
  std::size_t extracted = 0;           // entry files written
  std::size_t entries = 0;             // entries in the archive
  std::filesystem::path manifest;      // empty when only named entries were written
  std::vector<std::string> preserved;  // files under _gaps/ (relative to the directory)
};

// Every payload is read (RsLi: decoded) and every name resolved before anything is written.
core::Result<ArchiveExtractResult> extract_archive(const Archive& archive, const std::filesystem::path& dir,
                                                   const ArchiveExtractOptions& options = {});

// ----- pack ----------------------------------------------------------------------------------

// Loads a file named in a manifest: a relative path that stays inside `base`
// ("manifest.path" otherwise), read with core::read_file.
using ArchiveFileLoader = std::function<core::Result<core::Bytes>(const std::string& file)>;
ArchiveFileLoader archive_file_loader(const std::filesystem::path& base);

struct ArchivePackOptions {
  bool canonical = false;  // NRes: compact layout (payloads aligned to 8, unindexed bytes dropped)
  // A directory without a manifest: every regular file becomes an entry named after it,
  // sorted by file name. NRes: type 0, canonical layout; RsLi: names uppercased, packed with
  // plain_method.
  ArchiveFormat plain_format = ArchiveFormat::nres;
  RsliMethod plain_method = RsliMethod::stored;
};

struct ArchivePackResult {
  ArchiveFormat format = ArchiveFormat::nres;
  core::Bytes bytes;
  std::size_t entries = 0;
  bool from_manifest = true;  // false: a plain directory
  std::size_t resized = 0;    // NRes manifest: payloads whose size changed (offsets recomputed)
  bool rebuilt = false;       // RsLi manifest: the library was rebuilt, not reproduced
  std::size_t repacked = 0;   // RsLi: entries packed anew from their files
};

// The manifest of a directory without one (see ArchivePackOptions).
core::Result<core::Json> plain_directory_manifest(const std::filesystem::path& dir, ArchiveFormat format,
                                                  RsliMethod method = RsliMethod::stored);
// Dispatches on the manifest's "format" to nres_pack_manifest / rsli_pack_manifest.
core::Result<ArchivePackResult> pack_archive_manifest(const core::Json& manifest, const ArchiveFileLoader& load,
                                                      bool canonical = false);
// `source`: an extract directory (with _manifest.json), a manifest file, or a directory of
// files without a manifest.
core::Result<ArchivePackResult> pack_archive(const std::filesystem::path& source,
                                             const ArchivePackOptions& options = {});

// ----- edit ----------------------------------------------------------------------------------
// Each call reads nothing and writes nothing: it edits a copy of `archive` and returns the
// encoded bytes. NRes keeps the original layout (gaps verbatim) unless `canonical`; RsLi is
// always rebuilt (RsliEditor).

struct ArchiveWriteOptions {
  bool canonical = false;
};

struct ArchiveNewEntry {
  std::string name{};  // UTF-8
  core::Bytes payload{};
  std::optional<std::uint32_t> type_id{};         // NRes: 0 for a new entry; replace keeps its own unless given
  std::uint32_t attr1 = 0, attr2 = 0, attr3 = 0;  // NRes: a new entry's attributes
  std::optional<RsliMethod> method{};             // RsLi: stored for a new entry; replace keeps the entry's
  bool replace = false;                           // overwrite the payload of an entry with this name
};

// Sets the entry's type and method from their texts (`sortie archive add --type --method`):
// type "7", "0x15" or a 4-character tag such as MAT0, method an RsLi method name; empty text
// leaves the field unset. Codes usage.type and usage.method, naming what is accepted.
core::Status set_entry_type_and_method(ArchiveNewEntry& entry, std::string_view type, std::string_view method);

core::Result<core::Bytes> add_archive_entry(const Archive& archive, ArchiveNewEntry entry,
                                            const ArchiveWriteOptions& options = {});
core::Result<core::Bytes> remove_archive_entries(const Archive& archive, std::span<const std::string> names,
                                                 const ArchiveWriteOptions& options = {});
// A change of case only renames the same entry; a name another entry answers to is refused.
core::Result<core::Bytes> rename_archive_entry(const Archive& archive, std::string_view old_name,
                                               std::string_view new_name, const ArchiveWriteOptions& options = {});

}  // namespace sortie::iron3d
