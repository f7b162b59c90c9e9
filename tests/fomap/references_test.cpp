// Lint's opt-in reference checks: resource roots and .fos script functions (references.hpp).
#include "sortie/fomap/references.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace sortie::fomap {
namespace {

namespace fs = std::filesystem;

const Project& project() {
  static const Project p = [] {
    Project q;
    q.properties.add_project_declarations(
        "entity\tside\ttype\tname\tflags\nMap\tCommon\thstring[]\tMusic\tMutable Persistent Resource\n",
        "_project_property_declarations.tsv");
    q.protos.add_text(
        "[ProtoCritter]\n$Name = Guard\nModelName = art/critters/guard.fo3d\n"
        "[ProtoCritter]\n$Name = Ghost\nModelName = art/critters/ghost.fo3d\n"
        "[ProtoItem]\n$Name = Door\nPicMap = art/doors/door.frm\n"
        "[ProtoItem]\n$Name = Mine\nStatic = True\nStaticScript = Mining::Mg\n",
        "protos.fopro");
    q.protos.resolve(q.properties);
    q.has_protos = true;
    return q;
  }();
  return p;
}

constexpr std::string_view kHead = "[ProtoMap]\n$Name = Small\nSize = 80 80\n\n";  // body starts at line 5

ResourceIndex resources() {
  ResourceIndex r;
  for (const char* f :
       {"art/critters/guard.fo3d", "art/doors/door.frm", "art\\doors\\Window.FRM", "sound/music/desert.acm"})
    r.add(f);
  return r;
}

constexpr std::string_view kScripts =
    "// FOS Server\n"
    "namespace Mining\n"
    "{\n"
    "[[ItemStatic]]\n"
    "bool Mg(Critter cr, StaticItem item, Item? usedItem, any param) { return true; }\n"  // line 5
    "bool NoAttr(Critter cr, StaticItem item, Item? usedItem, any param) { return false; }\n"
    "[[ItemStatic]] bool OldStyle(Critter cr, StaticItem item, Item usedItem, any param) { return false; }\n"
    "void GuardInit(Critter cr, int firstTime) {}\n"
    "}\n"
    "namespace Town { void GuardInit(Critter cr, bool firstTime) {} }\n";  // line 10

LintReport lint(const std::string& body, const ResourceIndex* res, const ScriptIndex* scripts, bool strict = false) {
  auto c = MapContainer::from_text(std::string(kHead) + body, "Maps/Small.fomap");
  return lint_container(c, project(), {.strict = strict, .resources = res, .scripts = scripts});
}

std::vector<const Finding*> with_check(const LintReport& r, std::string_view check) {
  std::vector<const Finding*> out;
  for (const auto& f : r.findings)
    if (f.check == check) out.push_back(&f);
  return out;
}

// --- resources -------------------------------------------------------------------------------

TEST(FomapReferences, resource_found_case_insensitively_with_either_separator) {
  const auto r = resources();
  EXPECT_EQ(r.size(), 4u);
  EXPECT_EQ(r.find("art\\Doors\\DOOR.frm").kind, ResourceIndex::MatchKind::found);
  EXPECT_EQ(r.find("art/doors/window.frm").candidates, std::vector<std::string>{"art/doors/Window.FRM"});
  EXPECT_EQ(r.find("art/doors/door.fr").kind, ResourceIndex::MatchKind::missing);
  EXPECT_EQ(r.find("doors/door.frm").kind, ResourceIndex::MatchKind::missing);
}

TEST(FomapReferences, same_path_under_two_roots_is_one_file) {
  ResourceIndex r;
  r.add("a/b.frm");
  r.add("a\\b.frm");
  EXPECT_EQ(r.size(), 1u);
  EXPECT_EQ(r.find("A/B.FRM").kind, ResourceIndex::MatchKind::found);
}

TEST(FomapReferences, placement_resource_override_missing_is_error_at_its_line) {
  const auto res = resources();
  const auto rep =
      lint("[$Name/Item]\n$Id = 1\n$Proto = Door\nHex = 1 1\nPicMap = art/doors/gone.frm\n", &res, nullptr);
  const auto f = with_check(rep, "resource-missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->rule, rule::kPropertyOverrides);
  EXPECT_EQ(f[0]->severity, core::Severity::error);
  EXPECT_EQ(f[0]->line, 9u);
  EXPECT_EQ(f[0]->placement, "Item $Id=1 $Proto=Door");
  EXPECT_NE(f[0]->message.find("PicMap = art/doors/gone.frm"), std::string::npos) << f[0]->message;
  EXPECT_EQ(rep.errors(), 1u);
}

TEST(FomapReferences, placement_override_hides_the_prototype_value) {
  const auto res = resources();
  // Door's own PicMap exists; Ghost's ModelName does not, but the placement overrides it.
  const auto rep = lint("[$Name/Critter]\n$Id = 1\n$Proto = Ghost\nHex = 1 1\nModelName = art/critters/guard.fo3d\n",
                        &res, nullptr, true);
  EXPECT_TRUE(rep.findings.empty()) << rep.findings[0].to_string();
}

TEST(FomapReferences, inherited_missing_resource_is_reported_once_per_map_at_first_placement) {
  const auto res = resources();
  const auto rep = lint(
      "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\n\n"
      "[$Name/Critter]\n$Id = 2\n$Proto = Ghost\nHex = 2 2\n\n"
      "[$Name/Critter]\n$Id = 3\n$Proto = Ghost\nHex = 3 3\n",
      &res, nullptr);
  const auto f = with_check(rep, "resource-missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->line, 10u);  // header of the first Ghost placement
  EXPECT_EQ(f[0]->placement, "Critter $Id=2 $Proto=Ghost");
  EXPECT_NE(f[0]->message.find("inherited from prototype 'Ghost' at protos.fopro:4; 2 placements"), std::string::npos)
      << f[0]->message;
}

TEST(FomapReferences, ambiguous_case_match_without_exact_spelling_is_error) {
  auto res = resources();
  res.add("art/doors/WINDOW.frm");
  const auto rep =
      lint("[$Name/Item]\n$Id = 1\n$Proto = Door\nHex = 1 1\nPicMap = art/doors/window.frm\n", &res, nullptr);
  const auto f = with_check(rep, "resource-ambiguous");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->line, 9u);
  EXPECT_EQ(f[0]->severity, core::Severity::error);
  EXPECT_NE(f[0]->message.find("art/doors/WINDOW.frm, art/doors/Window.FRM"), std::string::npos) << f[0]->message;
}

TEST(FomapReferences, ambiguous_case_match_with_exact_spelling_is_warning_then_strict_error) {
  auto res = resources();
  res.add("art/doors/Door.frm");
  const std::string body = "[$Name/Item]\n$Id = 1\n$Proto = Door\nHex = 1 1\n";
  const auto compat = lint(body, &res, nullptr);
  const auto f = with_check(compat, "resource-ambiguous");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->line, 5u);  // inherited from Door: reported at the placement header
  EXPECT_EQ(f[0]->severity, core::Severity::warning);
  const auto strict = lint(body, &res, nullptr, true);
  ASSERT_EQ(with_check(strict, "resource-ambiguous").size(), 1u);
  EXPECT_EQ(with_check(strict, "resource-ambiguous")[0]->severity, core::Severity::error);
}

TEST(FomapReferences, map_header_resource_array_checks_every_element) {
  const auto res = resources();
  auto c = MapContainer::from_text(
      "[ProtoMap]\n$Name = Small\nSize = 80 80\nMusic = \"sound/music/DESERT.acm\" \"sound/music/none.acm\"\n",
      "Maps/Small.fomap");
  const auto rep = lint_container(c, project(), {.resources = &res});
  const auto f = with_check(rep, "resource-missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->line, 4u);
  EXPECT_EQ(f[0]->placement, "");
  EXPECT_NE(f[0]->message.find("Music = sound/music/none.acm"), std::string::npos) << f[0]->message;
}

TEST(FomapReferences, scan_lists_a_tree_relative_to_each_root) {
  const fs::path root = fs::temp_directory_path() / "sortie_refs_scan";
  fs::remove_all(root);
  fs::create_directories(root / "a" / "art" / "Items");
  fs::create_directories(root / "b" / "sound");
  std::ofstream(root / "a" / "art" / "Items" / "box.frm") << "x";
  std::ofstream(root / "b" / "sound" / "x.acm") << "x";
  core::Diagnostics notes;
  const auto idx = ResourceIndex::scan({root / "a", root / "b", root / "missing"}, notes);
  EXPECT_EQ(idx.size(), 2u);
  EXPECT_EQ(idx.find("ART\\items\\box.frm").kind, ResourceIndex::MatchKind::found);
  EXPECT_EQ(idx.find("sound/x.acm").kind, ResourceIndex::MatchKind::found);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].code, "io.open");
  fs::remove_all(root);
}

