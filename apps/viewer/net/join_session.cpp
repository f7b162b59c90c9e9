#include "net/join_session.hpp"

#include <fmt/format.h>

#include "sortie/net/enet_transport.hpp"

namespace sortie::viewer {

core::Result<std::unique_ptr<JoinSession>> JoinSession::over(net::Transport& transport, const JoinOptions& options,
                                                             world::PlatformClock& clock) {
  std::unique_ptr<JoinSession> s(new JoinSession(options, clock));
  net::ClientConfig config;
  config.name = options.name;
  config.stop_after_ticks = options.ticks;
  SORTIE_TRY(s->client_, net::Client::join(transport, config, clock));
  s->transport_ = &transport;
  s->started_us_ = clock.now_us();
  return s;
}

core::Result<std::unique_ptr<JoinSession>> JoinSession::connect(const JoinOptions& options) {
  SORTIE_TRY(const auto hp, net::parse_host_port(options.address));
  SORTIE_TRY(std::unique_ptr<net::Transport> transport, net::EnetTransport::connect(hp.first, hp.second));
  auto clock = std::make_unique<world::SteadyPlatformClock>();
  SORTIE_TRY(auto s, over(*transport, options, *clock));
  s->own_clock_ = std::move(clock);
  s->own_transport_ = std::move(transport);
  return s;
}

JoinSession::~JoinSession() {
  client_.reset();  // before the transport it talks through
}

bool JoinSession::ready() const {
  const auto* r = client_->replica();
  return r != nullptr && r->setup_complete();
}

bool JoinSession::finished() const {
  return client_->done() || (client_->state() == net::ClientState::closed &&
                             client_->closed_reason() == net::Reason::session_end && !client_->error());
}

core::Status JoinSession::pump(std::uint32_t wait_ms) {
  if (client_->state() == net::ClientState::closed || client_->done()) return {};
  SORTIE_CHECK(client_->poll(wait_ms));
  const auto state = client_->state();
  if ((state == net::ClientState::connecting || state == net::ClientState::joining) &&
      clock_.now_us() - started_us_ > options_.timeout_ms * 1000) {
    return core::fail(core::Diagnostic::error("join.timeout", "no answer from the server")
                          .expect(fmt::format("a session within {} ms", options_.timeout_ms), options_.address));
  }
  return {};
}

core::Result<std::uint64_t> JoinSession::finish() {
  const std::uint64_t until = clock_.now_us() + options_.timeout_ms * 1000;
  while (!finished() && client_->state() != net::ClientState::closed) {
    SORTIE_CHECK(pump(5));
    if (clock_.now_us() > until)
      return core::fail(core::Diagnostic::error("join.timeout", "the session did not reach its end")
                            .expect(options_.ticks ? fmt::format("{} ticks", options_.ticks) : "the session end",
                                    fmt::format("{} ticks", client_->ticks())));
  }
  if (!finished()) {
    return core::fail(client_->error() ? *client_->error()
                                       : core::Diagnostic::error("join.closed", "the session ended early"));
  }
  const std::uint64_t hash = client_->replica()->state_hash();
  client_->leave();
  // Let the disconnect reach the server (as `sortie join` does).
  const std::uint64_t drain_end = clock_.now_us() + 100'000;
  std::vector<net::TransportEvent> ignored;
  while (clock_.now_us() < drain_end && transport_->poll(5, ignored)) ignored.clear();
  return hash;
}

}  // namespace sortie::viewer
