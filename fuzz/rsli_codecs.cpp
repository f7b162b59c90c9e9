// Fuzzes the RsLi payload decoders with raw streams (first byte: decoder and size), and
// checks that each encoder's output decodes back to the input.
#include <cstddef>
#include <cstdint>

#include "sortie/iron3d/rsli_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  if (size < 3) return 0;
  const unsigned selector = data[0];
  const std::size_t unpacked = (static_cast<std::size_t>(data[1]) | (static_cast<std::size_t>(data[2]) << 8)) * 4;
  const core::ByteView stream(data + 3, size - 3);
  core::Result<core::Bytes> r = core::Bytes{};
  switch (selector % 4) {
    case 0:
      r = iron3d::lzss_decode(stream, unpacked);
      break;
    case 1:
      r = iron3d::lzhuf_decode(stream, unpacked);
      break;
    case 2:
      r = iron3d::inflate_raw(stream, unpacked);
      break;
    default: {
      core::Bytes copy(stream.begin(), stream.end());
      iron3d::xor_stream(static_cast<std::uint16_t>(unpacked), copy);
      iron3d::xor_stream(static_cast<std::uint16_t>(unpacked), copy);
      if (copy != core::Bytes(stream.begin(), stream.end())) __builtin_trap();
      break;
    }
  }
  if (r && selector % 4 != 3 && r->size() != unpacked) __builtin_trap();
  if (selector & 0x80) {
    const core::Bytes plain(stream.begin(), stream.end());
    auto a = iron3d::lzss_decode(iron3d::lzss_encode(plain), plain.size());
    if (!a || *a != plain) __builtin_trap();
    auto b = iron3d::lzhuf_decode(iron3d::lzhuf_encode(plain), plain.size());
    if (!b || *b != plain) __builtin_trap();
    auto packed = iron3d::deflate_raw(plain);
    if (!packed) __builtin_trap();
    auto c = iron3d::inflate_raw(*packed, plain.size());
    if (!c || *c != plain) __builtin_trap();
  }
  return 0;
}
