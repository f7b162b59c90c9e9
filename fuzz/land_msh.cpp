// Fuzzes the Land.msh reader (both profiles) and checks the stream codec is lossless:
// every accepted input re-encodes to the same entry payloads and attributes.
#include "sortie/iron3d/land_msh.hpp"

#include <cstddef>
#include <cstdint>

#include "sortie/iron3d/nres.hpp"

namespace {

void run(sortie::core::ByteView data, sortie::core::Profile profile) {
  using namespace sortie::iron3d;
  NresReadOptions no;
  no.profile = profile;
  auto archive = read_nres(data, no);
  if (!archive) return;
  std::vector<LandStream> streams;
  for (std::size_t i = 0; i < archive->size(); ++i) {
    const auto& e = archive->entries[i];
    streams.push_back({e.type_id, e.attr1, e.attr2, e.attr3, e.name, archive->payload(i), e.data_offset});
  }
  ReadOptions o{profile, "Land.msh"};
  sortie::core::Diagnostics findings;
  auto m = decode_land_msh_streams(streams, o, &findings);
  if (!m) return;
  auto out = encode_land_msh_streams(*m);
  if (!out || out->size() != streams.size()) __builtin_trap();
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const auto& s = streams[i];
    const auto& h = (*out)[i].header;
    const auto& p = (*out)[i].payload;
    if (h.type_id != s.type_id || h.attr1 != s.attr1 || h.attr2 != s.attr2 || h.attr3 != s.attr3 || h.name != s.name)
      __builtin_trap();
    if (p.size() != s.payload.size() || !std::equal(p.begin(), p.end(), s.payload.begin())) __builtin_trap();
  }
  auto bytes = write_land_msh(*m);
  if (!bytes) __builtin_trap();
  auto again = read_land_msh(*bytes, {sortie::core::Profile::compatible, "Land.msh"});
  // Compared as bytes: float fields may hold NaN, which never compares equal.
  if (!again) __builtin_trap();
  auto bytes2 = write_land_msh(*again);
  if (!bytes2 || *bytes2 != *bytes) __builtin_trap();
  (void)land_msh_to_json(*m);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const sortie::core::ByteView view(data, size);
  run(view, sortie::core::Profile::strict);
  run(view, sortie::core::Profile::compatible);
  return 0;
}
