#pragma once
// The authoritative server (`sortie serve`). It owns the session's one true world - a Replica
// fed with the tick sequences it sends - and decides everything that enters it:
//
//   poll()      transport events -> decisions for the next tick (joins, orders, ownership
//               changes, pauses, departures). Nothing here touches the world: a disconnect
//               queues GMSG_KILL_PLAYER, it never deletes inside a receive callback.
//   run_tick()  the decided messages become tick T's sequence: the world runs it, the sequence
//               and GMSG_END_MESSAGE_SEQ (with the state hash) go to every client and into the
//               message log; every sync_interval ticks each client gets its GMSG_SYNC_STATE.
//
// A client joins at any time: NET_WELCOME, SYSMSG_SET_PLAYER_NUMBER, the setup and every past
// sequence (catch-up) follow at once, and the client's GMSG_CREATE_REMOTE_PLAYER opens the next
// tick's sequence. Bad peers (garbage, oversize lengths, unknown ids, unexpected messages,
// floods, silence) are disconnected with a logged reason; their objects are transferred or
// removed by the next tick (ServerConfig::leave_policy).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/net/messages.hpp"
#include "sortie/net/replica.hpp"
#include "sortie/net/setup.hpp"
#include "sortie/net/sync_state.hpp"
#include "sortie/net/trace.hpp"
#include "sortie/net/transport.hpp"
#include "sortie/net/watcher.hpp"
#include "sortie/world/clock.hpp"

namespace sortie::net {

struct ServerConfig {
  std::uint64_t session_id = 1;
  std::size_t max_players = 64;  // clients in the session at once
  OwnedObjectPolicy leave_policy = OwnedObjectPolicy::transfer;
  std::uint64_t handshake_timeout_us = 5'000'000;
  std::uint64_t resource_max_delay_us = 10'000'000;  // Network_ResourceTransferMaxDelay
  std::uint64_t ack_timeout_us = 10'000'000;
  std::uint32_t flood_messages_per_s = 600;
  std::uint32_t flood_message_burst = 1200;
  std::uint32_t flood_bytes_per_s = 128 * 1024;
  std::uint32_t flood_byte_burst = 512 * 1024;
  std::uint64_t sync_interval = 2;  // ticks between GMSG_SYNC_STATE; 0 = none
  SyncOptions sync;
  std::size_t max_objects_per_player = 32;  // taken or spawned
  bool allow_pause_requests = true;
  // The history a peer has not yet received (the setup, then every tick sequence: the catch-up of
  // a late joiner, and the live ticks of a client that fell behind) goes out in bounded chunks:
  // at most catch_up_window_ticks sequences beyond the newest tick the peer acknowledged, and at
  // most catch_up_bytes_per_s (burst catch_up_byte_burst) per peer. A NET_HELLO alone never
  // makes the server queue more than the setup and one window.
  std::uint64_t catch_up_window_ticks = 1024;
  std::uint32_t catch_up_bytes_per_s = 1024 * 1024;
  std::uint32_t catch_up_byte_burst = 256 * 1024;
};

enum class PeerStage : std::uint8_t {
  hello,    // connected, no valid NET_HELLO yet
  setup,    // accepted; setup and catch-up sent; the first NET_ACK is due
  ready,    // acknowledging ticks
  closing,  // disconnected by us; input ignored
};
std::string_view to_string(PeerStage stage);

struct PeerInfo {
  PeerId peer = 0;
  PlayerNumber player = 0;
  std::string name;
  std::string address;
  PeerStage stage = PeerStage::hello;
  std::uint64_t acked_tick = 0;
  std::uint64_t sent_ticks = 0;  // tick sequences sent so far (the catch-up cursor)
  std::uint64_t packets_in = 0;
  std::uint64_t messages_in = 0;
  std::uint64_t bytes_in = 0;
  std::uint64_t bytes_out = 0;  // packet bytes the session handed to the transport for this peer
};

struct Departure {
  PeerId peer = 0;
  PlayerNumber player = 0;  // 0: left before joining
  Reason reason = Reason::none;
  std::string detail;
  std::uint64_t tick = 0;   // the tick whose sequence carries the KILL_PLAYER
  std::size_t objects = 0;  // transferred or removed
};

// Wall time of Server::run_tick (the world's tick, encoding and sending), as a histogram of
// 10 us buckets up to 100 ms (longer ticks count in the last one).
class TickTimes {
 public:
  void add(std::uint64_t us);
  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] double mean_us() const { return count_ == 0 ? 0.0 : static_cast<double>(total_us_) / count_; }
  [[nodiscard]] std::uint64_t max_us() const { return max_us_; }
  // The upper edge of the bucket holding the q-quantile (0 < q <= 1); 0 without ticks.
  [[nodiscard]] std::uint64_t quantile_us(double q) const;

 private:
  static constexpr std::uint64_t kBucketUs = 10;
  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0;
  std::uint64_t total_us_ = 0;
  std::uint64_t max_us_ = 0;
};

struct ServerStats {
  std::uint64_t orders_accepted = 0;
  std::uint64_t orders_rejected = 0;
  std::uint64_t sync_messages = 0;
  std::uint64_t sync_bytes = 0;
  // Every peer of the session, gone ones included: packets and their bytes as the session handed
  // them to / got them from the transport (no transport headers), and the messages in them.
  std::uint64_t packets_in = 0;
  std::uint64_t bytes_in = 0;
  std::uint64_t messages_in = 0;
  std::uint64_t packets_out = 0;
  std::uint64_t bytes_out = 0;
  std::uint64_t messages_out = 0;
  std::uint64_t catch_up_bytes = 0;  // of bytes_out: the setup and sequences older than the live tick
  TickTimes tick_times;
};

