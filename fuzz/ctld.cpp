// Fuzzes the CTLD reader and the pose evaluation; accepted files write back exactly.
#include "sortie/iron3d/ctld.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  auto c = iron3d::read_ctld(in);
  if (!c) return 0;
  if (iron3d::write_ctld(*c) != core::Bytes(in.begin(), in.end())) __builtin_trap();
  (void)iron3d::evaluate_ctld_pose(*c);
  return 0;
}
