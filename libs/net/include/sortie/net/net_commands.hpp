#pragma once
// The world command kinds of networked play (wire ids 32..47, reserved for net in
// command_registry.hpp). Everything the session changes in the world goes through them, so the
// authority's command log replays without the network:
//   32 net.change_owner    GMSG_CHANGE_OBJECT_OWNER / GMSG_TAKE_OBJECT
//   33 net.release_player  GMSG_KILL_PLAYER: a leaving player's objects are transferred or removed
//   34 net.spawn_for       a unit created for a player (a client order)
#include <memory>
#include <string>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/net/protocol.hpp"
#include "sortie/world/class_registry.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::net {

// Ownership of `target` passes to `owner` (!= 0); the identity stays. Skipped when the target
// is gone. Payload: u64 target, u16 owner.
struct ChangeOwnerCommand {
  static constexpr std::string_view kName = "net.change_owner";
  static constexpr world::CommandKindId kWireId = 32;
  world::ObjectId target{};
  PlayerNumber owner = 0;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const ChangeOwnerCommand&, const ChangeOwnerCommand&) = default;
};

// Every registered object owned by `player` (!= the world's local player, != 0), in queue order,
// passes to the world's local player (the authority) or is deleted. Payload: u16 player, u8 policy.
struct ReleasePlayerCommand {
  static constexpr std::string_view kName = "net.release_player";
  static constexpr world::CommandKindId kWireId = 33;
  PlayerNumber player = 0;
  OwnedObjectPolicy policy = OwnedObjectPolicy::transfer;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const ReleasePlayerCommand&, const ReleasePlayerCommand&) = default;
};

// Creates and adds an object of `class_id` with `prototype` at a finite `position`, owned by
// `owner` (!= 0), and posts EventType::spawned. Payload: u16 owner, u16 class, lp_string
// prototype (1..255 bytes), f32 x y z.
struct SpawnForCommand {
  static constexpr std::string_view kName = "net.spawn_for";
  static constexpr world::CommandKindId kWireId = 34;
  PlayerNumber owner = 0;
  world::ClassId class_id = 0;
  std::string prototype{};
  core::Vec3 position{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const SpawnForCommand&, const SpawnForCommand&) = default;
};

// Registers the three kinds.
core::Status register_net_commands(world::CommandRegistry& registry);

// The registry of every session world (server, clients, replay): the world's standard set, the
// net kinds and the movement stack's kinds (move.enable, move.goto, ...; libs/move
// commands.hpp), which read the session's movement environment from `movement` (the replica
// fills it when the setup is complete). The same move commands as `sortie run`: units move in a
// session exactly as in the mission world, and the scenario's kinds (libs/scenario commands.hpp),
// so a served mission's scripts act on every replica. The v1 kinds `move` and `route` are not
// registered.
std::shared_ptr<const world::CommandRegistry> session_command_registry(
    std::shared_ptr<const move::MoveEnvironmentSlot> movement);

// The object classes a session's world may hold (world/class_registry.hpp): the mission's placed
// objects, the movement system, the scenario's objects, the effects object and the players' units. A replica
// registers all of them before the setup so it can check every mirror's class.
core::Status register_session_classes(world::ClassRegistry& classes);

}  // namespace sortie::net

// The codecs are instantiated once, next to the field lists (the .cpp); no other file
// instantiates them, even one that sees payload_fields.hpp (a unity batch).
extern template struct sortie::world::PayloadCodec<sortie::net::ChangeOwnerCommand>;
extern template struct sortie::world::PayloadCodec<sortie::net::ReleasePlayerCommand>;
extern template struct sortie::world::PayloadCodec<sortie::net::SpawnForCommand>;
