#include "sortie/net/client.hpp"

#include <fmt/format.h>

#include "sortie/core/hash.hpp"
#include "sortie/net/codec.hpp"
#include "sortie/net/message_log.hpp"

namespace sortie::net {

using core::Diagnostic;
using core::fail;

namespace {

constexpr std::size_t kHistoryTicks = 64;
constexpr std::size_t kMaxUnverified = 64;

}  // namespace

std::string_view to_string(ClientState state) {
  switch (state) {
    case ClientState::connecting:
      return "connecting";
    case ClientState::joining:
      return "joining";
    case ClientState::setup:
      return "setup";
    case ClientState::in_game:
      return "in_game";
    case ClientState::closed:
      return "closed";
  }
  return "unknown";
}

Client::Client(Transport& transport, ClientConfig config, world::PlatformClock& clock, TraceSink* trace)
    : transport_(transport), config_(std::move(config)), clock_(clock), tracer_(trace) {}

Client::~Client() = default;

core::Result<std::unique_ptr<Client>> Client::join(Transport& transport, ClientConfig config,
                                                   world::PlatformClock& clock, TraceSink* trace) {
  if (config.name.empty() || config.name.size() > kMaxNameBytes) {
    return fail(Diagnostic::error("net.session.name", "a player name is 1..32 bytes")
                    .expect("1..32 bytes", std::to_string(config.name.size())));
  }
  std::unique_ptr<Client> c(new Client(transport, std::move(config), clock, trace));
  c->last_heard_us_ = clock.now_us();
  return c;
}

core::Status Client::send(const Message& message) {
  SORTIE_TRY(const core::Bytes bytes, encode_message(message));
  SORTIE_CHECK(transport_.send(server_, spec_of(id_of(message)).delivery, bytes));
  ++stats_.messages_out;
  stats_.bytes_out += bytes.size();
  if (std::holds_alternative<Ack>(message)) ++stats_.acks_sent;
  return {};
}

core::Status Client::close(Diagnostic error, Reason reason) {
  if (state_ == ClientState::closed) return {};
  tracer_.resnet("client_closed", fmt::format("reason={} code={}", to_string(reason), error.code));
  if (server_ != 0) {
    transport_.disconnect(server_, static_cast<std::uint32_t>(reason));
    transport_.flush();
  }
  state_ = ClientState::closed;
  closed_reason_ = reason;
  error_ = error;
  return fail(std::move(error));
}

core::Status Client::ready_for_operations() const {
  if (state_ == ClientState::closed) {
    return fail(Diagnostic::error("net.session.closed", "the session is closed")
                    .expect("an open session", std::string(to_string(closed_reason_))));
  }
  if (state_ != ClientState::in_game || player_ == kNoPlayer) {
    return fail(Diagnostic::error("net.session.not_setup", "session operation before the session is set up")
                    .expect("a joined session (player number and world)", std::string(to_string(state_))));
  }
  return {};
}

// ---------------------------------------------------------------- poll

core::Status Client::poll(std::uint32_t wait_ms) {
  if (state_ == ClientState::closed) return {};
  std::vector<TransportEvent> events;
  if (auto st = transport_.poll(wait_ms, events); !st) return close(st.error(), Reason::transport_lost);
  const std::uint64_t now = clock_.now_us();
  for (TransportEvent& e : events) {
    if (state_ == ClientState::closed) break;
    switch (e.type) {
      case TransportEvent::Type::connected: {
        if (server_ != 0) break;
        server_ = e.peer;
        state_ = ClientState::joining;
        last_heard_us_ = now;
        tracer_.resnet("connected", fmt::format("server={}", transport_.describe(server_)));
        Hello hello;
        hello.name = config_.name;
        if (auto st = send(hello); !st) return close(st.error(), Reason::transport_lost);
        break;
      }
      case TransportEvent::Type::disconnected: {
        if (e.peer != server_ && server_ != 0) break;
        const Reason r = reason_from(static_cast<std::uint8_t>(e.reason)).value_or(Reason::transport_lost);
        const Reason why = (r == Reason::none || e.reason > 0xff) ? Reason::transport_lost : r;
        server_ = 0;
        return close(Diagnostic::error("net.session.disconnected", "the server closed the connection")
                         .expect("an open session", std::string(to_string(why))),
                     why);
      }
      case TransportEvent::Type::received: {
        if (e.peer != server_) break;
        last_heard_us_ = now;
        ++stats_.packets_in;
        stats_.bytes_in += e.data.size();
        auto messages = decode_packet(e.data, e.delivery);
        if (!messages) return close(std::move(messages.error()), reason_for(messages.error()));
        stats_.messages_in += messages->size();
        for (const Message& m : *messages) {
          if (auto st = handle(m); !st) {
            if (state_ == ClientState::closed) return st;
            const bool desync = st.error().code == "net.replica.desync";
            return close(std::move(st.error()), desync ? Reason::desync : Reason::malformed);
          }
          if (state_ == ClientState::closed) break;
        }
        break;
      }
    }
  }
  if (state_ == ClientState::closed) return error_ ? core::Status(fail(*error_)) : core::Status{};
  SORTIE_CHECK(check_resources());
  if ((state_ == ClientState::setup || state_ == ClientState::in_game) &&
      now - last_heard_us_ > config_.server_timeout_us) {
    return close(Diagnostic::error("net.session.timeout", "the server stopped answering")
                     .expect(fmt::format("a packet within {} ms", config_.server_timeout_us / 1000), "none"),
                 Reason::transport_lost);
  }
  if (state_ == ClientState::in_game) {
    // One NET_ACK names the newest tick and sync state: what changed since the last one waits
    // for ack_min_interval_us (a fast session completes many ticks per poll, and one ACK per
    // poll would cross the server's flood limit); the tick limit's ACK goes at once.
    const bool changed = ticks() != acked_ticks_ || sync_.last_tick() != acked_sync_;
    const std::uint64_t since = now - last_ack_us_;
    const bool due = since >= config_.ack_min_interval_us || (done() && acked_ticks_ != ticks());
    if (!acked_once_ || (changed && due) || since >= config_.ack_interval_us) {
      if (auto st = send(Ack{ticks(), sync_.last_tick()}); st) {
        acked_once_ = true;
        last_ack_us_ = now;
        acked_ticks_ = ticks();
        acked_sync_ = sync_.last_tick();
      }
    }
  }
  transport_.flush();
  return {};
}

core::Status Client::check_resources() {
  if (!replica_ || replica_->setup_complete()) return {};
  const std::uint64_t now = clock_.now_us();
  for (const auto& [id, t] : replica_->resources()) {
    if (t.complete()) continue;
    auto started = resource_started_us_.try_emplace(id, now).first->second;
    if (now - started > config_.resource_max_delay_us) {
      (void)send(RemoveResource{id, Reason::resource_timeout});
      tracer_.resnet("resource_timeout", fmt::format("id={} received={} total={} waited_ms={}", id, t.bytes.size(),
                                                     t.total, (now - started) / 1000));
      return close(
          Diagnostic::error("net.resource.timeout", "resource transfer exceeded Network_ResourceTransferMaxDelay")
              .in(fmt::format("resources[{}] {}", id, t.name))
              .expect(fmt::format("complete within {} ms", config_.resource_max_delay_us / 1000),
                      fmt::format("{} of {} bytes", t.bytes.size(), t.total)),
          Reason::resource_timeout);
    }
  }
  return {};
}

core::Status Client::handle(const Message& message) {
  const MessageSpec& spec = spec_of(id_of(message));
  if (spec.direction != Direction::server_to_client && spec.direction != Direction::both) {
    return fail(
        Diagnostic::error("net.client.unexpected", "the server sent a client message").in(std::string(spec.name)));
  }
  if (const auto* reject = std::get_if<Reject>(&message)) {
    return close(Diagnostic::error("net.session.rejected", "the server refused or ended the session")
                     .expect(reject->text, std::string(to_string(reject->reason))),
                 reject->reason);
  }
  if (const auto* welcome = std::get_if<Welcome>(&message)) {
    if (state_ != ClientState::joining) {
      return fail(Diagnostic::error("net.client.unexpected", "a second NET_WELCOME").in("NET_WELCOME"));
    }
    SORTIE_TRY(replica_, Replica::create(*welcome, &tracer_));
    if (world_trace_) replica_->world().set_trace(world_trace_);
    welcome_ = *welcome;
    live_tick_ = welcome->live_tick;
    state_ = replica_->setup_complete() ? ClientState::in_game : ClientState::setup;
    tracer_.resnet("welcome", fmt::format("session={} authority={} setup_messages={} live_tick={}", welcome->session_id,
                                          welcome->authority, welcome->setup_count, welcome->live_tick));
    return {};
  }
  if (const auto* number = std::get_if<SetPlayerNumber>(&message)) {
    if (number->player == kNoPlayer) {
      return fail(Diagnostic::error("net.session.player_zero", "no session with an active network and player 0")
                      .in("SYSMSG_SET_PLAYER_NUMBER")
                      .expect("1..65535", "0"));
    }
    if (!replica_ || player_ != kNoPlayer) {
      return fail(Diagnostic::error("net.client.unexpected", "player number outside the handshake")
                      .in("SYSMSG_SET_PLAYER_NUMBER"));
    }
    player_ = number->player;
    tracer_.netwatch("player_number", fmt::format("player={} server={}", player_, transport_.describe(server_)));
    return {};
  }
  if (!replica_) {
    return fail(Diagnostic::error("net.client.unexpected", "message before NET_WELCOME").in(std::string(spec.name)));
  }
  if (const auto* sync = std::get_if<SyncState>(&message)) return handle_sync(*sync);
  if (const auto* text = std::get_if<TextForPlayer>(&message)) {
    texts_.push_back(*text);
    return {};
  }
  if (const auto* data = std::get_if<SetPlayerData>(&message)) {
    replica_->set_player_data(data->player, data->data);
    return {};
  }
  if (const auto* confirm = std::get_if<ConfirmPlayerData>(&message)) {
    confirmations_.push_back(*confirm);
    return {};
  }
  if (player_ == kNoPlayer) {
    return fail(Diagnostic::error("net.session.player_zero", "the setup started before SYSMSG_SET_PLAYER_NUMBER")
                    .in(std::string(spec.name)));
  }
  if (done() && replica_->setup_complete()) return {};  // followed as far as asked
  const std::uint64_t before = replica_->ticks();
  SORTIE_CHECK(replica_->feed(message));
  if (config_.record) {
    SORTIE_TRY(core::Bytes f, encode_message(message));
    recorded_.push_back(std::move(f));
  }
  if (state_ == ClientState::setup && replica_->setup_complete()) {
    state_ = ClientState::in_game;
    tracer_.resnet("setup_complete", fmt::format("objects={} hash={}", replica_->world().live_count(),
                                                 core::hash_hex(replica_->state_hash())));
    after_tick();
  }
  if (replica_->ticks() != before) after_tick();
  return {};
}

core::Bytes Client::message_log() const {
  return write_message_log(welcome_, recorded_, {});
}

// ---------------------------------------------------------------- sync state

void Client::after_tick() {
  if (!config_.verify_sync) return;
  history_[replica_->ticks()] = quantize_world(replica_->world());
  while (history_.size() > kHistoryTicks) history_.erase(history_.begin());
  while (!unverified_.empty() && unverified_.front().first <= replica_->ticks()) {
    auto [tick, applied] = std::move(unverified_.front());
    unverified_.pop_front();
    verify(tick, applied);
  }
}

void Client::verify(std::uint64_t tick, const SyncReceiver::Applied& applied) {
  auto h = history_.find(tick);
  if (h == history_.end()) return;  // older than the history kept
  for (const auto& [id, state] : applied) {
    ++stats_.sync_verified;
    auto it = h->second.find(id);
    const bool same = state ? (it != h->second.end() && it->second == *state) : it == h->second.end();
    if (!same) {
      ++stats_.sync_mismatches;
      tracer_.netwatch("sync_mismatch", fmt::format("tick={} id={} present={}", tick, id.to_string(), state ? 1 : 0));
    }
  }
}

core::Status Client::handle_sync(const SyncState& message) {
  auto applied = sync_.apply(message);
  if (!applied) {
    ++stats_.sync_errors;  // late or undecodable: the next one will do
    tracer_.resnet("sync_skipped", fmt::format("tick={} code={}", message.tick, applied.error().code));
    return {};
  }
  ++stats_.sync_applied;
  stats_.sync_entries += applied->size();
  if (!config_.verify_sync) return {};
  if (message.tick <= replica_->ticks()) {
    verify(message.tick, *applied);
  } else {
    unverified_.emplace_back(message.tick, std::move(*applied));
    while (unverified_.size() > kMaxUnverified) unverified_.pop_front();
  }
  return {};
}

// ---------------------------------------------------------------- operations

core::Status Client::order(const world::Command& command) {
  SORTIE_CHECK(ready_for_operations());
  if (command.payload.size() > kMaxCommandPayloadBytes) {
    return fail(
        Diagnostic::error("net.encode.oversize", "command payload beyond the protocol's limit")
            .expect(fmt::format("<= {} bytes", kMaxCommandPayloadBytes), std::to_string(command.payload.size())));
  }
  return send(Order{command.kind, command.payload});
}

core::Status Client::take(world::ObjectId id) {
  SORTIE_CHECK(ready_for_operations());
  return send(TakeObject{id});
}

core::Status Client::request_pause(bool paused) {
  SORTIE_CHECK(ready_for_operations());
  return send(PauseRemotePlayer{0, player_, paused});
}

core::Status Client::say(PlayerNumber to, std::string text) {
  SORTIE_CHECK(ready_for_operations());
  if (text.size() > kMaxTextBytes) {
    return fail(Diagnostic::error("net.encode.oversize", "text beyond the protocol's limit")
                    .expect(fmt::format("<= {} bytes", kMaxTextBytes), std::to_string(text.size())));
  }
  return send(TextForPlayer{player_, to, std::move(text)});
}

core::Status Client::set_player_data(core::Bytes data) {
  SORTIE_CHECK(ready_for_operations());
  if (data.size() > kMaxPlayerDataBytes) {
    return fail(Diagnostic::error("net.encode.oversize", "player data beyond the protocol's limit")
                    .expect(fmt::format("<= {} bytes", kMaxPlayerDataBytes), std::to_string(data.size())));
  }
  return send(SetPlayerData{player_, std::move(data)});
}

void Client::trace_world(std::shared_ptr<world::Trace> trace) {
  world_trace_ = std::move(trace);
  if (replica_ && world_trace_) replica_->world().set_trace(world_trace_);
}

void Client::leave() {
  if (state_ == ClientState::closed) return;
  if (server_ != 0) {
    // The last NET_ACK again (it travels unreliably): the server should not wait for a lost one.
    if (state_ == ClientState::in_game && acked_once_) {
      for (int i = 0; i < 2; ++i) (void)send(Ack{ticks(), sync_.last_tick()});
    }
    transport_.disconnect(server_, static_cast<std::uint32_t>(Reason::left));
    transport_.flush();
  }
  state_ = ClientState::closed;
  closed_reason_ = Reason::left;
}

}  // namespace sortie::net
