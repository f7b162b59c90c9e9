#pragma once
// The v1 movement kinds: move (a MoveController toward a point) and route (a RouteController
// along waypoints), the reference movers of v1_movers.hpp. Wire ids 1 and 8 are those of the v1
// logs, and both still read their v1 record. They exist so that logs written before the
// movement stack replay to their recorded hashes (move_command_registry composes them for
// that); every client orders units with the stack's kinds (commands.hpp: move.goto, ...), and a
// networked session does not register these (docs/decisions/0014-one-movement-story.md).
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::world {
class CommandRegistry;
}

namespace sortie::move {

using world::CommandKindId;
using world::ObjectId;

// Walk to `goal` at `speed` (finite, > 0) units per game second; an existing MoveController
// is re-ordered, any other controller replaced. Payload: u64 target, f32 x, f32 y, f32 speed.
struct MoveCommand {
  static constexpr std::string_view kName = "move";
  static constexpr CommandKindId kWireId = 1;
  ObjectId target{};
  core::Vec2 goal{};
  float speed = 0.0f;

  void write(core::ByteWriter& out) const;
  static core::Result<MoveCommand> read(core::ByteReader& in);
  void to_json(nlohmann::json& out) const;
  static core::Result<MoveCommand> from_json(const nlohmann::json& in, const std::string& path);
  friend bool operator==(const MoveCommand&, const MoveCommand&) = default;
};

// Follow `waypoints` (at least one, finite) at `speed`: attaches a RouteController.
// Payload: u64 target, f32 speed, u32 count, count x (f32 x, f32 y).
struct RouteCommand {
  static constexpr std::string_view kName = "route";
  static constexpr CommandKindId kWireId = 8;
  ObjectId target{};
  std::vector<core::Vec2> waypoints{};
  float speed = 0.0f;

  void write(core::ByteWriter& out) const;
  static core::Result<RouteCommand> read(core::ByteReader& in);
  void to_json(nlohmann::json& out) const;
  static core::Result<RouteCommand> from_json(const nlohmann::json& in, const std::string& path);
  friend bool operator==(const RouteCommand&, const RouteCommand&) = default;
};

// Registers move and route.
core::Status register_v1_move_commands(world::CommandRegistry& registry);

// The waypoint text of v1 route records: "xxxxxxxx,yyyyyyyy" per waypoint (the f32 bit
// patterns, 8 lowercase hex digits each), joined by ';'.
std::string encode_waypoints(const std::vector<core::Vec2>& waypoints);
// Errors: world.command.waypoints (wrong length, separator or digit; empty text).
core::Result<std::vector<core::Vec2>> decode_waypoints(std::string_view text);

}  // namespace sortie::move
