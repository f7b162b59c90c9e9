// Fuzzes the TRF table reader (both profiles); accepted tables write back exactly and list one
// name per entry.
#include "sortie/iron3d/trf.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  for (const auto profile : {core::Profile::strict, core::Profile::compatible}) {
    core::Diagnostics warnings;
    auto t = iron3d::read_trf(in, iron3d::ReadOptions{profile, "f.trf"}, &warnings);
    if (!t) continue;
    if (iron3d::write_trf(*t) != core::Bytes(in.begin(), in.end())) __builtin_trap();
    if (t->names().size() != t->archive.entries.size()) __builtin_trap();
    (void)iron3d::trf_json(*t);
  }
  return 0;
}
