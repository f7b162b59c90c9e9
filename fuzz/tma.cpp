// Fuzzes the data.tma reader in both profiles: an accepted input must be reproduced exactly
// by the writer, and the JSON model must build.
#include "sortie/iron3d/tma.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  for (auto profile : {core::Profile::strict, core::Profile::compatible}) {
    core::Diagnostics warnings;
    auto t = iron3d::read_tma(in, {profile, "fuzz.tma"}, &warnings);
    if (!t) continue;
    auto out = iron3d::write_tma(*t);
    if (!out || *out != core::Bytes(in.begin(), in.end())) __builtin_trap();
    if (out->size() != iron3d::tma_encoded_size(*t)) __builtin_trap();
    (void)iron3d::tma_to_json(*t).dump(-1, ' ', false, core::Json::error_handler_t::replace);
    auto land = iron3d::read_tma_land_path(in, {profile, "fuzz.tma"});
    if (!land || *land != t->land_path) __builtin_trap();
  }
  return 0;
}
