#pragma once
// The movement system: one step of Behavior -> Wizard -> Control -> collisions for every unit
// with a move.body, in ObjectId order (seed 001 "Collision pipeline"):
//   1. gather the members (live, registered, local objects with a body); rebuild a proxy whose
//      body or model changed;
//   2. broad phase on the current positions (a uniform grid) for the wizard's neighbours;
//   3. per unit: Behavior plans / follows (re-plans off the path, fails with a diagnostic),
//      Wizard corrects the direction, Control integrates speed and turn into a candidate XY;
//   4. narrow phase against the terrain: ground under the candidate, slope, walkable areal; a
//      refused candidate slides along X or Y, else the unit stays (a blocked move);
//   5. broad phase on the candidates, narrow phase between bodies, and the correction: pushes
//      accumulated over every contact then applied together (Jacobi, 3 passes), so a pair is
//      resolved the same whichever of the two has the lower id; a push the terrain refuses is
//      undone;
//   6. the final transforms: terrain height, orientation on the terrain normal, velocity;
//   7. GMSG_COLLISION_DETECTED: EventType::collision posted once per contact, when it begins
//      (target = lower ObjectId, other = higher; a terrain contact has no `other` and a = 1),
//      in this fixed phase after the narrow phase. The world dispatches it at the start of the
//      next tick, inside the calculation pass, so a handler's deletion is deferred; the system
//      holds ObjectIds, never pointers, and skips objects pending deletion.
// Arrivals and failures post EventType::arrived (b = 0, or the MoveFailure code).
//
// The system lives on an invisible object of class move::class_ids::kMoveSystem created on first use
// (move.enable); its controller is this class, so its state (members, active contacts,
// counters, diagnostics) is part of the world hash.
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/move/collision.hpp"
#include "sortie/move/components.hpp"
#include "sortie/move/environment.hpp"
#include "sortie/move/wizard.hpp"
#include "sortie/nav/terrain_world.hpp"
#include "sortie/world/controller.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::world {
class World;
class WorldObject;
}  // namespace sortie::world

namespace sortie::move {

inline constexpr std::size_t kMaxKeptDiagnostics = 256;  // older ones are counted, not kept
inline constexpr int kCorrectionPasses = 3;

struct MoveStats {
  std::uint64_t steps = 0;
  std::uint64_t contacts = 0;       // contact events posted (each contact once)
  std::uint64_t blocked_moves = 0;  // unit steps the terrain refused or cut
  std::uint64_t arrivals = 0;
  std::uint64_t failures = 0;  // orders ended by a MoveFailure
  std::uint64_t replans = 0;
  std::uint64_t proxies_rebuilt = 0;
  void encode(world::StateWriter& out) const;
  friend bool operator==(const MoveStats&, const MoveStats&) = default;
};

// An active contact: two ObjectIds (raw, lower first), or (unit, 0) against the terrain.
using ContactKey = std::pair<std::uint64_t, std::uint64_t>;

class MoveSystem final : public world::Controller {
 public:
  static constexpr std::string_view kKind = "move.system";
  explicit MoveSystem(MoveEnvironmentPtr env) : env_(std::move(env)) {}

  [[nodiscard]] std::string_view kind() const override { return kKind; }
  void update(world::UpdateContext& ctx) override;
  void encode(world::StateWriter& out) const override;
  void image(nlohmann::json& out) const override;  // members, contacts, stats, diagnostics (move_image.cpp)
  [[nodiscard]] std::unique_ptr<world::Controller> clone() const override {
    return std::make_unique<MoveSystem>(*this);
  }

  void add_member(world::ObjectId id);
  // One step of `dt` game seconds (0: paused, nothing moves).
  void step(world::World& world, float dt);

  [[nodiscard]] const MoveStats& stats() const { return stats_; }
  [[nodiscard]] const std::vector<core::Diagnostic>& diagnostics() const { return diagnostics_; }
  [[nodiscard]] const std::vector<ContactKey>& contacts() const { return contacts_; }
  [[nodiscard]] const std::vector<world::ObjectId>& members() const { return members_; }
  [[nodiscard]] const MoveEnvironmentPtr& environment() const { return env_; }

 private:
  struct Mover {
    world::WorldObject* object = nullptr;
    Body* body = nullptr;
    BehaviorState* behavior = nullptr;
    WizardState* wizard = nullptr;
    ControlState* control = nullptr;
    CollisionProxy* proxy = nullptr;
    core::Vec2 start{};
    core::Vec2 xy{};  // candidate, then final
    float z = 0.0f;
    bool controlled = false;  // moved by this system (not static, no other controller)
    bool blocked = false;
    bool touched = false;  // in a body contact this step
    // The terrain under the accepted candidate (a pure function of the point, reused by
    // finish() when the bodies did not push the unit off it).
    std::optional<nav::SurfaceSample> ground;
    core::Vec2 ground_xy{};
  };
  void gather(world::World& world);
  void think(world::World& world, Mover& m, float dt);
  void trace_wizard(world::World& world, const Mover& m, world::ObjectId avoided);  // the "wizard" channel
  void report_failure(world::World& world, Mover& m, MoveFailure failure);
  [[nodiscard]] bool ground_ok(core::Vec2 p, std::optional<nav::SurfaceSample>* sample = nullptr) const;
  [[nodiscard]] ProxyView view(const Mover& m) const;
  void resolve_bodies(std::vector<ContactKey>& touching);
  void finish(world::World& world, float dt);

  MoveEnvironmentPtr env_;
  std::vector<world::ObjectId> members_;  // ascending
  std::vector<ContactKey> contacts_;      // active, ascending
  MoveStats stats_;
  std::vector<core::Diagnostic> diagnostics_;
  // Scratch (not state): reused between steps.
  std::vector<Mover> movers_;
  nav::PathWorkspace workspace_;
  UniformGrid grid_;
  std::vector<core::Vec2> positions_;
  std::vector<std::uint32_t> query_;
  std::vector<Neighbour> near_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs_;
  std::vector<core::Vec2> push_;
  // The terrain under each unit where the last step left it (id, point, sample), ascending by
  // id: the next step's start reuses it when the unit is still exactly there.
  struct GroundMemo {
    std::uint64_t id = 0;
    core::Vec2 xy{};
    nav::SurfaceSample sample{};
  };
  std::vector<GroundMemo> last_ground_;
  std::vector<GroundMemo> next_ground_;
  float cell_ = 1.0f;
};

// The id of the system object of `world` ({local player, kMoveSystem, 1}).
world::ObjectId move_system_id(const world::World& world);
// The system of `world`, nullptr before the first move.enable.
MoveSystem* find_move_system(world::World& world);
const MoveSystem* find_move_system(const world::World& world);
// Finds or creates (and adds to the game) the system object. Errors: world.* from creation.
core::Result<MoveSystem*> ensure_move_system(world::World& world, const MoveEnvironmentPtr& env);

}  // namespace sortie::move
