// Fuzzes the Land.map reader (whole file, both profiles) and the payload decoder directly
// (first 4 bytes = areal count); every accepted payload must re-encode to the same bytes.
#include "sortie/iron3d/land_map.hpp"

#include <cstddef>
#include <cstdint>

#include "sortie/iron3d/nres.hpp"

namespace {

using namespace sortie;

void check_payload(core::ByteView payload, std::uint32_t areal_count, core::Profile profile) {
  iron3d::ReadOptions o{profile, "Land.map"};
  core::Diagnostics findings;
  auto m = iron3d::decode_land_map_payload(payload, areal_count, o, &findings);
  if (!m) return;
  auto out = iron3d::encode_land_map_payload(*m);
  if (!out || out->size() != payload.size() || !std::equal(out->begin(), out->end(), payload.begin())) __builtin_trap();
  if (!iron3d::validate_land_map(*m, o)) __builtin_trap();
  (void)iron3d::land_map_to_json(*m);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const core::ByteView view(data, size);
  for (auto profile : {core::Profile::strict, core::Profile::compatible}) {
    auto m = iron3d::read_land_map(view, {profile, "Land.map"});
    if (m) {
      auto bytes = iron3d::write_land_map(*m);
      if (!bytes) __builtin_trap();
      auto again = iron3d::read_land_map(*bytes, {profile, "Land.map"});
      if (!again) __builtin_trap();
      auto bytes2 = iron3d::write_land_map(*again);  // bytes: float fields may hold NaN
      if (!bytes2 || *bytes2 != *bytes) __builtin_trap();
    }
  }
  if (size >= 4) check_payload(view.subspan(4), core::load_u32(data), core::Profile::strict);
  return 0;
}
