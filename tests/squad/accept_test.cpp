// The acceptance run: every scripted behaviour scenario passes, one map's combat passes, and the
// report prints one line per criterion.
#include "sortie/squad/accept.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "sortie/core/file_io.hpp"

namespace sortie::squad {
namespace {

TEST(Acceptance, every_behaviour_scenario_passes) {
  for (std::uint64_t seed : {1u, 2u}) {
    const auto list = run_scenarios(seed);
    EXPECT_GE(list.size(), 15u);
    for (const Criterion& c : list)
      EXPECT_TRUE(c.pass) << "seed " << seed << ": " << c.name << " " << c.figure << " need " << c.need;
  }
}

TEST(Acceptance, a_minute_of_combat_in_the_yard_passes) {
  auto map = load_squad_map(std::filesystem::path(SORTIE_SOURCE_DIR) / "data" / "squad" / "yard.txt");
  ASSERT_TRUE(map) << map.error().to_string();
  const NamedMap maps[1] = {{"yard.txt", *map}};
  AcceptOptions o;
  o.seed = 4;
  o.combat_seconds = 60.0;
  o.scenarios = false;
  const auto rep = run_acceptance(maps, o);
  ASSERT_TRUE(rep) << rep.error().to_string();
  ASSERT_EQ(rep->criteria.size(), 10u);
  for (const Criterion& c : rep->criteria) {
    EXPECT_EQ(c.scope, "yard.txt");
    EXPECT_TRUE(c.pass) << c.name << " " << c.figure << " need " << c.need;
  }
  EXPECT_TRUE(rep->ok());
  const std::string text = rep->to_text();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 11);
  EXPECT_NE(text.find("PASS  yard.txt"), std::string::npos);
  EXPECT_NE(text.find("FRIENDLY_HITS"), std::string::npos);
  EXPECT_NE(text.find("ACCEPTED: 10 of 10 criteria pass (seed 4)"), std::string::npos);
  const core::Json j = rep->to_json();
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["criteria"].size(), 10u);
}

TEST(Acceptance, one_failed_criterion_rejects) {
  AcceptReport rep;
  rep.seed = 1;
  rep.criteria.push_back({"m", "A", 0.0, "0", "= 0", true});
  rep.criteria.push_back({"m", "B", 1.0, "1", "= 0", false});
  EXPECT_FALSE(rep.ok());
  EXPECT_NE(rep.to_text().find("FAIL  m"), std::string::npos);
  EXPECT_NE(rep.to_text().find("REJECTED: 1 of 2"), std::string::npos);
  EXPECT_FALSE(AcceptReport{}.ok());  // nothing checked is not a pass
}

TEST(Documentation, the_map_format_page_lists_every_tuning_field) {
  const auto doc = core::read_text_file(std::filesystem::path(SORTIE_SOURCE_DIR) / "docs" / "squad-maps.md");
  ASSERT_TRUE(doc) << doc.error().to_string();
  for (const TuningField& f : tuning_fields()) {
    EXPECT_NE(doc->find("`" + std::string(f.name) + "`"), std::string::npos) << f.name;
  }
}

TEST(Acceptance, uptime_without_a_chance_to_fire_is_full) {
  CombatFigures f;
  EXPECT_EQ(f.uptime(), 1.0);
  f.holding_rifle_ticks_engageable = 4;
  f.holding_rifle_ticks_with_lane = 3;
  EXPECT_EQ(f.uptime(), 0.75);
}

}  // namespace
}  // namespace sortie::squad
