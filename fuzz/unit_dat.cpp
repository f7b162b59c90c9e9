// Fuzzes the unit DAT reader; an accepted file must write back byte-exact.
#include "sortie/iron3d/unit_dat.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  sortie::iron3d::ReadOptions o;
  o.profile = core::Profile::compatible;
  core::Diagnostics w;
  auto dat = iron3d::read_unit_dat(in, o, &w);
  if (dat) {
    if (iron3d::write_unit_dat(*dat) != core::Bytes(in.begin(), in.end())) __builtin_trap();
    (void)iron3d::unit_dat_components(*dat);
  }
  return 0;
}
