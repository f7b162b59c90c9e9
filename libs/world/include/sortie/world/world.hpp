#pragma once
// The World3D runtime (seed 003): object slots with generation-checked handles, the object
// queue in registration order, two-step create/add, deferred deletion while in_calculation,
// the event queue, commands, the calculation pass and the state hash after every tick.
//
// One calculation pass (World::tick):
//   1. prepare input/events: apply this tick's commands (in submission order, each through
//      its kind in the world's CommandRegistry), advance the game clock by one step (0 while
//      paused, scaled otherwise);
//   2. enter calculation (in_calculation = true);
//   3. dispatch the events queued before the pass, in sequence order; events posted during
//      the pass wait for the next tick; events whose target is pending deletion are skipped;
//   4. update every registered, active object in queue order (its controller);
//   5. leave calculation;
//   6. apply deferred operations: deletions in request order, then additions in request order;
//   7. occasional cache maintenance (maintenance clock, ~20 s and ~60 s tasks);
//   8. tick += 1, state hash over the canonical encoding, snapshot data kept.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/world/class_registry.hpp"
#include "sortie/world/clock.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/event.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/object.hpp"
#include "sortie/world/snapshot.hpp"
#include "sortie/world/state_writer.hpp"
#include "sortie/world/trace.hpp"

namespace sortie::world {

class CommandRegistry;
class HeightField;
class World;

// The world's state as data (world_image.hpp): a save's image.
nlohmann::json world_image(const World& world);

inline constexpr std::uint64_t kShortMaintenanceUs = 20 * kMicrosPerSecond;
inline constexpr std::uint64_t kLongMaintenanceUs = 60 * kMicrosPerSecond;

struct WorldConfig {
  PlayerId local_player = 1;
  std::uint32_t step_us = kDefaultStepUs;
  std::uint64_t seed = 0;         // simulation RNG stream seed
  bool keep_hash_history = true;  // remember the hash of every tick
  // The command kinds this world applies (command_registry.hpp); null = the standard set
  // (world's built-in kinds only; movement: move::move_command_registry).
  std::shared_ptr<const CommandRegistry> commands{};
};

// How a world's maintenance clock moves (it is never hashed, whichever): `external` only by
// advance_maintenance_clock (world::FrameLoop: the frame's real time), `fixed_step` by the step
// at every tick (a headless run), `real_time` by the steady clock's time between ticks.
enum class MaintenanceDrive : std::uint8_t { external, fixed_step, real_time };

enum class Phase : std::uint8_t { idle, preparing, calculating, applying_deferred, maintenance, shut_down };

class World {
 public:
  using EventHandler = std::function<void(World&, const Event&)>;
  using MaintenanceTask = std::function<void(World&)>;

  explicit World(WorldConfig config = {});
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // ---- object classes (class_registry.hpp): each area registers its rows before it creates ----
  [[nodiscard]] ClassRegistry& classes() { return classes_; }
  [[nodiscard]] const ClassRegistry& classes() const { return classes_; }

  // ---- identity and staging (CreateObject / CreateMirrorObject / AddObjectToGame) ----
  // Next free local id of a class (deterministic: per-class counter starting at 1).
  ObjectId allocate_id(ClassId class_id);
  // Constructs an unregistered object. id.owner == local player -> local object; otherwise a
  // mirror owned by id.owner. Errors: world.id.duplicate, world.shut_down.
  core::Result<Handle> create_object(ObjectId id, std::string prototype_key, const core::Transform& transform = {});
  // CreateMirrorObject: the id must name a remote owner (world.id.not_remote otherwise).
  core::Result<Handle> create_mirror_object(ObjectId id, std::string prototype_key,
                                            const core::Transform& transform = {});
  core::Result<Handle> create_local_object(ClassId class_id, std::string prototype_key,
                                           const core::Transform& transform = {});
  // Publishes to the queue: all at once, with the next registration sequence. Inside the
  // calculation pass it is deferred to the apply phase. Errors: world.handle.stale,
  // world.object.already_added.
  core::Status add_to_game(Handle handle);
  // Create + add (AddNewObjectToGame).
  core::Result<Handle> add_new_object(ClassId class_id, std::string prototype_key,
                                      const core::Transform& transform = {});
  // Ownership change keeps the identity (never a second object with the same id).
  core::Status change_owner(Handle handle, PlayerId new_owner);

