#pragma once
// RsLi library archives (`gamefont.rlb`, `sprites.lib`; spec iron3d-formats.md §4).
//
//   [0 .. 32)            header, every byte kept
//   [32 .. 32 + 32 N)    entry table, one continuous XOR stream keyed by header+20
//   [...]                payloads, packed per entry (stored, XOR, LZSS, LZHUF, Deflate)
//   [last 6 bytes]       optional "AO" trailer: u32 overlay added to every data offset
//
// read_rsli validates the container (never the payloads); decode_rsli_entry unpacks one
// entry. write_rsli re-serialises every parsed field and reproduces the input byte for byte.
// RsliEditor adds, replaces, removes and renames entries and writes a rebuilt archive.
//
// Diagnostic codes: rsli.limit, rsli.magic, rsli.reserved, rsli.version, rsli.entry_count,
// rsli.table_bounds, rsli.overlay_bounds, rsli.ao_trailer, rsli.packed_past_eof,
// rsli.deflate_eof_quirk, rsli.corrupt_table, rsli.size_mismatch, rsli.method_unsupported,
// rsli.index, plus the codec codes of rsli_codec.hpp and rsli.edit.* from the editor.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/limits.hpp"

namespace sortie::iron3d {

inline constexpr std::size_t kRsliHeaderSize = 32;
inline constexpr std::size_t kRsliRowSize = 32;
inline constexpr std::size_t kRsliNameSize = 12;
inline constexpr std::size_t kRsliTrailerSize = 6;
inline constexpr std::uint16_t kRsliPresorted = 0xABBA;
inline constexpr std::uint16_t kRsliMethodMask = 0x1E0;

// Storage method = flags & 0x1E0.
enum class RsliMethod : std::uint16_t {
  stored = 0x000,
  xor_only = 0x020,
  lzss = 0x040,
  xor_lzss = 0x060,
  lzhuf = 0x080,
  xor_lzhuf = 0x0A0,
  deflate = 0x100,
};

// "stored", "xor", "lzss", "xor_lzss", "lzhuf", "xor_lzhuf", "deflate", or "unknown".
std::string_view rsli_method_name(std::uint16_t method_bits);
// Accepts those names with '_' or '-' (case-insensitive); nullopt for anything else.
std::optional<RsliMethod> parse_rsli_method(std::string_view name);
bool rsli_method_known(std::uint16_t method_bits);
bool rsli_method_uses_xor(RsliMethod method);

struct RsliLimits {
  std::uint64_t max_file = kRsliMaxFile;  // defaults: limits.hpp
  std::uint64_t max_entries = kRsliMaxEntries;
  std::uint32_t max_packed = kRsliMaxPacked;
  std::uint32_t max_unpacked = kRsliMaxUnpacked;
};

// Profile switches of §4.5. from_profile(strict) turns all three off, compatible all on.
struct RsliReadOptions {
  core::Profile profile = core::Profile::strict;
  std::string file_name;
  bool allow_ao_trailer = false;
  bool allow_deflate_eof_plus_one = false;
  bool allow_invalid_presorted_fallback = false;
  RsliLimits limits;
  static RsliReadOptions from_profile(core::Profile profile, std::string file_name = {});
};

struct RsliHeader {
  std::array<std::uint8_t, kRsliHeaderSize> raw{};  // verbatim
  [[nodiscard]] std::int16_t entry_count() const { return core::load_i16(raw.data() + 4); }
  [[nodiscard]] std::uint16_t presorted_flag() const { return core::load_u16(raw.data() + 14); }
  [[nodiscard]] bool presorted() const { return presorted_flag() == kRsliPresorted; }
  [[nodiscard]] std::uint32_t xor_seed() const { return core::load_u32(raw.data() + 20); }
  [[nodiscard]] std::uint16_t table_key() const { return static_cast<std::uint16_t>(xor_seed() & 0xFFFFu); }
};

struct RsliEntry {
  // Decrypted row fields, exactly as stored.
  core::FixedString name;                 // 12 bytes; may be full without a NUL
  std::array<std::uint8_t, 4> service{};  // ignored by the engine, kept
  std::int16_t flags = 0;
  std::int16_t stored_cell = 0;  // the row's sort cell as written in the file
  std::uint32_t unpacked_size = 0;
  std::uint32_t data_offset_raw = 0;
  std::uint32_t packed_size = 0;
  // Derived by the reader.
  std::int16_t sort_to_original = 0;   // effective cell (rebuilt unless the presorted table is used)
  std::uint64_t effective_offset = 0;  // data_offset_raw + overlay
  std::uint32_t read_size = 0;         // bytes available: packed_size, or packed_size - 1 under the EOF quirk
  bool eof_quirk = false;