class Server {
 public:
  // Builds the world from `setup` (the same messages a client receives). Errors:
  // net.session.player_zero and the setup's own errors.
  static core::Result<std::unique_ptr<Server>> host(Transport& transport, const SessionSetup& setup,
                                                    ServerConfig config, world::PlatformClock& clock,
                                                    TraceSink* trace = nullptr);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Drains the transport (waiting at most wait_ms) and checks the timeouts. Errors only from
  // the transport itself.
  core::Status poll(std::uint32_t wait_ms = 0);
  // Runs the next tick with everything decided so far.
  core::Status run_tick();

  // ---- host operations (decided now, applied by the next tick) ----
  // An order of the authority (any registered kind). Errors: the kind's validation.
  core::Status submit(const world::Command& command);
  void pause(bool paused);
  // Errors: net.session.time_scale (outside 1..100000).
  core::Status set_speed(std::uint32_t scale_permille);
  // Errors: net.player.unknown.
  core::Status kick(PlayerNumber player, Reason reason = Reason::kicked);
  // Disconnects every peer with session_end.
  void finish();
  // Drops (ack_timeout) every connected peer that has not acknowledged `tick` completed ticks;
  // answers how many. The session's end calls it when its linger is over.
  std::size_t drop_behind(std::uint64_t tick);
  // A player was lost (any reason but `left`: dropped, timed out, crashed) since the last tick
  // ran: its GMSG_KILL_PLAYER waits for a tick. After the session's last tick the session's end
  // runs one closing tick for it, so the leave policy reaches the final state.
  [[nodiscard]] bool lost_since_last_tick() const;

  // Every client in the game has acknowledged `tick` completed ticks (none is still joining).
  [[nodiscard]] bool clients_caught_up(std::uint64_t tick) const;
  [[nodiscard]] std::size_t connected_peers() const { return peers_.size(); }
  [[nodiscard]] std::vector<PeerInfo> peers() const;
  [[nodiscard]] const std::vector<Departure>& departures() const { return departures_; }
  [[nodiscard]] const std::vector<TextForPlayer>& texts() const { return texts_; }
  [[nodiscard]] const ServerStats& stats() const { return stats_; }

  [[nodiscard]] Replica& replica() { return *replica_; }
  [[nodiscard]] const Replica& replica() const { return *replica_; }
  [[nodiscard]] const world::World& world() const { return replica_->world(); }
  [[nodiscard]] std::uint64_t ticks() const { return replica_->ticks(); }
  [[nodiscard]] const Watcher& watcher() const { return watcher_; }
  [[nodiscard]] const ServerConfig& config() const { return config_; }
  // The message log (message_log.hpp) of the session so far.
  [[nodiscard]] core::Bytes message_log() const;
  [[nodiscard]] std::size_t decided() const { return next_.size(); }

 private:
  struct Bucket {
    double tokens = 0;
    double capacity = 0;
    double rate = 0;
    std::uint64_t last_us = 0;
    bool take(double n, std::uint64_t now_us);
  };
  struct Peer {
    PeerInfo info;
    std::uint64_t since_us = 0;  // connected (hello) / accepted (setup)
    std::uint64_t last_ack_us = 0;
    Bucket messages;
    Bucket bytes;
    Bucket catch_up;             // bytes of history per second
    std::size_t sent_setup = 0;  // setup frames sent so far
    SyncSender sync;
  };

  Server(Transport& transport, ServerConfig config, world::PlatformClock& clock, TraceSink* trace);
  // Input (server_input.cpp).
  void on_connected(PeerId peer);
  void on_disconnected(PeerId peer, std::uint32_t reason);
  void on_packet(PeerId peer, Delivery delivery, const core::Bytes& packet);
  void on_message(Peer& peer, const Message& message);
  void on_hello(Peer& peer, const Hello& hello);
  void on_order(Peer& peer, const Order& order);
  void on_take(Peer& peer, const TakeObject& take);
  void check_timeouts();
  void drop(Peer& peer, Reason reason, std::string detail);
  void leave(Peer& peer, Reason reason, std::string detail);
  [[nodiscard]] std::size_t objects_of(PlayerNumber player) const;
  // Output (server.cpp).
  void send(Peer& peer, const Message& message);
  void send_packet(Peer& peer, Delivery delivery, const core::Bytes& packet, std::size_t messages);
  // Sends the next chunk of the history the peer lacks (setup, then sequences) within its window
  // and byte budget.
  void send_history(Peer& peer);
  void send_sync();

  Transport& transport_;
  ServerConfig config_;
  world::PlatformClock& clock_;
  Tracer tracer_;
  std::unique_ptr<Replica> replica_;
  Watcher watcher_;
  Welcome welcome_;                                    // what a client gets (live_tick filled per join)
  std::vector<core::Bytes> setup_frames_;              // the setup, encoded
  std::vector<std::vector<core::Bytes>> tick_frames_;  // per tick: the sequence and its END
  std::vector<Message> next_;                          // decided for the next tick
  std::map<PeerId, Peer> peers_;
  std::vector<Departure> departures_;
  std::vector<TextForPlayer> texts_;
  std::map<PlayerNumber, std::size_t> pending_spawns_;
  PlayerNumber next_player_ = 0;
  ServerStats stats_;
};

}  // namespace sortie::net
