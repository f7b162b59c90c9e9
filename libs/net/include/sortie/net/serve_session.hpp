#pragma once
// The authoritative server's session loop, the one `sortie serve` runs (issue #17 part 1):
//
//   listen()  an ENet listener on BIND:PORT (port 0: any free one, see address());
//   host()    the server on the session's setup (a mission captured by net::capture_setup);
//   play_scenario()  optional, after host(): the mission's scenario runs on the server's world
//             (server_scenario.hpp), stepped before every tick as `sortie run` steps it;
//   run()     the lobby: polls until `wait_players` peers are ready; the game: `ticks` ticks, one
//             per setup step of real time (as fast as possible with `fast`), each after a poll
//             and the scenario's step or, without a scenario and with `bot`, a HostBot's orders
//             (the rule of `sortie run`: a scenario gives the orders, else random ones); the
//             game ends after `ticks` ticks or after the tick the scenario's outcome is decided
//             at; then the end:
//
//   the linger   polls until every connected client has acknowledged the last tick (late joiners
//                catch up meanwhile); at most `linger_ms`, `linger_idle_ms` without progress (no
//                client acknowledged a newer tick, none got ready, came or went), a second when
//                nobody is connected;
//   the behind   every client still connected that has not acknowledged the last tick is
//                dropped (ack_timeout, Server::drop_behind);
//   the closing tick  a player lost after the last tick (dropped, timed out, crashed: any reason
//                but `left`) is decided into a sequence that would never run: one more tick runs
//                it, so the leave policy reaches the final state (closing_tick()), followed by a
//                linger for that tick. A player who left of its own accord changes nothing;
//   the finish   Server::finish() ends the session (session_end) and the disconnects get up to
//                300 ms to go out.
//
// The final state hash is server().replica().state_hash(), the number every client that follows
// to the session's end prints (a client that stopped at --ticks N before a closing tick prints
// the hash of tick N).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <tl/expected.hpp>

#include "sortie/core/diagnostic.hpp"
#include "sortie/net/server.hpp"
#include "sortie/net/server_scenario.hpp"
#include "sortie/net/setup.hpp"
#include "sortie/net/trace.hpp"
#include "sortie/net/transport.hpp"
#include "sortie/world/clock.hpp"

namespace sortie::net {

struct ServeOptions {
  std::string bind = "127.0.0.1";  // 0.0.0.0: every interface
  std::uint16_t port = 7777;
  ServerConfig server;                   // its max_players also sizes the listener (16 more slots to refuse peers)
  std::uint64_t ticks = 600;             // calculation ticks to run
  std::uint32_t wait_players = 0;        // ready players to wait for before the first tick
  std::uint64_t linger_ms = 10'000;      // how long to wait for clients after the last tick, at most
  std::uint64_t linger_idle_ms = 2'000;  // ... and without any client's progress
  bool fast = false;                     // tick as fast as possible instead of in real time
  bool bot = true;                       // a HostBot orders the authority's units
  std::uint64_t bot_seed = 1;
  std::filesystem::path trace_dir;  // resnet.log and NetWatch.log go here (save()); empty: no trace
};

// Why run() stopped: the transport failed (an I/O error) or the session did (a tick, the bot).
struct ServeError {
  core::Diagnostic diagnostic;
  bool transport = false;
};

class ServeSession {
 public:
  // Errors: net.enet.init, net.enet.address, net.enet.host.
  static core::Result<std::unique_ptr<ServeSession>> listen(const ServeOptions& options);
  ~ServeSession();
  ServeSession(const ServeSession&) = delete;
  ServeSession& operator=(const ServeSession&) = delete;

  // BIND:PORT with the bound port.
  [[nodiscard]] std::string address() const;
  // Errors: Server::host's (the setup's).
  core::Status host(const SessionSetup& setup);
  // Plays the scenario of `mission` (the mission the setup was captured from) on the server's
  // world; after host() and the units' bodies, before run(). Nothing when the mission has none.
  // `options.trace.dir` empty: the scenario's traces go to the trace directory. Errors:
  // serve.scenario (before host()), ServerScenario::create's.
  core::Status play_scenario(mission::LoadedMission& mission, scenario::RuntimeOptions options = {});
  // The lobby, the ticks and the linger, then the session's end (see above); after host().
  tl::expected<void, ServeError> run();
  // Writes the message log to `log_path` (empty: none), the trace and the scenario's trace channels.
  core::Status save(const std::filesystem::path& log_path) const;

  [[nodiscard]] Server& server() { return *server_; }
  [[nodiscard]] const Server& server() const { return *server_; }
  // run() ran a closing tick for players lost after the last tick.
  [[nodiscard]] bool closing_tick() const { return closing_tick_; }
  // The scenario the server plays (null: none).
  [[nodiscard]] const ServerScenario* scenario() const { return scenario_.get(); }
  // The transport's own counters (ENet: UDP payload with its headers, acknowledgements, resends).
  [[nodiscard]] TransportStats transport_stats() const { return transport_->stats(); }

 private:
  explicit ServeSession(ServeOptions options) : options_(std::move(options)) {}
  core::Status linger(std::uint64_t tick);
  ServeOptions options_;
  world::SteadyPlatformClock clock_;
  std::unique_ptr<Transport> transport_;
  std::uint16_t port_ = 0;
  std::uint32_t step_us_ = world::kDefaultStepUs;
  std::unique_ptr<FileTrace> trace_;
  std::unique_ptr<Server> server_;
  std::unique_ptr<ServerScenario> scenario_;  // after server_: it holds a reference to it
  bool closing_tick_ = false;
};

}  // namespace sortie::net
