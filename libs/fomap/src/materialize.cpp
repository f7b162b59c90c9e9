// Server static load, per-instance materialization and client static load (spec/fomap.md §12).
#include "sortie/fomap/materialize.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sortie/core/bytes.hpp"
#include "sortie/fomap/hash.hpp"
#include "sortie/fomap/values.hpp"

namespace sortie::fomap {
namespace {

using core::Diagnostic;

core::Result<Billet> decode_billet(const MapRecord& rec, const Registrar& reg, const ProtoNames& protos, MapSize size,
                                   std::string_view what) {
  Billet b;
  b.authored_id = rec.id;
  b.proto_hash = rec.proto_hash;
  const std::string field = fmt::format("{} $Id={}", what, rec.id);
  auto p = protos.find(rec.proto_hash);
  if (p == protos.end())
    return core::fail(Diagnostic::error("fomap.runtime.proto_unknown", "proto hash does not resolve")
                          .in(field)
                          .expect("a proto of the project", hash_text(rec.proto_hash)));
  b.proto = p->second;
  auto data =
      read_property_blob(rec.props, reg.layout().pod_size(), static_cast<std::uint32_t>(reg.layout().complex_count()));
  if (!data) return core::fail(std::move(data).error().within(field));
  auto get = [&](std::string_view name, std::uint32_t f = 0) { return reg.plain_int(*data, name, f).value_or(0); };
  b.hex = Hex{static_cast<std::int32_t>(get("Hex", 0)), static_cast<std::int32_t>(get("Hex", 1))};
  b.dir = static_cast<std::int32_t>(get("Dir"));
  const std::int64_t own = get("Ownership");
  b.ownership = own >= 0 && own <= 3 ? static_cast<Ownership>(own) : Ownership::nowhere;
  b.critter_id = get("CritterId");
  b.container_id = get("ContainerId");
  b.is_static = get("Static") != 0;
  b.no_block = get("NoBlock") != 0;
  b.shoot_thru = get("ShootThru") != 0;
  b.is_trigger = get("IsTrigger") != 0;
  if (b.is_static) {
    std::vector<std::uint8_t> lines;
    if (auto l = reg.complex(*data, "MultihexLines")) lines.assign(l->begin(), l->end());
    std::vector<Hex> cells{b.hex};
    if (auto m = reg.complex(*data, "MultihexMesh")) {
      for (std::size_t i = 0; i + 4 <= m->size(); i += 4)
        cells.push_back(Hex{core::load_i16(m->data() + i), core::load_i16(m->data() + i + 2)});
    }
    // The contract: lines are expanded around the anchor and around every mesh cell.
    std::vector<Hex> fp;
    for (const Hex& c : cells) {
      if (size.contains(c)) fp.push_back(c);
      for (const Hex& h : multihex_lines(lines, c, size.width, size.height)) fp.push_back(h);
    }
    std::sort(fp.begin(), fp.end(), [](Hex a, Hex c) { return a.y != c.y ? a.y < c.y : a.x < c.x; });
    fp.erase(std::unique(fp.begin(), fp.end()), fp.end());
    b.footprint = std::move(fp);
  }
  return b;
}

Diagnostic out_of_bounds(const Billet& b, std::string_view what, MapSize size) {
  return Diagnostic::error("fomap.runtime.hex_out_of_bounds", fmt::format("{} hex outside the map", what))
      .in(fmt::format("{} $Id={} $Proto={}", what, b.authored_id, b.proto))
      .expect(fmt::format("0 <= x < {}, 0 <= y < {}", size.width, size.height), fmt::format("{} {}", b.hex.x, b.hex.y));
}

}  // namespace

std::string_view to_string(Ownership o) {
  switch (o) {
    case Ownership::map_hex:
      return "MapHex";
    case Ownership::critter_inventory:
      return "CritterInventory";
    case Ownership::item_container:
      return "ItemContainer";
    case Ownership::nowhere:
      return "Nowhere";
  }
  return "Nowhere";
}

ProtoNames proto_names_of(const Project& project) {
  ProtoNames names;
  for (const auto& [key, proto] : project.protos.all()) names.emplace(string_hash(proto.name), proto.name);
  return names;
}

core::Result<MapStatics> load_server_statics(const ServerMapBlob& blob, std::string map, MapSize size,
                                             const BakeRegistrars& regs, const ProtoNames& protos) {
  MapStatics s;
  s.map = std::move(map);
  s.size = size;
  if (size.width < 0 || size.height < 0 ||
      static_cast<std::uint64_t>(size.width) * static_cast<std::uint64_t>(size.height) > (1u << 26))
    return core::fail(Diagnostic::error("fomap.runtime.size", "map size is negative or too large")
                          .expect("0..8192 x 0..8192", fmt::format("{} {}", size.width, size.height)));
  s.cells.assign(static_cast<std::size_t>(size.width) * static_cast<std::size_t>(size.height), 0);
  for (const MapRecord& rec : blob.critters) {
    SORTIE_TRY(Billet b, decode_billet(rec, regs.critter_server, protos, size, "Critter"));
    if (!size.contains(b.hex)) return core::fail(out_of_bounds(b, "Critter", size));
    s.critters.push_back(std::move(b));
  }
  for (const MapRecord& rec : blob.items) {
    SORTIE_TRY(Billet b, decode_billet(rec, regs.item_server, protos, size, "Item"));
    if (b.ownership == Ownership::map_hex && !size.contains(b.hex)) return core::fail(out_of_bounds(b, "Item", size));
    if (b.is_static) {
      if (b.ownership != Ownership::map_hex)
        return core::fail(Diagnostic::error("fomap.runtime.static_not_map_hex", "static item is not on a map hex")
                              .in(fmt::format("Item $Id={} $Proto={}", b.authored_id, b.proto))
                              .expect("MapHex", std::string(to_string(b.ownership))));
      std::uint8_t flags = 0;
      if (!b.no_block) flags |= kCellMoveBlocked;
      if (!b.shoot_thru) flags |= kCellMoveBlocked | kCellShootBlocked;
      if (b.is_trigger) flags |= kCellTrigger;
      for (const Hex& h : b.footprint)
        s.cells[static_cast<std::size_t>(h.y) * static_cast<std::size_t>(size.width) + static_cast<std::size_t>(h.x)] |=
            flags;
      s.static_by_id[b.authored_id] = s.static_items.size();
      s.static_items.push_back(std::move(b));
    } else if (b.ownership == Ownership::map_hex) {
      s.hex_items.push_back(std::move(b));
    } else if (b.ownership == Ownership::critter_inventory || b.ownership == Ownership::item_container) {
      s.child_items.push_back(std::move(b));
    } else {
      return core::fail(Diagnostic::error("fomap.runtime.ownership", "item ownership cannot be materialized")
                            .in(fmt::format("Item $Id={} $Proto={}", b.authored_id, b.proto))
                            .expect("MapHex, CritterInventory or ItemContainer", std::string(to_string(b.ownership))));
    }
  }
  return s;
}

const RuntimeEntity* MaterializedMap::by_runtime_id(std::uint64_t id) const {
  for (const auto& e : entities)
    if (e.runtime_id == id) return &e;
  return nullptr;
}

core::Result<MaterializedMap> materialize(const MapStatics& statics, std::uint64_t& next_runtime_id) {
  MaterializedMap m;
  m.map = statics.map;
  m.static_items = statics.static_items.size();
  std::map<std::uint64_t, EntityKind> kind_of;
  for (const Billet& b : statics.critters) {
    RuntimeEntity e;
    e.runtime_id = next_runtime_id++;
    e.kind = EntityKind::critter;
    e.authored_id = b.authored_id;
    e.proto = b.proto;
    e.hex = b.hex;
    e.dir = b.dir;
    e.hex_blocked = (statics.cell(b.hex) & kCellMoveBlocked) != 0;
    m.id_map[b.authored_id] = e.runtime_id;
    kind_of[e.runtime_id] = EntityKind::critter;
    m.entities.push_back(std::move(e));
  }
  for (const Billet& b : statics.hex_items) {
    RuntimeEntity e;
    e.runtime_id = next_runtime_id++;
    e.authored_id = b.authored_id;
    e.proto = b.proto;
    e.hex = b.hex;
    e.count = 1;
    m.id_map[b.authored_id] = e.runtime_id;
    kind_of[e.runtime_id] = EntityKind::item;
    m.entities.push_back(std::move(e));
  }
  std::map<std::int64_t, bool> child_ids;
  for (const Billet& b : statics.child_items) child_ids[b.authored_id] = true;
  for (const Billet& b : statics.child_items) {
    const bool inventory = b.ownership == Ownership::critter_inventory;
    const std::int64_t owner = inventory ? b.critter_id : b.container_id;
    auto it = m.id_map.find(owner);
    if (it == m.id_map.end()) {
      SkippedChild sk{b.authored_id, b.proto, b.ownership, owner, "", ""};
      if (statics.static_by_id.count(owner)) {
        sk.reason_code = "owner-static";
        sk.reason = "the owner is a static item: static items get no runtime id";
      } else if (child_ids.count(owner)) {
        sk.reason_code = "owner-is-child";
        sk.reason = "the owner is itself a child: only one level of children is materialized";
      } else {
        sk.reason_code = "owner-missing";
        sk.reason = fmt::format("no critter or dynamic map item has $Id {}", owner);
      }
      m.skipped.push_back(std::move(sk));
      continue;
    }
    const EntityKind owner_kind = kind_of.at(it->second);
    if ((inventory && owner_kind != EntityKind::critter) || (!inventory && owner_kind != EntityKind::item))
      return core::fail(Diagnostic::error("fomap.runtime.owner_kind",
                                          inventory ? "CritterId names an item" : "ContainerId names a critter")
                            .in(fmt::format("Item $Id={} $Proto={}", b.authored_id, b.proto))
                            .expect(inventory ? "a critter placement" : "an item placement", std::to_string(owner)));
    RuntimeEntity e;
    e.runtime_id = next_runtime_id++;
    e.authored_id = b.authored_id;
    e.proto = b.proto;
    e.ownership = b.ownership;
    e.owner_runtime_id = it->second;
    e.count = 1;
    m.entities.push_back(std::move(e));
  }
  return m;
}

core::Json MaterializedMap::to_json() const {
  core::Json ents = core::Json::array();
  for (const auto& e : entities) {
    core::Json j{{"runtime_id", e.runtime_id},
                 {"kind", e.kind == EntityKind::critter ? "Critter" : "Item"},
                 {"authored_id", e.authored_id},
                 {"proto", e.proto},
                 {"ownership", std::string(to_string(e.ownership))}};
    if (e.ownership == Ownership::map_hex)
      j["hex"] = {e.hex.x, e.hex.y};
    else
      j["owner_runtime_id"] = e.owner_runtime_id;
    if (e.kind == EntityKind::critter) {
      j["dir"] = e.dir;
      if (e.hex_blocked) j["hex_blocked"] = true;
    } else {
      j["count"] = e.count;
    }
    ents.push_back(std::move(j));
  }
  core::Json skipped_json = core::Json::array();
  for (const auto& s : skipped)
    skipped_json.push_back({{"authored_id", s.authored_id},
                            {"proto", s.proto},
                            {"ownership", std::string(to_string(s.ownership))},
                            {"owner_authored_id", s.owner_authored_id},
                            {"reason_code", s.reason_code},
                            {"reason", s.reason}});
  core::Json ids = core::Json::object();
  for (const auto& [a, r] : id_map) ids[std::to_string(a)] = r;
  return core::Json{{"map", map},
                    {"static_items", static_items},
                    {"entities", ents},
                    {"id_map", ids},
                    {"skipped_children", skipped_json}};
}

core::Result<std::vector<ClientStatic>> load_client_statics(const ClientMapBlob& blob, MapSize size,
                                                            const BakeRegistrars& regs, const ProtoNames& protos) {
  std::vector<ClientStatic> out;
  out.reserve(blob.items.size());
  for (const MapRecord& rec : blob.items) {
    SORTIE_TRY(Billet b, decode_billet(rec, regs.item_client, protos, size, "Item"));
    if (b.ownership != Ownership::map_hex)
      return core::fail(Diagnostic::error("fomap.runtime.static_not_map_hex", "client static item is not on a map hex")
                            .in(fmt::format("Item $Id={} $Proto={}", b.authored_id, b.proto))
                            .expect("MapHex", std::string(to_string(b.ownership))));
    if (!size.contains(b.hex)) return core::fail(out_of_bounds(b, "Item", size));
    out.push_back(ClientStatic{b.authored_id, b.proto, b.hex});
  }
  return out;
}

std::optional<MapSize> map_size_of(const MapContainer& container, const MapDefinition& map, const Project& project) {
  const PropertyInfo* info = project.properties.find("Map", "Size");
  if (!info) return std::nullopt;
  std::optional<std::string_view> text;
  if (const Proto* p = project.protos.find("Map", map.name)) {
    auto it = p->resolved.find("Size");
    if (it != p->resolved.end()) text = it->second;
  }
  if (!text) {
    for (std::size_t a : map.anchors) {
      const ConfigEntry* e = container.section(container.anchors()[a].section).find("Size");
      if (e) text = e->value;
    }
  }
  if (!text) return MapSize{};
  auto v = parse_value(info->type, *text, project.properties);
  if (!v || v->elements.empty()) return std::nullopt;
  return MapSize{static_cast<std::int32_t>(v->elements[0].ints[0]), static_cast<std::int32_t>(v->elements[0].ints[1])};
}

}  // namespace sortie::fomap
