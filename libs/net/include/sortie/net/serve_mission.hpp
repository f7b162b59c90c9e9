#pragma once
// `sortie serve` as one call, through the program bootstrap (mission/bootstrap.hpp):
//
//   LIBRARY_READY     archives   the game directory (or the embedded sample)
//   GAME_CREATED      mission    the mission loaded and its session setup captured (host_mission)
//   SUBSYSTEMS_READY  transport  the ENet listener on BIND:PORT (a port in use fails here)
//                     session    the server on the setup, the units' movement bodies
//                     world      the server world's trace and maintenance (real time)
//                     scenario   the mission's scenario on the server (unless --no-scenario)
//                     ...        the caller's subsystems
//   MAIN_LOOP         ServeSession::run, then the message log and the net traces
//
// A failed start stops what started, in reverse, and the failure keeps its stage (the app's exit
// code: ServeStage). Trace channels (docs/traces.md) go to options.net.trace_dir as <channel>.log
// beside resnet.log and NetWatch.log.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/mission/bootstrap.hpp"
#include "sortie/mission/open_game.hpp"
#include "sortie/net/serve_session.hpp"
#include "sortie/net/setup.hpp"

namespace sortie::net {

struct ServeMissionRequest {
  mission::GameSource source;
  std::string mission;  // empty: the game's first
  std::uint64_t seed = 1;
  ServeOptions net;
  bool scenario = true;
  std::vector<std::string> trace;  // channels (docs/traces.md); files go to net.trace_dir
  std::filesystem::path log;       // the message log (empty: none)
  std::function<void(std::string_view address)> on_listening;
  std::function<void(const SessionSetup& setup, std::uint64_t setup_hash)> on_hosted;
  std::vector<mission::ProgramSubsystem> subsystems;
};

// Where a serve stopped: opening or loading (the diagnostic's own exit code), the listener (a
// usage/I/O error), the session (invalid: host, its start commands, the scenario, a tick), the
// transport while running (I/O), writing the log or traces (I/O).
enum class ServeStage : std::uint8_t { open, listen, session, transport, write };

struct ServedMission {
  std::optional<mission::OpenGame> game;
  std::unique_ptr<ServeSession> session;
  SessionSetup setup;
  std::optional<core::Diagnostic> failure;
  ServeStage failed_at = ServeStage::open;
  std::vector<std::string> lifecycle;  // the bootstrap's stage trace
};

ServedMission serve_mission(const ServeMissionRequest& request);

}  // namespace sortie::net
