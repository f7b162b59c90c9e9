// Fuzzes the .fml formula export reader; accepted text writes back exactly and every line's
// view stays inside its line.
#include "sortie/iron3d/fml.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  core::Diagnostics warnings;
  auto f = iron3d::read_fml(in, {}, &warnings);
  if (!f) return 0;
  if (iron3d::write_fml(*f) != core::Bytes(in.begin(), in.end())) __builtin_trap();
  const auto s = iron3d::fml_summary(*f);
  if (s.blank + s.comment + s.code != s.lines) __builtin_trap();
  (void)iron3d::fml_json(*f);
  return 0;
}
