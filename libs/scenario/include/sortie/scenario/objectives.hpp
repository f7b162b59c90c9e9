#pragma once
// A mission's objectives and its outcome: world state (a component on the scenario object, class
// scenario), changed only through the scenario command kinds, so it is hashed, logged, replayed
// and mirrored to clients like everything else. Lua mission scripts, the native handlers (30: the
// host's mission failed / complete callback) and SuperAI all go through the same commands.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/world/state_writer.hpp"

namespace sortie::scenario {

enum class ObjectiveStatus : std::uint8_t { active = 0, completed = 1, failed = 2 };
enum class Outcome : std::uint8_t { none = 0, win = 1, lose = 2 };

std::string_view to_string(ObjectiveStatus status);
std::string_view to_string(Outcome outcome);

struct Objective {
  std::string id;    // the script's key ("reach_depot"), unique within the mission
  std::string text;  // what the player reads
  ObjectiveStatus status = ObjectiveStatus::active;
  std::uint64_t changed_tick = 0;  // the tick of the last status change
};

// The component on the scenario object: objectives in the order they were added, the outcome
// once decided (it never changes afterwards) and its reason.
struct ScenarioState {
  static constexpr std::string_view kComponentName = "scenario.state";
  std::vector<Objective> objectives;
  Outcome outcome = Outcome::none;
  std::string reason;
  std::uint64_t outcome_tick = 0;

  [[nodiscard]] const Objective* find(std::string_view id) const;
  Objective* find(std::string_view id);
  void encode(world::StateWriter& out) const;
  // A save's image: {"objectives": [[id, text, status, changed_tick], ...], "outcome", "reason",
  // "outcome_tick"}.
  void image(nlohmann::json& out) const;
};

}  // namespace sortie::scenario
