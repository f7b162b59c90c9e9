#pragma once
// The mission's scenario on a networked server (issue #18): the runtime `sortie run` plays
// (mission::make_scenario_runtime: the Lua mission script, the clans' native bundles, a SuperAI
// for every hostile clan but the player's) runs on the server's authoritative world and is
// stepped before every tick with mission::scenario_before_tick, the step of `sortie run`. Its
// commands (scenario.start, the parts' orders, objectives, the outcome, scenario.digest) go into
// the next tick's sequence through Server::submit: they are logged, reach every client through
// the replication and replay from the server's message log. Clients never run a script; they
// learn the objectives and the outcome from the replicated scenario object.
//
//   auto sc = ServerScenario::create(server, mission, options);  // after the units' bodies
//   each tick:  sc->before_tick(); server.run_tick();            // until sc->decided()
//
// On a server, Lua `human()` is false: the mission's player clan stays the script's, and
// networked players play the units they spawn or take. A unit owned by a networked player is
// never ordered by SuperAI. The runtime is told of players who joined or left (their
// GMSG_CREATE_REMOTE_PLAYER / GMSG_KILL_PLAYER ran in a tick) at its next step.
#include <memory>
#include <optional>
#include <set>

#include "sortie/core/diagnostic.hpp"
#include "sortie/mission/mission_loader.hpp"
#include "sortie/mission/mission_scenario.hpp"
#include "sortie/net/server.hpp"
#include "sortie/scenario/runtime.hpp"

namespace sortie::net {

class ServerScenario {
 public:
  // The scenario of `mission` (the mission the server's setup was captured from) on the server's
  // world; null when the mission has none. Errors: make_scenario_runtime's (lua.*).
  static core::Result<std::unique_ptr<ServerScenario>> create(Server& server, mission::LoadedMission& mission,
                                                              scenario::RuntimeOptions options = {});
  ServerScenario(const ServerScenario&) = delete;
  ServerScenario& operator=(const ServerScenario&) = delete;

  // Before every Server::run_tick (the first call starts the runtime): the players who joined or
  // left, then the runtime's step; nothing once the outcome is decided. Errors: the runtime's
  // (the server refused one of its commands).
  core::Status before_tick();
  // The world's scenario has an outcome: the session ends.
  [[nodiscard]] bool decided() const;
  [[nodiscard]] const scenario::ScenarioRuntime& runtime() const { return *runtime_; }
  // Objectives, outcome, parts and their diagnostics (ScenarioSummary); nullopt before the start.
  [[nodiscard]] std::optional<mission::ScenarioSummary> summary() const;

 private:
  ServerScenario(Server& server, std::unique_ptr<scenario::ScenarioRuntime> runtime)
      : server_(server), runtime_(std::move(runtime)) {}
  Server& server_;
  std::unique_ptr<scenario::ScenarioRuntime> runtime_;
  std::set<PlayerNumber> players_;  // the networked players the runtime knows of
};

}  // namespace sortie::net