// --- script index ----------------------------------------------------------------------------

TEST(FomapScriptIndex, normalizes_parameter_types) {
  EXPECT_EQ(normalize_script_type("const Item ? usedItem"), "Item?");
  EXPECT_EQ(normalize_script_type("Critter@+ cr"), "Critter");
  EXPECT_EQ(normalize_script_type("const string &in name"), "string");
  EXPECT_EQ(normalize_script_type("array<int>@ &out list"), "array<int>");
  EXPECT_EQ(normalize_script_type("int[] values"), "int[]");
  EXPECT_EQ(normalize_script_type("Game::Dir"), "Game::Dir");
  EXPECT_EQ(normalize_script_type("bool"), "bool");
}

TEST(FomapScriptIndex, indexes_nested_namespaces_signatures_and_attributes) {
  ScriptIndex idx;
  idx.add_source(
      "namespace Outer {\n"
      "  namespace Inner {\n"
      "    [[Async]]\n"
      "    // a comment between attribute and function\n"
      "    [[ItemTrigger, Other(1, 2)]] /* block */ void Step(Critter cr, StaticItem trigger,\n"
      "        bool entered = true, mdir dir = 0) {}\n"
      "  }\n"
      "  int Count() { return 1; }\n"
      "}\n"
      "void Global(Map map, bool firstTime) {}\n",
      "a.fos");
  EXPECT_EQ(idx.size(), 3u);
  const auto* step = idx.find("Outer::Inner::Step");
  ASSERT_NE(step, nullptr);
  EXPECT_EQ((*step)[0].signature(), "void Step(Critter, StaticItem, bool, mdir)");
  EXPECT_EQ((*step)[0].attributes, (std::vector<std::string>{"Async", "ItemTrigger", "Other"}));
  EXPECT_EQ((*step)[0].line, 5u);
  ASSERT_NE(idx.find("Outer::Count"), nullptr);
  EXPECT_TRUE((*idx.find("Outer::Count"))[0].params.empty());
  EXPECT_EQ(idx.find("Outer::Step"), nullptr);
  ASSERT_NE(idx.find("Global"), nullptr);
  EXPECT_EQ((*idx.find("Global"))[0].line, 10u);
}

