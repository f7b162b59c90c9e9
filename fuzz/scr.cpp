// Fuzzes the .scr package reader (compatible profile, so version mismatches keep going);
// accepted packages write back exactly.
#include "sortie/iron3d/scr.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  iron3d::ReadOptions options;
  options.profile = core::Profile::compatible;
  auto res = iron3d::read_scr(in, options);
  if (!res) return 0;
  if (iron3d::write_scr(res->package) != core::Bytes(in.begin(), in.end())) __builtin_trap();
  (void)iron3d::scr_summary(res->package);
  return 0;
}
