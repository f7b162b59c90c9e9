// Lint: one hostile input per rule (spec/fomap.md §8), compatible vs strict severities.
#include "sortie/fomap/lint.hpp"

#include <gtest/gtest.h>

#include "protos_fixture.hpp"

namespace sortie::fomap {
namespace {

const Project& project() {
  static const Project p = test::project_with_protos(
      "[ProtoCritter]\n$Name = Guard\n"
      "[ProtoItem]\n$Name = Rifle\n"
      "[ProtoItem]\n$Name = LootCrate\n"
      "[ProtoItem]\n$Name = StaticCrate\nStatic = True\n"
      "[ProtoItem]\n$Name = Wall\nStatic = True\n"
      "[ProtoItem]\n$Name = Ghost\nStatic = True\nHidden = True\n"
      "[ProtoItem]\n$Name = FarAway\nHex = 500 500\n",
      "protos.fopro");
  return p;
}

constexpr std::string_view kHead = "[ProtoMap]\n$Name = Small\nSize = 80 80\n\n";

LintReport lint(std::string body, bool strict = false, std::string path = "Maps/Small.fomap") {
  auto c = MapContainer::from_text(std::string(kHead) + body, std::move(path));
  return lint_container(c, project(), {.strict = strict});
}

const Finding* find(const LintReport& r, std::string_view check) {
  for (const auto& f : r.findings)
    if (f.check == check) return &f;
  return nullptr;
}

TEST(FomapLint, clean_map_has_no_findings_in_strict_mode) {
  auto r = lint(
      "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nDir = 210\nHex = 38 40\n\n"
      "[$Name/Item]\n$Id = 2\n$Proto = Rifle\nCritterId = 1\nCritterSlot = Main\nOwnership = CritterInventory\n\n"
      "[$Name/Item]\n$Id = 3\n$Proto = LootCrate\nHex = 35 30\n\n"
      "[$Name/Item]\n$Id = 4\n$Proto = Rifle\nContainerId = 3\nOwnership = ItemContainer\n\n"
      "[$Name/Item]\n$Id = 5\n$Proto = Wall\nHex = 40 30\nMultihexMesh = \\\n \"41 30\" \\\n \"42 30\"\n",
      true);
  EXPECT_TRUE(r.findings.empty()) << r.findings[0].to_string();
  EXPECT_EQ(r.summary(), "1 file, 1 map, 5 placements: 0 errors, 0 warnings, 0 notes");
}

TEST(FomapLint, old_and_new_name_of_one_property_is_an_alias_conflict) {
  // `CritId` migrates to `CritterId`; the engine applies keys in byte order, so `CritterId` wins.
  const std::string body =
      "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\n\n"
      "[$Name/Item]\n$Id = 2\n$Proto = Rifle\nOwnership = CritterInventory\nCritterId = 1\nCritId = 7\n";
  auto r = lint(body);
  const Finding* f = find(r, "property-alias-conflict");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, rule::kPropertyOverrides);
  EXPECT_EQ(f->severity, core::Severity::warning);
  EXPECT_EQ(f->line, 15u);
  EXPECT_EQ(
      f->message,
      "`CritId` and `CritterId` both set Item.CritterId; the engine keeps `CritterId = 1` (the key that sorts last)")
      << f->message;
  EXPECT_EQ(f->fix, "delete `CritId`");
  EXPECT_EQ(find(lint(body, true), "property-alias-conflict")->severity, core::Severity::error);
  EXPECT_EQ(find(lint("[$Name/Item]\n$Id = 2\n$Proto = Rifle\nCritId = 7\n"), "property-alias-conflict"), nullptr);
}

TEST(FomapLint, config_syntax_ignored_line_is_warning_then_error) {
  auto c = lint("[$Name/Item]\n$Id = 1\n$Proto = Rifle\nHex 1 2\nHex = 3 3\n");
  const Finding* f = find(c, "ignored-line");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, rule::kConfigSyntax);
  EXPECT_EQ(f->severity, core::Severity::warning);
  EXPECT_EQ(f->line, 8u);
  EXPECT_EQ(find(lint("[$Name/Item]\n$Id = 1\n$Proto = Rifle\nHex 1 2\n", true), "ignored-line")->severity,
            core::Severity::error);
}

