// Fuzzes the MAT0 reader over every prefix version (first byte picks attr2).
#include "sortie/iron3d/mat0.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  if (size == 0) return 0;
  const std::uint32_t version = data[0] % 8;
  const core::ByteView in(data + 1, size - 1);
  iron3d::ReadOptions o;
  o.profile = core::Profile::compatible;
  auto m = iron3d::read_mat0(in, version, o);
  if (!m) return 0;
  if (iron3d::write_mat0(*m) != core::Bytes(in.begin(), in.end())) __builtin_trap();
  (void)iron3d::mat0_texture_names(*m);
  return 0;
}
