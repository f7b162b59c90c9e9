#include "sortie/net/memory_transport.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace sortie::net {

using core::Diagnostic;
using core::fail;

namespace {

struct LinkEnd {
  std::size_t remote = 0;  // endpoint index of the other side
  PeerId remote_peer = 0;  // our peer id as the other side knows it
  LossyLink link;          // shapes what we send on this connection
  std::uint64_t last_reliable = 0;
  std::uint64_t next_seq = 1;   // of our unreliable packets
  std::uint64_t delivered = 0;  // newest unreliable seq delivered to us
  bool open = true;             // we may still send
  bool gone = false;            // the disconnected event was delivered: nothing more surfaces
  LinkEnd(std::size_t r, LossSpec spec, std::uint64_t seed) : remote(r), link(spec, seed) {}
};

struct Pending {
  TransportEvent event;
  std::uint64_t seq = 0;  // unreliable packets only
};

struct Endpoint {
  bool alive = true;
  std::string address;                                               // of a listener
  std::map<std::pair<std::uint64_t, std::uint64_t>, Pending> inbox;  // (release, order)
  std::map<PeerId, LinkEnd> peers;
  PeerId next_peer = 1;
  TransportStats stats;
};

}  // namespace

struct MemoryNetwork::State {
  world::PlatformClock& clock;
  std::vector<Endpoint> endpoints;
  std::uint64_t order = 0;
  explicit State(world::PlatformClock& c) : clock(c) {}

  void deliver(std::size_t to, std::uint64_t release, Pending p) {
    Endpoint& e = endpoints[to];
    if (!e.alive) return;
    e.inbox.emplace(std::make_pair(release, ++order), std::move(p));
  }

  void close(std::size_t from, PeerId peer, std::uint32_t reason, bool local_event) {
    Endpoint& e = endpoints[from];
    auto it = e.peers.find(peer);
    if (it == e.peers.end() || !it->second.open) return;
    LinkEnd& link = it->second;
    link.open = false;
    const std::uint64_t now = clock.now_us();
    // The other side learns of it after the reliable packets already on their way.
    Endpoint& r = endpoints[link.remote];
    auto back = r.peers.find(link.remote_peer);
    if (back != r.peers.end() && back->second.open) {
      back->second.open = false;
      TransportEvent ev;
      ev.type = TransportEvent::Type::disconnected;
      ev.peer = link.remote_peer;
      ev.reason = reason;
      deliver(link.remote, std::max(now, link.last_reliable), Pending{std::move(ev), 0});
    }
    if (local_event) {
      TransportEvent ev;
      ev.type = TransportEvent::Type::disconnected;
      ev.peer = peer;
      ev.reason = reason;
      deliver(from, now, Pending{std::move(ev), 0});
    }
  }
};

namespace {

class MemoryTransport final : public Transport {
 public:
  MemoryTransport(std::shared_ptr<MemoryNetwork::State> state, std::size_t index)
      : state_(std::move(state)), index_(index) {}
  ~MemoryTransport() override {
    Endpoint& e = state_->endpoints[index_];
    std::vector<PeerId> open;
    for (const auto& [peer, link] : e.peers) {
      if (link.open) open.push_back(peer);
    }
    // Gone without a word (a crash): the other side learns it with no reason, as from ENet's timeout.
    for (PeerId p : open) state_->close(index_, p, 0, false);
    e.alive = false;
    e.inbox.clear();
    e.address.clear();
  }
  MemoryTransport(const MemoryTransport&) = delete;
  MemoryTransport& operator=(const MemoryTransport&) = delete;

  core::Status poll(std::uint32_t /*wait_ms*/, std::vector<TransportEvent>& out) override {
    Endpoint& e = state_->endpoints[index_];
    const std::uint64_t now = state_->clock.now_us();
    while (!e.inbox.empty() && e.inbox.begin()->first.first <= now) {
      Pending p = std::move(e.inbox.begin()->second);
      e.inbox.erase(e.inbox.begin());
      auto it = e.peers.find(p.event.peer);
      if (it == e.peers.end() || it->second.gone) continue;
      if (p.event.type == TransportEvent::Type::disconnected) it->second.gone = true;
      if (p.event.type == TransportEvent::Type::received) {
        if (p.event.delivery == Delivery::unreliable_sequenced) {
          if (p.seq <= it->second.delivered) continue;  // late or duplicate: sequenced drops it
          it->second.delivered = p.seq;
        }
        ++e.stats.packets_received;
        e.stats.bytes_received += p.event.data.size();
      }
      out.push_back(std::move(p.event));
    }
    return {};
  }

