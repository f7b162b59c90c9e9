#pragma once
// NRes archive (spec iron3d-formats.md §3): the main Iron3D container. Used directly for the
// game's .rlb/.lib archives and as the inner container of *.msh, Land.msh, Land.map, *.trf.
//
// Reading:  read_nres(bytes) -> NresArchive. The archive BORROWS its input through a
//           core::SharedBytes (an owned buffer or a core::MappedFile) and keeps it alive, so
//           payload(i) / gap_bytes(i) views stay valid for the archive's lifetime. Passing a
//           SharedBytes or an rvalue core::Bytes costs no copy; a ByteView is copied first
//           (the caller's buffer may not outlive the archive). Directory records are kept
//           inline (NresEntry is 64 bytes, its name included): open allocates per archive,
//           never per entry.
// Writing:  write_nres_lossless(archive)   -> the same bytes for an unchanged archive;
//           write_nres_canonical(archive)  -> compact repack (§3.4): payloads in physical
//                                              order padded to 8, sort table rebuilt;
//           build_nres(specs) / NresBuilder -> canonical bytes from scratch (fixtures);
//           NresEditor                      -> add/replace/remove/rename, lossless-layout
//                                              or canonical encode.
// Lookup:   find(name): ASCII case-insensitive (fold to upper, bytes >= 0x80 unfolded);
//           duplicates resolve to the first entry in physical order. This is the answer of
//           the spec's sort-table binary search (find_sorted) and of its linear fallback
//           when the table is invalid (find_linear); find() gets it from a hash index.
//           Lookups answer for the directory as read: edit through NresEditor, not by
//           changing `entries` in place.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/mapped_file.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/limits.hpp"

namespace sortie::iron3d {

inline constexpr std::uint32_t kNresVersion = 0x100;
inline constexpr std::size_t kNresHeaderSize = 16;
inline constexpr std::size_t kNresRecordSize = 64;
inline constexpr std::size_t kNresNameSize = 36;       // raw name field, NUL-terminated inside
inline constexpr std::size_t kNresMaxNameLength = 35;  // useful bytes of a name
inline constexpr std::size_t kNresAlignment = 8;       // canonical payload alignment

// Limits (spec §1.1 / §3.2 defaults, limits.hpp). Exceeding one gives diagnostic code "nres.limit".
struct NresLimits {
  std::uint64_t max_input = kNresMaxInput;  // whole archive
  std::uint32_t max_entries = kNresMaxEntries;
  std::uint64_t max_payload = kNresMaxPayload;             // one entry
  std::uint64_t max_total_payload = kNresMaxTotalPayload;  // sum over entries
  std::uint64_t max_preserved = kNresMaxPreserved;         // sum of unindexed (gap) bytes
};

struct NresReadOptions {
  // strict: an invalid sort table is fatal. compatible: accepted with a warning,
  // lookup_order_valid=false and find() scans linearly. Every other check is fatal in both.
  core::Profile profile = core::Profile::strict;
  std::string file_name;  // only for diagnostics
  NresLimits limits{};
};

// The 36-byte name field of a directory record, kept inline: the logical name ends at the
// first NUL; bytes after it are kept for lossless writing.
struct NresName {
  std::array<char, kNresNameSize> raw{};