TEST(FomapScriptIndex, comments_strings_and_bodies_hide_decoy_functions) {
  ScriptIndex idx;
  idx.add_source(
      "// void Decoy1(Map m, bool b) {}\n"
      "/* namespace X { void Decoy2(Map m, bool b) {} } */\n"
      "string s = \"} void Decoy3(Map m, bool b) {\";\n"
      "string h = \"\"\"\n} void Decoy4() {\n\"\"\";\n"
      "#define X }\n"
      "class C { void Decoy5(Map m, bool b) {} }\n"
      "int[] table = { 1, 2 };\n"
      "void Real(Map m, bool b) { if (true) { string t = \"}\"; } // }\n"
      "}\n",
      "decoy.fos");
  EXPECT_EQ(idx.size(), 1u);
  ASSERT_NE(idx.find("Real"), nullptr);
  EXPECT_EQ((*idx.find("Real"))[0].line, 10u);
  for (const char* decoy : {"Decoy1", "X::Decoy2", "Decoy2", "Decoy3", "Decoy4", "Decoy5", "C::Decoy5"})
    EXPECT_EQ(idx.find(decoy), nullptr) << decoy;
}

TEST(FomapScriptIndex, fos_header_without_server_marks_client_functions) {
  ScriptIndex idx;
  idx.add_source("// FOS Client Mapper Sort 5\nnamespace Ui { void Init(Critter cr, bool b) {} }\n", "client.fos");
  idx.add_source("// FOS Common Sort -10\nnamespace Both { void Init(Critter cr, bool b) {} }\n", "common.fos");
  EXPECT_FALSE((*idx.find("Ui::Init"))[0].server);
  EXPECT_TRUE((*idx.find("Both::Init"))[0].server);
}

