#include "sortie/fomap/map_blob.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sortie/fomap/hash.hpp"

namespace sortie::fomap {
namespace {

constexpr std::uint32_t kMaxDictionaryString = 1u << 20;
constexpr std::uint64_t kMaxCount = 16u * 1024 * 1024;

void write_dictionary(core::ByteWriter& w, const std::vector<std::string>& dict) {
  w.u32(static_cast<std::uint32_t>(dict.size()));
  for (const auto& s : dict) w.lp_string(s);
}

void write_records(core::ByteWriter& w, const std::vector<MapRecord>& records) {
  w.u32(static_cast<std::uint32_t>(records.size()));
  for (const auto& r : records) {
    w.u64(static_cast<std::uint64_t>(r.id));
    w.u64(r.proto_hash);
    w.u32(static_cast<std::uint32_t>(r.props.size()));
    w.bytes(r.props);
  }
}

std::size_t dictionary_size(const std::vector<std::string>& dict) {
  std::size_t n = 4;
  for (const auto& s : dict) n += 4 + s.size();
  return n;
}

std::size_t records_size(const std::vector<MapRecord>& records) {
  std::size_t n = 4;
  for (const auto& r : records) n += 20 + r.props.size();
  return n;
}

core::Result<std::vector<std::string>> read_dictionary(core::ByteReader& r) {
  r.set_field("dictionary");
  SORTIE_TRY(const std::uint32_t count, r.u32());
  SORTIE_CHECK(r.check_count(count, 4, "dictionary", kMaxCount));
  std::vector<std::string> dict;
  dict.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    r.set_field(fmt::format("dictionary[{}]", i));
    SORTIE_TRY(auto s, r.lp_string(kMaxDictionaryString));
    dict.push_back(std::move(s));
  }
  return dict;
}

core::Result<std::vector<MapRecord>> read_records(core::ByteReader& r, std::string_view what) {
  r.set_field(std::string(what));
  SORTIE_TRY(const std::uint32_t count, r.u32());
  SORTIE_CHECK(r.check_count(count, 20, what, kMaxCount));
  std::vector<MapRecord> records;
  records.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    r.set_field(fmt::format("{}[{}]", what, i));
    MapRecord rec;
    SORTIE_TRY(const std::uint64_t id, r.u64());
    SORTIE_TRY(rec.proto_hash, r.u64());
    SORTIE_TRY(const std::uint32_t n, r.u32());
    SORTIE_TRY(auto props, r.bytes(n));
    rec.id = static_cast<std::int64_t>(id);
    rec.props.assign(props.begin(), props.end());
    records.push_back(std::move(rec));
  }
  return records;
}

}  // namespace

std::vector<std::string> sort_dictionary(std::vector<std::string> strings) {
  std::erase_if(strings, [](const std::string& s) { return s.empty(); });
  std::vector<std::pair<std::uint64_t, std::string>> keyed;
  keyed.reserve(strings.size());
  for (auto& s : strings) keyed.emplace_back(string_hash(s), std::move(s));
  std::sort(keyed.begin(), keyed.end());
  keyed.erase(std::unique(keyed.begin(), keyed.end()), keyed.end());
  std::vector<std::string> out;
  out.reserve(keyed.size());
  for (auto& [h, s] : keyed) out.push_back(std::move(s));
  return out;
}

core::Bytes write_server_blob(const ServerMapBlob& blob) {
  core::ByteWriter w(dictionary_size(blob.dictionary) + records_size(blob.critters) + records_size(blob.items));
  write_dictionary(w, blob.dictionary);
  write_records(w, blob.critters);
  write_records(w, blob.items);
  return w.take();
}

core::Bytes write_client_blob(const ClientMapBlob& blob) {
  core::ByteWriter w(dictionary_size(blob.dictionary) + records_size(blob.items));
  write_dictionary(w, blob.dictionary);
  write_records(w, blob.items);
  return w.take();
}

core::Result<ServerMapBlob> read_server_blob(core::ByteView data, std::string_view file) {
  core::ByteReader r(data, std::string(file));
  r.set_code_prefix("fomap.bin");
  ServerMapBlob b;
  SORTIE_TRY(b.dictionary, read_dictionary(r));
  SORTIE_TRY(b.critters, read_records(r, "critters"));
  SORTIE_TRY(b.items, read_records(r, "items"));
  SORTIE_CHECK(r.require_end("server map blob"));
  return b;
}

core::Result<ClientMapBlob> read_client_blob(core::ByteView data, std::string_view file) {
  core::ByteReader r(data, std::string(file));
  r.set_code_prefix("fomap.bin");
  ClientMapBlob b;
  SORTIE_TRY(b.dictionary, read_dictionary(r));
  SORTIE_TRY(b.items, read_records(r, "items"));
  SORTIE_CHECK(r.require_end("client map blob"));
  return b;
}

std::string server_blob_name(std::string_view map_id) { return fmt::format("{}.fomap-bin-server", map_id); }
std::string client_blob_name(std::string_view map_id) { return fmt::format("{}.fomap-bin-client", map_id); }

}  // namespace sortie::fomap