TEST(FomapLint, config_syntax_reassigned_key_and_dangling_continuation) {
  auto r = lint("[$Name/Item]\n$Id = 1\n$Proto = Rifle\nHex = 1 1\nHex = 2 2\nCount = 1 \\", true);
  const Finding* a = find(r, "key-reassigned");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->line, 9u);
  const Finding* b = find(r, "dangling-continuation");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->line, 10u);
}

TEST(FomapLint, closed_section_set_rejects_bare_item_in_both_modes) {
  auto r = lint("[Item]\n$Id = 1\n$Proto = Rifle\n");
  const Finding* f = find(r, "top_level");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, rule::kClosedSectionSet);
  EXPECT_EQ(f->severity, core::Severity::error);
  EXPECT_EQ(f->line, 5u);
}

TEST(FomapLint, data_before_first_header_is_strict_error) {
  auto c = MapContainer::from_text("Stray = 1\n" + std::string(kHead), "Maps/Small.fomap");
  auto compat = lint_container(c, project(), {});
  auto strict = lint_container(c, project(), {.strict = true});
  ASSERT_NE(find(compat, "data-before-anchor"), nullptr);
  EXPECT_EQ(find(compat, "data-before-anchor")->severity, core::Severity::warning);
  EXPECT_EQ(find(strict, "data-before-anchor")->severity, core::Severity::error);
}

TEST(FomapLint, map_identity_unnamed_anchor_in_multi_map_file) {
  auto c = MapContainer::from_text("[ProtoMap]\nSize = 5 5\n[ProtoMap]\n$Name = Two\nSize = 5 5\n", "Maps/Multi.fomap");
  auto r = lint_container(c, project(), {.strict = true});
  const Finding* f = find(r, "unnamed-anchor");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, rule::kMapIdentity);
  EXPECT_EQ(f->line, 1u);
}

TEST(FomapLint, map_identity_colliding_unnamed_anchors_fail_even_compatible) {
  auto c = MapContainer::from_text("[ProtoMap]\nSize = 5 5\n[ProtoMap]\nSize = 5 5\n", "Maps/Collide.fomap");
  auto r = lint_container(c, project(), {});
  const Finding* f = find(r, "duplicate-name");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::error);
}

TEST(FomapLint, map_identity_name_with_slash) {
  auto c = MapContainer::from_text("[ProtoMap]\n$Name = a/b\nSize = 5 5\n", "m.fomap");
  ASSERT_NE(find(lint_container(c, project(), {}), "name-invalid"), nullptr);
}

TEST(FomapLint, shared_ids_duplicate_across_critter_and_item_names_repair) {
  auto r = lint(
      "[$Name/Critter]\n$Id = 7\n$Proto = Guard\nHex = 1 1\n[$Name/Item]\n$Id = 7\n$Proto = LootCrate\nHex = 2 2\n");
  const Finding* f = find(r, "id-duplicate");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, rule::kSharedPlacementIds);
  EXPECT_EQ(f->severity, core::Severity::warning);
  EXPECT_EQ(f->line, 10u);
  EXPECT_NE(f->message.find("renumbers this one to 8"), std::string::npos) << f->message;
  EXPECT_NE(f->placement.find("$Id=7 $Proto=LootCrate"), std::string::npos);
}

TEST(FomapLint, shared_ids_missing_non_decimal_non_positive_are_strict_errors) {
  auto r = lint(
      "[$Name/Item]\n$Proto = LootCrate\n[$Name/Item]\n$Id = 0x10\n$Proto = LootCrate\n[$Name/Item]\n$Id = -3\n$Proto "
      "= LootCrate\n",
      true);
  EXPECT_EQ(find(r, "id-missing")->severity, core::Severity::error);
  EXPECT_NE(find(r, "id-not-decimal"), nullptr);
  EXPECT_NE(find(r, "id-not-positive"), nullptr);
}