TEST(FomapScriptIndex, survives_unbalanced_and_deeply_nested_input) {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "namespace n {";
  deep += "void F(Map m, bool b) {}";
  ScriptIndex idx;
  idx.add_source(deep, "deep.fos");
  idx.add_source("}}}} void A(Map m, bool b) {} {{{{ void B(Map m, bool b) {}", "braces.fos");
  idx.add_source("[[ItemStatic void C(", "attr.fos");
  idx.add_source("/* unterminated void D(Map m, bool b) {}", "comment.fos");
  idx.add_source("\"unterminated\nvoid E(Map m, bool b) {}", "string.fos");
  EXPECT_EQ(idx.files(), 5u);
  ASSERT_NE(idx.find("A"), nullptr);  // stray closing braces at the top level are ignored
  EXPECT_EQ(idx.find("B"), nullptr);  // inside an unclosed block
  EXPECT_EQ(idx.find("D"), nullptr);
  ASSERT_NE(idx.find("E"), nullptr);  // a one-line string ends at the line end
  // The 65th and deeper namespaces are skipped as blocks: F is not indexed.
  EXPECT_EQ(idx.size(), 2u);
}

// --- script checks in lint -------------------------------------------------------------------

ScriptIndex scripts() {
  ScriptIndex idx;
  idx.add_source(kScripts, "scripts/mining.fos");
  idx.add_source("// FOS Client\nnamespace Ui { void GuardInit(Critter cr, bool firstTime) {} }\n", "scripts/ui.fos");
  return idx;
}

TEST(FomapReferences, script_found_with_signature_and_attribute_is_clean) {
  const auto idx = scripts();
  const auto rep = lint(
      "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\nInitScript = Town::GuardInit\n\n"
      "[$Name/Item]\n$Id = 2\n$Proto = Mine\nHex = 2 2\n",  // StaticScript = Mining::Mg from the prototype
      nullptr, &idx, true);
  EXPECT_TRUE(rep.findings.empty()) << rep.findings[0].to_string();
}

TEST(FomapReferences, script_missing_function_is_error) {
  const auto idx = scripts();
  const auto rep =
      lint("[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\nInitScript = Town::Nope\n", nullptr, &idx);
  const auto f = with_check(rep, "script-not-found");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->line, 9u);
  EXPECT_EQ(f[0]->severity, core::Severity::error);
  EXPECT_EQ(f[0]->fix, "define `void Nope(Critter, bool)` in namespace Town of a server script, or fix the name");
}

TEST(FomapReferences, script_only_in_client_file_is_not_found_with_a_hint) {
  const auto idx = scripts();
  const auto rep =
      lint("[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\nInitScript = Ui::GuardInit\n", nullptr, &idx);
  const auto f = with_check(rep, "script-not-found");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0]->message.find("scripts/ui.fos:2 defines it in a script whose `// FOS` header excludes the server"),
            std::string::npos)
      << f[0]->message;
}

TEST(FomapReferences, script_wrong_parameter_types_print_expected_and_found) {
  const auto idx = scripts();
  const auto rep =
      lint("[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\nInitScript = Mining::GuardInit\n", nullptr, &idx);
  const auto f = with_check(rep, "script-signature");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->line, 9u);
  EXPECT_EQ(f[0]->message,
            "InitScript = Mining::GuardInit: expected void(Critter, bool), found `void GuardInit(Critter, int)` at "
            "scripts/mining.fos:8");
}

