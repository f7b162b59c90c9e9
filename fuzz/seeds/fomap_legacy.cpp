#include <string_view>

#include "seeds.hpp"
#include "sortie/core/bytes.hpp"

namespace {
sortie::core::Bytes text(std::string_view s) {
  return {s.begin(), s.end()};
}
}  // namespace

SORTIE_FUZZ_SEEDS(fomap_legacy, [](sortie::fuzz::SeedSink& out) {
  out.add("bare_v2", text("[ProtoMap]\nSize = 10 10\n\n[Critter] # c\n$Id = 1\n$Proto = Guard\nHex = 1 1\n\n"
                          "[Item]\r\n$Id = 2\r\n$Proto = Rifle\r\nCritterId = 1\r\nOwnership = CritterInventory\r\n"));
  out.add("bare_v1",
          text("[ProtoMap]\nWidth = 10\nHeight = 12\nWorkHexX = 1\nWorkHexY = 2\n[Critter]\n$Id = 1\nHexX = 3\n"
               "HexY = 4\n[Tile]\nHexX = 1\nHexY = 1\nPicMap = a.frm\nIsRoof = 1\n"));
  out.add("classic",
          text("[Header]\nVersion 4\nMaxHexX 100\nMaxHexY 100\nDayColor0 1 2 3\nDayColor1 1 2 3\n"
               "DayColor2 1 2 3\nDayColor3 1 2 3\n\n[Tiles]\ntile 1 2 art\\tiles\\a.frm\ntile_l 2 2 3 b.frm\n\n"
               "[Objects]\nMapObjType 0\nProtoId 12\nMapX 1\nMapY 1\nUID 5\nDir 2\nCritter_ParamIndex0 ST_TEAM_ID\n"
               "Critter_ParamValue0 3\n\nMapObjType 1\nProtoId 3\nContainerUID 5\nItem_ItemSlot 1\n"));
  out.add("current", text("[ProtoMap]\n$Name = A\n\n[A/Item]\n$Id = 1\n$Proto = B\n"));
});
