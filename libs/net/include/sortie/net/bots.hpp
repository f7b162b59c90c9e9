#pragma once
// Scripted players for headless sessions (`sortie serve` / `sortie join`, tests, benchmarks).
// They act only through the session's public operations, like a human player would, and move
// units with the movement stack's orders, the ones `sortie run` gives (move.enable for a unit
// without a body, then move.goto; libs/move commands.hpp):
//   HostBot    every `interval` ticks orders the authority's units to random points;
//   ClientBot  once caught up, spawns its own units (net.spawn_for), takes one authority unit
//              (GMSG_TAKE_OBJECT), then orders its units around every `interval` ticks.
// Their choices come from a seeded RNG stream; what tick an order lands on is the server's call.
#include <cstdint>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/net/client.hpp"
#include "sortie/net/replica.hpp"
#include "sortie/net/server.hpp"

namespace sortie::net {

struct BotOptions {
  std::uint64_t seed = 1;
  std::uint32_t interval = 60;  // ticks between waves of orders
  // A client bot's waves are also this far apart in real time: a fast session runs many ticks a
  // second, and a player's orders do not speed up with it (nor cross the server's flood limit).
  std::uint64_t min_wave_us = 50'000;
  std::uint32_t orders = 2;  // move orders per wave
  std::uint32_t units = 2;   // units a client bot spawns for itself
  bool take = true;          // a client bot takes one authority unit
  float speed = 6.0f;        // world units per game second
  float unit_radius = 1.5f;  // the body a unit without one gets (as `sortie run`'s units)
  float unit_height = 3.0f;
};

// Where orders may send units: the terrain's XY bounds (or the objects' when there is no terrain).
struct PlayArea {
  float min_x = 0.0f, min_y = 0.0f, max_x = 256.0f, max_y = 256.0f;
};
PlayArea play_area(const Replica& replica);

class HostBot {
 public:
  explicit HostBot(BotOptions options) : options_(options), rng_(options.seed, 0x484F5354 /* "HOST" */) {}
  // Call before each Server::run_tick().
  core::Status step(Server& server);

 private:
  BotOptions options_;
  core::Rng rng_;
};

class ClientBot {
 public:
  explicit ClientBot(BotOptions options) : options_(options), rng_(options.seed, 0x434C4E54 /* "CLNT" */) {}
  // Call after each Client::poll().
  core::Status step(Client& client);
  [[nodiscard]] std::uint64_t orders_sent() const { return orders_; }

 private:
  BotOptions options_;
  core::Rng rng_;
  bool spawned_ = false;
  bool took_ = false;
  std::uint64_t next_wave_ = 0;
  std::uint64_t next_wave_us_ = 0;
  std::uint64_t orders_ = 0;
};

}  // namespace sortie::net
