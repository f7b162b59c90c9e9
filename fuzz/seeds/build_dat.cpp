#include "sortie/iron3d/build_dat.hpp"

#include <string_view>

#include "seeds.hpp"

SORTIE_FUZZ_SEEDS(build_dat, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  auto text = [&](std::string name, std::string_view s) {
    const auto b = core::as_bytes(s);
    out.add(std::move(name), core::Bytes(b.begin(), b.end()));
  };
  text("sample",
       "// buildings\r\nBunker_Small 2\r\n\"UNITS\\BUILDS\\a.dat\"\r\n\"UNITS\\BUILDS\\b.dat\"\r\n\r\nGenerator "
       "1\n\"g.dat\"\n");
  text("duplicate", "Mine 1\n\"a.dat\"\nMine 0\n");
  std::vector<iron3d::BuildDatCategory> cats;
  for (const auto& c : iron3d::build_categories())
    cats.push_back({std::string(c.name), 0, 0, {{"UNITS\\BUILDS\\AI\\x.dat", 0}}});
  auto doc = iron3d::make_build_dat(cats);
  if (doc) out.add("all_categories", iron3d::write_build_dat(*doc));
});
