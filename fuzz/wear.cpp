// Fuzzes the WEAR text reader; accepted text must write back exactly.
#include "sortie/iron3d/wear.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  auto w = iron3d::read_wear(in);
  if (!w) return 0;
  if (iron3d::write_wear(*w) != core::Bytes(in.begin(), in.end())) __builtin_trap();
  (void)iron3d::wear_json(*w);
  return 0;
}
