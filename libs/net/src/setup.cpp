#include "sortie/net/setup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sortie/core/hash.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/net/replica.hpp"
#include "sortie/net/wire.hpp"

namespace sortie::net {

using core::Diagnostic;
using core::fail;

namespace {

Diagnostic unsupported(std::string what, std::string where = {}) {
  return Diagnostic::error("net.setup.unsupported", std::move(what)).in(std::move(where));
}

Diagnostic limit(std::string what, std::string where, std::string expected, std::string found) {
  return Diagnostic::error("net.setup.limit", std::move(what))
      .in(std::move(where))
      .expect(std::move(expected), std::move(found));
}

class TerrainHeightField final : public world::HeightField {
 public:
  explicit TerrainHeightField(nav::TerrainWorld terrain) : terrain_(std::move(terrain)) {}
  [[nodiscard]] std::optional<float> height_at(float x, float y) const override { return terrain_.height_at(x, y); }

 private:
  nav::TerrainWorld terrain_;
};

}  // namespace

core::Result<SessionSetup> capture_setup(const world::World& w, std::uint64_t seed, std::string mission_path,
                                         std::optional<nav::TriangleSoup> terrain,
                                         std::optional<SessionMovement> movement) {
  if (w.local_player() == kNoPlayer) {
    return fail(Diagnostic::error("net.session.player_zero",
                                  "no world queue with an active network and player 0: the world's local player is 0")
                    .expect("local player 1..65535", "0"));
  }
  if (w.clock().tick != 0 || !w.command_log().commands.empty() || w.pending_events() != 0) {
    return fail(unsupported("a session starts from a world at tick 0 without commands or events"));
  }
  if (mission_path.size() > kMaxPathBytes) {
    return fail(limit("mission path too long", "mission_path", fmt::format("<= {} bytes", kMaxPathBytes),
                      std::to_string(mission_path.size())));
  }
  const auto& queue = w.queue();
  if (queue.size() != w.live_count() || queue.size() != w.slot_count()) {
    return fail(
        unsupported("every object must be registered and no slot free",
                    fmt::format("{} registered, {} live, {} slots", queue.size(), w.live_count(), w.slot_count())));
  }
  SessionSetup setup;
  setup.mission_path = std::move(mission_path);
  setup.step_us = w.clock().step_us;
  setup.seed = seed;
  setup.authority = w.local_player();
  setup.terrain = std::move(terrain);
  setup.movement = std::move(movement);
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const world::Handle h = queue[i];
    const world::WorldObject* o = w.find(h);
    const std::string where = fmt::format("objects[{}]", i);
    if (o == nullptr || h.slot != i || h.generation != 1) {
      return fail(unsupported("objects must be registered in creation order into fresh slots", where));
    }
    if (o->controller || !o->components.empty() || o->pending_delete() || o->pending_add()) {
      return fail(unsupported("an object with a controller, components or a pending operation", where));
    }
    if (o->prototype_key.empty() || o->prototype_key.size() > kMaxPrototypeBytes) {
      return fail(limit("prototype key length", where + ".prototype", fmt::format("1..{} bytes", kMaxPrototypeBytes),
                        std::to_string(o->prototype_key.size())));
    }
    if (o->properties.size() > kMaxMirrorProperties) {
      return fail(limit("too many properties", where + ".properties", fmt::format("<= {}", kMaxMirrorProperties),
                        std::to_string(o->properties.size())));
    }
    for (const auto& [key, value] : o->properties.items()) {
      const auto* text = std::get_if<std::string>(&value);
      if (key.empty() || key.size() > kMaxPropertyKeyBytes ||
          (text != nullptr && text->size() > kMaxPropertyStringBytes)) {
        return fail(limit(
            "property key or value length", where + ".properties." + key,
            fmt::format("key 1..{} bytes, text <= {} bytes", kMaxPropertyKeyBytes, kMaxPropertyStringBytes), key));
      }
    }
    if (o->raw_properties.size() > kMaxMirrorRawProperties) {
      return fail(limit("too many raw properties", where + ".raw_properties",
                        fmt::format("<= {}", kMaxMirrorRawProperties), std::to_string(o->raw_properties.size())));
    }
    for (std::size_t k = 0; k < o->raw_properties.size(); ++k) {
      const world::RawProperty& r = o->raw_properties.items()[k];
      if (r.name.size() > kMaxRawPropertyNameBytes || r.name_bytes.size() > kMaxRawPropertyNameBytes) {
        return fail(limit("raw property name length", fmt::format("{}.raw_properties[{}]", where, k),
                          fmt::format("name and its bytes <= {} bytes each", kMaxRawPropertyNameBytes),
                          fmt::format("{} and {}", r.name.size(), r.name_bytes.size())));
      }
    }
    CreateMirror m;
    m.id = o->id();
    m.owner = o->ownership().owner;
    m.flags =
        static_cast<std::uint8_t>((o->active ? CreateMirror::kActive : 0) | (o->visible ? CreateMirror::kVisible : 0));
    m.prototype = o->prototype_key;
    m.transform = o->transform;
    m.properties = o->properties;
    m.raw_properties = o->raw_properties;
    setup.objects.push_back(std::move(m));
    setup.prototypes.push_back(o->prototype_key);
  }
  std::sort(setup.prototypes.begin(), setup.prototypes.end());
  setup.prototypes.erase(std::unique(setup.prototypes.begin(), setup.prototypes.end()), setup.prototypes.end());