TEST(FomapLint, prototype_resolution_missing_and_unknown) {
  auto r = lint("[$Name/Item]\n$Id = 1\n[$Name/Item]\n$Id = 2\n$Proto = NoSuchThing\n");
  EXPECT_EQ(find(r, "proto-missing")->rule, rule::kPrototypeResolution);
  const Finding* u = find(r, "proto-unknown");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->line, 9u);
  EXPECT_EQ(u->severity, core::Severity::error);
}

TEST(FomapLint, property_overrides_unknown_temporary_and_malformed) {
  auto r = lint("[$Name/Critter]\n$Id = 1\n$Proto = Guard\nMovingSpeed = 5\nHex = x y\nBogus = 1\n");
  EXPECT_EQ(find(r, "not-authorable")->rule, rule::kPropertyOverrides);
  EXPECT_EQ(find(r, "bad-value")->line, 9u);
  EXPECT_NE(find(r, "unknown-property"), nullptr);
}

TEST(FomapLint, ownership_references_unresolved_critter_and_nowhere) {
  auto r = lint(
      "[$Name/Item]\n$Id = 1\n$Proto = Rifle\nCritterId = 99\nOwnership = CritterInventory\n"
      "[$Name/Item]\n$Id = 2\n$Proto = Rifle\nOwnership = Nowhere\n");
  EXPECT_EQ(find(r, "critter-not-found")->rule, rule::kOwnershipReferences);
  EXPECT_NE(find(r, "ownership-nowhere"), nullptr);
}

TEST(FomapLint, ownership_container_after_content_and_child_of_child) {
  auto r = lint(
      "[$Name/Item]\n$Id = 1\n$Proto = Rifle\nContainerId = 2\nOwnership = ItemContainer\n"
      "[$Name/Item]\n$Id = 2\n$Proto = LootCrate\nHex = 1 1\n"
      "[$Name/Item]\n$Id = 3\n$Proto = Rifle\nContainerId = 1\nOwnership = ItemContainer\n");
  EXPECT_NE(find(r, "container-after-content"), nullptr);
  EXPECT_NE(find(r, "child-of-child"), nullptr);
}

TEST(FomapLint, static_item_not_on_maphex) {
  auto r = lint(
      "[$Name/Critter]\n$Id = 1\n$Proto = Guard\n[$Name/Item]\n$Id = 2\n$Proto = Wall\nCritterId = 1\nOwnership = "
      "CritterInventory\n");
  const Finding* f = find(r, "static-not-maphex");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, rule::kStaticItems);
}

TEST(FomapLint, bounds_uses_proto_hex_when_key_absent) {
  auto r = lint("[$Name/Item]\n$Id = 1\n$Proto = FarAway\n[$Name/Item]\n$Id = 2\n$Proto = LootCrate\nHex = 80 0\n");
  std::size_t n = 0;
  for (const auto& f : r.findings)
    if (f.check == "hex-out-of-bounds") ++n;
  EXPECT_EQ(n, 2u);
  EXPECT_NE(find(r, "hex-out-of-bounds")->message.find("from the prototype"), std::string::npos);
}

TEST(FomapLint, side_specific_static_override_and_hidden_override) {
  auto r = lint(
      "[$Name/Item]\n$Id = 1\n$Proto = LootCrate\nHex = 1 1\nStatic = True\n"
      "[$Name/Item]\n$Id = 2\n$Proto = Ghost\nHex = 2 2\nHidden = False\n",
      true);
  EXPECT_EQ(find(r, "static-override")->rule, rule::kSideSpecificBake);
  EXPECT_EQ(find(r, "hidden-override")->rule, rule::kHiddenStaticItems);
}

TEST(FomapLint, runtime_materialization_static_container) {
  auto r = lint(
      "[$Name/Item]\n$Id = 1\n$Proto = StaticCrate\nHex = 1 1\n[$Name/Item]\n$Id = 2\n$Proto = Rifle\nContainerId = "
      "1\nOwnership = ItemContainer\n");
  EXPECT_EQ(find(r, "static-container")->rule, rule::kRuntimeMaterialization);
  EXPECT_EQ(find(r, "static-container")->severity, core::Severity::warning);
}

