// Seeds for fuzz_fomap_scripts: AngelScript snippets shaped like FOnline server scripts.
#include <string>

#include "seeds.hpp"

namespace {
sortie::core::Bytes bytes_of(const std::string& s) {
  return sortie::core::Bytes(s.begin(), s.end());
}
}  // namespace

SORTIE_FUZZ_SEEDS(fomap_scripts, [](sortie::fuzz::SeedSink& out) {
  out.add("callbacks",
          bytes_of("// FOS Server\nnamespace Mining\n{\n[[ItemStatic]]\n"
                   "bool Mg(Critter cr, StaticItem item, Item? usedItem, any param)\n{\n    return true;\n}\n\n"
                   "[[ItemTrigger]]\nvoid Step(Critter cr, StaticItem trigger, bool entered, mdir dir) {}\n"
                   "void Init(Critter cr, bool firstTime) { if (firstTime) { cr.Say(\"}\"); } }\n}\n"));
  out.add("nested", bytes_of("// FOS Common Sort -10\nnamespace A { namespace B { [[Async, ItemStatic(1)]] const "
                             "string& F(const int &in x = 3,"
                             " array<dict<string, int>>@ &out y) { return \"\"; } } }\n"));
  out.add(
      "decoys",
      bytes_of(
          "// void D1(Map m, bool b) {}\n/* namespace X { void D2() {} } */\nstring s = \"\"\"\n} void D3() "
          "{\n\"\"\";\n"
          "#define X }\nclass C { void D4(Map m, bool b) {} }\nint[] t = { 1, 2 };\nvoid Real(Map m, bool b) {}\n"));
  out.add("client", bytes_of("// FOS Client Mapper\nnamespace Ui { void Init(Critter cr, bool b) {} }\n"));
  out.add("broken", bytes_of("}}} [[ItemStatic void C( namespace { {{ 'a\n\"b\\\n/* x"));
});
