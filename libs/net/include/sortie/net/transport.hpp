#pragma once
// The transport boundary: bytes between peers, nothing else. The session (server.hpp,
// client.hpp) owns the meaning of the bytes; a transport owns connections and delivery.
// Implementations: EnetTransport (enet_transport.hpp, the real one), MemoryNetwork
// (memory_transport.hpp, in-process for tests). A native-compatibility adapter for the original
// DirectPlay client would be another implementation with its own codec; the modern codec never
// claims to be it (docs/net-protocol.md).
//
// Events are pulled (poll), never pushed: nothing a transport does runs session code, so no
// world object is ever created or released inside a receive callback.
#include <cstdint>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/net/protocol.hpp"

namespace sortie::net {

struct TransportEvent {
  enum class Type : std::uint8_t { connected, received, disconnected };
  Type type = Type::received;
  PeerId peer = 0;
  Delivery delivery = Delivery::reliable_ordered;  // of a received packet
  core::Bytes data;                                // a received packet
  std::uint32_t reason = 0;                        // disconnect data: a Reason value between sortie peers;
                                                   // 0 when the connection was lost (a timeout, a crash)
};

struct TransportStats {
  std::uint64_t bytes_sent = 0;  // payload bytes handed to the transport (ENet: wire bytes, see below)
  std::uint64_t bytes_received = 0;
  std::uint64_t packets_sent = 0;
  std::uint64_t packets_received = 0;
};

class Transport {
 public:
  virtual ~Transport() = default;
  // Appends the events that arrived, waiting at most `wait_ms` for the first one.
  // Errors: net.transport.poll.
  virtual core::Status poll(std::uint32_t wait_ms, std::vector<TransportEvent>& out) = 0;
  // Queues a packet for `peer`. Errors: net.transport.peer_unknown, net.transport.send.
  virtual core::Status send(PeerId peer, Delivery delivery, core::ByteView packet) = 0;
  // Sends what is queued now.
  virtual void flush() = 0;
  // Closes the connection once the queued packets are out; both sides get `disconnected`.
  virtual void disconnect(PeerId peer, std::uint32_t reason) = 0;
  // "127.0.0.1:51000", "memory:3" (diagnostics and traces).
  [[nodiscard]] virtual std::string describe(PeerId peer) const = 0;
  [[nodiscard]] virtual TransportStats stats() const = 0;
};

}  // namespace sortie::net