  [[nodiscard]] std::string_view text() const;
  [[nodiscard]] bool has_tail() const;  // non-zero bytes after the first NUL
  [[nodiscard]] core::ByteView bytes() const { return core::as_bytes(std::string_view(raw.data(), raw.size())); }
  [[nodiscard]] core::FixedString to_fixed() const { return core::FixedString{std::string(raw.data(), raw.size())}; }
  // Records of the formats inside NRes (MSH streams, terrain streams) keep a core::FixedString;
  // the conversion is implicit so they take a directory name as it is.
  operator core::FixedString() const { return to_fixed(); }
  bool operator==(const NresName&) const = default;
};

// One 64-byte directory record, every field raw.
struct NresEntry {
  std::uint32_t type_id = 0;  // e.g. 'MAT0' = 0x3054414D, MSH stream numbers 1..21
  std::uint32_t attr1 = 0;
  std::uint32_t attr2 = 0;
  std::uint32_t size = 0;  // payload byte length
  std::uint32_t attr3 = 0;
  NresName name;                  // name.text() is the logical name
  std::uint32_t data_offset = 0;  // absolute
  std::uint32_t sort_index = 0;   // row p holds the original index of the p-th name in sorted order
};

// A byte range of the data region not covered by any active payload (padding, unindexed data).
// Whether its bytes are all zero is NresArchive::gap_is_zero(i): open never reads the data
// region, so a mapped archive is paged in only where payloads are read.
struct NresGap {
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
};

namespace detail {
// Hash-index slot: the entry (index + 1; 0 = empty) and the upper 32 bits of the hash of its
// folded name. A tag match is confirmed against the name in the directory.
struct NameSlot {
  std::uint32_t index_plus1 = 0;
  std::uint32_t tag = 0;
};
}  // namespace detail

class NresArchive {
 public:
  // Header fields (16 bytes). magic is always "NRes" for an accepted archive.
  std::uint32_t version = kNresVersion;
  std::int32_t entry_count = 0;
  std::uint32_t total_size = 0;
  std::uint32_t directory_offset = 0;  // total_size - entry_count * 64
  std::vector<NresEntry> entries;      // physical (directory) order
  std::vector<NresGap> gaps;           // ascending offset, cover [16, directory_offset) with the payloads
  bool lookup_order_valid = true;      // false only in the compatible profile
  core::Diagnostics warnings;          // compatible-profile findings (sort table problems)

  [[nodiscard]] std::size_t size() const { return entries.size(); }
  // Views into the borrowed input (valid while the archive, or a copy of it, lives).
  [[nodiscard]] core::ByteView payload(std::size_t index) const;
  [[nodiscard]] core::ByteView gap_bytes(std::size_t gap_index) const;
  // True when gaps[gap_index] holds only zero bytes (reads them).
  [[nodiscard]] bool gap_is_zero(std::size_t gap_index) const;
  // The complete source image (what read_nres was given).
  [[nodiscard]] core::ByteView bytes() const { return bytes_.view(); }
  // ASCII case-insensitive lookup; the first entry in physical order among fold-equal names.
  // This is exactly the answer of the sort-table binary search (equal names are contiguous
  // in a valid table, and the earliest wins) and of the linear fallback; find() answers it
  // from a hash index built at open, so a lookup costs O(1) instead of ~log2(n) cache misses.
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;
  // Binary search through the stored sort table (spec §3.3); falls back to find_linear when
  // the table is invalid. Same answer as find(); kept for tests, fuzzing and comparison.
  [[nodiscard]] std::optional<std::size_t> find_sorted(std::string_view name) const;
  // Linear scan in physical order (the compatible-profile fallback of §3.3).
  [[nodiscard]] std::optional<std::size_t> find_linear(std::string_view name) const;

