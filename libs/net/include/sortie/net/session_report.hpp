#pragma once
// What `sortie serve`, `sortie join` and `sortie replay` need beyond their session loops: the
// hosted mission's setup (loaded the engine's way, as `sortie run` loads it) and the reports the
// sessions end with, as JSON and as the lines a person reads. The apps parse options, call these
// and print.
#include <cstdint>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/net/join_session.hpp"
#include "sortie/net/message_log.hpp"
#include "sortie/net/serve_session.hpp"
#include "sortie/net/setup.hpp"
#include "sortie/world/command.hpp"

namespace sortie::mission {
class GameContext;
}

namespace sortie::net {

// The most ticks a served or joined session runs (`--ticks`): about 185 days of 16 ms ticks.
inline constexpr std::uint64_t kMaxSessionTicks = 1'000'000'000;

// A mission ready to be served: its setup and the commands that give its units their movement
// bodies before the first tick (exactly as `sortie run` gives them).
struct HostedMission {
  SessionSetup setup;
  std::vector<world::Command> start;
};

// Loads `mission` in `context` with the world seed `seed` and captures its setup.
// Errors: the loader's, serve.load (the mission did not load or has no world), capture_setup's.
core::Result<HostedMission> host_mission(mission::GameContext& context, std::string_view mission, std::uint64_t seed);

// The end of a served session: JSON (`sortie serve --json`) and text lines.
core::Json serve_report_json(const ServeSession& session, const SessionSetup& setup);
std::string serve_report_text(const ServeSession& session);

// The end of a joined session whose final state hash is `hash`.
core::Json join_report_json(const JoinSession& session, std::uint64_t hash);
std::string join_report_text(const JoinSession& session, std::uint64_t hash);

// A replayed message log.
core::Json replay_report_json(const ReplayOutcome& outcome);
std::string replay_report_text(const ReplayOutcome& outcome);

}  // namespace sortie::net
