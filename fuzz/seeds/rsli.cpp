// Seeds for fuzz_rsli (libraries built by sortie's editor plus the spec's §31.2 vector) and
// fuzz_rsli_codecs (raw streams for each decoder).
#include "sortie/iron3d/rsli.hpp"

#include "seeds.hpp"
#include "sortie/iron3d/rsli_codec.hpp"

namespace {

using sortie::core::Bytes;
using sortie::iron3d::RsliEditor;
using sortie::iron3d::RsliMethod;

Bytes text(std::string_view s) {
  return Bytes(s.begin(), s.end());
}

Bytes library(RsliMethod method, std::uint16_t seed) {
  auto ed = RsliEditor::create(seed);
  (void)ed.add("GAMEFONT.FNT", text("glyphs glyphs glyphs glyphs glyphs 0123456789"), method);
  (void)ed.add("A", text("a"), method);
  (void)ed.add("ZULU", text("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"), method);
  auto out = ed.write();
  return out ? *out : Bytes{};
}

}  // namespace

SORTIE_FUZZ_SEEDS(rsli, [](sortie::fuzz::SeedSink& out) {
  out.add("vector_31_2", Bytes{0x4e, 0x4c, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                               0x00, 0x00, 0x00, 0x00, 0x00, 0x11, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                               0x00, 0x00, 0x71, 0x5d, 0xfa, 0x2e, 0x1f, 0x00, 0x1f, 0x2e, 0x7a, 0x9d, 0x93, 0xe1, 0x40,
                               0x81, 0x83, 0xc5, 0x4e, 0x20, 0x5e, 0xed, 0x1c, 0x43, 0xfb, 0x33, 0x57, 0x71, 0x9c, 0x9b,
                               0xf8, 0x61, 0xef, 0x27, 0x54, 0x12, 0x2a, 0x79, 0x9d, 0x90, 0xe5, 0x4d, 0x94, 0xbb, 0x84,
                               0xf5, 0x61, 0xe6, 0x38, 0x32, 0x77, 0x90, 0x8f, 0xc6, 0x25, 0x3f, 0x78, 0x8b, 0xc4, 0xbb,
                               0xb0, 0xb3, 0xbf, 0xa9, 0x93, 0xd5, 0x05, 0x47, 0x49, 0x5d, 0x78, 0x79, 0x7a});
  auto empty = RsliEditor::create(0x1234).write();
  if (empty) out.add("empty", *empty);
  const std::pair<const char*, RsliMethod> methods[] = {
      {"stored", RsliMethod::stored},     {"xor", RsliMethod::xor_only}, {"lzss", RsliMethod::lzss},
      {"xor_lzss", RsliMethod::xor_lzss}, {"lzhuf", RsliMethod::lzhuf},  {"xor_lzhuf", RsliMethod::xor_lzhuf},
      {"deflate", RsliMethod::deflate}};
  for (const auto& [name, method] : methods) out.add(name, library(method, 0xABCD));
  Bytes with_trailer = library(RsliMethod::lzss, 7);
  with_trailer.insert(with_trailer.end(), {0x41, 0x4F, 0x00, 0x00, 0x00, 0x00});  // "AO", overlay 0
  out.add("ao_trailer", with_trailer);
});

SORTIE_FUZZ_SEEDS(rsli_codecs, [](sortie::fuzz::SeedSink& out) {
  const Bytes plain = text("the quick brown fox jumps over the lazy dog; the quick brown fox again");
  auto with_header = [](unsigned selector, std::size_t unpacked, const Bytes& stream) {
    Bytes b{static_cast<std::uint8_t>(selector), static_cast<std::uint8_t>((unpacked / 4) & 0xFF),
            static_cast<std::uint8_t>((unpacked / 4) >> 8)};
    b.insert(b.end(), stream.begin(), stream.end());
    return b;
  };
  const std::size_t n = plain.size() / 4 * 4;
  const Bytes head(plain.begin(), plain.begin() + static_cast<std::ptrdiff_t>(n));
  out.add("lzss", with_header(0x00, n, sortie::iron3d::lzss_encode(head)));
  out.add("lzhuf", with_header(0x01, n, sortie::iron3d::lzhuf_encode(head)));
  auto deflated = sortie::iron3d::deflate_raw(head);
  if (deflated) out.add("deflate", with_header(0x02, n, *deflated));
  out.add("roundtrip", with_header(0x83, 0, plain));
});
