// Seeds for fuzz_fomap_grammar: corpus-like snippets built in code.
#include <string>

#include "seeds.hpp"

namespace {
sortie::core::Bytes bytes_of(const std::string& s) {
  return sortie::core::Bytes(s.begin(), s.end());
}
}  // namespace

SORTIE_FUZZ_SEEDS(fomap_grammar, [](sortie::fuzz::SeedSink& out) {
  out.add("minimal", bytes_of("[ProtoMap]\n$Name = SmallRoom\nSize = 80 80\nWorkHex = 40 40\n\n"
                              "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nDir = 210\nHex = 38 40\n\n"
                              "[$Name/Item]\n$Id = 2\n$Proto = Crate\nHex = 42 40\n"));
  out.add("inventory",
          bytes_of("[ProtoMap]\nSize = 10 10\n[$Name/Critter]\n$Id = 100\n$Proto = Guard\nHex = 3 3\n"
                   "[$Name/Item]\n$Id = 101\n$Proto = Crate\nOwnership = CritterInventory\nCritterId = 100\n"
                   "[$Name/Item]\n$Id = 200\n$Proto = Crate\nHex = 5 5\n"
                   "[$Name/Item]\n$Id = 201\n$Proto = Crate\nOwnership = ItemContainer\nContainerId = 200\n"));
  out.add(
      "mesh",
      bytes_of("[ProtoMap]\nSize = 200 200\n\n[$Name/Item]\n$Id = 5\n$Proto = Wall\nHex = 79 139\nMultihexMesh = \\\n"
               " \"85 139\" \\\n \"89 139\"\nMultihexLines = 2 3 4 1\n"));
  out.add("multi", bytes_of("[ProtoMap]\n$Name = One\n[$Name/Item]\n$Id = 0\n$Proto = Crate\n[ProtoMap]\n$Name = Two\n"
                            "[One/Item]\n$Id = 0\n$Proto = Crate\n[Two/Critter]\n$Proto = Guard\n"));
  out.add("syntax",
          bytes_of("pre = 1\r\n[ProtoMap] # c\r\nText = \"quoted # hash\" \\\r\n continued # tail\r\nk += \"a\"\r\n"
                   "x = keep\\#h\n{100}{20}{P}\n[]\n[bad\n[$Name/Tile]\n[A/B/Item]\nDanglin = g \\"));
  out.add("legacy",
          bytes_of("[Header]\nVersion 4\nMaxHexX 200\n[Tiles]\ntile 1 1 art/tiles/x.frm\n[Objects]\nMapObjType 1\n"));
});
