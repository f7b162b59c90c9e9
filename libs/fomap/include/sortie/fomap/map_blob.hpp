#pragma once
// Baked map resources (spec/fomap.md §10.1, §10.2): `<MapId>.fomap-bin-server` and
// `<MapId>.fomap-bin-client`. Framing only: the record property blobs are opaque bytes here
// (see property_blob.hpp). All integers little-endian, no padding.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"

namespace sortie::fomap {

// Record = { i64 id (after repair); u64 proto_hash; u32 n; u8 props[n] }.
struct MapRecord {
  std::int64_t id = 0;
  std::uint64_t proto_hash = 0;
  core::Bytes props;
  friend bool operator==(const MapRecord&, const MapRecord&) = default;
};

// u32 H; H x {u32 len; bytes}; u32 C; C x Record; u32 I; I x Record.
struct ServerMapBlob {
  std::vector<std::string> dictionary;  // written in this order (use sort_dictionary)
  std::vector<MapRecord> critters;
  std::vector<MapRecord> items;
  friend bool operator==(const ServerMapBlob&, const ServerMapBlob&) = default;
};

// u32 H; H x {u32 len; bytes}; u32 N; N x Record.
struct ClientMapBlob {
  std::vector<std::string> dictionary;
  std::vector<MapRecord> items;
  friend bool operator==(const ClientMapBlob&, const ClientMapBlob&) = default;
};

// The baker's dictionary order: non-empty strings, de-duplicated, ascending by string_hash
// (ties, i.e. colliding hashes, by bytes so the order is total).
std::vector<std::string> sort_dictionary(std::vector<std::string> strings);

core::Bytes write_server_blob(const ServerMapBlob& blob);
core::Bytes write_client_blob(const ClientMapBlob& blob);

// Record sections of a map blob (`u32 count; count x Record`), encoded in place one after
// another into one buffer (no buffer per record). A blob is its dictionary followed by its
// sections: server = critters, items; client = items (write_map_blob).
class RecordSections {
 public:
  void clear();
  // Starts a section (its count grows with every end_record).
  void begin_section();
  // Starts a record of the current section: append its property blob to the returned buffer,
  // then call end_record.
  core::Bytes& begin_record(std::int64_t id, std::uint64_t proto_hash);
  void end_record();
  [[nodiscard]] core::ByteView bytes() const { return bytes_; }
  // Records in section `index` (0-based, in begin_section order).
  [[nodiscard]] std::size_t count(std::size_t index) const { return counts_.at(index); }

 private:
  core::Bytes bytes_;
  std::vector<std::size_t> counts_;
  std::size_t section_ = 0;  // offset of the current section's count
  std::size_t record_ = 0;   // offset of the current record's size field
};

// `u32 H; H x {u32 len; bytes}` then the encoded sections, in one buffer of the exact size.
core::Bytes write_map_blob(const std::vector<std::string>& dictionary, core::ByteView sections);

// Readers accept any dictionary order (as the engine does) and end exactly at the end of the
// data (trailing bytes are fatal, like the engine's VerifyEnd). Codes `fomap.bin.*`.
core::Result<ServerMapBlob> read_server_blob(core::ByteView data, std::string_view file = {});
core::Result<ClientMapBlob> read_client_blob(core::ByteView data, std::string_view file = {});

// Output names: `<MapId>.fomap-bin-server` / `<MapId>.fomap-bin-client`.
std::string server_blob_name(std::string_view map_id);
std::string client_blob_name(std::string_view map_id);

}  // namespace sortie::fomap
