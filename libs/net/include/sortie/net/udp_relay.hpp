#pragma once
// A lossy UDP relay on loopback, in front of a real ENet server: clients connect to the relay's
// port, the relay forwards every datagram to the server and back through a seeded LossyLink per
// direction (drops, duplicates, held-back datagrams, delay). ENet's own reliability then has to
// work for real, and nothing above the socket knows the link is bad. Pumped by its owner (no
// thread): call pump() often (every poll of the client or server it serves).
#include <cstdint>
#include <memory>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/net/lossy_link.hpp"
#include "sortie/world/clock.hpp"

namespace sortie::net {

struct RelayStats {
  std::uint64_t datagrams_in = 0;   // received from either side
  std::uint64_t datagrams_out = 0;  // forwarded (duplicates counted)
  std::uint64_t dropped = 0;
  std::uint64_t duplicated = 0;
  std::uint64_t held_back = 0;
};

class UdpRelay {
 public:
  // Listens on 127.0.0.1 (a free port) and forwards to upstream_host:upstream_port. Each
  // client address gets its own upstream socket and its own pair of links (seeded from `seed`).
  // Errors: net.enet.init, net.enet.address, net.relay.socket.
  static core::Result<std::unique_ptr<UdpRelay>> open(const std::string& upstream_host, std::uint16_t upstream_port,
                                                      const LossSpec& spec, std::uint64_t seed,
                                                      world::PlatformClock& clock);
  ~UdpRelay();
  UdpRelay(const UdpRelay&) = delete;
  UdpRelay& operator=(const UdpRelay&) = delete;

  [[nodiscard]] std::uint16_t port() const;
  // Receives what is waiting on every socket and sends what is due.
  void pump();
  [[nodiscard]] RelayStats stats() const;

  struct Impl;

 private:
  explicit UdpRelay(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace sortie::net