  // The setup must rebuild the world exactly (per-class id counters, RNG and clock included).
  SORTIE_TRY(const std::vector<Message> messages, setup_messages(setup));
  Welcome welcome;
  welcome.authority = setup.authority;
  welcome.step_us = setup.step_us;
  welcome.seed = setup.seed;
  welcome.setup_count = static_cast<std::uint32_t>(messages.size());
  SORTIE_TRY(auto replica, Replica::create(welcome));
  for (const Message& m : messages) SORTIE_CHECK(replica->feed(m));
  if (replica->world().canonical_state() != w.canonical_state()) {
    return fail(unsupported("the world's state cannot be rebuilt from its objects (id counters, seed or clock differ)")
                    .expect(core::hash_hex(w.compute_state_hash()), core::hash_hex(replica->state_hash())));
  }
  return setup;
}

core::Result<std::vector<Message>> setup_messages(const SessionSetup& setup) {
  if (setup.authority == kNoPlayer) {
    return fail(Diagnostic::error("net.session.player_zero", "no session with an active network and player 0")
                    .expect("authority 1..65535", "0"));
  }
  if (setup.authority_name.empty() || setup.authority_name.size() > kMaxNameBytes) {
    return fail(limit("host name length", "authority_name", fmt::format("1..{} bytes", kMaxNameBytes),
                      std::to_string(setup.authority_name.size())));
  }
  std::vector<Message> out;
  out.emplace_back(MissionDataPath{setup.mission_path});
  for (AppendResource& c : resource_chunks(kPrototypesResource, ResourceKind::prototypes, "prototypes",
                                           encode_prototypes(setup.prototypes))) {
    out.emplace_back(std::move(c));
  }
  if (setup.terrain) {
    for (AppendResource& c :
         resource_chunks(kTerrainResource, ResourceKind::terrain, "terrain", encode_terrain(*setup.terrain))) {
      out.emplace_back(std::move(c));
    }
  }
  if (setup.movement) {
    SORTIE_TRY(const core::Bytes bytes, encode_movement(*setup.movement));
    for (AppendResource& c : resource_chunks(kMovementResource, ResourceKind::movement, "movement", bytes)) {
      out.emplace_back(std::move(c));
    }
  }
  CreateRemotePlayer host;
  host.tick = 0;
  host.player = setup.authority;
  host.flags = CreateRemotePlayer::kHost;
  host.name = setup.authority_name;
  out.emplace_back(std::move(host));
  for (const CreateMirror& m : setup.objects) out.emplace_back(m);
  return out;
}

// ---------------------------------------------------------------- resources

core::Bytes encode_terrain(const nav::TriangleSoup& soup) {
  core::ByteWriter out;
  out.u32(static_cast<std::uint32_t>(soup.positions.size()));
  for (const core::Vec3& p : soup.positions) {
    out.f32(p.x);
    out.f32(p.y);
    out.f32(p.z);
  }
  out.u32(static_cast<std::uint32_t>(soup.faces.size()));
  for (const auto& f : soup.faces) {
    for (std::uint32_t v : f.vertices) out.u32(v);
    out.u32(f.mask);
  }
  return out.take();
}

