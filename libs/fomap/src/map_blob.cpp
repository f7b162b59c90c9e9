#include "sortie/fomap/map_blob.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "sortie/fomap/hash.hpp"
#include "sortie/fomap/limits.hpp"

namespace sortie::fomap {
namespace {

void add_section(RecordSections& out, const std::vector<MapRecord>& records) {
  out.begin_section();
  for (const auto& r : records) {
    core::Bytes& bytes = out.begin_record(r.id, r.proto_hash);
    bytes.insert(bytes.end(), r.props.begin(), r.props.end());
    out.end_record();
  }
}

core::Result<std::vector<std::string>> read_dictionary(core::ByteReader& r) {
  r.set_field("dictionary");
  SORTIE_TRY(const std::uint32_t count, r.u32());
  SORTIE_CHECK(r.check_count(count, 4, "dictionary", kMaxBlobCount));
  std::vector<std::string> dict;
  dict.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    r.set_field(fmt::format("dictionary[{}]", i));
    SORTIE_TRY(auto s, r.lp_string(kMaxBlobDictionaryString));
    dict.push_back(std::move(s));
  }
  return dict;
}

core::Result<std::vector<MapRecord>> read_records(core::ByteReader& r, std::string_view what) {
  r.set_field(std::string(what));
  SORTIE_TRY(const std::uint32_t count, r.u32());
  SORTIE_CHECK(r.check_count(count, 20, what, kMaxBlobCount));
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

void RecordSections::clear() {
  bytes_.clear();
  counts_.clear();
}

void RecordSections::begin_section() {
  section_ = bytes_.size();
  bytes_.resize(section_ + 4);
  core::store_u32(bytes_.data() + section_, 0);
  counts_.push_back(0);
}

core::Bytes& RecordSections::begin_record(std::int64_t id, std::uint64_t proto_hash) {
  const std::size_t at = bytes_.size();
  bytes_.resize(at + 20);
  std::uint8_t* p = bytes_.data() + at;
  const auto uid = static_cast<std::uint64_t>(id);
  core::store_u32(p, static_cast<std::uint32_t>(uid));
  core::store_u32(p + 4, static_cast<std::uint32_t>(uid >> 32));
  core::store_u32(p + 8, static_cast<std::uint32_t>(proto_hash));
  core::store_u32(p + 12, static_cast<std::uint32_t>(proto_hash >> 32));
  record_ = at + 16;
  return bytes_;
}

void RecordSections::end_record() {
  core::store_u32(bytes_.data() + record_, static_cast<std::uint32_t>(bytes_.size() - record_ - 4));
  core::store_u32(bytes_.data() + section_, static_cast<std::uint32_t>(++counts_.back()));
}

core::Bytes write_map_blob(const std::vector<std::string>& dictionary, core::ByteView sections) {
  std::size_t size = 4 + sections.size();
  for (const auto& s : dictionary) size += 4 + s.size();
  core::ByteWriter w(size);
  w.u32(static_cast<std::uint32_t>(dictionary.size()));
  for (const auto& s : dictionary) w.lp_string(s);
  w.bytes(sections);
  return w.take();
}

core::Bytes write_server_blob(const ServerMapBlob& blob) {
  RecordSections sections;
  add_section(sections, blob.critters);
  add_section(sections, blob.items);
  return write_map_blob(blob.dictionary, sections.bytes());
}

core::Bytes write_client_blob(const ClientMapBlob& blob) {
  RecordSections sections;
  add_section(sections, blob.items);
  return write_map_blob(blob.dictionary, sections.bytes());
}

namespace {

// A blob: the dictionary, then one record section per entry of `sections` (in order), then
// nothing; `what` names the blob in the diagnostic for trailing bytes.
template <class Blob, std::size_t N>
core::Result<Blob> read_blob(
    core::ByteView data, std::string_view file, std::string_view what,
    const std::array<std::pair<std::vector<MapRecord> Blob::*, std::string_view>, N>& sections) {
  core::ByteReader r(data, std::string(file));
  r.set_code_prefix("fomap.bin");
  Blob b;
  SORTIE_TRY(b.dictionary, read_dictionary(r));
  for (const auto& [member, name] : sections) {
    SORTIE_TRY(b.*member, read_records(r, name));
  }
  SORTIE_CHECK(r.require_end(what));
  return b;
}

}  // namespace

core::Result<ServerMapBlob> read_server_blob(core::ByteView data, std::string_view file) {
  return read_blob<ServerMapBlob, 2>(data, file, "server map blob",
                                     {{{&ServerMapBlob::critters, "critters"}, {&ServerMapBlob::items, "items"}}});
}

core::Result<ClientMapBlob> read_client_blob(core::ByteView data, std::string_view file) {
  return read_blob<ClientMapBlob, 1>(data, file, "client map blob", {{{&ClientMapBlob::items, "items"}}});
}

std::string server_blob_name(std::string_view map_id) {
  return fmt::format("{}.fomap-bin-server", map_id);
}
std::string client_blob_name(std::string_view map_id) {
  return fmt::format("{}.fomap-bin-client", map_id);
}

}  // namespace sortie::fomap