  // ---- deletion ----
  // Inside the pass: marks pending and appends to the deferred list (deduplicated). Outside:
  // detaches and releases now. The handle becomes stale once released.
  core::Status request_delete(Handle handle);

  // ---- lookup ----
  [[nodiscard]] WorldObject* find(Handle handle);
  [[nodiscard]] const WorldObject* find(Handle handle) const;
  core::Result<WorldObject*> object(Handle handle);  // world.handle.stale
  [[nodiscard]] std::optional<Handle> lookup(ObjectId id) const;
  // The object with this id unless it is pending deletion: what a command may act on.
  [[nodiscard]] WorldObject* find_live(ObjectId id);
  // Registered objects in queue order (registration sequence).
  [[nodiscard]] const std::vector<Handle>& queue() const { return queue_; }
  [[nodiscard]] std::size_t slot_count() const { return slots_.size(); }
  [[nodiscard]] std::size_t live_count() const { return live_count_; }

  // ---- events ----
  // Stamps the next sequence number and queues the event; returns the sequence, or 0 when
  // the event is refused (the world is shut down, or the target handle is stale).
  std::uint64_t post(Event event);
  void on(EventType type, EventHandler handler);
  [[nodiscard]] std::size_t pending_events() const { return events_.size(); }

  // ---- commands ----
  // Queues a command for its tick (>= the current tick; world.command.late otherwise) and
  // records it in the log. Commands of one tick apply in submission order. The kind must be
  // in the world's registry (world.command.kind_unknown) and its payload must decode and
  // validate (world.command.payload.*, world.command.invalid, ...).
  core::Status submit(Command command);
  [[nodiscard]] const CommandRegistry& commands() const;
  [[nodiscard]] const CommandLog& command_log() const { return log_; }
  [[nodiscard]] std::uint64_t commands_applied() const { return commands_applied_; }
  [[nodiscard]] std::uint64_t commands_skipped() const { return commands_skipped_; }

  // ---- the calculation pass ----
  core::Status tick();
  [[nodiscard]] bool in_calculation() const { return in_calculation_; }
  [[nodiscard]] Phase phase() const { return phase_; }
  [[nodiscard]] const GameClock& clock() const { return clock_; }
  [[nodiscard]] core::Rng& sim_rng() { return sim_rng_; }

  // ---- maintenance (clock 5; never hashed; tasks must not touch simulation state) ----
  void add_maintenance_task(std::string name, std::uint64_t period_us, MaintenanceTask task);
  void advance_maintenance_clock(std::uint64_t us) { maintenance_clock_.advance(us); }
  void drive_maintenance_clock(MaintenanceDrive drive) { maintenance_drive_ = drive; }
  [[nodiscard]] MaintenanceDrive maintenance_drive() const { return maintenance_drive_; }
  [[nodiscard]] const MaintenanceClock& maintenance_clock() const { return maintenance_clock_; }
  void run_due_maintenance();
  // Runs every task now whatever its period (a program's last pass, tests).
  void run_all_maintenance();

  // ---- trace channels (trace.hpp; never hashed, never read by the simulation) ----
  // The world stamps the trace with its tick (set at the start of every pass and after it) and
  // writes the "queue" channel: objects added, deferred deletions applied, each tick's commands,
  // maintenance runs. Null: tracing is off.
  void set_trace(std::shared_ptr<Trace> trace);
  [[nodiscard]] Trace* trace() const { return trace_.get(); }
  [[nodiscard]] const std::shared_ptr<Trace>& shared_trace() const { return trace_; }

