#pragma once
// Publishing one materialized FOnline map instance (spec/fomap.md §12.2, seed 004) into the
// sortie world runtime (libs/world). The bridge lives here because libs/world links no format
// reader and libs/fomap knows no runtime.
//
// Mapping (stable; it is part of the world state hash):
//   * every RuntimeEntity (critters, dynamic MapHex items, attached children) becomes one
//     world object with ObjectId {owner = options.owner (default: the world's local player),
//     class = mission::class_ids::kFomapCritter | kFomapItem, index = runtime id}; prototype key = proto name.
//   * transform: MapHex entities at position (x = hex_x, y = hex_y, z = 0), floats holding the
//     integer hex coordinates exactly; orientation 0, scale 1 (the critter Dir is a property,
//     hexes have no metric orientation). Children (inventory / container) sit at their owner's
//     position and are not visible (they are not on the map).
//   * properties, in this order (ints are int64, texts are strings):
//       fomap.kind ("Critter" | "Item"), fomap.authored_id, fomap.runtime_id,
//       fomap.ownership ("MapHex" | "CritterInventory" | "ItemContainer"),
//       MapHex:   fomap.hex_x, fomap.hex_y
//       children: fomap.owner_runtime_id, fomap.owner (the owner's ObjectId, "p1:c30:#7")
//       critters: fomap.dir, fomap.hex_blocked (0 | 1)
//       items:    fomap.count
//     (the materialized model carries no authored property bag and no CritterSlot; those are
//     not published.)
//   * static grid items (instance Static) get no runtime id and no world object: the grid stays
//     prepared data in fomap::MapStatics (class id mission::class_ids::kFomapStatic is reserved for them) and
//     the result only summarises it.
//
// Transactional: everything is validated first (no calculation pass running, the world not shut
// down, runtime ids in 1..2^32-1 and unused in the world, every child's owner in the same
// instance, on the map and of the right kind (inventory: a critter, container: an item), hexes
// exactly representable), then every object is created, then all are added to
// the game in creation order. A validation error leaves the world untouched (same state hash).
// Creation/registration cannot fail after validation; if it ever did, the objects created so far
// are deleted again and the error is returned (nothing stays registered).
//
// Note: the ids are explicit, so World::allocate_id() of the two fomap classes does not know
// them; a caller mixing both must keep the runtime id counter ahead.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/fomap/materialize.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/world/world.hpp"

namespace sortie::mission {

struct FomapPublishOptions {
  std::optional<world::PlayerId> owner;        // default: world.local_player()
  const fomap::MapStatics* statics = nullptr;  // when set, the static grid is summarised from it
};

// The static grid, kept aside as prepared data (not world objects).
struct StaticGridSummary {
  std::size_t static_items = 0;  // from the materialized map (always known)
  bool grid_known = false;       // options.statics was given
  std::int32_t width = 0;
  std::int32_t height = 0;
  std::size_t move_blocked_hexes = 0;
  std::size_t shoot_blocked_hexes = 0;
  std::size_t trigger_hexes = 0;
};

struct FomapPublishedObject {
  std::int64_t authored_id = 0;
  std::uint64_t runtime_id = 0;
  world::ObjectId id;
  world::Handle handle;
  fomap::EntityKind kind = fomap::EntityKind::item;
  fomap::Ownership ownership = fomap::Ownership::map_hex;
  std::uint64_t owner_runtime_id = 0;  // children only
};

struct FomapInstanceResult {
  std::string map;
  std::vector<FomapPublishedObject> objects;            // creation order = materialization order
  std::map<std::int64_t, world::ObjectId> by_authored;  // critters + dynamic map items (the id map)
  std::vector<fomap::SkippedChild> skipped;             // as materialize() reported them
  StaticGridSummary statics;
  std::size_t created = 0;
  std::size_t registered = 0;
  std::size_t children = 0;
  std::uint64_t state_hash = 0;  // world.compute_state_hash() right after publishing
  [[nodiscard]] const FomapPublishedObject* by_runtime_id(std::uint64_t runtime_id) const;
  [[nodiscard]] core::Json to_json() const;  // summary + mapping + skipped children
};

StaticGridSummary summarize_static_grid(const fomap::MapStatics& statics);

// Errors (`mission.fomap.*`): in_calculation, shut_down, id_range, id_taken, duplicate_runtime_id,
// owner_unknown, owner_level, owner_kind, hex_range; world.* errors from creation are passed through after rollback.
core::Result<FomapInstanceResult> publish_fomap_instance(const fomap::MaterializedMap& map, world::World& world,
                                                         const FomapPublishOptions& options = {});

}  // namespace sortie::mission
