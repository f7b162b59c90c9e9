#pragma once
// Per-unit state of the movement stack, as typed world components (hashed in name order):
//   move.body      the physical model: shape, radius, height, speed limit, category; static
//                  bodies (buildings) are obstacles that never move (LoadPhysicalModel analogue)
//   move.behavior  target, global path (areal ids), local path (trajectory points), state
//   move.wizard    the short-term correction around the nearest obstacle (ClearWizardPath)
//   move.control   the physical state: speed, heading, requested speed and turn, velocity
//   move.proxy     the collision proxy the broad phase used, rebuilt when the body or the
//                  object's model changes
// Each has image(): its fields as data in a save's world image (move_image.cpp).
// Field names describe the contract of a compatible implementation, not the original layout.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string_view>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/state_writer.hpp"

namespace sortie::move {

enum class Shape : std::uint8_t {
  circle = 0,   // a disc in XY: collides whatever the heights
  capsule = 1,  // a vertical capsule: [z + radius, z + height - radius] swept by `radius`
                // (lower than two radii: a sphere at z + height / 2)
};

inline constexpr std::uint32_t kCategoryUnit = 0x1;
inline constexpr std::uint32_t kCategoryBuilding = 0x2;

struct Body {
  static constexpr std::string_view kComponentName = "move.body";
  Shape shape = Shape::capsule;
  float radius = 1.0f;
  float height = 2.0f;
  float max_speed = 8.0f;  // units per game second
  std::uint32_t category = kCategoryUnit;
  std::uint32_t collides_with = 0xFFFFFFFFu;
  bool is_static = false;
  std::uint32_t revision = 1;  // bumped by every change: the proxy is rebuilt
  void encode(world::StateWriter& out) const;
  void image(nlohmann::json& out) const;
  friend bool operator==(const Body&, const Body&) = default;
};

enum class BehaviorMode : std::uint8_t { idle, planning, following, arrived, failed, manual };
std::string_view to_string(BehaviorMode mode);

// The diagnostic conditions of seed 001 (Behavior) a unit can end in. Never a teleport.
enum class MoveFailure : std::uint8_t {
  none = 0,
  no_terrain = 1,         // the environment has no terrain interface
  no_areal_map = 2,       // an order needs a path and there is no IArealMap
  not_in_areal = 3,       // the unit stands where no areal is (non-reachable area)
  non_walkable = 4,       // the unit stands in a non-walkable areal and would have to leave it
  goal_off_map = 5,       // the target is in no areal
  goal_not_walkable = 6,  // the target is only in non-walkable areals
  unreachable = 7,        // no route joins the unit's areal and the target's
  path_cycle = 8,         // the path generator keeps re-planning without progress
};
std::string_view to_string(MoveFailure failure);
// "move.behavior.<name>"
std::string diagnostic_code(MoveFailure failure);

struct BehaviorState {
  static constexpr std::string_view kComponentName = "move.behavior";
  BehaviorMode mode = BehaviorMode::idle;
  MoveFailure failure = MoveFailure::none;
  core::Vec2 target{};
  float speed = 0.0f;                      // ordered speed
  std::uint32_t path_revision = 0;         // +1 per (re)plan
  std::vector<std::uint32_t> global_path;  // areal ids
  std::uint32_t route_index = 0;           // global_path index of the unit's areal
  std::uint32_t current_areal = nav::kNoAreal;
  core::Vec2 origin{};                 // where the unit stood when the path was planned
  std::vector<core::Vec2> local_path;  // trajectory points after the start; back() == target
  std::uint32_t next_point = 0;
  std::uint32_t replans_without_progress = 0;
  void encode(world::StateWriter& out) const;
  void image(nlohmann::json& out) const;
  friend bool operator==(const BehaviorState&, const BehaviorState&) = default;
};

struct WizardState {
  static constexpr std::string_view kComponentName = "move.wizard";
  std::vector<core::Vec2> path;  // short-term points; empty = none
  world::ObjectId avoiding{};    // the obstacle the path steers around
  core::Vec2 requested{};        // direction Behavior asked for (unit or zero)
  core::Vec2 corrected{};        // direction after the correction
  std::uint32_t clears = 0;      // ClearWizardPath calls
  void encode(world::StateWriter& out) const;
  void image(nlohmann::json& out) const;
  friend bool operator==(const WizardState&, const WizardState&) = default;
};

inline constexpr std::uint32_t kFlagBlocked = 0x1;   // the last step was refused or cut by terrain
inline constexpr std::uint32_t kFlagContact = 0x2;   // the last step touched another body
inline constexpr std::uint32_t kFlagOnGround = 0x4;  // the last step found ground under the unit

struct ControlState {
  static constexpr std::string_view kComponentName = "move.control";
  float speed = 0.0f;            // current forward speed (units per second)
  float heading = 0.0f;          // radians, (-pi, pi]
  float requested_speed = 0.0f;  // of the last step
  float requested_turn = 0.0f;   // radians per second, of the last step
  core::Vec3 linear_velocity{};
  float angular_velocity = 0.0f;
  std::uint32_t flags = 0;
  float manual_speed = 0.0f;  // move.drive: forward speed and turn rate asked for
  float manual_turn = 0.0f;
  void encode(world::StateWriter& out) const;
  void image(nlohmann::json& out) const;
  friend bool operator==(const ControlState&, const ControlState&) = default;
};

struct CollisionProxy {
  static constexpr std::string_view kComponentName = "move.proxy";
  Shape shape = Shape::capsule;
  float radius = 0.0f;
  float height = 0.0f;
  std::uint32_t category = 0;
  std::uint32_t collides_with = 0;
  bool is_static = false;
  std::uint32_t body_revision = 0;  // of the Body it was built from
  std::uint64_t model_key = 0;      // hash of the object's prototype key it was built for
  std::uint32_t rebuilds = 0;
  void encode(world::StateWriter& out) const;
  void image(nlohmann::json& out) const;
  friend bool operator==(const CollisionProxy&, const CollisionProxy&) = default;
};

}  // namespace sortie::move
