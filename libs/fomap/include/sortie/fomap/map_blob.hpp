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

// Readers accept any dictionary order (as the engine does) and end exactly at the end of the
// data (trailing bytes are fatal, like the engine's VerifyEnd). Codes `fomap.bin.*`.
core::Result<ServerMapBlob> read_server_blob(core::ByteView data, std::string_view file = {});
core::Result<ClientMapBlob> read_client_blob(core::ByteView data, std::string_view file = {});

// Output names: `<MapId>.fomap-bin-server` / `<MapId>.fomap-bin-client`.
std::string server_blob_name(std::string_view map_id);
std::string client_blob_name(std::string_view map_id);

}  // namespace sortie::fomap
