#pragma once
// NetWatcher (seed 001 "Sessions, players и адреса"): the server's map between the three
// identities of networked play, which are never mixed up:
//   transport peer id  - a connection, temporary (a reconnect is a new one);
//   game player number - the session's player (1 = the authority; never reused in a session);
//   ObjectId           - a world object, whose current owner is a player number.
// Routing answers "which player may order this object": the world's ownership, overlaid by the
// ownership changes already decided for the next tick. An accepted GMSG_TAKE_OBJECT reroutes at
// once and the world follows at the start of that tick, before any order accepted after it, so
// no order ever applies to an object its sender does not own at that moment.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sortie/net/protocol.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/world.hpp"

namespace sortie::net {

class Watcher {
 public:
  explicit Watcher(PlayerNumber authority) : authority_(authority) {}

  // ---- peers <-> players ----
  void bind(PeerId peer, PlayerNumber player);
  void unbind(PeerId peer);
  [[nodiscard]] std::optional<PlayerNumber> player_of(PeerId peer) const;
  [[nodiscard]] std::optional<PeerId> peer_of(PlayerNumber player) const;
  [[nodiscard]] const std::map<PeerId, PlayerNumber>& bindings() const { return by_peer_; }

  // ---- routing ----
  // The player that may order `id` now: a decided change for the next tick, else the world's
  // owner; nullopt when no live object has the id (or it is already decided to be removed).
  [[nodiscard]] std::optional<PlayerNumber> route(const world::World& world, world::ObjectId id) const;
  // Decides an ownership change (applied by the world at the next tick). kNoPlayer = removed.
  void reroute(world::ObjectId id, PlayerNumber owner);
  // Every object currently routed to `player` (world owner or decided change), ascending id.
  [[nodiscard]] std::vector<world::ObjectId> routed_to(const world::World& world, PlayerNumber player) const;
  // After a tick: the decided changes are the world's now.
  void settle() { overrides_.clear(); }
  [[nodiscard]] std::size_t pending_changes() const { return overrides_.size(); }
  [[nodiscard]] PlayerNumber authority() const { return authority_; }

 private:
  PlayerNumber authority_;
  std::map<PeerId, PlayerNumber> by_peer_;
  std::map<PlayerNumber, PeerId> by_player_;
  std::map<world::ObjectId, PlayerNumber> overrides_;
};

// Objects whose owner is neither the world's local player (the authority) nor one of `players`:
// what a disconnect must never leave behind. Ascending id.
std::vector<world::ObjectId> orphaned_objects(const world::World& world, const std::vector<PlayerNumber>& players);

}  // namespace sortie::net
