#pragma once
// Shared fixtures of the net and viewer tests: a small session setup built in code (units, statics, a
// ground of two triangles), and a session over the in-process transport driven by a manual
// clock, so every step of a test is deterministic.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sortie/core/hash.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/net/client.hpp"
#include "sortie/net/codec.hpp"
#include "sortie/net/memory_transport.hpp"
#include "sortie/net/server.hpp"
#include "sortie/net/setup.hpp"
#include "sortie/world/clock.hpp"
#include "sortie/world/world.hpp"

namespace sortie::net::test {

// A 128 x 128 ground: two triangles, Z rising 1 unit per 64 along X.
inline nav::TriangleSoup small_terrain() {
  nav::TriangleSoup soup;
  soup.positions = {{0.0f, 0.0f, 0.0f}, {128.0f, 0.0f, 2.0f}, {128.0f, 128.0f, 2.0f}, {0.0f, 128.0f, 0.0f}};
  soup.faces = {{{0, 1, 2}, 1}, {{0, 2, 3}, 1}};
  return soup;
}

// A world as a mission loader leaves it: `units` units and two statics, created and
// registered in order with explicit ids of the authority (player 1).
inline std::unique_ptr<world::World> small_world(std::size_t units = 6, std::uint64_t seed = 7) {
  world::WorldConfig config;
  config.seed = seed;
  auto w = std::make_unique<world::World>(config);
  EXPECT_TRUE(w->classes().add(mission::kClasses));
  std::vector<world::Handle> handles;
  for (std::size_t i = 0; i < units + 2; ++i) {
    const bool unit = i < units;
    const world::ObjectId id{1, unit ? mission::class_ids::kTmaUnit : mission::class_ids::kTmaStatic,
                             static_cast<std::uint32_t>(i + 1)};
    core::Transform t;
    t.position = {10.0f + 12.0f * static_cast<float>(i), 20.0f + 3.0f * static_cast<float>(i), 0.5f};
    t.orientation = {0.0f, 0.0f, 0.25f * static_cast<float>(i)};
    auto h = w->create_object(id, unit ? "unit_tank.dat" : "static_tower", t);
    EXPECT_TRUE(h.has_value());
    w->find(*h)->properties.set("placed_index", static_cast<std::int64_t>(i));
    w->find(*h)->properties.set("name", std::string(unit ? "tank" : "tower"));
    handles.push_back(*h);
  }
  for (const world::Handle& h : handles) EXPECT_TRUE(w->add_to_game(h).has_value());
  return w;
}

inline SessionSetup small_setup(std::size_t units = 6, std::uint64_t seed = 7) {
  auto w = small_world(units, seed);
  auto setup = capture_setup(*w, seed, "MISSIONS/test/data.tma", small_terrain());
  EXPECT_TRUE(setup.has_value()) << (setup ? "" : setup.error().to_string());
  return setup ? *setup : SessionSetup{};
}

// The welcome a server sends for `setup` before `setup_count` setup messages.
inline Welcome welcome_for(const SessionSetup& setup, std::uint32_t setup_count) {
  Welcome w;
  w.authority = setup.authority;
  w.step_us = setup.step_us;
  w.seed = setup.seed;
  w.setup_count = setup_count;
  return w;
}

// One server and any number of clients over the in-process transport.
class MemorySession {
 public:
  // `traces`: the server and the clients keep their trace lines (server_trace(), client_trace());
  // a long hostile run turns them off to measure the session's own memory.
  explicit MemorySession(const SessionSetup& setup = small_setup(), ServerConfig config = {}, bool traces = true)
      : traces_on_(traces), network_(clock_), server_transport_(network_.listen("server").value()) {
    auto s = Server::host(*server_transport_, setup, config, clock_, traces ? &server_trace_ : nullptr);
    EXPECT_TRUE(s.has_value()) << (s ? "" : s.error().to_string());
    server_ = std::move(*s);
  }

