#pragma once
// The movement orders: registered command kinds (world/command_registry.hpp, wire ids 16..23
// reserved for the movement stack), so they are logged and replay. Each validates on submit:
// move.env.no_system_map (the registry was built without an environment), move.env.no_terrain
// (the environment has no terrain interface), world.command.invalid (non-finite or out-of-range
// values). An order whose target is gone or (goto/halt/drive) has no move.body is skipped
// (counted by the world); a mirror (a networked player's object) obeys like any other object. Every client that moves
// units (`sortie run`, the serve/join bots, the viewer, scripts) gives these orders; all five name their target
// (order_target), so a networked session lets a player give them for its own objects.
//
//   16 move.enable   attach the stack (body, behaviour, wizard, control) to an object and the
//                    object to the movement system; again = a new body (the proxy is rebuilt)
//   17 move.goto     walk to a point: Behavior plans a new path (ClearWizardPath)
//   18 move.halt     stop: paths and the wizard path cleared, the unit brakes
//   19 move.drive    manual control: requested speed and turn rate (input -> manual command)
//   20 move.disable  detach the stack (the unit leaves the system at its next step)
#include <memory>
#include <string>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/move/components.hpp"
#include "sortie/move/environment.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::world {
class CommandRegistry;
}

namespace sortie::move {

// Payload: u64 target, u8 shape (0 circle, 1 capsule), f32 radius, height, max_speed,
// u32 category, u32 collides_with, u8 static (0|1).
struct EnableCommand {
  static constexpr std::string_view kName = "move.enable";
  static constexpr world::CommandKindId kWireId = 16;
  world::ObjectId target{};
  Shape shape = Shape::capsule;
  float radius = 1.0f;
  float height = 2.0f;
  float max_speed = 8.0f;
  std::uint32_t category = kCategoryUnit;
  std::uint32_t collides_with = 0xFFFFFFFFu;
  bool is_static = false;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const EnableCommand&, const EnableCommand&) = default;
};

// Payload: u64 target, f32 x, f32 y, f32 speed.
struct GotoCommand {
  static constexpr std::string_view kName = "move.goto";
  static constexpr world::CommandKindId kWireId = 17;
  world::ObjectId target{};
  core::Vec2 goal{};
  float speed = 0.0f;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const GotoCommand&, const GotoCommand&) = default;
};

// Payload: u64 target.
struct HaltCommand {
  static constexpr std::string_view kName = "move.halt";
  static constexpr world::CommandKindId kWireId = 18;
  world::ObjectId target{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const HaltCommand&, const HaltCommand&) = default;
};

// Payload: u64 target, f32 speed (units/s, may be negative: reverse), f32 turn (rad/s).
struct DriveCommand {
  static constexpr std::string_view kName = "move.drive";
  static constexpr world::CommandKindId kWireId = 19;
  world::ObjectId target{};
  float speed = 0.0f;
  float turn = 0.0f;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const DriveCommand&, const DriveCommand&) = default;
};

// Payload: u64 target.
struct DisableCommand {
  static constexpr std::string_view kName = "move.disable";
  static constexpr world::CommandKindId kWireId = 20;
  world::ObjectId target{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const DisableCommand&, const DisableCommand&) = default;
};

// Where the kinds find their environment, looked up on every validation and application: its
// owner may fill it after the registry is built (a networked replica learns the map from the
// session setup, after its world exists). Empty: every order is refused (move.env.no_system_map).
struct MoveEnvironmentSlot {
  MoveEnvironmentPtr env;
};

// Registers the five kinds bound to `env` (null: every order is refused with
// move.env.no_system_map).
core::Status register_move_commands(world::CommandRegistry& registry, const MoveEnvironmentPtr& env);
// The same, reading the environment from `slot` (never null) when an order is checked or applied.
core::Status register_move_commands_in(world::CommandRegistry& registry,
                                       std::shared_ptr<const MoveEnvironmentSlot> slot);
// The registry of a mission world: the world's standard set, the v1 movement kinds (only so that
// logs written before the movement stack replay, v1_commands.hpp) and the movement kinds bound
// to `env`.
std::shared_ptr<const world::CommandRegistry> move_command_registry(const MoveEnvironmentPtr& env);

}  // namespace sortie::move

// The codecs are instantiated once, next to the field lists (the .cpp); no other file
// instantiates them, even one that sees payload_fields.hpp (a unity batch).
extern template struct sortie::world::PayloadCodec<sortie::move::EnableCommand>;
extern template struct sortie::world::PayloadCodec<sortie::move::GotoCommand>;
extern template struct sortie::world::PayloadCodec<sortie::move::HaltCommand>;
extern template struct sortie::world::PayloadCodec<sortie::move::DriveCommand>;
extern template struct sortie::world::PayloadCodec<sortie::move::DisableCommand>;