 private:
  friend core::Result<NresArchive> read_nres(core::SharedBytes bytes, const NresReadOptions& options);
  core::SharedBytes bytes_;
  // Open-addressing hash index over folded names (power-of-two size >= 1.5 n, linear
  // probing, 8-byte slots); holds the first physical entry of each fold-equal name.
  std::vector<detail::NameSlot> slots_;
};

// Borrows `bytes` (no copy); the archive shares ownership of the buffer.
core::Result<NresArchive> read_nres(core::SharedBytes bytes, const NresReadOptions& options = {});
// Takes the vector over (no copy).
core::Result<NresArchive> read_nres(core::Bytes&& bytes, const NresReadOptions& options = {});
// Copies the bytes first (after the input-size limit check).
core::Result<NresArchive> read_nres(core::ByteView bytes, const NresReadOptions& options = {});

// The 4-byte signature "NRes" at offset 0 (spec §2.4). The one place that knows the NRes
// magic: the reader, the format table and archive detection all ask here.
bool nres_has_magic(core::ByteView bytes);
// Type ids of the directory rows in physical order, when the header is sound (magic, version,
// entry count within the default limit, total_size equal to the length, directory in bounds);
// nullopt otherwise. Entries are not validated: this is for format detection by content
// (which streams a container holds), not a substitute for read_nres.
std::optional<std::vector<std::uint32_t>> nres_directory_types(core::ByteView bytes);

// Lossless writer: rebuilds the image from the model (header, payloads at their offsets, gaps
// verbatim, directory with raw fields). An unchanged archive gives identical bytes.
core::Bytes write_nres_lossless(const NresArchive& archive);
// Canonical compact repack (§3.4): payloads in physical order from offset 16, each padded to 8
// with zeros, directory in physical order with size/data_offset recomputed and the sort table
// rebuilt (stable sort by folded name); raw 36-byte names kept; gaps dropped.
core::Bytes write_nres_canonical(const NresArchive& archive);

// ASCII fold-to-upper comparison of two names (logical text). <0, 0, >0; a proper prefix first.
int nres_compare_names(std::string_view a, std::string_view b);
// Sort column for the given names (physical order): row p = original index of the p-th
// name in stable fold-sorted order.
std::vector<std::uint32_t> nres_sort_table(std::span<const std::string_view> names);

// Entry description for building archives.
struct NresEntrySpec {
  std::uint32_t type_id = 0;
  std::uint32_t attr1 = 0;
  std::uint32_t attr2 = 0;
  std::uint32_t attr3 = 0;
  // Raw name field content: zero-padded to 36 bytes. Either ≤ 35 bytes, or contains a NUL
  // within the first 36 bytes (bytes after the NUL are kept, e.g. "one\0TAIL!").
  std::string name;
  core::Bytes payload;
};

// Builds a canonical archive. Errors: "nres.name_length", "nres.empty_name", "nres.limit".
core::Result<core::Bytes> build_nres(std::span<const NresEntrySpec> entries);

// Convenience builder for tests and other formats' fixtures:
//   auto bytes = NresBuilder().add(1, "node", payload, /*attr1=*/3).add(...).build();
class NresBuilder {
 public:
  NresBuilder& add(std::uint32_t type_id, std::string name, core::Bytes payload, std::uint32_t attr1 = 0,
                   std::uint32_t attr2 = 0, std::uint32_t attr3 = 0);
  NresBuilder& add(NresEntrySpec spec);
  [[nodiscard]] core::Result<core::Bytes> build() const { return build_nres(specs_); }
  [[nodiscard]] const std::vector<NresEntrySpec>& specs() const { return specs_; }

 private:
  std::vector<NresEntrySpec> specs_;
};

// Four-character type tag as stored little-endian: nres_type_tag("MAT0") == 0x3054414D.
constexpr std::uint32_t nres_type_tag(const char (&tag)[5]) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(tag[0])) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(tag[1])) << 8) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(tag[2])) << 16) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(tag[3])) << 24);
}
// "MAT0" when all four bytes are printable ASCII, else nullopt.
std::optional<std::string> nres_type_tag_text(std::uint32_t type_id);
// A type id as a user writes it: decimal ("7"), hex ("0x15") or, when it is no number, a
// four-character tag ("MAT0"). nullopt for anything else or a number above 0xffffffff.
std::optional<std::uint32_t> parse_nres_type_id(std::string_view text);

// Editable document. Keeps the original layout (payloads and gaps in file order) so that the
// lossless-layout encode copies every gap/padding/unindexed segment verbatim. Every encode
// rebuilds the sort table.
class NresEditor {
 public:
  struct Entry {
    std::uint32_t type_id = 0;
    std::uint32_t attr1 = 0;
    std::uint32_t attr2 = 0;
    std::uint32_t attr3 = 0;
    core::FixedString name;  // 36 raw bytes
    core::Bytes payload;
  };

