#include "seeds.hpp"
#include "sortie/core/bytes.hpp"

SORTIE_FUZZ_SEEDS(core_reader, [](sortie::fuzz::SeedSink& out) {
  sortie::core::ByteWriter w;
  w.u8(0);
  w.lp_string("hello");
  w.u8(1);
  w.bytes(std::string_view("abc\0def", 7));
  out.add("mixed", w.take());
  out.add("cp1251", sortie::core::Bytes{0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2});
});