TEST(FomapLint, multihex_mesh_bare_pairs_fail) {
  auto r = lint("[$Name/Item]\n$Id = 1\n$Proto = Wall\nHex = 1 1\nMultihexMesh = 2 1 3 1\n");
  const Finding* f = find(r, "mesh-syntax");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, rule::kMultihexMesh);
  EXPECT_NE(f->fix.find("quoted pair"), std::string::npos);
}

TEST(FomapLint, mapper_round_trip_unknown_directive_and_anchor_parent) {
  auto c = MapContainer::from_text(
      "[ProtoMap]\n$Name = Small\n$Parent = Base\nSize = 5 5\n[$Name/Item]\n$Id = 1\n$Proto = Rifle\n$Note = x\nHex = "
      "1 1\n",
      "m.fomap");
  auto r = lint_container(c, project(), {});
  EXPECT_EQ(find(r, "anchor-parent")->rule, rule::kMapperRoundTrip);
  EXPECT_EQ(find(r, "unknown-directive")->line, 8u);
}

TEST(FomapLint, normalized_order_critter_after_map_item) {
  auto r = lint(
      "[$Name/Item]\n$Id = 1\n$Proto = LootCrate\nHex = 1 1\n[$Name/Critter]\n$Id = 2\n$Proto = Guard\nHex = 2 2\n",
      true);
  const Finding* f = find(r, "critter-after-item");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, rule::kNormalizedOrder);
  EXPECT_EQ(f->severity, core::Severity::warning);
}

TEST(FomapLint, error_aggregation_note_per_failing_map) {
  auto r = lint("[$Name/Item]\n$Id = 1\n$Proto = Nope\n");
  const Finding* f = find(r, "map-fails");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, rule::kErrorAggregation);
  EXPECT_EQ(f->severity, core::Severity::note);
  EXPECT_EQ(r.errors(), 1u);
}

TEST(FomapLint, finding_text_names_file_line_rule_placement_and_fix) {
  auto r = lint("[$Name/Item]\n$Id = 1\n$Proto = Nope\n");
  const Finding* f = find(r, "proto-unknown");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->to_string(),
            "Maps/Small.fomap:7: error: [map-format.rule.prototype-resolution] no Item prototype named 'Nope' "
            "(map Small, Item $Id=1 $Proto=Nope); fix: fix $Proto or add the prototype");
  auto j = r.to_json();
  EXPECT_EQ(j["findings"][1]["rule"], "map-format.rule.prototype-resolution");
  EXPECT_EQ(j["errors"], 1);
}

TEST(FomapLint, map_identity_same_name_in_two_files_of_a_pack) {
  auto a = MapContainer::from_text("[ProtoMap]\n$Name = Twin\n", "Maps/a.fomap");
  auto b = MapContainer::from_text("\n[ProtoMap]\n$Name = Twin\n", "Maps/b.fomap");
  auto all = declared_maps(a);
  for (auto& d : declared_maps(b)) all.push_back(d);
  auto r = lint_pack_identity(all);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].file, "Maps/b.fomap");
  EXPECT_EQ(r.findings[0].line, 2u);
  EXPECT_EQ(r.findings[0].check, "duplicate-name-in-pack");
}

TEST(FomapLint, multihex_mesh_cut_inside_a_pair_fails_the_strict_gate) {
  // A map cut in the middle of a mesh line: the engine would read `"42 3` as the hex 42 3.
  const std::string body =
      "[$Name/Item]\n$Id = 1\n$Proto = Wall\nHex = 40 30\nMultihexMesh = \\\n \"41 30\" \\\n \"42 3";
  auto strict = lint(body, true);
  const Finding* f = find(strict, "mesh-unterminated-quote");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, rule::kMultihexMesh);
  EXPECT_EQ(f->severity, core::Severity::error);
  EXPECT_EQ(f->line, 9u);  // the key's line: 4 header lines, then the item
  auto compat = lint(body, false);
  ASSERT_NE(find(compat, "mesh-unterminated-quote"), nullptr);
  EXPECT_EQ(find(compat, "mesh-unterminated-quote")->severity, core::Severity::warning);
  // The same mesh with the pair closed is clean.
  EXPECT_EQ(find(lint(body + "0\"\n", true), "mesh-unterminated-quote"), nullptr);
}

}  // namespace
}  // namespace sortie::fomap
