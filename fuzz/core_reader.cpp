// Fuzzes the core byte reader primitives and CP1251 decoding.
#include <cstddef>
#include <cstdint>

#include "sortie/core/bytes.hpp"
#include "sortie/core/text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie::core;
  ByteReader r(ByteView(data, size));
  while (!r.at_end()) {
    auto tag = r.u8();
    if (!tag) break;
    switch (*tag % 5) {
      case 0:
        (void)r.lp_string(256);
        break;
      case 1:
        (void)r.fixed_string(*tag % 17);
        break;
      case 2:
        (void)r.check_count(*tag, 7, "x");
        (void)r.u32();
        break;
      case 3:
        (void)r.f32();
        break;
      default:
        (void)r.u16();
        break;
    }
  }
  const auto d = cp1251_to_utf8(as_chars(ByteView(data, size)));
  if (d.lossless) {
    auto back = utf8_to_cp1251(d.utf8);
    if (!back || *back != as_chars(ByteView(data, size))) __builtin_trap();
  }
  return 0;
}
