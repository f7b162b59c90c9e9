#pragma once
// The viewer as a net client (issue #13 part 3; `sortie-viewer join HOST:PORT --name NAME`): the
// same net::Client as `sortie join`, pumped once per displayed frame without waiting, so the
// window keeps drawing while the replica follows the server. A spectator: it sends no orders.
//
// finish() runs after the window's last frame: it keeps following (bounded by a timeout) until
// the replica reaches --ticks or the server ends the session, leaves, and answers the replica's
// final state hash — the same number `sortie serve` and `sortie join` print.
#include <cstdint>
#include <memory>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/net/client.hpp"
#include "sortie/net/transport.hpp"
#include "sortie/world/clock.hpp"

namespace sortie::viewer {

struct JoinOptions {
  std::string address;                // HOST:PORT
  std::string name;                   // player name
  std::uint64_t ticks = 0;            // follow no further than this many ticks (0: until the session ends)
  std::uint64_t timeout_ms = 10'000;  // no answer while connecting, and the bound of finish()
};

class JoinSession {
 public:
  // Errors: net.address (HOST:PORT), net.enet.*, net.session.name.
  static core::Result<std::unique_ptr<JoinSession>> connect(const JoinOptions& options);
  // Over any transport (tests); the session does not own it.
  static core::Result<std::unique_ptr<JoinSession>> over(net::Transport& transport, const JoinOptions& options,
                                                         world::PlatformClock& clock);
  ~JoinSession();
  JoinSession(const JoinSession&) = delete;
  JoinSession& operator=(const JoinSession&) = delete;

  // Follows the server without waiting (`wait_ms` 0). Errors: the session's own (protocol,
  // desync, rejection), join.timeout while connecting longer than the timeout.
  core::Status pump(std::uint32_t wait_ms = 0);
  // The replica exists and has its setup (the scene can be built and the mirrors drawn).
  [[nodiscard]] bool ready() const;
  [[nodiscard]] bool finished() const;  // --ticks reached, or the session ended normally
  [[nodiscard]] const net::Client& client() const { return *client_; }
  [[nodiscard]] const net::Replica* replica() const { return client_->replica(); }
  // Follows to the end (see above) and leaves. Errors: join.timeout, join.closed (the session
  // ended early), the session's error.
  core::Result<std::uint64_t> finish();

 private:
  JoinSession(JoinOptions options, world::PlatformClock& clock) : options_(std::move(options)), clock_(clock) {}
  JoinOptions options_;
  std::unique_ptr<world::SteadyPlatformClock> own_clock_;
  std::unique_ptr<net::Transport> own_transport_;
  world::PlatformClock& clock_;
  net::Transport* transport_ = nullptr;
  std::unique_ptr<net::Client> client_;
  std::uint64_t started_us_ = 0;
};

}  // namespace sortie::viewer
