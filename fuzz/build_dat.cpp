// Fuzzes the BuildDat.lst reader: an accepted input is written back exactly, and its
// categories always carry the table mask of their name.
#include "sortie/iron3d/build_dat.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  for (auto profile : {core::Profile::strict, core::Profile::compatible}) {
    auto doc = iron3d::read_build_dat(in, {profile, "BuildDat.lst"});
    if (!doc) continue;
    if (iron3d::write_build_dat(*doc) != core::Bytes(in.begin(), in.end())) __builtin_trap();
    for (const auto& c : doc->categories) {
      auto mask = iron3d::build_category_mask(c.name);
      if (!mask || *mask != c.mask || c.mask == 0) __builtin_trap();
    }
    (void)iron3d::check_build_dat(*doc);
  }
  return 0;
}
