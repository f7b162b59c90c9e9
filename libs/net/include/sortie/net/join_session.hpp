#pragma once
// A client's session loop, the one `sortie join` and `sortie-viewer join` run (issue #13 part 3,
// issue #17 part 1): connect to HOST:PORT (through a seeded lossy UDP relay with `lossy`), follow
// the server with a net::Client, optionally order units with a ClientBot, and end on the
// replica's final state hash — the number `sortie serve` prints.
//
//   pump(wait)  one round: the relay, Client::poll(wait), the relay, the bot (its refused orders
//               go to `warn`, they are not fatal); join.timeout while still connecting or joining
//               after `timeout_ms`. The viewer pumps once per displayed frame without waiting.
//   finish()    pumps until the session is over (the client closed, or --ticks reached), bounded
//               by `bound_ms` when given (the viewer's window already closed), then checks that it
//               ended well: --ticks reached, or the server ended the session (Reason::session_end;
//               before --ticks too: a scenario's outcome ends a served game early). Then it leaves (the last NET_ACK
//               sent twice more), waits until the server confirmed the disconnect (at most 1 s) and answers the
//               replica's final state hash.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/net/bots.hpp"
#include "sortie/net/client.hpp"
#include "sortie/net/trace.hpp"
#include "sortie/net/transport.hpp"
#include "sortie/net/udp_relay.hpp"
#include "sortie/world/clock.hpp"

namespace sortie::net {

struct JoinOptions {
  std::string address;                // HOST:PORT
  std::string name;                   // player name (1..32 bytes)
  std::uint64_t ticks = 0;            // follow no further than this many ticks (0: until the session ends)
  std::uint64_t timeout_ms = 10'000;  // no session while connecting / joining longer than this: join.timeout
  std::string lossy;                  // a lossy link (parse_loss_spec) in front of the server; empty: none
  std::uint64_t seed = 1;             // the lossy link's seed; the bot's is seed ^ hash64(name)
  bool bot = false;                   // a ClientBot orders units (false: a spectator)
  bool record = false;                // keep the received stream (message_log())
  std::filesystem::path trace_dir;    // resnet.log and NetWatch.log go here (save()); empty: no trace
  std::function<void(const core::Diagnostic&)> warn;  // the bot's refused orders
};

class JoinSession {
 public:
  // Over ENet (and the relay). Errors: net.address (HOST:PORT), net.loss_spec (lossy), the relay's,
  // net.enet.*, net.session.name.
  static core::Result<std::unique_ptr<JoinSession>> connect(const JoinOptions& options);
  // Over any transport (tests; no relay); the session owns neither the transport nor the clock.
  static core::Result<std::unique_ptr<JoinSession>> over(Transport& transport, const JoinOptions& options,
                                                         world::PlatformClock& clock);
  ~JoinSession();
  JoinSession(const JoinSession&) = delete;
  JoinSession& operator=(const JoinSession&) = delete;

  // One round (see above). Errors: the session's own (protocol, desync, rejection; the client
  // is then closed), join.timeout.
  core::Status pump(std::uint32_t wait_ms = 0);
  // The replica exists and has its setup (the scene can be built and the mirrors drawn).
  [[nodiscard]] bool ready() const;
  // Nothing more to follow: the client closed or reached --ticks.
  [[nodiscard]] bool over() const;
  // It ended well (see above).
  [[nodiscard]] bool finished() const;
  // Follows to the end, leaves, drains (see above). Errors: join.timeout (connecting, or past
  // `bound_ms`), the session's error when it ended otherwise, join.closed without one.
  core::Result<std::uint64_t> finish(std::uint64_t bound_ms = 0);
  // Writes the message log (with `record`) to `log_path` (empty: none) and the trace; after a
  // failed finish() too (the log only once NET_WELCOME arrived: the stream received so far).
  core::Status save(const std::filesystem::path& log_path) const;

  [[nodiscard]] const net::Client& client() const { return *client_; }
  // The client, to give orders through (net::JoinPlay).
  [[nodiscard]] net::Client& client() { return *client_; }
  [[nodiscard]] const Replica* replica() const { return client_->replica(); }
  [[nodiscard]] std::uint64_t orders_sent() const { return bot_ ? bot_->orders_sent() : 0; }
  // Through the lossy relay (stats()).
  [[nodiscard]] const UdpRelay* relay() const { return relay_.get(); }
  // The transport's own counters (ENet: UDP payload with its headers, acknowledgements, resends).
  [[nodiscard]] TransportStats transport_stats() const { return transport_->stats(); }

 private:
  JoinSession(JoinOptions options, world::PlatformClock& clock) : options_(std::move(options)), clock_(clock) {}
  core::Status start(Transport& transport);
  core::Status round(std::uint32_t wait_ms);
  [[nodiscard]] core::Status check_timeout() const;
  void drain();
  // Traces the failure (join_failed) and answers it.
  core::Result<std::uint64_t> failed(core::Diagnostic error);
  static constexpr std::uint64_t kDrainUs = 1'000'000;

  JoinOptions options_;
  std::unique_ptr<world::SteadyPlatformClock> own_clock_;
  world::PlatformClock& clock_;
  std::unique_ptr<UdpRelay> relay_;
  std::unique_ptr<Transport> own_transport_;
  Transport* transport_ = nullptr;
  std::unique_ptr<FileTrace> trace_;
  std::unique_ptr<Client> client_;
  std::unique_ptr<ClientBot> bot_;
  std::uint64_t started_us_ = 0;
};

}  // namespace sortie::net
