// The names of the squad state enums (state.hpp): every value has its own name, the one the
// enumerator is spelled with, for logs, the HUD and the viewer's state line.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sortie/squad/state.hpp"

namespace sortie::squad {
namespace {

TEST(StateNames, squad_state_role_and_melee_phase) {
  EXPECT_EQ(to_string(SquadState::advancing), "advancing");
  EXPECT_EQ(to_string(SquadState::holding), "holding");
  EXPECT_EQ(to_string(Role::rifle), "rifle");
  EXPECT_EQ(to_string(Role::blade), "blade");
  EXPECT_EQ(to_string(MeleePhase::idle), "idle");
  EXPECT_EQ(to_string(MeleePhase::windup), "windup");
  EXPECT_EQ(to_string(MeleePhase::active), "active");
  EXPECT_EQ(to_string(MeleePhase::recovery), "recovery");
  EXPECT_EQ(to_string(MeleePhase::rest), "rest");
}

TEST(StateNames, reject_reasons) {
  EXPECT_EQ(to_string(Reject::none), "none");
  EXPECT_EQ(to_string(Reject::outside), "outside");
  EXPECT_EQ(to_string(Reject::wall), "wall");
  EXPECT_EQ(to_string(Reject::crowded), "crowded");
  EXPECT_EQ(to_string(Reject::hard_limit), "hard_limit");
  EXPECT_EQ(to_string(Reject::unreachable), "unreachable");
  EXPECT_EQ(to_string(Reject::unused), "unused");
}

TEST(StateNames, event_kinds_are_named_and_distinct) {
  EXPECT_EQ(to_string(EventKind::state_changed), "state_changed");
  EXPECT_EQ(to_string(EventKind::friendly_hit), "friendly_hit");
  EXPECT_EQ(to_string(EventKind::melee_withheld), "melee_withheld");
  std::set<std::string> names;
  const auto first = static_cast<int>(EventKind::state_changed);
  const auto last = static_cast<int>(EventKind::melee_withheld);
  for (int k = first; k <= last; ++k) names.emplace(to_string(static_cast<EventKind>(k)));
  EXPECT_EQ(names.size(), 17u);
  EXPECT_EQ(names.count("unknown"), 0u);
  EXPECT_EQ(to_string(static_cast<EventKind>(0)), "unknown");
}

}  // namespace
}  // namespace sortie::squad
