// Fuzzes the Behavior.ini reader: an accepted input is written back exactly, every entry names
// an existing line, and a known numeric key's value is finite.
#include "sortie/iron3d/behavior_ini.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  for (auto profile : {core::Profile::strict, core::Profile::compatible}) {
    iron3d::ReadOptions o;
    o.profile = profile;
    core::Diagnostics warnings;
    auto ini = iron3d::read_behavior_ini(in, o, &warnings);
    if (!ini) continue;
    if (iron3d::write_behavior_ini(*ini) != core::Bytes(in.begin(), in.end())) __builtin_trap();
    if (ini->kinds.size() != ini->lines.size()) __builtin_trap();
    for (const auto& e : ini->entries) {
      if (e.line >= ini->lines.size()) __builtin_trap();
      if (e.number && !std::isfinite(*e.number)) __builtin_trap();
    }
    (void)iron3d::behavior_ini_json(*ini).dump();
  }
  return 0;
}
