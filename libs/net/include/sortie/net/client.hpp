#pragma once
// A client of an authoritative server (`sortie join`): NET_HELLO, then a replica of the
// server's world built from NET_WELCOME, the setup and the tick sequences (replica.hpp). The
// replica's state hash is checked against every GMSG_END_MESSAGE_SEQ; GMSG_SYNC_STATE keeps a
// quantised view of the mirrors that is checked object by object against the replica.
//
// The client's own player number (SYSMSG_SET_PLAYER_NUMBER) is session state: it decides which
// objects the client may order (the world's ownership), not the world's local player, which is
// the authority's on every replica. Orders travel as world commands (NET_ORDER); the server
// stamps them with its next tick, so the client sees them take effect in the sequences like any
// other input.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/net/messages.hpp"
#include "sortie/net/replica.hpp"
#include "sortie/net/sync_state.hpp"
#include "sortie/net/trace.hpp"
#include "sortie/net/transport.hpp"
#include "sortie/world/clock.hpp"

namespace sortie::net {

struct ClientConfig {
  std::string name;
  std::uint64_t resource_max_delay_us = 10'000'000;  // Network_ResourceTransferMaxDelay
  std::uint64_t server_timeout_us = 20'000'000;      // silence of a joined server before giving up
  std::uint64_t ack_interval_us = 100'000;           // NET_ACK heartbeat while nothing changes
  std::uint64_t ack_min_interval_us = 10'000;        // NET_ACKs are coalesced: at most one per this
                                                     // (the newest tick; at most 100/s, far below the
                                                     // server's flood limit of 600 messages/s)
  bool verify_sync = true;                           // check sync states against the replica
  std::uint64_t stop_after_ticks = 0;                // follow no further than this many ticks (0: no limit)
  bool record = false;                               // keep the received stream (message_log())
};

enum class ClientState : std::uint8_t {
  connecting,  // waiting for the transport
  joining,     // NET_HELLO sent
  setup,       // building the replica from the setup
  in_game,     // following the tick sequences
  closed,
};
std::string_view to_string(ClientState state);

struct ClientStats {
  std::uint64_t sync_applied = 0;
  std::uint64_t sync_entries = 0;
  std::uint64_t sync_verified = 0;    // entries compared with the replica
  std::uint64_t sync_mismatches = 0;  // entries that differed (named in the NetWatch trace)
  std::uint64_t sync_errors = 0;      // messages that did not apply (stale, unknown baseline)
  std::uint64_t packets_in = 0;
  std::uint64_t bytes_in = 0;      // packet bytes received from the server
  std::uint64_t messages_in = 0;   // messages decoded from them
  std::uint64_t messages_out = 0;  // messages sent (one packet each)
  std::uint64_t bytes_out = 0;
  std::uint64_t acks_sent = 0;  // NET_ACKs among messages_out
};

class Client {
 public:
  // Starts the session on a transport that connects to the server (the first `connected`
  // event names the server). Errors: net.session.name (invalid name).
  static core::Result<std::unique_ptr<Client>> join(Transport& transport, ClientConfig config,
                                                    world::PlatformClock& clock, TraceSink* trace = nullptr);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Drains the transport and follows the server. An error (a protocol violation of the server,
  // a desync, a resource timeout, a rejection) closes the session; it is returned once and kept
  // in error().
  core::Status poll(std::uint32_t wait_ms = 0);

  // ---- operations: errors net.session.not_setup before the session is set up (no player
  // number and no world yet), net.session.closed after it ended ----
  core::Status order(const world::Command& command);
  core::Status take(world::ObjectId id);
  core::Status request_pause(bool paused);
  core::Status say(PlayerNumber to, std::string text);
  core::Status set_player_data(core::Bytes data);
  // Disconnects (Reason::left).
  void leave();
  // The replica's world writes its own channels (queue, behavior, ...) to this trace from its
  // creation on, so catching-up ticks applied in the same poll as the welcome are traced too.
  void trace_world(std::shared_ptr<world::Trace> trace);

  [[nodiscard]] ClientState state() const { return state_; }
  [[nodiscard]] PlayerNumber player() const { return player_; }
  [[nodiscard]] Replica* replica() { return replica_.get(); }
  [[nodiscard]] const Replica* replica() const { return replica_.get(); }
  [[nodiscard]] std::uint64_t ticks() const { return replica_ ? replica_->ticks() : 0; }
  // The server's tick when this client joined: below it the client is catching up.
  [[nodiscard]] std::uint64_t live_tick() const { return live_tick_; }
  [[nodiscard]] Reason closed_reason() const { return closed_reason_; }
  [[nodiscard]] const std::optional<core::Diagnostic>& error() const { return error_; }
  [[nodiscard]] const ClientStats& stats() const { return stats_; }
  [[nodiscard]] const SyncView& sync_view() const { return sync_.view(); }
  [[nodiscard]] const std::vector<TextForPlayer>& texts() const { return texts_; }
  [[nodiscard]] const std::vector<ConfirmPlayerData>& confirmations() const { return confirmations_; }
  // The replica reached ClientConfig::stop_after_ticks.
  [[nodiscard]] bool done() const {
    return config_.stop_after_ticks != 0 && replica_ && replica_->ticks() >= config_.stop_after_ticks;
  }
  // The client's clock (bots pace their orders in real time with it).
  [[nodiscard]] std::uint64_t now_us() const { return clock_.now_us(); }
  // With ClientConfig::record: the stream this replica was built from, as a message log.
  [[nodiscard]] core::Bytes message_log() const;

 private:
  Client(Transport& transport, ClientConfig config, world::PlatformClock& clock, TraceSink* trace);
  core::Status handle(const Message& message);
  core::Status handle_sync(const SyncState& message);
  void after_tick();
  void verify(std::uint64_t tick, const SyncReceiver::Applied& applied);
  core::Status check_resources();
  core::Status close(core::Diagnostic error, Reason reason);
  core::Status ready_for_operations() const;
  core::Status send(const Message& message);

  Transport& transport_;
  ClientConfig config_;
  world::PlatformClock& clock_;
  Tracer tracer_;
  ClientState state_ = ClientState::connecting;
  PeerId server_ = 0;
  PlayerNumber player_ = 0;
  std::uint64_t live_tick_ = 0;
  std::unique_ptr<Replica> replica_;
  std::shared_ptr<world::Trace> world_trace_;
  std::map<std::uint32_t, std::uint64_t> resource_started_us_;
  SyncReceiver sync_;
  std::map<std::uint64_t, SyncView> history_;  // the replica's quantised state per tick (recent)
  std::deque<std::pair<std::uint64_t, SyncReceiver::Applied>> unverified_;  // sync ahead of the replica
  std::uint64_t last_heard_us_ = 0;
  std::uint64_t last_ack_us_ = 0;
  std::uint64_t acked_ticks_ = 0;
  std::uint64_t acked_sync_ = 0;
  bool acked_once_ = false;
  Reason closed_reason_ = Reason::none;
  std::optional<core::Diagnostic> error_;
  ClientStats stats_;
  std::vector<TextForPlayer> texts_;
  std::vector<ConfirmPlayerData> confirmations_;
  Welcome welcome_;
  std::vector<core::Bytes> recorded_;  // setup frames, then sequence frames
};

}  // namespace sortie::net
