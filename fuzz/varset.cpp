// Fuzzes the varset.var reader; accepted text writes back exactly.
#include "sortie/iron3d/varset.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  auto v = iron3d::read_varset(in);
  if (!v) return 0;
  if (iron3d::write_varset(*v) != core::Bytes(in.begin(), in.end())) __builtin_trap();
  (void)iron3d::varset_json(*v);
  return 0;
}