TEST(FomapReferences, script_static_item_needs_nullable_item_parameter) {
  const auto idx = scripts();
  const auto rep =
      lint("[$Name/Item]\n$Id = 1\n$Proto = Mine\nHex = 1 1\nStaticScript = Mining::OldStyle\n", nullptr, &idx);
  const auto f = with_check(rep, "script-signature");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->line, 9u);
  EXPECT_NE(
      f[0]->message.find(
          "expected bool(Critter, StaticItem, Item?, any), found `bool OldStyle(Critter, StaticItem, Item, any)`"),
      std::string::npos)
      << f[0]->message;
}

TEST(FomapReferences, script_missing_attribute_is_error) {
  const auto idx = scripts();
  const auto rep =
      lint("[$Name/Item]\n$Id = 1\n$Proto = Mine\nHex = 1 1\nStaticScript = Mining::NoAttr\n", nullptr, &idx);
  const auto f = with_check(rep, "script-attribute");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->line, 9u);
  EXPECT_EQ(f[0]->fix, "add [[ItemStatic]] before the function");
  EXPECT_EQ(rep.errors(), 1u);
}

TEST(FomapReferences, legacy_script_id_key_is_checked_under_its_migrated_name) {
  const auto idx = scripts();
  const auto rep =
      lint("[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\nScriptId = Town::Missing\n", nullptr, &idx);
  const auto f = with_check(rep, "script-not-found");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->line, 9u);
  EXPECT_EQ(f[0]->message.rfind("InitScript = Town::Missing", 0), 0u) << f[0]->message;
}

TEST(FomapReferences, project_script_properties_use_their_declared_function_type) {
  Project q;
  const auto notes = q.properties.add_project_declarations(
      "entity\tside\ttype\tname\tflags\n"
      "Critter\tServer\thstring\tTalkScript\tMutable Persistent ScriptFuncType = CritterInit\n"
      "Critter\tServer\thstring\tOddScript\tMutable Persistent ScriptFuncType = ProjectOnly\n",
      "_project_property_declarations.tsv");
  EXPECT_TRUE(notes.empty());
  ASSERT_NE(q.properties.find("Critter", "TalkScript"), nullptr);
  EXPECT_EQ(q.properties.find("Critter", "TalkScript")->script_func, "CritterInit");
  const auto idx = scripts();
  auto c = MapContainer::from_text(
      std::string(kHead) +
          "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\nTalkScript = Mining::GuardInit\n"
          "OddScript = Mining::GuardInit\n\n"
          "[$Name/Critter]\n$Id = 2\n$Proto = Guard\nHex = 2 2\nOddScript = Mining::Absent\n",
      "Maps/Small.fomap");
  const auto rep = lint_container(c, q, {.scripts = &idx});
  const auto sig = with_check(rep, "script-signature");
  ASSERT_EQ(sig.size(), 1u);
  EXPECT_EQ(sig[0]->line, 9u);  // TalkScript: CritterInit wants void(Critter, bool)
  const auto missing = with_check(rep, "script-not-found");
  ASSERT_EQ(missing.size(), 1u);  // OddScript: unknown type, existence only
  EXPECT_EQ(missing[0]->line, 16u);
  EXPECT_EQ(missing[0]->fix, "define `Absent` in namespace Mining of a server script, or fix the name");
}

TEST(FomapReferences, without_indexes_nothing_is_checked_and_both_checks_are_listed_as_skipped) {
  const auto rep = lint("[$Name/Item]\n$Id = 1\n$Proto = Mine\nHex = 1 1\nPicMap = gone.frm\nStaticScript = No::Such\n",
                        nullptr, nullptr, true);
  EXPECT_TRUE(rep.findings.empty()) << rep.findings[0].to_string();
  const auto skipped = skipped_reference_checks({});
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0].check, "resources");
  EXPECT_EQ(skipped[0].reason, "no --resources");
  EXPECT_EQ(skipped[1].check, "scripts");
  const auto res = resources();
  EXPECT_EQ(skipped_reference_checks({.resources = &res}).size(), 1u);
  // Without protos the prototype checks are listed first.
  const auto all = skipped_checks(Project{}, {});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].check, "prototypes");
  EXPECT_EQ(all[0].reason, "no --protos");
  EXPECT_EQ(all[1].check, "resources");
  EXPECT_EQ(skipped_checks(project(), {}).size(), 2u);
}

}  // namespace
}  // namespace sortie::fomap
