// Fuzzes the FXID reader; accepted payloads write back exactly.
#include "sortie/iron3d/fxid.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  auto fx = iron3d::read_fxid(in);
  if (!fx) return 0;
  if (iron3d::write_fxid(*fx) != core::Bytes(in.begin(), in.end())) __builtin_trap();
  (void)iron3d::fxid_references(*fx);
  return 0;
}
