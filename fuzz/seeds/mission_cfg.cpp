#include "sortie/iron3d/mission_cfg.hpp"

#include <string_view>

#include "seeds.hpp"

SORTIE_FUZZ_SEEDS(mission_cfg, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  auto text = [&](std::string name, std::string_view s) {
    const auto b = core::as_bytes(s);
    out.add(std::move(name), core::Bytes(b.begin(), b.end()));
  };
  text("ambient_music",
       "// mission.cfg\r\n\r\nobject ambient_music_loop\r\n\tdesc ambient_music_loop\r\n\tlibrary \"music.lib\"\r\n"
       "\tlibtype 1\r\n\ttype 7\r\n\tTHEME theme01.wav\r\nend\r\n; variations\r\nobject ambient_music_variation\r\n"
       "\tdesc ambient_music_variation\r\n\tLIBRARY sounds.lib\r\n\tDAY_VARIATION1 day1.wav\r\n"
       "\tDAY_VARIATION2 day2.wav\r\n\t# night\r\n\tNIGHT_VARIATION1 \"\xed\xee\xf7\xfc.wav\"\r\nend");
  text("default_pool",
       "object ambient_music_loop\nTHEME t.wav\nend\nobject v\ndesc ambient_music_variation\n"
       "DEFAULT_VARIATION1 a.wav\nDEFAULT_VARIATION3 c.wav\nend\n");
  text("malformed", "THEME stray\nobject\nobject a\ntype x\nlibrary \"open\nobject b\nend more\nobject c\ndesc c\n");
  text("duplicates", "OBJECT a\nType 1\nTYPE 2\nEND\nobject a\nend\n");
  // An edited block, written by our own writer.
  auto c = iron3d::read_mission_cfg(core::as_bytes(std::string_view("object a\r\n  x 1\r\nend\r\n")));
  if (c && c->objects[0].set("desc", "\"edited by sortie\"")) out.add("edited", iron3d::write_mission_cfg(*c));
});
