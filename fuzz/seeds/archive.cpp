// Archive facade seeds written by our own writers: an NRes archive and an RsLi library with
// the packing methods the editor writes.
#include "seeds.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"

SORTIE_FUZZ_SEEDS(archive, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  auto bytes = [](std::string_view s) { return core::Bytes(s.begin(), s.end()); };
  out.add("nres", iron3d::NresBuilder()
                      .add(iron3d::nres_type_tag("MAT0"), "alpha", bytes("material"), 0, 6, 0)
                      .add(7, "Zulu", bytes("zzz"))
                      .build()
                      .value());
  auto lib = iron3d::RsliEditor::create(0x1234);
  (void)lib.add("FONT.FNT", bytes("glyphs glyphs glyphs"), iron3d::RsliMethod::lzss);
  (void)lib.add("PLAIN", bytes("stored"), iron3d::RsliMethod::stored);
  (void)lib.add("SECRET", bytes("xor me"), iron3d::RsliMethod::xor_lzhuf);
  out.add("rsli", lib.write().value());
});
