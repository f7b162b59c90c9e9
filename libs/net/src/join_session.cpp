#include "sortie/net/join_session.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "session_files.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/net/enet_transport.hpp"
#include "sortie/net/lossy_link.hpp"

namespace sortie::net {

core::Result<std::unique_ptr<JoinSession>> JoinSession::over(Transport& transport, const JoinOptions& options,
                                                             world::PlatformClock& clock) {
  std::unique_ptr<JoinSession> s(new JoinSession(options, clock));
  SORTIE_CHECK(s->start(transport));
  return s;
}

core::Result<std::unique_ptr<JoinSession>> JoinSession::connect(const JoinOptions& options) {
  SORTIE_TRY(const auto hp, parse_host_port(options.address));
  auto clock = std::make_unique<world::SteadyPlatformClock>();
  std::unique_ptr<JoinSession> s(new JoinSession(options, *clock));
  s->own_clock_ = std::move(clock);
  std::string host = hp.first;
  std::uint16_t port = hp.second;
  if (!options.lossy.empty()) {
    SORTIE_TRY(const LossSpec spec, parse_loss_spec(options.lossy));
    SORTIE_TRY(s->relay_, UdpRelay::open(host, port, spec, options.seed, s->clock_));
    host = "127.0.0.1";
    port = s->relay_->port();
  }
  SORTIE_TRY(s->own_transport_, EnetTransport::connect(host, port));
  SORTIE_CHECK(s->start(*s->own_transport_));
  return s;
}

core::Status JoinSession::start(Transport& transport) {
  transport_ = &transport;
  if (!options_.trace_dir.empty()) trace_ = std::make_unique<FileTrace>(options_.trace_dir);
  ClientConfig config;
  config.name = options_.name;
  config.stop_after_ticks = options_.ticks;
  config.record = options_.record;
  SORTIE_TRY(client_, Client::join(transport, config, clock_, trace_.get()));
  if (options_.bot) {
    BotOptions bo;
    bo.seed = options_.seed ^ core::hash64(options_.name);
    bot_ = std::make_unique<ClientBot>(bo);
  }
  started_us_ = clock_.now_us();
  return {};
}

JoinSession::~JoinSession() {
  client_.reset();  // before the transport it talks through
}

bool JoinSession::ready() const {
  const auto* r = client_->replica();
  return r != nullptr && r->setup_complete();
}

bool JoinSession::over() const {
  return client_->state() == ClientState::closed || client_->done();
}

bool JoinSession::finished() const {
  // The server ending the session is a good end before --ticks too: a scenario's outcome ends
  // the game early (server_scenario.hpp).
  return client_->done() || client_->closed_reason() == Reason::session_end;
}

core::Status JoinSession::round(std::uint32_t wait_ms) {
  if (relay_) relay_->pump();
  const core::Status st = client_->poll(wait_ms);
  if (relay_) relay_->pump();
  SORTIE_CHECK(st);
  if (bot_ && client_->state() == ClientState::in_game) {
    if (auto b = bot_->step(*client_); !b && options_.warn) options_.warn(b.error());
  }
  return {};
}

core::Status JoinSession::check_timeout() const {
  const auto state = client_->state();
  if ((state == ClientState::connecting || state == ClientState::joining) &&
      clock_.now_us() - started_us_ > options_.timeout_ms * 1000) {
    return core::fail(core::Diagnostic::error("join.timeout", "no answer from the server")
                          .expect(fmt::format("a session within {} ms", options_.timeout_ms), options_.address));
  }
  return {};
}

core::Status JoinSession::pump(std::uint32_t wait_ms) {
  if (over()) return {};
  SORTIE_CHECK(round(wait_ms));
  return check_timeout();
}

core::Result<std::uint64_t> JoinSession::finish(std::uint64_t bound_ms) {
  const std::uint64_t until = clock_.now_us() + bound_ms * 1000;
  while (!over()) {
    // A failed poll closed the client: its error is the answer below.
    if (!round(relay_ ? 1 : 5)) break;
    if (auto st = check_timeout(); !st) return failed(st.error());
    if (bound_ms != 0 && clock_.now_us() > until) {
      return failed(core::Diagnostic::error("join.timeout", "the session did not reach its end")
                        .expect(options_.ticks ? fmt::format("{} ticks", options_.ticks) : "the session end",
                                fmt::format("{} ticks", client_->ticks())));
    }
  }
  if (!finished()) {
    return failed(client_->error() ? *client_->error()
                                   : core::Diagnostic::error("join.closed", "the session ended early"));
  }
  const std::uint64_t hash = client_->replica()->state_hash();
  client_->leave();
  drain();
  return hash;
}

core::Result<std::uint64_t> JoinSession::failed(core::Diagnostic error) {
  Tracer tracer(trace_.get());
  tracer.set_tick(client_->ticks());
  tracer.resnet("join_failed",
                fmt::format("code={} state={} ticks={}", error.code, to_string(client_->state()), client_->ticks()));
  return core::fail(std::move(error));
}

void JoinSession::drain() {
  // Until the server confirmed the disconnect (ENet resends it over a lossy link), at most 1 s.
  const std::uint64_t drain_end = clock_.now_us() + kDrainUs;
  while (clock_.now_us() < drain_end) {
    std::vector<TransportEvent> events;
    if (!transport_->poll(relay_ ? 1 : 5, events)) break;
    if (relay_) relay_->pump();
    const bool confirmed = std::any_of(events.begin(), events.end(), [](const TransportEvent& e) {
      return e.type == TransportEvent::Type::disconnected;
    });
    if (confirmed) break;
  }
}

core::Status JoinSession::save(const std::filesystem::path& log_path) const {
  // Nothing to record before NET_WELCOME: then only the trace.
  const bool welcomed = client_->replica() != nullptr;
  return detail::save_session_files(welcomed ? log_path : std::filesystem::path(), client_->message_log(),
                                    trace_.get());
}

}  // namespace sortie::net
