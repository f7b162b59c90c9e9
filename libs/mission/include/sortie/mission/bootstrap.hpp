#pragma once
// A mission program's start-up and shutdown (seed 003 "Bootstrap"; world/lifecycle.hpp): the
// subsystems of `sortie run`, `sortie serve` and `sortie-viewer` register at their stages
//
//   LIBRARY_READY     archives: the game directory, its VFS and archive mounts (open_game)
//   GAME_CREATED      mission: the staged load into a world (mission_loader.hpp)
//   SUBSYSTEMS_READY  world (its trace and the maintenance passes), movement, scenario, sound,
//                     and the program's own: the window and renderer (viewer), the network
//                     transport (serve)
//
// and run() goes start_up -> the main loop -> shut_down: a start action that fails stops what
// started before it in exact reverse order, the main loop is never reached, and run() returns
// the subsystem's own diagnostic (its code and exit code, not lifecycle.start_failed). The
// stage trace ("stage LIBRARY_READY", "start archives", "fail sound", "stop mission", ...) is the
// trace channel "lifecycle", stamped with the world's tick once there is a world.
//
// The trace (world/trace.hpp) is the program's one sink: the bootstrap owns it, attach() installs
// it on the program's world, and run() writes its <channel>.log files after the teardown.
//
// Maintenance (seed 003: "occasionally ... resources and objects unused for a while are freed, by
// clock thresholds of about 20 and 60 seconds"; spec: the texture cache's "deferred GC sweep about
// every 20 s frees slots unused > ~60 s"): register_maintenance() puts two tasks on the world's
// maintenance clock (clock 5, never hashed):
//   every 20 s (world::kShortMaintenanceUs)  the visual cache and the prototype resolver's caches:
//                                            what was not requested since the previous pass and
//                                            that no store or scene holds;
//   every 60 s (world::kLongMaintenanceUs)   the deep pass: the VFS's directory listings and the
//                                            archive mounts nobody holds.
// An entry unused for one whole pass is dropped (so it goes after 20-40 s unused, the ~60 s of
// the spec within one period). Each trim is a "queue" trace line with its counts.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/assets/cache_trim.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/world/lifecycle.hpp"
#include "sortie/world/trace.hpp"
#include "sortie/world/world.hpp"

namespace sortie::mission {

class GameContext;

// A subsystem a program adds to the standard ones (its window, its transport; tests: one that
// fails).
struct ProgramSubsystem {
  world::Stage stage = world::Stage::subsystems_ready;
  std::string name;
  world::Lifecycle::StartFn start;
  world::Lifecycle::StopFn stop{};
};

class Bootstrap {
 public:
  explicit Bootstrap(world::TraceOptions trace = {});
  ~Bootstrap();  // shuts down whatever is still started
  Bootstrap(const Bootstrap&) = delete;
  Bootstrap& operator=(const Bootstrap&) = delete;

  // Before run(). Errors: Lifecycle::add's (lifecycle.stage, lifecycle.duplicate).
  core::Status add(world::Stage stage, std::string name, world::Lifecycle::StartFn start,
                   world::Lifecycle::StopFn stop = {});
  core::Status add(ProgramSubsystem subsystem);
  core::Status add(std::vector<ProgramSubsystem> subsystems);

  // start_up, then `main_loop` (at MAIN_LOOP), then shut_down, then the trace files. Errors: the
  // failed subsystem's diagnostic (nothing more ran), else the main loop's, else writing the
  // trace (write_failed() tells which).
  core::Status run(const std::function<core::Status()>& main_loop);
  [[nodiscard]] bool reached_main_loop() const { return reached_main_loop_; }
  [[nodiscard]] bool write_failed() const { return write_failed_; }

  // The program's world: the trace is installed on it (its tick stamps every later line), and the
  // queue channel lists the objects it already holds ("add ... (at load)").
  void attach(world::World& world);
  [[nodiscard]] world::Trace& trace() { return *trace_; }
  [[nodiscard]] const std::shared_ptr<world::Trace>& shared_trace() const { return trace_; }
  [[nodiscard]] const world::Lifecycle& lifecycle() const { return lifecycle_; }

 private:
  world::Lifecycle lifecycle_;
  std::shared_ptr<world::Trace> trace_;
  bool reached_main_loop_ = false;
  bool write_failed_ = false;
};

// Registers the 20 s and 60 s passes over `game`'s caches on `world` (see above) and sets how its
// maintenance clock moves (fixed_step: the headless run; real_time: the server and the viewer).
// `game` must outlive the world's tasks (it owns the world it loads).
void register_maintenance(world::World& world, GameContext& game, world::MaintenanceDrive drive);

// The two passes as functions (what the tasks run; tests call them directly).
std::vector<assets::CacheTrim> short_maintenance(GameContext& game);
std::vector<assets::CacheTrim> long_maintenance(GameContext& game);

}  // namespace sortie::mission