  [[nodiscard]] std::uint16_t method_bits() const {
    return static_cast<std::uint16_t>(static_cast<std::uint16_t>(flags) & kRsliMethodMask);
  }
  [[nodiscard]] std::uint16_t xor_key() const { return static_cast<std::uint16_t>(sort_to_original); }
};

struct RsliArchive {
  std::string file_name;
  RsliHeader header;
  std::vector<RsliEntry> entries;           // physical (row) order
  std::optional<std::uint32_t> ao_overlay;  // present when the file ends with an AO trailer
  bool table_rebuilt = false;               // presorted flag absent, or compatible fallback
  core::Bytes image;                        // the whole input; the writer copies it past the table
  core::Diagnostics warnings;               // compatible-profile findings

  [[nodiscard]] std::size_t table_end() const { return kRsliHeaderSize + entries.size() * kRsliRowSize; }
  // The entry's packed bytes as stored (still XOR-encrypted for XOR methods).
  [[nodiscard]] core::ByteView packed_bytes(std::size_t index) const;
};

core::Result<RsliArchive> read_rsli(core::ByteView data, const RsliReadOptions& options);
// Lossless writer: header, re-encrypted rows from the parsed fields, body. == the input.
core::Bytes write_rsli(const RsliArchive& archive);

// rsFind: query cut at its first NUL and ASCII-uppercased, binary search through the sort
// cells by byte comparison, then a linear exact match in physical order.
std::optional<std::size_t> find_rsli_entry(const RsliArchive& archive, std::string_view name);

// Unpacks entry `index` to exactly unpacked_size bytes. `max_unpacked` bounds the output
// (rsli.limit) so callers such as fuzzers can cap memory.
core::Result<core::Bytes> decode_rsli_entry(const RsliArchive& archive, std::size_t index,
                                            std::uint64_t max_unpacked = 128ull * 1024 * 1024);

// Packs `data` with a known method (every one of the seven can be packed); XOR methods are
// returned *before* the XOR layer, which the writer applies with the final sort cell.
// rsli.method_unsupported for a value outside the enum.
core::Result<core::Bytes> pack_rsli_payload(core::ByteView data, RsliMethod method);

// Archive editor. Entry names are stored ASCII-uppercased (lookups uppercase the query, so a
// lowercase name could never be found) and must be 1..12 bytes without NUL; names must be
// unique. write() returns the original bytes when nothing was changed; otherwise it keeps
// the 32 header bytes (count replaced), every row's name field and 4 service bytes and
// the flag bits outside 0x1E0, packs payloads contiguously after the table in physical
// order, writes sorted[p] into row p (the original index of the p-th name in byte order),
// re-encrypts XOR-method payloads with their row's final cell, encrypts the table with the
// header seed and re-appends the AO trailer. Gaps and unindexed bytes of the old body are
// dropped, and an EOF-quirk entry is written with its real packed size. Without an AO
// trailer, a rebuilt file whose last 6 bytes start with "AO" would read back as having one:
// write() refuses it (rsli.edit.trailer_ambiguity).
class RsliEditor {
 public:
  struct Item {
    core::FixedString name;
    std::array<std::uint8_t, 4> service{};
    std::int16_t flags = 0;
    std::uint32_t unpacked_size = 0;
    core::Bytes packed;  // without the XOR layer for XOR methods; verbatim for unknown methods
  };

