#include "sortie/net/enet_transport.hpp"

#include <enet/enet.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <mutex>

#include "enet_runtime.hpp"

namespace sortie::net {

using core::Diagnostic;
using core::fail;

namespace detail {

core::Status ensure_enet() {
  static std::once_flag once;
  static int rc = -1;
  std::call_once(once, [] {
    rc = enet_initialize();
    if (rc == 0) std::atexit(enet_deinitialize);
  });
  if (rc != 0) return fail(Diagnostic::error("net.enet.init", "enet_initialize failed"));
  return {};
}

core::Result<ENetAddress> resolve(const std::string& host, std::uint16_t port) {
  ENetAddress address{};
  address.port = port;
  if (host.empty() || host == "*" || host == "0.0.0.0") {
    address.host = ENET_HOST_ANY;
  } else if (enet_address_set_host(&address, host.c_str()) != 0) {
    return fail(
        Diagnostic::error("net.enet.address", "cannot resolve host").expect("a host name or IPv4 address", host));
  }
  return address;
}

std::string address_text(const ENetAddress& address) {
  char ip[64] = {};
  if (enet_address_get_host_ip(&address, ip, sizeof(ip)) != 0) return fmt::format("?:{}", address.port);
  return fmt::format("{}:{}", ip, address.port);
}

}  // namespace detail

struct EnetTransport::Impl {
  ENetHost* host = nullptr;
  EnetOptions options;
  std::map<PeerId, ENetPeer*> peers;
  PeerId next_peer = 1;

  ~Impl() {
    if (host == nullptr) return;
    for (auto& [id, peer] : peers) enet_peer_disconnect_now(peer, static_cast<std::uint32_t>(Reason::transport_lost));
    enet_host_flush(host);
    enet_host_destroy(host);
  }

  void adopt(ENetPeer* peer) {
    const PeerId id = next_peer++;
    peer->data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(id));  // NOLINT(performance-no-int-to-ptr)
    peers[id] = peer;
    configure(peer);
  }
  void configure(ENetPeer* peer) const {
    enet_peer_timeout(peer, kTimeoutLimit, options.timeout_min_ms, options.timeout_max_ms);
    // Random loss is not congestion: keep the window and the unreliable packets.
    enet_peer_throttle_configure(peer, ENET_PEER_PACKET_THROTTLE_INTERVAL, ENET_PEER_PACKET_THROTTLE_ACCELERATION, 0);
  }
  // ENet doubles a command's resend timeout after each loss without bound (EnetOptions): cap it,
  // and bring the peer's next timeout check forward to match.
  void cap_resend_timeouts() const {
    for (ENetPeer* peer = host->peers; peer < host->peers + host->peerCount; ++peer) {
      if (peer->state == ENET_PEER_STATE_DISCONNECTED || enet_list_empty(&peer->sentReliableCommands)) continue;
      const enet_uint32 cap = std::clamp<enet_uint32>(peer->roundTripTime + 4 * peer->roundTripTimeVariance,
                                                      options.resend_cap_ms, options.resend_cap_max_ms);
      enet_uint32 next = peer->nextTimeout;
      for (ENetListIterator it = enet_list_begin(&peer->sentReliableCommands);
           it != enet_list_end(&peer->sentReliableCommands); it = enet_list_next(it)) {
        auto* command = reinterpret_cast<ENetOutgoingCommand*>(it);  // the list node is its first member
        command->roundTripTimeout = std::min(command->roundTripTimeout, cap);
        const enet_uint32 due = command->sentTime + command->roundTripTimeout;
        if (static_cast<std::int32_t>(due - next) < 0) next = due;  // wrapping millisecond clock
      }
      peer->nextTimeout = next;
    }
  }
  // Only the time without acknowledgements (timeout_min_ms..max) declares a peer dead: capped
  // resend timeouts never reach ENet's limit of 32 x the first one.
  static constexpr enet_uint32 kTimeoutLimit = 1u << 20;
  static PeerId id_of(const ENetPeer* peer) {
    return static_cast<PeerId>(reinterpret_cast<std::uintptr_t>(peer->data));
  }
};

