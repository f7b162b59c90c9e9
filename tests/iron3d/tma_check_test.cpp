#include <gtest/gtest.h>

#include "sortie/formats/formats.hpp"
#include "sortie/iron3d/tma.hpp"

using namespace sortie::iron3d;

namespace {
Tma mission_with_clans() {
  Tma t;
  t.land_path = "DATA\\MAPS\\m\\land";
  auto& a = t.add_clan(TmaClan::standard("Player", 1, {0, 0}, "MISSIONS\\SCRIPTS\\p", 1, "", 0));
  a.add_relation("Enemy", -1);
  t.add_clan(TmaClan::standard("Enemy", 2, {0, 0}, "MISSIONS\\SCRIPTS\\e", 1, "", 0)).add_relation("Player", -1);
  return t;
}
}  // namespace

TEST(TmaCheck, consistent_relations_have_no_findings) {
  EXPECT_TRUE(check_tma(mission_with_clans()).empty());
}

TEST(TmaCheck, reports_relation_to_an_unknown_clan_with_its_field_path) {
  auto t = mission_with_clans();
  t.clans[1].add_relation("Nobody", 0);
  const auto f = check_tma(t, "m.tma");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].code, "tma.clan.relation_unknown");
  EXPECT_EQ(f[0].field, "clans[1].relations[1].other_clan");
  EXPECT_EQ(f[0].severity, sortie::core::Severity::warning);
  EXPECT_EQ(f[0].found, "'Nobody'");
}

TEST(TmaCheck, reports_self_relations_and_duplicate_names) {
  auto t = mission_with_clans();
  t.clans[0].add_relation("Player", 1);
  t.add_clan(TmaClan::standard("Enemy", 3, {0, 0}, "x", 0, "", 0));
  const auto f = check_tma(t);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].code, "tma.clan.name_duplicate");
  EXPECT_EQ(f[0].field, "clans[2].name");
  EXPECT_EQ(f[1].code, "tma.clan.relation_self");
}

TEST(TmaCheck, check_command_lists_the_findings_but_accepts_the_file) {
  auto t = mission_with_clans();
  t.clans[0].add_relation("Ghost", 0);
  auto bytes = write_tma(t);
  ASSERT_TRUE(bytes.has_value());
  const auto* f = sortie::formats::find_format("tma");
  ASSERT_NE(f, nullptr);
  auto report = f->check(*bytes, ReadOptions{sortie::core::Profile::strict, "data.tma"});
  ASSERT_TRUE(report.has_value());
  ASSERT_EQ(report->findings.size(), 1u);
  EXPECT_EQ(report->findings[0].code, "tma.clan.relation_unknown");
}