core::Result<nav::TriangleSoup> decode_terrain(core::ByteView bytes) {
  core::ByteReader in(bytes, "terrain resource");
  in.set_code_prefix("net.resource");
  nav::TriangleSoup soup;
  SORTIE_TRY(const std::uint32_t positions, in.u32());
  SORTIE_CHECK(in.check_count(positions, 12, "terrain positions", 1u << 24));
  soup.positions.resize(positions);
  for (core::Vec3& p : soup.positions) {
    SORTIE_TRY(p.x, in.f32());
    SORTIE_TRY(p.y, in.f32());
    SORTIE_TRY(p.z, in.f32());
  }
  SORTIE_TRY(const std::uint32_t faces, in.u32());
  SORTIE_CHECK(in.check_count(faces, 16, "terrain faces", 1u << 24));
  soup.faces.resize(faces);
  for (std::size_t i = 0; i < soup.faces.size(); ++i) {
    auto& f = soup.faces[i];
    for (std::uint32_t& v : f.vertices) {
      const std::size_t at = in.offset();
      SORTIE_TRY(v, in.u32());
      if (v >= positions) {
        return fail(in.error_at(at, "net.resource.terrain_vertex", "face names a missing position")
                        .in(fmt::format("faces[{}]", i))
                        .expect(fmt::format("< {}", positions), std::to_string(v)));
      }
    }
    SORTIE_TRY(f.mask, in.u32());
  }
  SORTIE_CHECK(in.require_end("terrain resource"));
  return soup;
}

namespace {

// The parameters in their wire order (setup.hpp), with the range params_from_behavior_ini allows.
struct ParamField {
  std::string_view name;
  float move::MoveParams::*value;
  float lo;
  float hi;
  bool lo_open;
};
constexpr ParamField kParamFields[] = {
    {"building_hit_dist", &move::MoveParams::building_hit_dist, 0.0f, 1e6f, false},
    {"building_nearest_dist", &move::MoveParams::building_nearest_dist, 0.0f, 1e6f, false},
    {"near_build_speed_percent", &move::MoveParams::near_build_speed_percent, 0.0f, 100.0f, false},
    {"corridor_radius", &move::MoveParams::corridor_radius, 0.0f, 1e6f, false},
    {"near_door_coeff", &move::MoveParams::near_door_coeff, 0.0f, 1e6f, false},
    {"step_off_building", &move::MoveParams::step_off_building, 0.0f, 1e6f, false},
    {"max_accel", &move::MoveParams::max_accel, 0.0f, 1e6f, true},
    {"max_rotation", &move::MoveParams::max_rotation, 0.0f, 1e6f, true},
    {"step_dist", &move::MoveParams::step_dist, 0.0f, 1e6f, true},
};

Diagnostic bad_param(const core::ByteReader& in, std::size_t at, std::string_view name, std::string expected,
                     std::string found) {
  return in.error_at(at, "net.resource.movement", "movement parameter out of range")
      .in(std::string(name))
      .expect(std::move(expected), std::move(found));
}

}  // namespace

core::Result<core::Bytes> encode_movement(const SessionMovement& movement) {
  core::ByteWriter out;
  if (movement.areals) {
    SORTIE_TRY(const core::Bytes map, iron3d::write_land_map(*movement.areals));
    out.u32(static_cast<std::uint32_t>(map.size()));
    out.bytes(map);
  } else {
    out.u32(0);
  }
  const move::MoveParams& p = movement.params;
  for (const ParamField& f : kParamFields) out.f32(p.*f.value);
  out.i32(p.min_point_in_trajectory);
  out.i32(p.resource_transfer_max_delay);
  out.u8(p.use_wizard ? 1 : 0);
  out.f32(p.min_ground_normal_z);
  return out.take();
}

core::Result<SessionMovement> decode_movement(core::ByteView bytes) {
  core::ByteReader in(bytes, "movement resource");
  in.set_code_prefix("net.resource");
  SessionMovement m;
  SORTIE_TRY(const std::uint32_t map_bytes, in.u32());
  SORTIE_CHECK(in.check_count(map_bytes, 1, "Land.map bytes"));
  if (map_bytes > 0) {
    SORTIE_TRY(const core::ByteView map, in.bytes(map_bytes));
    iron3d::ReadOptions options;
    options.file_name = "movement resource: Land.map";
    SORTIE_TRY(iron3d::LandMap areals, iron3d::read_land_map(map, options));
    m.areals = std::move(areals);
  }
  move::MoveParams& p = m.params;
  for (const ParamField& f : kParamFields) {
    const std::size_t at = in.offset();
    SORTIE_TRY(const float v, in.f32());
    if (!std::isfinite(v) || !(f.lo_open ? v > f.lo : v >= f.lo) || v > f.hi) {
      return fail(bad_param(in, at, f.name, fmt::format("{} {} .. {}", f.lo_open ? ">" : ">=", f.lo, f.hi),
                            fmt::format("{}", v)));
    }
    p.*f.value = v;
  }
  std::size_t at = in.offset();
  SORTIE_TRY(p.min_point_in_trajectory, in.i32());
  if (p.min_point_in_trajectory < 1 || p.min_point_in_trajectory > 4096) {
    return fail(bad_param(in, at, "min_point_in_trajectory", "1 .. 4096", std::to_string(p.min_point_in_trajectory)));
  }
  at = in.offset();
  SORTIE_TRY(p.resource_transfer_max_delay, in.i32());
  if (p.resource_transfer_max_delay < 0) {
    return fail(
        bad_param(in, at, "resource_transfer_max_delay", ">= 0", std::to_string(p.resource_transfer_max_delay)));
  }
  at = in.offset();
  SORTIE_TRY(const std::uint8_t wizard, in.u8());
  if (wizard > 1) return fail(bad_param(in, at, "use_wizard", "0|1", std::to_string(wizard)));
  p.use_wizard = wizard == 1;
  at = in.offset();
  SORTIE_TRY(p.min_ground_normal_z, in.f32());
  if (!std::isfinite(p.min_ground_normal_z) || p.min_ground_normal_z < 0.0f || p.min_ground_normal_z > 1.0f) {
    return fail(bad_param(in, at, "min_ground_normal_z", "0 .. 1", fmt::format("{}", p.min_ground_normal_z)));
  }
  SORTIE_CHECK(in.require_end("movement resource"));
  return m;
}