EnetTransport::EnetTransport(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
EnetTransport::~EnetTransport() = default;

core::Result<std::unique_ptr<EnetTransport>> EnetTransport::listen(const std::string& bind_host, std::uint16_t port,
                                                                   const EnetOptions& options) {
  SORTIE_CHECK(detail::ensure_enet());
  SORTIE_TRY(const ENetAddress address, detail::resolve(bind_host, port));
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->host = enet_host_create(&address, options.max_peers, 2, 0, 0);
  if (impl->host == nullptr) {
    return fail(Diagnostic::error("net.enet.host", "cannot create the ENet host (address in use?)")
                    .expect("a free UDP port", fmt::format("{}:{}", bind_host, port)));
  }
  impl->host->maximumPacketSize = options.packet_limit;
  return std::unique_ptr<EnetTransport>(new EnetTransport(std::move(impl)));
}

core::Result<std::unique_ptr<EnetTransport>> EnetTransport::connect(const std::string& host, std::uint16_t port,
                                                                    const EnetOptions& options) {
  SORTIE_CHECK(detail::ensure_enet());
  SORTIE_TRY(const ENetAddress address, detail::resolve(host, port));
  if (address.host == ENET_HOST_ANY) {
    return fail(Diagnostic::error("net.enet.address", "cannot connect to the wildcard address").expect("a host", host));
  }
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->host = enet_host_create(nullptr, 1, 2, 0, 0);
  if (impl->host == nullptr) return fail(Diagnostic::error("net.enet.host", "cannot create the ENet client host"));
  impl->host->maximumPacketSize = options.packet_limit;
  ENetPeer* peer = enet_host_connect(impl->host, &address, 2, 0);
  if (peer == nullptr) return fail(Diagnostic::error("net.enet.host", "no free peer slot to connect"));
  peer->data = nullptr;  // adopted (given an id) when the connection completes
  enet_peer_timeout(peer, Impl::kTimeoutLimit, options.timeout_min_ms, options.timeout_max_ms);
  return std::unique_ptr<EnetTransport>(new EnetTransport(std::move(impl)));
}

std::uint16_t EnetTransport::port() const {
  ENetAddress a{};
  if (enet_socket_get_address(impl_->host->socket, &a) != 0) return impl_->host->address.port;
  return a.port;
}

core::Status EnetTransport::poll(std::uint32_t wait_ms, std::vector<TransportEvent>& out) {
  // Bounded: a flood cannot keep one poll busy for ever.
  constexpr int kMaxEventsPerPoll = 8192;
  for (int i = 0; i < kMaxEventsPerPoll; ++i) {
    ENetEvent ev{};
    const int rc = enet_host_service(impl_->host, &ev, i == 0 ? wait_ms : 0);
    if (rc < 0) return fail(Diagnostic::error("net.transport.poll", "enet_host_service failed"));
    if (rc == 0) break;
    TransportEvent e;
    switch (ev.type) {
      case ENET_EVENT_TYPE_CONNECT:
        impl_->adopt(ev.peer);
        e.type = TransportEvent::Type::connected;
        e.peer = Impl::id_of(ev.peer);
        out.push_back(std::move(e));
        break;
      case ENET_EVENT_TYPE_RECEIVE: {
        const PeerId id = Impl::id_of(ev.peer);
        if (id != 0) {
          e.type = TransportEvent::Type::received;
          e.peer = id;
          e.delivery = ev.channelID == 0 ? Delivery::reliable_ordered : Delivery::unreliable_sequenced;
          e.data.assign(ev.packet->data, ev.packet->data + ev.packet->dataLength);
          out.push_back(std::move(e));
        }
        enet_packet_destroy(ev.packet);
        break;
      }
      case ENET_EVENT_TYPE_DISCONNECT: {
        const PeerId id = Impl::id_of(ev.peer);
        e.type = TransportEvent::Type::disconnected;
        e.peer = id;
        e.reason = ev.data;
        if (id != 0) {
          impl_->peers.erase(id);
          out.push_back(std::move(e));
        } else {
          // A connection attempt that never completed: report it as peer 0 so a client knows.
          out.push_back(std::move(e));
        }
        ev.peer->data = nullptr;
        break;
      }
      case ENET_EVENT_TYPE_NONE:
        break;
    }
  }
  impl_->cap_resend_timeouts();
  return {};
}

core::Status EnetTransport::send(PeerId peer, Delivery delivery, core::ByteView packet) {
  auto it = impl_->peers.find(peer);
  if (it == impl_->peers.end()) {
    return fail(Diagnostic::error("net.transport.peer_unknown", "no open connection to this peer")
                    .expect("an open peer", std::to_string(peer)));
  }
  const bool reliable = delivery == Delivery::reliable_ordered;
  ENetPacket* p = enet_packet_create(packet.data(), packet.size(), reliable ? ENET_PACKET_FLAG_RELIABLE : 0);
  if (p == nullptr) return fail(Diagnostic::error("net.transport.send", "enet_packet_create failed"));
  if (enet_peer_send(it->second, reliable ? 0 : 1, p) != 0) {
    enet_packet_destroy(p);
    return fail(
        Diagnostic::error("net.transport.send", "enet_peer_send failed").expect("a connected peer", describe(peer)));
  }
  return {};
}

void EnetTransport::flush() {
  enet_host_flush(impl_->host);
}

void EnetTransport::disconnect(PeerId peer, std::uint32_t reason) {
  auto it = impl_->peers.find(peer);
  if (it == impl_->peers.end()) return;
  enet_peer_disconnect_later(it->second, reason);
}

std::string EnetTransport::describe(PeerId peer) const {
  auto it = impl_->peers.find(peer);
  if (it == impl_->peers.end()) return fmt::format("enet-peer-{}", peer);
  return detail::address_text(it->second->address);
}

TransportStats EnetTransport::stats() const {
  TransportStats s;
  s.bytes_sent = impl_->host->totalSentData;
  s.bytes_received = impl_->host->totalReceivedData;
  s.packets_sent = impl_->host->totalSentPackets;
  s.packets_received = impl_->host->totalReceivedPackets;
  return s;
}

core::Result<std::pair<std::string, std::uint16_t>> parse_host_port(std::string_view text) {
  const auto colon = text.rfind(':');
  auto bad = [&] {
    return fail(Diagnostic::error("net.address", "expected HOST:PORT").expect("host:1..65535", std::string(text)));
  };
  if (colon == std::string_view::npos || colon == 0) return bad();
  const std::string_view port_text = text.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 || port > 65535) return bad();
  return std::make_pair(std::string(text.substr(0, colon)), static_cast<std::uint16_t>(port));
}

}  // namespace sortie::net
