#include "sortie/net/serve_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "session_files.hpp"
#include "sortie/net/bots.hpp"
#include "sortie/net/enet_transport.hpp"

namespace sortie::net {

core::Result<std::unique_ptr<ServeSession>> ServeSession::listen(const ServeOptions& options) {
  std::unique_ptr<ServeSession> s(new ServeSession(options));
  SORTIE_TRY(auto transport,
             EnetTransport::listen(options.bind, options.port, EnetOptions{options.server.max_players + 16u}));
  s->port_ = transport->port();
  s->transport_ = std::move(transport);
  return s;
}

ServeSession::~ServeSession() {
  scenario_.reset();  // before the server it plays on
  server_.reset();    // before the transport it talks through
}

std::string ServeSession::address() const {
  return fmt::format("{}:{}", options_.bind, port_);
}

core::Status ServeSession::host(const SessionSetup& setup) {
  if (!options_.trace_dir.empty()) trace_ = std::make_unique<FileTrace>(options_.trace_dir);
  SORTIE_TRY(server_, Server::host(*transport_, setup, options_.server, clock_, trace_.get()));
  step_us_ = setup.step_us;
  return {};
}

core::Status ServeSession::play_scenario(mission::LoadedMission& mission, scenario::RuntimeOptions options) {
  if (!server_) return core::fail(core::Diagnostic::error("serve.scenario", "no session hosted to play a scenario on"));
  if (options.trace.dir.empty()) options.trace.dir = options_.trace_dir;
  SORTIE_TRY(scenario_, ServerScenario::create(*server_, mission, std::move(options)));
  return {};
}

tl::expected<void, ServeError> ServeSession::run() {
  using Clock = std::chrono::steady_clock;
  Server& s = *server_;
  BotOptions bo;
  bo.seed = options_.bot_seed;
  HostBot bot(bo);
  const auto transport_failed = [](core::Diagnostic d) { return tl::unexpected(ServeError{std::move(d), true}); };
  const auto session_failed = [](core::Diagnostic d) { return tl::unexpected(ServeError{std::move(d), false}); };
  // Lobby: wait for the players asked for.
  while (options_.wait_players > 0) {
    std::size_t ready = 0;
    for (const auto& p : s.peers()) ready += p.stage == PeerStage::ready ? 1 : 0;
    if (ready >= options_.wait_players) break;
    if (auto st = s.poll(10); !st) return transport_failed(st.error());
  }
  // The game: one tick per step of real time (or as fast as possible).
  const auto step = std::chrono::microseconds(step_us_);
  auto next = Clock::now();
  for (std::uint64_t t = 0; t < options_.ticks; ++t) {
    for (;;) {
      const auto now = Clock::now();
      if (options_.fast || now >= next) break;
      const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - now).count();
      if (auto st = s.poll(static_cast<std::uint32_t>(std::clamp<long long>(wait, 0, 16))); !st)
        return transport_failed(st.error());
    }
    if (auto st = s.poll(0); !st) return transport_failed(st.error());
    if (scenario_) {  // the scenario gives the authority's orders, as in `sortie run`
      if (auto st = scenario_->before_tick(); !st) return session_failed(st.error());
    } else if (options_.bot) {
      if (auto st = bot.step(s); !st) return session_failed(st.error());
    }
    if (auto st = s.run_tick(); !st) return session_failed(st.error());
    next += step;
    if (scenario_ && scenario_->decided()) break;  // the outcome ends the game
  }
  // The end (serve_session.hpp): linger, drop who is behind, a closing tick for the lost.
  if (auto st = linger(s.ticks()); !st) return transport_failed(st.error());
  s.drop_behind(s.ticks());
  if (s.lost_since_last_tick()) {
    if (auto st = s.run_tick(); !st) return session_failed(st.error());
    closing_tick_ = true;
    if (auto st = linger(s.ticks()); !st) return transport_failed(st.error());
  }
  s.finish();
  const auto drain_end = Clock::now() + std::chrono::milliseconds(300);
  while (Clock::now() < drain_end && s.connected_peers() > 0) (void)s.poll(10);
  return {};
}

core::Status ServeSession::linger(std::uint64_t tick) {
  using Clock = std::chrono::steady_clock;
  Server& s = *server_;
  const auto start = Clock::now();
  auto last_progress = start;
  auto progress = [&] {
    std::uint64_t sum = s.connected_peers();
    for (const PeerInfo& p : s.peers()) sum += p.acked_tick + (p.stage == PeerStage::ready ? 1 : 0);
    return sum;
  };
  std::uint64_t seen = progress();
  for (;;) {
    const auto now = Clock::now();
    const bool anyone = s.connected_peers() > 0;
    if (now - start >= std::chrono::milliseconds(options_.linger_ms)) break;
    if (anyone && s.clients_caught_up(tick)) break;
    if (!anyone && now - start >= std::chrono::seconds(1)) break;
    if (anyone && now - last_progress >= std::chrono::milliseconds(options_.linger_idle_ms)) break;
    SORTIE_CHECK(s.poll(10));
    if (const std::uint64_t p = progress(); p != seen) {
      seen = p;
      last_progress = Clock::now();
    }
  }
  return {};
}

core::Status ServeSession::save(const std::filesystem::path& log_path) const {
  SORTIE_CHECK(detail::save_session_files(log_path, server_->message_log(), trace_.get()));
  return scenario_ ? scenario_->runtime().write_traces() : core::Status{};
}

}  // namespace sortie::net
