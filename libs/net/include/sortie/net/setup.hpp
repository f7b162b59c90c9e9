#pragma once
// What a session starts from, and how it travels: the setup of a session is the mission path,
// two resources (the prototype keys mirrors may name; the ground as a triangle soup), the host
// player and one GMSG_CREATE_MIRROR per object of the world at tick 0. Every replica - the
// server's own world included - is built from exactly these messages (replica.hpp), so they are
// identical by construction.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/nav/terrain_world.hpp"
#include "sortie/net/messages.hpp"
#include "sortie/world/controller.hpp"
#include "sortie/world/world.hpp"

namespace sortie::net {

inline constexpr std::uint32_t kPrototypesResource = 1;
inline constexpr std::uint32_t kTerrainResource = 2;

struct SessionSetup {
  std::string mission_path;
  std::uint32_t step_us = world::kDefaultStepUs;
  std::uint64_t seed = 0;
  PlayerNumber authority = 1;  // the world's local player on every replica
  std::string authority_name = "host";
  std::vector<std::string> prototypes;       // ascending, unique
  std::optional<nav::TriangleSoup> terrain;  // the ground of movement
  std::vector<CreateMirror> objects;         // creation order = registration order
};

// The setup of a freshly loaded world (tick 0, no commands, every object registered in creation
// order, no controllers or components) that reproduces it exactly: the replica built from it has
// the same canonical state. `seed` must be the world's WorldConfig::seed.
// Errors: net.session.player_zero (the world's local player is 0), net.setup.unsupported (state
// the setup cannot carry), net.setup.limit (a prototype key or properties beyond the schema).
core::Result<SessionSetup> capture_setup(const world::World& world, std::uint64_t seed, std::string mission_path,
                                         std::optional<nav::TriangleSoup> terrain);

// The setup messages, in the order a client receives them.
core::Result<std::vector<Message>> setup_messages(const SessionSetup& setup);

// Resource payloads (bounded readers; write(read(bytes)) == bytes).
// Terrain: u32 position count, count x 3 f32, u32 face count, count x (3 u32 vertex, u32 mask).
core::Bytes encode_terrain(const nav::TriangleSoup& soup);
// Errors: net.resource.eof / limit / trailing, net.resource.terrain_vertex.
core::Result<nav::TriangleSoup> decode_terrain(core::ByteView bytes);
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
