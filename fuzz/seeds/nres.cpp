// NRes seeds written by our own builder: empty, the §31.1 shape, names with tails, gaps.
#include "sortie/iron3d/nres.hpp"

#include "seeds.hpp"

SORTIE_FUZZ_SEEDS(nres, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  using iron3d::NresBuilder;
  auto bytes = [](std::string_view s) { return core::Bytes(s.begin(), s.end()); };
  out.add("empty", NresBuilder().build().value());
  out.add("spec_31_1", NresBuilder()
                           .add(7, "beta", bytes("xyz"), 1, 2, 3)
                           .add(iron3d::nres_type_tag("MAT0"), "Alpha", {})
                           .build()
                           .value());
  out.add("three",
          NresBuilder().add(1, "Zulu", bytes("z")).add(2, "alpha", bytes("aa")).add(3, "Mike", {}).build().value());
  out.add("tail_and_dup", NresBuilder()
                              .add(1, std::string("one\0TAIL!", 9), bytes("p"))
                              .add(2, "duplicate", bytes("12345678"))
                              .add(3, "DUPLICATE", bytes("9"))
                              .build()
                              .value());
  // Editor output with a non-zero gap kept in front of the payloads.
  auto base = iron3d::read_nres(NresBuilder().add(1, "a", bytes("abc")).build().value()).value();
  iron3d::NresEditor editor(base);
  (void)editor.add({iron3d::nres_type_tag("Texm"), 4, 5, 6, "texture", bytes("0123456789")});
  out.add("edited", editor.encode_lossless_layout().value());
  // Non-zero unindexed bytes before the first payload: 4 bytes spliced in at offset 16.
  core::Bytes one = NresBuilder().add(1, "one", bytes("x")).build().value();
  core::Bytes gap(one.begin(), one.begin() + 16);
  for (std::uint8_t b : {0xaa, 0xbb, 0xcc, 0xdd}) gap.push_back(b);
  for (std::size_t i = 16; i < one.size(); ++i) gap.push_back(one[i]);
  core::store_u32(gap.data() + 12, static_cast<std::uint32_t>(gap.size()));
  const std::size_t rec = gap.size() - 64;
  core::store_u32(gap.data() + rec + 56, core::load_u32(gap.data() + rec + 56) + 4);
  out.add("prefix_gap", gap);
});