core::Result<move::MoveEnvironmentPtr> session_environment(const std::optional<nav::TriangleSoup>& terrain,
                                                           const std::optional<SessionMovement>& movement) {
  auto env = std::make_shared<move::MoveEnvironment>();
  if (movement) env->params = movement->params;
  if (terrain) {
    SORTIE_TRY(nav::TerrainWorld built, nav::TerrainWorld::build(*terrain));
    env->terrain = std::make_shared<const nav::TerrainWorld>(std::move(built));
  }
  if (movement && movement->areals && !movement->areals->areals.empty()) {
    SORTIE_TRY(nav::ArealMap areals, nav::areal_map_from(*movement->areals));
    env->areals = std::make_shared<const nav::ArealMap>(std::move(areals));
  }
  return move::MoveEnvironmentPtr(std::move(env));
}

core::Bytes encode_prototypes(const std::vector<std::string>& keys) {
  core::ByteWriter out;
  out.u32(static_cast<std::uint32_t>(keys.size()));
  for (const std::string& k : keys) wire::put_str8(out, k);
  return out.take();
}

core::Result<std::vector<std::string>> decode_prototypes(core::ByteView bytes) {
  core::ByteReader in(bytes, "prototypes resource");
  in.set_code_prefix("net.resource");
  SORTIE_TRY(const std::uint32_t count, in.u32());
  SORTIE_CHECK(in.check_count(count, 2, "prototype keys"));
  std::vector<std::string> keys;
  keys.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t at = in.offset();
    SORTIE_TRY(std::string k, wire::get_str8(in, kMaxPrototypeBytes, "prototype key", true));
    if (!keys.empty() && !(keys.back() < k)) {
      return fail(in.error_at(at, "net.resource.prototype_order", "prototype keys must be strictly ascending")
                      .in(fmt::format("keys[{}]", i))
                      .expect("> " + keys.back(), k));
    }
    keys.push_back(std::move(k));
  }
  SORTIE_CHECK(in.require_end("prototypes resource"));
  return keys;
}

std::vector<AppendResource> resource_chunks(std::uint32_t id, ResourceKind kind, std::string name,
                                            core::ByteView bytes) {
  std::vector<AppendResource> out;
  const std::uint64_t hash = core::hash64(bytes);
  std::size_t offset = 0;
  do {
    const std::size_t n = std::min(kMaxResourceChunkBytes, bytes.size() - offset);
    AppendResource c;
    c.resource = id;
    c.kind = kind;
    c.name = name;
    c.total = static_cast<std::uint32_t>(bytes.size());
    c.content_hash = hash;
    c.offset = static_cast<std::uint32_t>(offset);
    c.chunk.assign(bytes.begin() + static_cast<std::ptrdiff_t>(offset),
                   bytes.begin() + static_cast<std::ptrdiff_t>(offset + n));
    out.push_back(std::move(c));
    offset += n;
  } while (offset < bytes.size());
  return out;
}

core::Result<std::shared_ptr<const world::HeightField>> make_height_field(const nav::TriangleSoup& soup) {
  SORTIE_TRY(nav::TerrainWorld terrain, nav::TerrainWorld::build(soup));
  return std::shared_ptr<const world::HeightField>(std::make_shared<TerrainHeightField>(std::move(terrain)));
}

}  // namespace sortie::net