  core::Status send(PeerId peer, Delivery delivery, core::ByteView packet) override {
    Endpoint& e = state_->endpoints[index_];
    auto it = e.peers.find(peer);
    if (it == e.peers.end() || !it->second.open) {
      return fail(Diagnostic::error("net.transport.peer_unknown", "no open connection to this peer")
                      .expect("an open peer", std::to_string(peer)));
    }
    LinkEnd& link = it->second;
    ++e.stats.packets_sent;
    e.stats.bytes_sent += packet.size();
    const std::uint64_t now = state_->clock.now_us();
    TransportEvent ev;
    ev.type = TransportEvent::Type::received;
    ev.peer = link.remote_peer;
    ev.delivery = delivery;
    ev.data.assign(packet.begin(), packet.end());
    if (delivery == Delivery::reliable_ordered) {
      link.last_reliable = link.link.delay_only(now, link.last_reliable);
      state_->deliver(link.remote, link.last_reliable, Pending{std::move(ev), 0});
      return {};
    }
    const std::uint64_t seq = link.next_seq++;
    for (std::uint64_t release : link.link.schedule(now)) state_->deliver(link.remote, release, Pending{ev, seq});
    return {};
  }

  void flush() override {}

  void disconnect(PeerId peer, std::uint32_t reason) override { state_->close(index_, peer, reason, true); }

  [[nodiscard]] std::string describe(PeerId peer) const override {
    const Endpoint& e = state_->endpoints[index_];
    auto it = e.peers.find(peer);
    if (it == e.peers.end()) return fmt::format("memory:{}/?{}", index_, peer);
    return fmt::format("memory:{}", it->second.remote);
  }

  [[nodiscard]] TransportStats stats() const override { return state_->endpoints[index_].stats; }

 private:
  std::shared_ptr<MemoryNetwork::State> state_;
  std::size_t index_;
};

}  // namespace

MemoryNetwork::MemoryNetwork(world::PlatformClock& clock) : state_(std::make_shared<State>(clock)) {}
MemoryNetwork::~MemoryNetwork() = default;

core::Result<std::unique_ptr<Transport>> MemoryNetwork::listen(const std::string& address) {
  for (const Endpoint& e : state_->endpoints) {
    if (e.alive && e.address == address) {
      return fail(Diagnostic::error("net.memory.address_taken", "an endpoint already listens on this address")
                      .expect("a free address", address));
    }
  }
  state_->endpoints.emplace_back();
  state_->endpoints.back().address = address;
  return std::unique_ptr<Transport>(new MemoryTransport(state_, state_->endpoints.size() - 1));
}

core::Result<std::unique_ptr<Transport>> MemoryNetwork::connect(const std::string& address, const LossSpec& up,
                                                                const LossSpec& down, std::uint64_t seed) {
  std::optional<std::size_t> server;
  for (std::size_t i = 0; i < state_->endpoints.size(); ++i) {
    if (state_->endpoints[i].alive && state_->endpoints[i].address == address) server = i;
  }
  if (!server) {
    return fail(Diagnostic::error("net.memory.no_listener", "no endpoint listens on this address")
                    .expect("a listener", address));
  }
  state_->endpoints.emplace_back();
  const std::size_t client = state_->endpoints.size() - 1;
  Endpoint& c = state_->endpoints[client];
  Endpoint& s = state_->endpoints[*server];
  const PeerId at_client = c.next_peer++;
  const PeerId at_server = s.next_peer++;
  auto cl = c.peers.emplace(at_client, LinkEnd(*server, up, seed * 2 + 1)).first;
  cl->second.remote_peer = at_server;
  auto sl = s.peers.emplace(at_server, LinkEnd(client, down, seed * 2 + 2)).first;
  sl->second.remote_peer = at_client;
  const std::uint64_t now = state_->clock.now_us();
  TransportEvent to_server;
  to_server.type = TransportEvent::Type::connected;
  to_server.peer = at_server;
  state_->deliver(*server, now, Pending{std::move(to_server), 0});
  TransportEvent to_client;
  to_client.type = TransportEvent::Type::connected;
  to_client.peer = at_client;
  state_->deliver(client, now, Pending{std::move(to_client), 0});
  return std::unique_ptr<Transport>(new MemoryTransport(state_, client));
}

}  // namespace sortie::net