  // ---- determinism ----
  // Canonical encoding of the whole simulation state (see world_hash.cpp for the layout).
  [[nodiscard]] core::Bytes canonical_state() const;
  [[nodiscard]] std::uint64_t compute_state_hash() const;
  [[nodiscard]] std::uint64_t last_hash() const { return last_hash_; }
  [[nodiscard]] const std::vector<std::uint64_t>& hash_history() const { return hash_history_; }

  // ---- presentation ----
  [[nodiscard]] SnapshotPtr snapshot() const;

  // ---- collaborators ----
  void set_height_field(std::shared_ptr<const HeightField> ground) { ground_ = std::move(ground); }
  [[nodiscard]] const std::shared_ptr<const HeightField>& height_field() const { return ground_; }
  [[nodiscard]] PlayerId local_player() const { return config_.local_player; }

  // Shutdown protocol of seed 003: forbid new events/objects, clear deferred operations,
  // detach every object. Returns the handles released, in queue order, then unregistered ones.
  std::vector<Handle> shutdown();

 private:
  friend struct BuiltinCommandAccess;
  friend nlohmann::json world_image(const World& world);  // the built-in kinds (pause, set_speed) set the game clock

  struct Slot {
    std::uint32_t generation = 0;  // of the current or the last occupant; 0 = never used
    std::unique_ptr<WorldObject> object;
  };
  struct Maintenance {
    std::string name;
    std::uint64_t period_us;
    std::uint64_t last_us;
    MaintenanceTask task;
  };

  void encode_state(StateWriter& out) const;
  core::Status apply_command(const Command& command);
  void release(Handle handle);
  void publish(WorldObject& object);
  void dispatch_events();
  void update_objects();
  void apply_deferred();
  void trace_commands();  // the queue channel's line of this tick's commands
  void advance_driven_maintenance_clock();

  WorldConfig config_;
  std::shared_ptr<const CommandRegistry> commands_;
  ClassRegistry classes_;
  GameClock clock_;
  MaintenanceClock maintenance_clock_;
  MaintenanceDrive maintenance_drive_ = MaintenanceDrive::external;
  std::uint64_t maintenance_real_us_ = 0;  // the steady clock at the last tick (real_time); 0: none yet
  core::Rng sim_rng_;
  Phase phase_ = Phase::idle;
  bool in_calculation_ = false;
  bool shut_down_ = false;

  std::vector<Slot> slots_;
  std::deque<std::uint32_t> free_slots_;  // FIFO reuse: deterministic
  std::size_t live_count_ = 0;
  std::unordered_map<ObjectId, Handle> by_id_;
  std::unordered_map<ClassId, std::uint32_t> next_index_;
  std::vector<Handle> queue_;
  std::uint64_t next_registration_ = 1;

  std::vector<Event> events_;      // pending, in sequence order
  std::vector<Event> dispatched_;  // dispatched by the last tick
  std::uint64_t next_event_ = 1;
  std::unordered_map<std::uint32_t, std::vector<EventHandler>> handlers_;

  std::vector<Handle> deferred_delete_;
  std::vector<Handle> deferred_add_;

  std::multimap<std::uint64_t, Command> pending_commands_;  // by tick, then submission order
  std::uint64_t commands_applied_ = 0;
  std::uint64_t commands_skipped_ = 0;  // target missing or pending deletion
  CommandLog log_;

  std::vector<Maintenance> maintenance_;
  std::shared_ptr<Trace> trace_;
  std::map<std::string, std::uint32_t> traced_kinds_;  // this tick's applied commands by kind (queue channel on)
  std::shared_ptr<const HeightField> ground_;
  mutable StateWriter scratch_;  // reused encoding buffer of compute_state_hash()
  std::uint64_t last_hash_ = 0;
  std::vector<std::uint64_t> hash_history_;
};

// The world's trace when `channel` is on, else null: nothing is formatted for a channel that is off.
inline Trace* traced(const World& world, std::string_view channel) {
  Trace* t = world.trace();
  return t != nullptr && t->on(channel) ? t : nullptr;
}

}  // namespace sortie::world
