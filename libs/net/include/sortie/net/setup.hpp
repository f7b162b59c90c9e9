#pragma once
// What a session starts from, and how it travels: the setup of a session is the mission path,
// three resources (the prototype keys mirrors may name; the ground as a triangle soup; the areal
// map and movement parameters), the host player and one GMSG_CREATE_MIRROR per object of the
// world at tick 0. Units move with the movement stack (libs/move) over an environment built from
// the ground and the movement resource, exactly as in the mission world the setup came from. Every replica - the
// server's own world included - is built from exactly these messages (replica.hpp), so they are
// identical by construction.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/land_map.hpp"
#include "sortie/move/environment.hpp"
#include "sortie/move/params.hpp"
#include "sortie/nav/terrain_world.hpp"
#include "sortie/net/messages.hpp"
#include "sortie/world/controller.hpp"
#include "sortie/world/world.hpp"

namespace sortie::net {

inline constexpr std::uint32_t kPrototypesResource = 1;
inline constexpr std::uint32_t kTerrainResource = 2;
inline constexpr std::uint32_t kMovementResource = 3;

// What units move over besides the ground: the mission's areal map (none: the behaviour plans
// without IArealMap) and the movement parameters (Behavior.ini's PathFind_* keys).
struct SessionMovement {
  std::optional<iron3d::LandMap> areals;
  move::MoveParams params;
};

struct SessionSetup {
  std::string mission_path;
  std::uint32_t step_us = world::kDefaultStepUs;
  std::uint64_t seed = 0;
  PlayerNumber authority = 1;  // the world's local player on every replica
  std::string authority_name = "host";
  std::vector<std::string> prototypes;       // ascending, unique
  std::optional<nav::TriangleSoup> terrain;  // the ground of movement
  std::optional<SessionMovement> movement;   // the areal map and parameters of movement
  std::vector<CreateMirror> objects;         // creation order = registration order
};

// The setup of a freshly loaded world (tick 0, no commands, every object registered in creation
// order, no controllers or components) that reproduces it exactly: the replica built from it has
// the same canonical state. `seed` must be the world's WorldConfig::seed; `terrain` and
// `movement` must be what the world's movement environment was built from (Land.msh as a soup,
// Land.map and the parameters), so orders move units in the session as in the world.
// Errors: net.session.player_zero (the world's local player is 0), net.setup.unsupported (state
// the setup cannot carry), net.setup.limit (a prototype key or properties beyond the schema).
core::Result<SessionSetup> capture_setup(const world::World& world, std::uint64_t seed, std::string mission_path,
                                         std::optional<nav::TriangleSoup> terrain,
                                         std::optional<SessionMovement> movement = std::nullopt);

// The setup messages, in the order a client receives them.
core::Result<std::vector<Message>> setup_messages(const SessionSetup& setup);

// Resource payloads (bounded readers; write(read(bytes)) == bytes).
// Terrain: u32 position count, count x 3 f32, u32 face count, count x (3 u32 vertex, u32 mask).
core::Bytes encode_terrain(const nav::TriangleSoup& soup);
// Errors: net.resource.eof / limit / trailing, net.resource.terrain_vertex.
core::Result<nav::TriangleSoup> decode_terrain(core::ByteView bytes);
// Movement: u32 n, n bytes of Land.map as iron3d::write_land_map writes it (0: no areal map),
// then the parameters: 9 x f32 (building_hit_dist, building_nearest_dist,
// near_build_speed_percent, corridor_radius, near_door_coeff, step_off_building, max_accel,
// max_rotation, step_dist), i32 min_point_in_trajectory, i32 resource_transfer_max_delay,
// u8 use_wizard (0|1), f32 min_ground_normal_z. Errors of encoding: the Land.map writer's.
core::Result<core::Bytes> encode_movement(const SessionMovement& movement);
// Errors: net.resource.eof / trailing, net.resource.movement (a parameter that is not finite or
// out of range, a flag other than 0|1), the Land.map reader's.
core::Result<SessionMovement> decode_movement(core::ByteView bytes);
// The movement environment of a session: the terrain built from the soup, the areal map and
// parameters of `movement` (defaults without it). Errors: nav.terrain.*, nav.areal.*.
core::Result<move::MoveEnvironmentPtr> session_environment(const std::optional<nav::TriangleSoup>& terrain,
                                                           const std::optional<SessionMovement>& movement);

// Prototypes: u32 count, count x str8 (1..255), strictly ascending.
core::Bytes encode_prototypes(const std::vector<std::string>& keys);
// Errors: net.resource.*, net.resource.prototype_order.
core::Result<std::vector<std::string>> decode_prototypes(core::ByteView bytes);

// The chunks of one resource (APPEND_RESOURCE, each <= kMaxResourceChunkBytes).
std::vector<AppendResource> resource_chunks(std::uint32_t id, ResourceKind kind, std::string name,
                                            core::ByteView bytes);

// world::HeightField over a nav::TerrainWorld built from the soup. Errors: nav.terrain.*.
core::Result<std::shared_ptr<const world::HeightField>> make_height_field(const nav::TriangleSoup& soup);

}  // namespace sortie::net
