#pragma once
// Runtime side of baked maps (spec/fomap.md §12, contract seeds/004 "Статические и динамические
// предметы"), as a self-contained model: libs/world (the runtime) is built separately, so this
// header owns a small MaterializedMap that can later be published into the world.
//
// 1. Server static load (once per map resource): critter billets, static grid items with their
//    cell flags, dynamic map-hex billets and child billets, decided by the **instance** Static flag.
// 2. Per-instance materialization: critters and dynamic map items get fresh runtime ids (the
//    authored -> runtime id map), then children are attached one level deep; a child whose owner
//    has no runtime id is skipped and reported with the reason.
// 3. Client static load: one view item per client record, forced static, authored id kept.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/fomap/bake.hpp"
#include "sortie/fomap/map_blob.hpp"
#include "sortie/fomap/multihex.hpp"

namespace sortie::fomap {

enum class Ownership : std::uint8_t { map_hex = 0, critter_inventory = 1, item_container = 2, nowhere = 3 };
std::string_view to_string(Ownership o);  // the engine enum names: "MapHex", ...

// Cell flags of the static grid.
inline constexpr std::uint8_t kCellMoveBlocked = 1;
inline constexpr std::uint8_t kCellShootBlocked = 2;
inline constexpr std::uint8_t kCellTrigger = 4;

struct MapSize {
  std::int32_t width = 0;
  std::int32_t height = 0;
  [[nodiscard]] bool contains(Hex h) const { return h.x >= 0 && h.y >= 0 && h.x < width && h.y < height; }
};

// A decoded baked record (what the runtime reads from the property blob).
struct Billet {
  std::int64_t authored_id = 0;
  std::uint64_t proto_hash = 0;
  std::string proto;  // resolved through the proto-name lookup ("" when unknown)
  Hex hex;
  std::int32_t dir = 0;  // critters: angle
  Ownership ownership = Ownership::map_hex;
  std::int64_t critter_id = 0;
  std::int64_t container_id = 0;
  bool is_static = false;
  bool no_block = false;
  bool shoot_thru = false;
  bool is_trigger = false;
  std::vector<Hex> footprint;  // static items: every in-bounds cell they cover
};

struct MapStatics {
  std::string map;
  MapSize size;
  std::vector<Billet> critters;                      // file order
  std::vector<Billet> static_items;                  // instance Static
  std::map<std::int64_t, std::size_t> static_by_id;  // authored id -> index in static_items
  std::vector<Billet> hex_items;                     // non-static MapHex
  std::vector<Billet> child_items;                   // non-static CritterInventory / ItemContainer
  std::vector<std::uint8_t> cells;                   // width*height, kCell* flags
  [[nodiscard]] std::uint8_t cell(Hex h) const {
    return size.contains(h) ? cells[static_cast<std::size_t>(h.y) * static_cast<std::size_t>(size.width) +
                                    static_cast<std::size_t>(h.x)]
                            : 0;
  }
};

// Proto hash -> proto name (the runtime resolves protos by hash; the names come from the
// project's proto catalog).
using ProtoNames = std::map<std::uint64_t, std::string>;
ProtoNames proto_names_of(const Project& project);

// Server static load (§12.1). Errors (`fomap.runtime.*`): a blob the registrar cannot read, an
// unknown proto hash, a critter or MapHex item outside `size`, a static item not on MapHex,
// `Nowhere` ownership.
core::Result<MapStatics> load_server_statics(const ServerMapBlob& blob, std::string map, MapSize size,
                                             const BakeRegistrars& registrars, const ProtoNames& protos);

enum class EntityKind : std::uint8_t { critter, item };

struct RuntimeEntity {
  std::uint64_t runtime_id = 0;
  EntityKind kind = EntityKind::item;
  std::int64_t authored_id = 0;
  std::string proto;
  Hex hex;               // map entities
  std::int32_t dir = 0;  // critters
  Ownership ownership = Ownership::map_hex;
  std::uint64_t owner_runtime_id = 0;  // children: the critter / container they were attached to
  std::int32_t count = 0;              // items: 1 (CreateItem with count 0 resets it)
  bool hex_blocked = false;            // critters: the authored hex is move-blocked (the engine relocates)
};

struct SkippedChild {
  std::int64_t authored_id = 0;
  std::string proto;
  Ownership ownership = Ownership::map_hex;
  std::int64_t owner_authored_id = 0;
  std::string reason_code;  // "owner-static", "owner-is-child", "owner-missing"
  std::string reason;
};

struct MaterializedMap {
  std::string map;
  std::vector<RuntimeEntity> entities;           // creation order
  std::map<std::int64_t, std::uint64_t> id_map;  // authored -> runtime (critters + dynamic map items)
  std::vector<SkippedChild> skipped;
  std::size_t static_items = 0;
  [[nodiscard]] const RuntimeEntity* by_runtime_id(std::uint64_t id) const;
  [[nodiscard]] core::Json to_json() const;
};

// Per-instance materialization (§12.2). `next_runtime_id` is advanced for every created entity.
// Errors: an inventory child whose owner id maps to an item, or a container child whose owner
// maps to a critter (`fomap.runtime.owner_kind`; the engine throws at map creation).
core::Result<MaterializedMap> materialize(const MapStatics& statics, std::uint64_t& next_runtime_id);

// Client static load (§12.3): every record must resolve, be MapHex and lie inside `size`.
struct ClientStatic {
  std::int64_t authored_id = 0;
  std::string proto;
  Hex hex;
};
core::Result<std::vector<ClientStatic>> load_client_statics(const ClientMapBlob& blob, MapSize size,
                                                            const BakeRegistrars& registrars, const ProtoNames& protos);

// Size of a map from its proto (`Size`), looked up in the project first, else in the container's anchor.
std::optional<MapSize> map_size_of(const MapContainer& container, const MapDefinition& map, const Project& project);

// ---- The whole runtime path of a container (what `sortie fomap materialize` runs) ----------

struct MaterializedInstance {
  MapStatics statics;
  MaterializedMap materialized;
  std::vector<ClientStatic> client_items;
  // materialized.to_json() plus `server_static` (billet counts) and `client_static_items`.
  [[nodiscard]] core::Json to_json() const;
};

struct InstanceOutcome {
  std::string map;
  std::optional<MaterializedInstance> instance;  // set when every step succeeded
  core::Diagnostics errors;                      // the first failing step's errors (file = the container)
};

// For each map of the container (only `only` when given): bake it in memory, read both blobs
// back the way the runtime reads them, load the server statics, materialize one instance (runtime
// ids from `first_runtime_id` on, continuing across maps) and load the client statics. A failing
// map does not stop the others. `fomap.materialize.no_map` when the container declares no (such) map.
core::Result<std::vector<InstanceOutcome>> materialize_container(const MapContainer& container, const Project& project,
                                                                 const BakeRegistrars& registrars,
                                                                 std::string_view only = {},
                                                                 std::uint64_t first_runtime_id = 1);

}  // namespace sortie::fomap
