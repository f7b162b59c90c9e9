// Publishing a materialized FOnline map instance into the world (see fomap_instance.hpp for the
// id / transform / property mapping and the transactional order).
#include "sortie/mission/fomap_instance.hpp"

#include <fmt/format.h>

#include <set>
#include <unordered_map>

#include "sortie/core/hash.hpp"

namespace sortie::mission {

namespace {

using core::Diagnostic;
using fomap::EntityKind;
using fomap::RuntimeEntity;

constexpr std::int32_t kMaxExactHex = 1 << 24;  // every int up to 2^24 is an exact float

std::string entity_path(const RuntimeEntity& e) {
  return fmt::format("{} $Id={} $Proto={}", e.kind == EntityKind::critter ? "Critter" : "Item", e.authored_id, e.proto);
}

world::ObjectId object_id_of(world::PlayerId owner, const RuntimeEntity& e) {
  return world::ObjectId{
      owner, e.kind == EntityKind::critter ? mission::class_ids::kFomapCritter : mission::class_ids::kFomapItem,
      static_cast<std::uint32_t>(e.runtime_id)};
}

// Everything that could make creation or registration fail, checked before the world changes.
core::Status validate(const fomap::MaterializedMap& map, const world::World& world, world::PlayerId owner) {
  if (world.phase() == world::Phase::shut_down)
    return core::fail(Diagnostic::error("mission.fomap.shut_down", "the world is shut down").in(map.map));
  if (world.in_calculation())
    return core::fail(Diagnostic::error("mission.fomap.in_calculation",
                                        "a map instance is published between calculation passes, not inside one")
                          .in(map.map));
  std::unordered_map<std::uint64_t, const RuntimeEntity*> batch;
  batch.reserve(map.entities.size());
  for (const RuntimeEntity& e : map.entities) {
    if (e.runtime_id == 0 || e.runtime_id > UINT32_MAX)
      return core::fail(Diagnostic::error("mission.fomap.id_range", "runtime id does not fit an object index")
                            .in(entity_path(e))
                            .expect("1..4294967295", std::to_string(e.runtime_id)));
    if (!batch.emplace(e.runtime_id, &e).second)
      return core::fail(Diagnostic::error("mission.fomap.duplicate_runtime_id", "two entities share a runtime id")
                            .in(entity_path(e))
                            .expect("unique runtime id", std::to_string(e.runtime_id)));
    const world::ObjectId id = object_id_of(owner, e);
    if (world.lookup(id))
      return core::fail(Diagnostic::error("mission.fomap.id_taken", "the world already has an object with this id")
                            .in(entity_path(e))
                            .expect("unused object id", id.to_string()));
    if (e.ownership == fomap::Ownership::map_hex &&
        (e.hex.x <= -kMaxExactHex || e.hex.x >= kMaxExactHex || e.hex.y <= -kMaxExactHex || e.hex.y >= kMaxExactHex))
      return core::fail(Diagnostic::error("mission.fomap.hex_range", "hex is not exactly representable as a position")
                            .in(entity_path(e))
                            .expect("|hex| < 16777216", fmt::format("{} {}", e.hex.x, e.hex.y)));
  }
  for (const RuntimeEntity& e : map.entities) {
    if (e.ownership == fomap::Ownership::map_hex) continue;
    if (e.ownership == fomap::Ownership::nowhere || batch.count(e.owner_runtime_id) == 0)
      return core::fail(Diagnostic::error("mission.fomap.owner_unknown", "a child's owner is not part of this instance")
                            .in(entity_path(e))
                            .expect("owner runtime id of this instance", std::to_string(e.owner_runtime_id)));
    const RuntimeEntity& holder = *batch.at(e.owner_runtime_id);
    if (holder.ownership != fomap::Ownership::map_hex)
      return core::fail(
          Diagnostic::error("mission.fomap.owner_level", "a child's owner is itself a child (one level only)")
              .in(entity_path(e))
              .expect("a critter or dynamic map item", entity_path(holder)));
    const bool inventory = e.ownership == fomap::Ownership::critter_inventory;
    if ((holder.kind == EntityKind::critter) != inventory)
      return core::fail(
          Diagnostic::error("mission.fomap.owner_kind", inventory ? "an inventory child's owner is not a critter"
                                                                  : "a container child's owner is not an item")
              .in(entity_path(e))
              .expect(inventory ? "a critter" : "an item", entity_path(holder)));
  }
  return {};
}

void set_properties(world::Properties& p, const RuntimeEntity& e, const world::ObjectId* owner_id) {
  const bool critter = e.kind == EntityKind::critter;
  p.set("fomap.kind", std::string(critter ? "Critter" : "Item"));
  p.set("fomap.authored_id", e.authored_id);
  p.set("fomap.runtime_id", static_cast<std::int64_t>(e.runtime_id));
  p.set("fomap.ownership", std::string(fomap::to_string(e.ownership)));
  if (e.ownership == fomap::Ownership::map_hex) {
    p.set("fomap.hex_x", std::int64_t{e.hex.x});
    p.set("fomap.hex_y", std::int64_t{e.hex.y});
  } else {
    p.set("fomap.owner_runtime_id", static_cast<std::int64_t>(e.owner_runtime_id));
    p.set("fomap.owner", owner_id != nullptr ? owner_id->to_string() : std::string());
  }
  if (critter) {
    p.set("fomap.dir", std::int64_t{e.dir});
    p.set("fomap.hex_blocked", std::int64_t{e.hex_blocked ? 1 : 0});
  } else {
    p.set("fomap.count", std::int64_t{e.count});
  }
}

void roll_back(world::World& world, const std::vector<world::Handle>& handles) {
  for (auto it = handles.rbegin(); it != handles.rend(); ++it) (void)world.request_delete(*it);
}

}  // namespace

StaticGridSummary summarize_static_grid(const fomap::MapStatics& statics) {
  StaticGridSummary s;
  s.static_items = statics.static_items.size();
  s.grid_known = true;
  s.width = statics.size.width;
  s.height = statics.size.height;
  for (std::uint8_t c : statics.cells) {
    s.move_blocked_hexes += (c & fomap::kCellMoveBlocked) != 0;
    s.shoot_blocked_hexes += (c & fomap::kCellShootBlocked) != 0;
    s.trigger_hexes += (c & fomap::kCellTrigger) != 0;
  }
  return s;
}

const FomapPublishedObject* FomapInstanceResult::by_runtime_id(std::uint64_t runtime_id) const {
  for (const auto& o : objects)
    if (o.runtime_id == runtime_id) return &o;
  return nullptr;
}

core::Result<FomapInstanceResult> publish_fomap_instance(const fomap::MaterializedMap& map, world::World& world,
                                                         const FomapPublishOptions& options) {
  const world::PlayerId owner = options.owner.value_or(world.local_player());
  SORTIE_CHECK(validate(map, world, owner));
  SORTIE_CHECK(world.classes().add(kClasses));

  FomapInstanceResult r;
  r.map = map.map;
  r.skipped = map.skipped;
  if (options.statics != nullptr) r.statics = summarize_static_grid(*options.statics);
  r.statics.static_items = map.static_items;

  // Step 1: construct every object (unregistered).
  std::unordered_map<std::uint64_t, std::size_t> index_of;  // runtime id -> index in r.objects
  std::vector<world::Handle> created;
  created.reserve(map.entities.size());
  r.objects.reserve(map.entities.size());
  for (const RuntimeEntity& e : map.entities) {
    const world::ObjectId id = object_id_of(owner, e);
    index_of.emplace(e.runtime_id, r.objects.size());
    FomapPublishedObject o{e.authored_id, e.runtime_id, id, {}, e.kind, e.ownership, e.owner_runtime_id};
    r.objects.push_back(o);
  }
  for (std::size_t i = 0; i < map.entities.size(); ++i) {
    const RuntimeEntity& e = map.entities[i];
    FomapPublishedObject& o = r.objects[i];
    const bool on_map = e.ownership == fomap::Ownership::map_hex;
    const world::ObjectId* owner_id = on_map ? nullptr : &r.objects[index_of.at(e.owner_runtime_id)].id;
    core::Transform t;
    if (on_map) {
      t.position = {static_cast<float>(e.hex.x), static_cast<float>(e.hex.y), 0.0f};
    } else {
      // The owner's hex (one level: the owner is a critter or a dynamic map item).
      const RuntimeEntity& holder = map.entities[index_of.at(e.owner_runtime_id)];
      t.position = {static_cast<float>(holder.hex.x), static_cast<float>(holder.hex.y), 0.0f};
    }
    auto h = world.create_object(o.id, e.proto, t);
    if (!h) {
      roll_back(world, created);
      return core::fail(std::move(h.error()));
    }
    created.push_back(*h);
    o.handle = *h;
    world::WorldObject* obj = world.find(*h);
    obj->visible = on_map;
    set_properties(obj->properties, e, owner_id);
  }
  r.created = created.size();

  // Step 2: register everything at once, in creation order.
  for (const world::Handle& h : created) {
    if (auto st = world.add_to_game(h); !st) {
      roll_back(world, created);
      return core::fail(std::move(st.error()));
    }
  }
  for (const world::Handle& h : created) r.registered += world.find(h)->registered() ? 1 : 0;
  for (const auto& o : r.objects) {
    if (o.ownership != fomap::Ownership::map_hex) ++r.children;
  }
  for (const auto& [authored, runtime] : map.id_map) {
    auto it = index_of.find(runtime);
    if (it != index_of.end()) r.by_authored.emplace(authored, r.objects[it->second].id);
  }
  r.state_hash = world.compute_state_hash();
  return r;
}

core::Json FomapInstanceResult::to_json() const {
  core::Json objs = core::Json::array();
  for (const auto& o : objects) {
    core::Json j{{"authored_id", o.authored_id},
                 {"runtime_id", o.runtime_id},
                 {"object_id", o.id.to_string()},
                 {"kind", o.kind == EntityKind::critter ? "Critter" : "Item"},
                 {"ownership", std::string(fomap::to_string(o.ownership))}};
    if (o.ownership != fomap::Ownership::map_hex) j["owner_runtime_id"] = o.owner_runtime_id;
    objs.push_back(std::move(j));
  }
  core::Json skip = core::Json::array();
  for (const auto& s : skipped)
    skip.push_back({{"authored_id", s.authored_id},
                    {"proto", s.proto},
                    {"ownership", std::string(fomap::to_string(s.ownership))},
                    {"owner_authored_id", s.owner_authored_id},
                    {"reason_code", s.reason_code},
                    {"reason", s.reason}});
  core::Json grid{{"static_items", statics.static_items}};
  if (statics.grid_known) {
    grid["size"] = {statics.width, statics.height};
    grid["move_blocked_hexes"] = statics.move_blocked_hexes;
    grid["shoot_blocked_hexes"] = statics.shoot_blocked_hexes;
    grid["trigger_hexes"] = statics.trigger_hexes;
  }
  return core::Json{{"map", map},
                    {"objects", created},
                    {"registered", registered},
                    {"children", children},
                    {"state_hash", core::hash_hex(state_hash)},
                    {"static_grid", grid},
                    {"mapping", objs},
                    {"skipped", skip}};
}

}  // namespace sortie::mission
