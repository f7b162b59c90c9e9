#pragma once
// The start-up state machine of seed 003 ("Bootstrap"):
//   PROCESS_CREATED -> LIBRARY_READY -> ENTRYPOINTS_READY -> SHELL_CREATED -> GAME_CREATED
//   -> SUBSYSTEMS_READY -> MAIN_LOOP -> SUBSYSTEMS_CLOSED -> GAME_DELETED -> SHELL_DELETED
// Subsystems register a start and a stop action for one of the forward stages. start_up()
// runs them stage by stage in registration order, each with its own "started" flag. If one
// fails, every started subsystem is stopped in exact reverse order and the main loop is never
// reached. shut_down() stops everything in reverse, passing the closing stages.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"

namespace sortie::world {

enum class Stage : std::uint8_t {
  process_created,
  library_ready,
  entrypoints_ready,
  shell_created,
  game_created,
  subsystems_ready,
  main_loop,
  subsystems_closed,
  game_deleted,
  shell_deleted,
};

std::string_view to_string(Stage stage);  // "PROCESS_CREATED", ...

class Lifecycle {
 public:
  using StartFn = std::function<core::Status()>;
  using StopFn = std::function<void()>;

  Lifecycle() = default;
  ~Lifecycle();  // shuts down whatever is still started
  Lifecycle(const Lifecycle&) = delete;
  Lifecycle& operator=(const Lifecycle&) = delete;

  // `stage` is the stage this subsystem makes reachable: library_ready .. subsystems_ready.
  // Only before start_up(). Errors: lifecycle.stage (not a forward stage),
  // lifecycle.duplicate (name taken), lifecycle.state (already started).
  core::Status add(Stage stage, std::string name, StartFn start, StopFn stop);

  // Runs to MAIN_LOOP. On failure the diagnostic (`lifecycle.start_failed`) names the stage
  // and subsystem, wraps the subsystem's own message, and the partial start is torn down.
  core::Status start_up();
  // From MAIN_LOOP (or any partial state) down to SHELL_DELETED. Idempotent.
  void shut_down();

  [[nodiscard]] Stage stage() const { return stage_; }
  [[nodiscard]] bool started(std::string_view name) const;
  // Human-readable trace: "stage LIBRARY_READY", "start display", "fail sound", "stop display".
  [[nodiscard]] const std::vector<std::string>& trace() const { return trace_; }
  // Called with every trace line as it is written (a program's "lifecycle" trace channel).
  void set_observer(std::function<void(std::string_view)> observer) { observer_ = std::move(observer); }
  // After a failed start_up(): the failing subsystem's own diagnostic (what a program reports
  // with its own code and exit code; start_up() returns it wrapped in lifecycle.start_failed).
  [[nodiscard]] const std::optional<core::Diagnostic>& cause() const { return cause_; }

 private:
  struct Entry {
    Stage stage;
    std::string name;
    StartFn start;
    StopFn stop;
    bool started = false;
  };
  void enter(Stage stage);
  void note(std::string line);
  void stop_range(Stage stage);  // stops started entries of `stage`, reverse order

  std::vector<Entry> entries_;  // sorted by stage, then registration
  std::vector<std::size_t> start_order_;
  Stage stage_ = Stage::process_created;
  bool ran_ = false;
  std::vector<std::string> trace_;
  std::function<void(std::string_view)> observer_;
  std::optional<core::Diagnostic> cause_;
};

}  // namespace sortie::world
