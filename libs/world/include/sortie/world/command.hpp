#pragma once
// Commands: the only input of the simulation. Each is stamped with the tick it applies on and
// applied at the start of that tick's calculation pass, in submission order. A recorded log
// replays to the same per-tick state hashes (replay.hpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/math.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::world {

enum class CommandKind : std::uint8_t {
  move = 1,          // target, x, y, speed: give a move order (attaches a MoveController)
  stop = 2,          // target: drop the controller
  pause = 3,         // value: 1 pause, 0 resume
  set_speed = 4,     // value: game speed scale in per mille (1..100000)
  spawn = 5,         // value: class id, text: prototype key, x, y, z: create and add a local object
  remove = 6,        // target: delete (deferred when inside the pass)
  set_property = 7,  // target, text: key, value: integer
  route = 8,         // target, text: waypoints (encode_waypoints), speed; x, y: the last waypoint
                     // (for readers of the log): attaches a RouteController
};

std::string_view to_string(CommandKind kind);

struct Command {
  std::uint64_t tick = 0;  // applies at the start of this tick (the tick counter before it runs)
  CommandKind kind = CommandKind::pause;
  ObjectId target;
  float x = 0.0f;
  float y = 0.0f;
  float z = 0.0f;
  float speed = 0.0f;
  std::int64_t value = 0;
  std::string text;
  friend bool operator==(const Command&, const Command&) = default;

  static Command move(std::uint64_t tick, ObjectId target, float x, float y, float speed);
  static Command stop(std::uint64_t tick, ObjectId target);
  static Command pause(std::uint64_t tick, bool paused);
  static Command set_speed(std::uint64_t tick, std::uint32_t scale_permille);
  static Command spawn(std::uint64_t tick, ClassId class_id, std::string prototype, float x, float y, float z);
  static Command remove(std::uint64_t tick, ObjectId target);
  static Command set_property(std::uint64_t tick, ObjectId target, std::string key, std::int64_t value);
  static Command route(std::uint64_t tick, ObjectId target, const std::vector<core::Vec2>& waypoints, float speed);
};

// Waypoints of a route command as text: "xxxxxxxx,yyyyyyyy" per waypoint (the f32 bit patterns,
// 8 lowercase hex digits each), joined by ';'. Exact bits, so JSON and bytes logs stay lossless.
std::string encode_waypoints(const std::vector<core::Vec2>& waypoints);
// Errors: world.command.waypoints (wrong length, separator or digit; empty text).
core::Result<std::vector<core::Vec2>> decode_waypoints(std::string_view text);

// Commands in application order (non-decreasing tick).
struct CommandLog {
  std::vector<Command> commands;
  friend bool operator==(const CommandLog&, const CommandLog&) = default;
};

// JSON: {"format":"sortie-command-log-v1","commands":[{"tick":..,"kind":"move",...}]}.
// Floats are written as their exact values and as "*_bits" (u32) so the log is lossless.
core::Json command_log_json(const CommandLog& log);
core::Result<CommandLog> command_log_from_json(const core::Json& json);
// Bytes: "SCLG" u32 version=1, u32 count, per command: u64 tick, u8 kind, u64 target raw,
// f32 x y z speed, u64 value, lp_string text. Reader is bounded and ends at the payload end.
core::Bytes write_command_log(const CommandLog& log);
core::Result<CommandLog> read_command_log(core::ByteView bytes);

}  // namespace sortie::world
