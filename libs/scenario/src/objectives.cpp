#include "sortie/scenario/objectives.hpp"

#include "sortie/core/json.hpp"

namespace sortie::scenario {

std::string_view to_string(ObjectiveStatus status) {
  switch (status) {
    case ObjectiveStatus::active:
      return "active";
    case ObjectiveStatus::completed:
      return "completed";
    case ObjectiveStatus::failed:
      return "failed";
  }
  return "unknown";
}

std::string_view to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::none:
      return "none";
    case Outcome::win:
      return "win";
    case Outcome::lose:
      return "lose";
  }
  return "unknown";
}

const Objective* ScenarioState::find(std::string_view id) const {
  for (const Objective& o : objectives)
    if (o.id == id) return &o;
  return nullptr;
}

Objective* ScenarioState::find(std::string_view id) {
  for (Objective& o : objectives)
    if (o.id == id) return &o;
  return nullptr;
}

void ScenarioState::encode(world::StateWriter& out) const {
  out.u32(static_cast<std::uint32_t>(objectives.size()));
  for (const Objective& o : objectives) {
    out.str(o.id);
    out.str(o.text);
    out.u8(static_cast<std::uint8_t>(o.status));
    out.u64(o.changed_tick);
  }
  out.u8(static_cast<std::uint8_t>(outcome));
  out.str(reason);
  out.u64(outcome_tick);
}

void ScenarioState::image(nlohmann::json& out) const {
  core::Json list = core::Json::array();
  for (const Objective& o : objectives)
    list.push_back(core::Json::array(
        {core::bytes_text_json(o.id), core::bytes_text_json(o.text), to_string(o.status), o.changed_tick}));
  out = core::Json{{"objectives", std::move(list)},
                   {"outcome", to_string(outcome)},
                   {"reason", core::bytes_text_json(reason)},
                   {"outcome_tick", outcome_tick}};
}

}  // namespace sortie::scenario
