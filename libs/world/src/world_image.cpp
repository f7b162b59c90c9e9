// The world's state as data (world_image.hpp): the same state world_hash.cpp encodes, in the
// same orders, plus the pending commands (not the maintenance clock: real time, never hashed).
#include "sortie/world/world_image.hpp"

#include <algorithm>
#include <bit>

#include "sortie/core/hash.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/command_registry.hpp"

namespace sortie::world {

namespace {

core::Json handle_json(Handle h) {
  return core::Json::array({h.slot, h.generation});
}

core::Json handles_json(const std::vector<Handle>& handles) {
  core::Json out = core::Json::array();
  for (const Handle& h : handles) out.push_back(handle_json(h));
  return out;
}

core::Json properties_json(const Properties& p) {
  core::Json out = core::Json::array();
  for (const auto& [key, value] : p.items()) {
    core::Json v;
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
      v = *i;
    } else if (const auto* d = std::get_if<double>(&value)) {
      v = core::f64_json(*d);
    } else {
      v = core::bytes_text_json(std::get<std::string>(value));
    }
    out.push_back(core::Json::array({core::bytes_text_json(key), value.index(), std::move(v)}));
  }
  return out;
}

core::Json raw_properties_json(const RawProperties& p) {
  core::Json out = core::Json::array();
  for (const RawProperty& r : p.items())
    out.push_back(core::Json::array({core::bytes_text_json(r.name), core::to_hex(core::as_bytes(r.name_bytes)),
                                     r.words[0], r.words[1], r.words[2], r.words[3]}));
  return out;
}

std::string flags_of(const WorldObject& o) {
  std::string f;
  if (o.is_mirror()) f += 'm';
  if (o.registered()) f += 'r';
  if (o.pending_add()) f += 'a';
  if (o.pending_delete()) f += 'd';
  if (o.active) f += 'A';
  if (o.visible) f += 'V';
  return f;
}

core::Json object_json(const WorldObject& o, std::size_t slot, std::uint32_t generation) {
  core::Json components;
  o.components.image(components);
  core::Json controller;  // null
  if (o.controller) {
    controller = core::Json{{"kind", o.controller->kind()}};
    o.controller->image(controller["state"]);
  }
  const core::Transform& t = o.transform;
  return core::Json::array({core::hash_hex(o.id().raw()), slot, generation, o.ownership().owner, flags_of(o),
                            o.registration_sequence(), core::bytes_text_json(o.prototype_key),
                            core::vec3_json(t.position), core::vec3_json(t.orientation), core::vec3_json(t.scale),
                            properties_json(o.properties), raw_properties_json(o.raw_properties), std::move(components),
                            std::move(controller)});
}

}  // namespace

void Controller::image(nlohmann::json& out) const {
  StateWriter w;
  encode(w);
  encoding_image(w, out);
}

core::Json world_image(const World& w) {
  core::Json j;
  const GameClock& c = w.clock_;
  j["clock"] = core::Json::array({c.tick, c.step_us, c.time_us, c.dt_us, c.scale_permille, c.paused ? 1 : 0});
  core::Json rng = core::Json::array();
  for (const std::uint64_t s : w.sim_rng_.state()) rng.push_back(core::hash_hex(s));
  j["rng"] = std::move(rng);
  j["counters"] = core::Json::array(
      {w.config_.local_player, w.next_registration_, w.next_event_, w.commands_applied_, w.commands_skipped_});
  std::vector<std::pair<ClassId, std::uint32_t>> indices(w.next_index_.begin(), w.next_index_.end());
  std::sort(indices.begin(), indices.end());
  core::Json next_index = core::Json::array();
  for (const auto& [cls, next] : indices) next_index.push_back(core::Json::array({cls, next}));
  j["next_index"] = std::move(next_index);
  core::Json classes = core::Json::array();
  for (const ClassInfo& row : w.classes_.rows()) classes.push_back(core::Json::array({row.id, row.name}));
  j["classes"] = std::move(classes);
  j["slots"] = w.slots_.size();
  j["free_slots"] = core::Json(std::vector<std::uint32_t>(w.free_slots_.begin(), w.free_slots_.end()));
  j["object_fields"] = kImageObjectFields;
  core::Json objects = core::Json::array();
  for (std::size_t i = 0; i < w.slots_.size(); ++i) {
    if (const WorldObject* o = w.slots_[i].object.get()) objects.push_back(object_json(*o, i, w.slots_[i].generation));
  }
  j["objects"] = std::move(objects);
  j["queue"] = handles_json(w.queue_);
  core::Json events = core::Json::array();
  for (const Event& e : w.events_)
    events.push_back(core::Json::array({e.sequence, static_cast<std::uint32_t>(e.type), e.target.slot,
                                        e.target.generation, e.other.slot, e.other.generation, e.a, e.b}));
  j["events"] = std::move(events);
  j["deferred_delete"] = handles_json(w.deferred_delete_);
  j["deferred_add"] = handles_json(w.deferred_add_);
  CommandLog pending;
  for (const auto& [tick, command] : w.pending_commands_) pending.commands.push_back(command);
  auto log = command_log_json(pending, w.commands());
  j["pending_commands"] = log ? std::move((*log)["commands"]) : core::Json{{"error", log.error().to_string()}};
  return j;
}

}  // namespace sortie::world