  NresEditor() = default;
  explicit NresEditor(const NresArchive& archive);

  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] const Entry& entry(std::size_t index) const { return entries_.at(index); }
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;  // linear, first match

  // Appends an entry (at the end of the directory and of the data region). Returns its index.
  core::Result<std::size_t> add(NresEntrySpec spec);
  core::Status replace(std::size_t index, core::Bytes payload);  // new payload, other fields kept
  core::Status set_payload(std::size_t index, core::Bytes payload) { return replace(index, std::move(payload)); }
  core::Status remove(std::size_t index);  // later entries shift down by one
  // New name: 1..35 bytes, no NUL; the 36-byte field is rewritten zero-filled.
  core::Status rename(std::size_t index, std::string_view new_name);
  core::Status set_attributes(std::size_t index, std::uint32_t type_id, std::uint32_t attr1, std::uint32_t attr2,
                              std::uint32_t attr3);

  // Original gaps kept verbatim between the (possibly resized) payloads; new payloads are
  // appended after zero padding to 8. Offsets, sizes and sort table recomputed.
  [[nodiscard]] core::Result<core::Bytes> encode_lossless_layout() const;
  // Gaps dropped, payloads in physical order padded to 8.
  [[nodiscard]] core::Result<core::Bytes> encode_canonical() const;

 private:
  // One piece of the data region in file order: a payload (entry id) or verbatim gap bytes.
  struct Segment {
    bool is_gap = false;
    std::uint32_t entry_id = 0;  // stable id of the entry (index into ids_)
    core::Bytes gap;
  };
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> ids_;  // entry index -> stable id used by segments
  std::vector<Segment> layout_;
  std::uint32_t next_id_ = 0;
};

// Validation of a name for rename/add: "nres.name_length", "nres.name_nul", "nres.empty_name".
core::Status nres_validate_new_name(std::string_view name);

// JSON model used by `sortie inspect` and `sortie archive list --json` (one view with the
// extraction manifest below, which adds the file names):
// {"format":"nres","version","entry_count","total_size","directory_offset","lookup_order_valid",
//  "entries":[{"index","name","name_hex","type_id","attr1","attr2","size","attr3","data_offset",
//              "sort_index","type_tag" (when type_id is 4 printable ASCII bytes, e.g. "MAT0")}],
//  "gaps":[{"offset","size","all_zero"}], "warnings":[diagnostics] (when there are any)}
// "name" is the field's text up to the first NUL as UTF-8; "name_hex" is the whole raw 36-byte
// field (bytes after the NUL included), the same key as in the manifest.
core::Json nres_to_json(const NresArchive& archive);

// Extraction manifest (`_manifest.json` of `sortie archive extract`): the JSON model above
// without "warnings", plus per entry "file" (payload file, relative to the manifest). Gaps are listed with
// "offset", "size", "all_zero" and, when not all zero, "file" (gap bytes). `files` and
// `gap_files` give the file names (entry order / gap order; gap_files[i] ignored when all zero).
core::Json nres_manifest(const NresArchive& archive, std::span<const std::string> files,
                         std::span<const std::string> gap_files);

// Loads a file named in a manifest (relative path as written there).
using NresFileLoader = std::function<core::Result<core::Bytes>(const std::string& file)>;
struct NresPackOptions {
  bool canonical = false;  // force the compact canonical layout
};
struct NresPackResult {
  core::Bytes bytes;
  bool original_layout = false;  // true: manifest offsets/gaps/sort column reproduced
  std::size_t resized = 0;       // payloads whose size differs from the manifest
};
// Rebuilds an archive from a manifest. With layout fields present (total_size,
// directory_offset, entries[].data_offset/size/sort_index) and unchanged payload sizes, the
// result is the original image byte for byte; resized payloads are placed with the editor's
// lossless-layout encode (gaps kept, sort table rebuilt); without layout fields, or with
// options.canonical, the canonical writer is used. A changed "name" (differs from the text
// of "name_hex") renames the entry. Errors: "manifest.*", "nres.*", loader errors.
core::Result<NresPackResult> nres_pack_manifest(const core::Json& manifest, const NresFileLoader& load,
                                                const NresPackOptions& options = {});

FormatInfo nres_format_info();

}  // namespace sortie::iron3d
