#include "sortie/iron3d/behavior_ini.hpp"

#include <string_view>

#include "seeds.hpp"

SORTIE_FUZZ_SEEDS(behavior_ini, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  auto text = [&](std::string name, std::string_view s) {
    const auto b = core::as_bytes(s);
    out.add(std::move(name), core::Bytes(b.begin(), b.end()));
  };
  text("demo",
       "// Behavior settings\r\nLogFile=Behavior.log\r\nSaveLog=0\r\nMaxErrorLevel=1\r\nDefErrorLevel=2\r\n"
       "LookBugMode=0\r\nShowVectors=0\r\nNoZBuffer=0\r\nLockBehaviour=0\r\nUseDebugKey=1\r\nGiveDefaultOrder=0\r\n"
       "DefaultOrderPhase=10\r\nDeterminMode=0\r\nImmortalHero=0\r\nUseWizard=1\r\n");
  text("sections_quotes", "[Main]\nLogFile = \"a//b.log\" // comment\n[PathFind]\nPathFind_MaxAccel = 12.5\n");
  text("duplicate_unknown", "UseWizard=1\nusewizard=0\nMystery=?\n");
  std::vector<std::pair<std::string, std::string>> values;
  for (const auto& k : iron3d::behavior_ini_keys())
    values.emplace_back(std::string(k.name), k.type == iron3d::BehaviorValueType::text ? "x.log" : "3");
  if (auto ini = iron3d::build_behavior_ini(values)) out.add("all_keys", iron3d::write_behavior_ini(*ini));
});
