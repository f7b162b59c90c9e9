#pragma once
// World's own command kinds: the game clock and the object lifecycle. Each is a payload type
// (command.hpp) registered by register_builtin_commands(). Wire ids 2..7 are those of the v1
// logs, and each kind still reads its v1 record (from_legacy).
#include <cstdint>
#include <string>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/world/clock.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::world {

class CommandRegistry;

// Drops the target's controller. Payload: u64 target.
struct StopCommand {
  static constexpr std::string_view kName = "stop";
  static constexpr CommandKindId kWireId = 2;
  ObjectId target{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // payload_fields.hpp
  friend bool operator==(const StopCommand&, const StopCommand&) = default;
};

// Pauses (true) or resumes the game clock. Payload: u8 0|1.
struct PauseCommand {
  static constexpr std::string_view kName = "pause";
  static constexpr CommandKindId kWireId = 3;
  bool paused = true;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // payload_fields.hpp
  friend bool operator==(const PauseCommand&, const PauseCommand&) = default;
};

inline constexpr std::uint32_t kMaxSpeedScale = 100'000;

// Game speed scale in per mille, 1..kMaxSpeedScale. Payload: u32.
struct SetSpeedCommand {
  static constexpr std::string_view kName = "set_speed";
  static constexpr CommandKindId kWireId = 4;
  std::uint32_t scale_permille = kScaleOne;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // payload_fields.hpp
  friend bool operator==(const SetSpeedCommand&, const SetSpeedCommand&) = default;
};

// Creates and adds a local object at a finite position and posts EventType::spawned.
// Payload: u16 class id, lp_string prototype key, f32 x y z.
struct SpawnCommand {
  static constexpr std::string_view kName = "spawn";
  static constexpr CommandKindId kWireId = 5;
  ClassId class_id = 0;
  std::string prototype{};
  core::Vec3 position{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // payload_fields.hpp
  friend bool operator==(const SpawnCommand&, const SpawnCommand&) = default;
};

// Deletes the target (deferred when inside the pass). Payload: u64 target.
struct RemoveCommand {
  static constexpr std::string_view kName = "remove";
  static constexpr CommandKindId kWireId = 6;
  ObjectId target{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // payload_fields.hpp
  friend bool operator==(const RemoveCommand&, const RemoveCommand&) = default;
};

// Sets an integer mission property. Payload: u64 target, lp_string key, i64 value.
struct SetPropertyCommand {
  static constexpr std::string_view kName = "set_property";
  static constexpr CommandKindId kWireId = 7;
  ObjectId target{};
  std::string key{};
  std::int64_t value = 0;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // payload_fields.hpp
  friend bool operator==(const SetPropertyCommand&, const SetPropertyCommand&) = default;
};

// Registers stop, pause, set_speed, spawn, remove and set_property.
core::Status register_builtin_commands(CommandRegistry& registry);

}  // namespace sortie::world

// The codecs are instantiated once, next to the field lists (the .cpp); no other file
// instantiates them, even one that sees payload_fields.hpp (a unity batch).
extern template struct sortie::world::PayloadCodec<sortie::world::StopCommand>;
extern template struct sortie::world::PayloadCodec<sortie::world::PauseCommand>;
extern template struct sortie::world::PayloadCodec<sortie::world::SetSpeedCommand>;
extern template struct sortie::world::PayloadCodec<sortie::world::SpawnCommand>;
extern template struct sortie::world::PayloadCodec<sortie::world::RemoveCommand>;
extern template struct sortie::world::PayloadCodec<sortie::world::SetPropertyCommand>;
