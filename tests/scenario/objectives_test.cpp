#include "sortie/scenario/objectives.hpp"

#include <gtest/gtest.h>

namespace sortie::scenario {
namespace {

std::vector<std::uint8_t> encoded(const ScenarioState& s) {
  world::StateWriter out;
  s.encode(out);
  const auto v = out.view();
  return {v.begin(), v.end()};
}

TEST(ScenarioState, finds_objectives_by_id_in_the_order_they_were_added) {
  ScenarioState s;
  s.objectives.push_back({"reach", "Reach the depot", ObjectiveStatus::active, 0});
  s.objectives.push_back({"hold", "Hold it", ObjectiveStatus::active, 0});
  ASSERT_NE(s.find("hold"), nullptr);
  EXPECT_EQ(s.find("hold")->text, "Hold it");
  EXPECT_EQ(s.find("missing"), nullptr);
  EXPECT_EQ(&s.objectives[0], s.find("reach"));
}

TEST(ScenarioState, every_field_reaches_the_state_encoding) {
  ScenarioState base;
  base.objectives.push_back({"reach", "Reach the depot", ObjectiveStatus::active, 0});
  const auto reference = encoded(base);
  ScenarioState status = base;
  status.objectives[0].status = ObjectiveStatus::completed;
  ScenarioState tick = base;
  tick.objectives[0].changed_tick = 7;
  ScenarioState outcome = base;
  outcome.outcome = Outcome::lose;
  ScenarioState reason = base;
  reason.reason = "the convoy was lost";
  for (const ScenarioState* other : {&status, &tick, &outcome, &reason}) EXPECT_NE(encoded(*other), reference);
  EXPECT_EQ(to_string(Outcome::win), "win");
  EXPECT_EQ(to_string(ObjectiveStatus::failed), "failed");
}

}  // namespace
}  // namespace sortie::scenario
