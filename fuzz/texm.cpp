// Fuzzes the Texm reader and the RGBA8 decoder; accepted payloads write back exactly.
#include "sortie/iron3d/texm.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  auto t = iron3d::read_texm(in);
  if (!t) return 0;
  if (iron3d::write_texm(*t) != core::Bytes(in.begin(), in.end())) __builtin_trap();
  for (std::uint32_t l = 0; l < t->mips.size() && l < 4; ++l)
    if (!iron3d::decode_texm_rgba8(*t, l)) __builtin_trap();
  (void)iron3d::texm_mip_skip(*t);
  return 0;
}
