#pragma once
// The scenario runtime: holds a mission's scenario parts (Lua mission script, native bundles,
// SuperAI), starts them once and steps them once per fixed tick before the world's own tick.
//
//   runtime.start();                 // tick 0: scenario.start, every part's start(), then step()
//   while (...) { world.tick(); runtime.step(); }   // step() gives the commands of the next tick
//
// What a step sees: the world events dispatched by the previous tick (collected with
// World::on, their objects' ids resolved at dispatch), the objects registered or gone since the
// previous step (the queue compared), and the players the runtime was told about.
//
// A part's error is recorded as a diagnostic (field "tick N" when the part named no place) and
// stops that part only; the world and the other parts go on.
//
// The scenario's own state: after every step the runtime encodes every part (name, running,
// encode()) and its id counter into a digest (xxHash3 of the canonical encoding). When the
// digest changes, the runtime submits `scenario.digest` for the tick, so the part state is in
// the world's state hash through a command: a replay of the command log reaches the same hash
// without running any part (ADR 0016).
//
// Trace channels ("ai", "lua", "superai", "scenario", ...) are off by default. They are the
// world's trace (world/trace.hpp): when the world has one (a program's bootstrap installed it),
// the runtime writes there and its options.trace is not used; else a runtime with channels on
// installs one made from options.trace on the world, so the world's own channels (queue, the
// movement stack's) go to the same files. A channel that is on keeps its lines, each stamped with
// the tick; write_traces() writes `<channel>.log` to the trace directory (atomically).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/scenario/objectives.hpp"
#include "sortie/scenario/part.hpp"
#include "sortie/world/command.hpp"

namespace sortie::scenario {

// The world's trace options (world/trace.hpp): channels that are on ("all": every one) and
// where write_traces() puts <channel>.log (empty: nowhere).
using TraceOptions = world::TraceOptions;

struct RuntimeOptions {
  TraceOptions trace;
  std::uint64_t seed = 1;          // given to the parts (ScenarioContext::seed)
  std::size_t max_warnings = 256;  // warnings kept; more are only counted
  // Where the runtime's commands go (scenario.start, the parts' orders, scenario.digest), each
  // stamped for the world's next tick. Empty: the world's own submit. A networked server routes
  // them into its next tick's sequence (net::Server::submit), so every replica applies them.
  std::function<core::Status(world::Command)> submit{};
};

struct PartStatus {
  std::string name;
  bool running = true;
  std::optional<core::Diagnostic> error;  // why it stopped
};

class ScenarioRuntime {
 public:
  ScenarioRuntime(world::World& world, MissionFacts facts, RuntimeOptions options = {});
  ~ScenarioRuntime();
  ScenarioRuntime(const ScenarioRuntime&) = delete;
  ScenarioRuntime& operator=(const ScenarioRuntime&) = delete;

  // Before start(); parts run in the order they were added.
  void add(std::unique_ptr<ScenarioPart> part);
  [[nodiscard]] std::size_t part_count() const;

  // Once, at the world's current tick: submits scenario.start, starts every part, then step().
  // Errors: only the world's refusal of a runtime command (scenario.start, scenario.digest).
  core::Status start();
  // Once per tick, before world.tick() (the first call is start()). Errors as start().
  core::Status step();
  [[nodiscard]] bool started() const;

  // A networked session tells the runtime; the parts see it at their next step.
  void player_joined(world::PlayerId player);
  void player_left(world::PlayerId player);

  [[nodiscard]] std::vector<PartStatus> parts() const;
  // Errors of stopped parts and warnings of running ones (ScenarioContext::warn), in order.
  [[nodiscard]] const std::vector<core::Diagnostic>& diagnostics() const;
  [[nodiscard]] std::uint64_t warnings_dropped() const;
  [[nodiscard]] std::uint64_t digest() const;
  [[nodiscard]] std::uint64_t steps() const;
  // The world's scenario state (null before scenario.start applied).
  [[nodiscard]] const ScenarioState* state() const;

  // What the parts told the player (channel "message": Lua `message(...)`), kept whether or not
  // the channel is traced; the newest kMaxMessages.
  static constexpr std::size_t kMaxMessages = 64;
  [[nodiscard]] const std::vector<TraceLine>& messages() const;
  [[nodiscard]] std::uint64_t message_count() const;  // every message ever given

  // The scenario's state as data for a save's world image (docs/save-files.md): {"parts":
  // [{"name", "running", "state": the part's image}, ...] in order, "next_spawn", "steps",
  // "digest", "known": [ids the last step saw registered], "messages": [[tick, text], ...],
  // "message_count"}. Trace lines and diagnostics are reports, not state: not in it.
  void image(nlohmann::json& out) const;

  [[nodiscard]] bool trace_on(std::string_view channel) const;
  [[nodiscard]] const std::vector<TraceLine>& trace_lines() const;
  // Writes <channel>.log (lines "tick N: text") for every channel that is on, into
  // options.trace.dir; nothing when it is empty. Errors: io.* of the writes.
  [[nodiscard]] core::Status write_traces() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sortie::scenario