  // A client connected through links shaped by `up` / `down` (ideal by default).
  Client& add_client(const std::string& name, LossSpec up = {}, LossSpec down = {}, ClientConfig config = {}) {
    config.name = name;
    transports_.push_back(network_.connect("server", up, down, transports_.size() + 11).value());
    traces_.push_back(std::make_unique<MemoryTrace>());
    auto c = Client::join(*transports_.back(), config, clock_, traces_on_ ? traces_.back().get() : nullptr);
    EXPECT_TRUE(c.has_value());
    clients_.push_back(std::move(*c));
    return *clients_.back();
  }
  // A raw transport to the server, for hostile peers.
  Transport& add_raw(LossSpec up = {}, LossSpec down = {}) {
    raws_.push_back(network_.connect("server", up, down, raws_.size() + 101).value());
    return *raws_.back();
  }

  // Client i's process dies: its endpoint goes away without a word (the server learns it as a
  // lost transport); client(i) must not be used afterwards.
  void crash(std::size_t i) {
    clients_.at(i).reset();
    transports_.at(i).reset();
  }

  // Every party polls once (server first), `rounds` times.
  void pump(int rounds = 3) {
    for (int i = 0; i < rounds; ++i) {
      EXPECT_TRUE(server_->poll().has_value());
      for (auto& c : clients_) {
        if (c) (void)c->poll();
      }
    }
  }
  // Called before every server tick, after its poll (a served scenario's step).
  void before_tick(std::function<core::Status()> fn) { before_tick_ = std::move(fn); }
  // One server tick, then everything delivered.
  void tick(std::uint64_t n = 1) {
    for (std::uint64_t i = 0; i < n; ++i) {
      EXPECT_TRUE(server_->poll().has_value());
      if (before_tick_) {
        auto before = before_tick_();
        EXPECT_TRUE(before.has_value()) << (before ? "" : before.error().to_string());
      }
      auto st = server_->run_tick();
      EXPECT_TRUE(st.has_value()) << (st ? "" : st.error().to_string());
      clock_.advance(world::kDefaultStepUs);
      for (auto& c : clients_) {
        if (c) (void)c->poll();
      }
    }
    pump();
  }
  void advance_us(std::uint64_t us) { clock_.advance(us); }

  Server& server() { return *server_; }
  Client& client(std::size_t i) { return *clients_.at(i); }
  MemoryTrace& server_trace() { return server_trace_; }
  MemoryTrace& client_trace(std::size_t i) { return *traces_.at(i); }
  world::ManualPlatformClock& clock() { return clock_; }
  MemoryNetwork& network() { return network_; }

 private:
  bool traces_on_ = true;
  std::function<core::Status()> before_tick_;
  world::ManualPlatformClock clock_;
  MemoryNetwork network_;
  std::unique_ptr<Transport> server_transport_;
  MemoryTrace server_trace_;
  std::unique_ptr<Server> server_;
  std::vector<std::unique_ptr<Transport>> transports_;
  std::vector<std::unique_ptr<MemoryTrace>> traces_;
  std::vector<std::unique_ptr<Client>> clients_;
  std::vector<std::unique_ptr<Transport>> raws_;
};

// Polls a raw transport and decodes every packet it received.
inline std::vector<Message> drain(Transport& t, std::vector<TransportEvent>* events = nullptr) {
  std::vector<TransportEvent> ev;
  EXPECT_TRUE(t.poll(0, ev).has_value());
  std::vector<Message> out;
  for (auto& e : ev) {
    if (e.type == TransportEvent::Type::received) {
      auto m = decode_packet(e.data, e.delivery);
      if (m) out.insert(out.end(), m->begin(), m->end());
    }
  }
  if (events != nullptr) *events = std::move(ev);
  return out;
}

inline core::Bytes frame(const Message& m) {
  return encode_message(m).value();
}

}  // namespace sortie::net::test
