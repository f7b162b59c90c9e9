// The movement stack's state as data for a save's world image (docs/save-files.md): the same
// fields as the components' and the system's canonical encodings (the state hash), named.
#include "sortie/core/hash.hpp"
#include "sortie/core/json.hpp"
#include "sortie/move/components.hpp"
#include "sortie/move/move_system.hpp"

namespace sortie::move {

namespace {

core::Json points_json(const std::vector<core::Vec2>& points) {
  core::Json out = core::Json::array();
  for (const core::Vec2& p : points) out.push_back(core::vec2_json(p));
  return out;
}

}  // namespace

void Body::image(nlohmann::json& out) const {
  out = core::Json{{"shape", static_cast<int>(shape)},
                   {"radius", core::f32_json(radius)},
                   {"height", core::f32_json(height)},
                   {"max_speed", core::f32_json(max_speed)},
                   {"category", category},
                   {"collides_with", collides_with},
                   {"static", is_static},
                   {"revision", revision}};
}

void BehaviorState::image(nlohmann::json& out) const {
  out = core::Json{{"mode", to_string(mode)},           {"failure", to_string(failure)},
                   {"target", core::vec2_json(target)}, {"speed", core::f32_json(speed)},
                   {"path_revision", path_revision},    {"global_path", global_path},
                   {"route_index", route_index},        {"current_areal", current_areal},
                   {"origin", core::vec2_json(origin)}, {"local_path", points_json(local_path)},
                   {"next_point", next_point},          {"replans_without_progress", replans_without_progress}};
}

void WizardState::image(nlohmann::json& out) const {
  out = core::Json{{"path", points_json(path)},
                   {"avoiding", core::hash_hex(avoiding.raw())},
                   {"requested", core::vec2_json(requested)},
                   {"corrected", core::vec2_json(corrected)},
                   {"clears", clears}};
}

void ControlState::image(nlohmann::json& out) const {
  out = core::Json{{"speed", core::f32_json(speed)},
                   {"heading", core::f32_json(heading)},
                   {"requested_speed", core::f32_json(requested_speed)},
                   {"requested_turn", core::f32_json(requested_turn)},
                   {"linear_velocity", core::vec3_json(linear_velocity)},
                   {"angular_velocity", core::f32_json(angular_velocity)},
                   {"flags", flags},
                   {"manual_speed", core::f32_json(manual_speed)},
                   {"manual_turn", core::f32_json(manual_turn)}};
}

void CollisionProxy::image(nlohmann::json& out) const {
  out = core::Json{{"shape", static_cast<int>(shape)},
                   {"radius", core::f32_json(radius)},
                   {"height", core::f32_json(height)},
                   {"category", category},
                   {"collides_with", collides_with},
                   {"static", is_static},
                   {"body_revision", body_revision},
                   {"model_key", core::hash_hex(model_key)},
                   {"rebuilds", rebuilds}};
}

void MoveSystem::image(nlohmann::json& out) const {
  core::Json members = core::Json::array();
  for (const world::ObjectId& id : members_) members.push_back(core::hash_hex(id.raw()));
  core::Json contacts = core::Json::array();
  for (const auto& [a, b] : contacts_) contacts.push_back(core::Json::array({core::hash_hex(a), core::hash_hex(b)}));
  core::Json diagnostics = core::Json::array();
  for (const core::Diagnostic& d : diagnostics_) diagnostics.push_back(core::Json::array({d.code, d.field}));
  out = core::Json{{"members", std::move(members)},
                   {"contacts", std::move(contacts)},
                   {"stats", core::Json::array({stats_.steps, stats_.contacts, stats_.blocked_moves, stats_.arrivals,
                                                stats_.failures, stats_.replans, stats_.proxies_rebuilt})},
                   {"diagnostics", std::move(diagnostics)}};
}

}  // namespace sortie::move
