#include "sortie/net/udp_relay.hpp"

#include <fmt/format.h>

#include <array>
#include <map>
#include <vector>

#include "enet_runtime.hpp"

namespace sortie::net {

using core::Diagnostic;
using core::fail;

namespace {

core::Result<ENetSocket> open_socket() {
  ENetSocket s = enet_socket_create(ENET_SOCKET_TYPE_DATAGRAM);
  if (s == ENET_SOCKET_NULL) return fail(Diagnostic::error("net.relay.socket", "cannot create a UDP socket"));
  ENetAddress any{};
  any.host = ENET_HOST_ANY;
  any.port = 0;
  if (enet_address_set_host_ip(&any, "127.0.0.1") != 0 || enet_socket_bind(s, &any) != 0 ||
      enet_socket_set_option(s, ENET_SOCKOPT_NONBLOCK, 1) != 0) {
    enet_socket_destroy(s);
    return fail(Diagnostic::error("net.relay.socket", "cannot bind a UDP socket on 127.0.0.1"));
  }
  enet_socket_set_option(s, ENET_SOCKOPT_RCVBUF, 1 << 20);
  enet_socket_set_option(s, ENET_SOCKOPT_SNDBUF, 1 << 20);
  return s;
}

std::uint64_t key_of(const ENetAddress& a) {
  return (std::uint64_t{a.host} << 16) | a.port;
}

}  // namespace

struct UdpRelay::Impl {
  struct Session {
    ENetAddress client{};
    ENetSocket upstream = ENET_SOCKET_NULL;
    LossyLink up;
    LossyLink down;
    Session(LossSpec spec, std::uint64_t seed) : up(spec, seed * 2 + 1), down(spec, seed * 2 + 2) {}
  };
  struct Due {
    std::uint64_t release;
    std::uint64_t order;
    std::uint64_t session;  // key of the client address
    bool to_server;
    std::vector<std::uint8_t> bytes;
  };

  world::PlatformClock& clock;
  LossSpec spec;
  std::uint64_t seed;
  ENetAddress server{};
  ENetSocket listener = ENET_SOCKET_NULL;
  std::map<std::uint64_t, Session> sessions;
  std::map<std::pair<std::uint64_t, std::uint64_t>, Due> due;
  std::uint64_t order = 0;
  RelayStats stats;

  Impl(world::PlatformClock& c, LossSpec s, std::uint64_t sd) : clock(c), spec(s), seed(sd) {}
  ~Impl() {
    for (auto& [key, s] : sessions) {
      if (s.upstream != ENET_SOCKET_NULL) enet_socket_destroy(s.upstream);
    }
    if (listener != ENET_SOCKET_NULL) enet_socket_destroy(listener);
  }

  void schedule(std::uint64_t session, bool to_server, LossyLink& link, const std::uint8_t* data, std::size_t n) {
    ++stats.datagrams_in;
    const std::uint64_t now = clock.now_us();
    const auto before_dropped = link.dropped();
    const auto before_dup = link.duplicated();
    const auto before_held = link.held_back();
    for (std::uint64_t release : link.schedule(now)) {
      Due d{release, ++order, session, to_server, std::vector<std::uint8_t>(data, data + n)};
      due.emplace(std::make_pair(release, d.order), std::move(d));
    }
    stats.dropped += link.dropped() - before_dropped;
    stats.duplicated += link.duplicated() - before_dup;
    stats.held_back += link.held_back() - before_held;
  }

  void receive_all() {
    std::array<std::uint8_t, 65536> buf{};
    for (;;) {  // from clients
      ENetAddress from{};
      ENetBuffer b{};
      b.data = buf.data();
      b.dataLength = buf.size();
      const int n = enet_socket_receive(listener, &from, &b, 1);
      if (n <= 0) break;
      const std::uint64_t key = key_of(from);
      auto it = sessions.find(key);
      if (it == sessions.end()) {
        auto sock = open_socket();
        if (!sock) continue;
        it = sessions.emplace(key, Session(spec, seed + sessions.size())).first;
        it->second.client = from;
        it->second.upstream = *sock;
      }
      schedule(key, true, it->second.up, buf.data(), static_cast<std::size_t>(n));
    }
    for (auto& [key, s] : sessions) {  // from the server
      for (;;) {
        ENetAddress from{};
        ENetBuffer b{};
        b.data = buf.data();
        b.dataLength = buf.size();
        const int n = enet_socket_receive(s.upstream, &from, &b, 1);
        if (n <= 0) break;
        schedule(key, false, s.down, buf.data(), static_cast<std::size_t>(n));
      }
    }
  }

  void send_due() {
    const std::uint64_t now = clock.now_us();
    while (!due.empty() && due.begin()->first.first <= now) {
      Due d = std::move(due.begin()->second);
      due.erase(due.begin());
      auto it = sessions.find(d.session);
      if (it == sessions.end()) continue;
      ENetBuffer b{};
      b.data = d.bytes.data();
      b.dataLength = d.bytes.size();
      if (d.to_server) {
        enet_socket_send(it->second.upstream, &server, &b, 1);
      } else {
        enet_socket_send(listener, &it->second.client, &b, 1);
      }
      ++stats.datagrams_out;
    }
  }
};

UdpRelay::UdpRelay(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
UdpRelay::~UdpRelay() = default;

core::Result<std::unique_ptr<UdpRelay>> UdpRelay::open(const std::string& upstream_host, std::uint16_t upstream_port,
                                                       const LossSpec& spec, std::uint64_t seed,
                                                       world::PlatformClock& clock) {
  SORTIE_CHECK(detail::ensure_enet());
  auto impl = std::make_unique<Impl>(clock, spec, seed);
  SORTIE_TRY(impl->server, detail::resolve(upstream_host, upstream_port));
  SORTIE_TRY(impl->listener, open_socket());
  return std::unique_ptr<UdpRelay>(new UdpRelay(std::move(impl)));
}

std::uint16_t UdpRelay::port() const {
  ENetAddress a{};
  enet_socket_get_address(impl_->listener, &a);
  return a.port;
}

void UdpRelay::pump() {
  impl_->receive_all();
  impl_->send_due();
}

RelayStats UdpRelay::stats() const {
  return impl_->stats;
}

}  // namespace sortie::net