  static core::Result<RsliEditor> open(const RsliArchive& archive);
  // A new empty archive (magic, version 1, presorted flag 0xABBA, given seed).
  static RsliEditor create(std::uint16_t xor_seed = 0);
  // A new empty archive keeping a given header (count replaced on write) and AO trailer.
  static RsliEditor create(const RsliHeader& header, std::optional<std::array<std::uint8_t, kRsliTrailerSize>> trailer);

  [[nodiscard]] const std::vector<Item>& items() const { return items_; }
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;
  core::Status add(std::string_view name, core::ByteView data, RsliMethod method);
  core::Status replace(std::size_t index, core::ByteView data, RsliMethod method);
  core::Status remove(std::size_t index);
  core::Status rename(std::size_t index, std::string_view name);
  // Appends a prepared item as is (name field raw; must be unique and not empty).
  core::Status add_item(Item item);
  [[nodiscard]] bool modified() const { return modified_; }
  // Makes write() rebuild the archive even without an edit.
  void force_rebuild() { modified_ = true; }
  [[nodiscard]] core::Result<core::Bytes> write() const;

 private:
  core::Result<core::FixedString> check_name(std::string_view name, std::optional<std::size_t> except) const;
  core::Status check_index(std::size_t index) const;
  RsliHeader header_;
  std::optional<std::array<std::uint8_t, kRsliTrailerSize>> trailer_;
  std::vector<Item> items_;
  core::Bytes original_;
  bool modified_ = false;
};

// Inspect JSON model: {"format":"rsli","header":{...},"ao_overlay":..,"entries":[...]}.
core::Json rsli_json(const RsliArchive& archive);

// Extraction manifest (`_manifest.json` of `sortie archive extract` on an RsLi library):
// {"format":"rsli","header_hex","table_hex" (encrypted, as in the file),"trailer_hex"|null,
//  "file_size","body":{"offset","file"}|null,"entries":[{"index","name","name_hex","file",
//  "method","flags","service_hex","stored_cell","sort_to_original","unpacked_size",
//  "data_offset_raw","packed_size","content_hash"}]}. `files` are the decoded payload files
// (entry order); `body_file` holds every byte after the table (without the trailer).
core::Json rsli_manifest(const RsliArchive& archive, std::span<const std::string> files,
                         std::span<const core::Bytes> decoded, const std::string& body_file);
core::Json rsli_manifest(const RsliArchive& archive, std::span<const std::string> files,
                         std::span<const core::ByteView> decoded, const std::string& body_file);
// The bytes `body_file` of rsli_manifest must hold.
core::ByteView rsli_body_bytes(const RsliArchive& archive);

using RsliFileLoader = std::function<core::Result<core::Bytes>(const std::string& file)>;
struct RsliPackResult {
  core::Bytes bytes;
  bool original = false;     // nothing changed: the original image, byte for byte
  std::size_t repacked = 0;  // entries packed anew from their files
};
// Rebuilds a library from a manifest. Unchanged (same entries in the same order, same
// names, methods and file contents) gives the original bytes. Otherwise the editor writes a
// rebuilt library: entries keep their original packed stream when content and method are
// unchanged, others are packed from their file with "method" (stored, xor, lzss, xor_lzss,
// lzhuf, xor_lzhuf, deflate); a changed "name" renames; entries without "index" are new.
// Without "header_hex" a fresh header is used. Errors: manifest.*, rsli.*, loader errors.
core::Result<RsliPackResult> rsli_pack_manifest(const core::Json& manifest, const RsliFileLoader& load);

// The 4-byte signature "NL" 00 01 at offset 0 (spec §2.4): the one place that knows it for
// detection (format table, archive facade). read_rsli reports each of the four bytes itself.
bool rsli_has_magic(core::ByteView bytes);

FormatInfo rsli_format_info();

}  // namespace sortie::iron3d
