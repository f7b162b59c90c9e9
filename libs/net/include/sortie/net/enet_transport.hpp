#pragma once
// The real transport: ENet (libenet) over UDP. Channel 0 carries reliable_ordered packets
// (ENET_PACKET_FLAG_RELIABLE), channel 1 unreliable_sequenced ones (no flag: ENet drops late
// ones). ENet is included only by enet_transport.cpp and udp_relay.cpp.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "sortie/core/diagnostic.hpp"
#include "sortie/net/transport.hpp"

namespace sortie::net {

// How the link survives loss (docs/net-protocol.md §3): ENet 1.3 doubles a reliable command's
// resend timeout after every loss without bound, so at 30 % loss each way (a round trip fails
// with p = 0.51) one command in a few hundred failed 7-8 times in a row, stalled the ordered
// channel for seconds and then tripped ENet's timeout (transport_lost). The transport therefore
// caps every resend timeout at resend_cap_ms (or the peer's plain RTO, rtt + 4 var, when that is
// larger, at most resend_cap_max_ms), keeps ENet's throttle from shrinking the window on random
// loss (no deceleration), and declares a peer dead only after timeout_min_ms..timeout_max_ms
// without any acknowledgement: the sessions' own heartbeats (NET_ACK, sync states) find a dead
// peer sooner (ServerConfig::ack_timeout_us, ClientConfig::server_timeout_us).
struct EnetOptions {
  std::size_t max_peers = 256;           // a listener's connection slots
  std::uint32_t timeout_min_ms = 15000;  // ENet declares a peer dead after this long without acks
  std::uint32_t timeout_max_ms = 20000;
  std::uint32_t resend_cap_ms = 200;
  std::uint32_t resend_cap_max_ms = 1000;
  std::size_t packet_limit = std::size_t{64} * 1024;  // ENet refuses larger packets before they reach us
};

class EnetTransport final : public Transport {
 public:
  // Listens on bind_host:port (port 0 picks a free one; see port()). Errors: net.enet.init,
  // net.enet.address, net.enet.host.
  static core::Result<std::unique_ptr<EnetTransport>> listen(const std::string& bind_host, std::uint16_t port,
                                                             const EnetOptions& options = {});
  // Starts connecting to host:port; a `connected` event (or `disconnected` on failure) follows
  // from poll(). Errors as listen.
  static core::Result<std::unique_ptr<EnetTransport>> connect(const std::string& host, std::uint16_t port,
                                                              const EnetOptions& options = {});
  ~EnetTransport() override;
  EnetTransport(const EnetTransport&) = delete;
  EnetTransport& operator=(const EnetTransport&) = delete;

  [[nodiscard]] std::uint16_t port() const;  // the bound port

  core::Status poll(std::uint32_t wait_ms, std::vector<TransportEvent>& out) override;
  core::Status send(PeerId peer, Delivery delivery, core::ByteView packet) override;
  void flush() override;
  void disconnect(PeerId peer, std::uint32_t reason) override;
  [[nodiscard]] std::string describe(PeerId peer) const override;
  // bytes_* are ENet's UDP payload totals (protocol headers, acknowledgements and resends included).
  [[nodiscard]] TransportStats stats() const override;

  struct Impl;

 private:
  explicit EnetTransport(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// "host:port" -> (host, port). Errors: net.address (no colon, empty host, port not 1..65535).
core::Result<std::pair<std::string, std::uint16_t>> parse_host_port(std::string_view text);

}  // namespace sortie::net
