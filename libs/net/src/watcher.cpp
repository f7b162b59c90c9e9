#include "sortie/net/watcher.hpp"

#include <algorithm>

namespace sortie::net {

void Watcher::bind(PeerId peer, PlayerNumber player) {
  by_peer_[peer] = player;
  by_player_[player] = peer;
}

void Watcher::unbind(PeerId peer) {
  auto it = by_peer_.find(peer);
  if (it == by_peer_.end()) return;
  by_player_.erase(it->second);
  by_peer_.erase(it);
}

std::optional<PlayerNumber> Watcher::player_of(PeerId peer) const {
  auto it = by_peer_.find(peer);
  if (it == by_peer_.end()) return std::nullopt;
  return it->second;
}

std::optional<PeerId> Watcher::peer_of(PlayerNumber player) const {
  auto it = by_player_.find(player);
  if (it == by_player_.end()) return std::nullopt;
  return it->second;
}

std::optional<PlayerNumber> Watcher::route(const world::World& world, world::ObjectId id) const {
  auto o = overrides_.find(id);
  if (o != overrides_.end()) {
    if (o->second == kNoPlayer) return std::nullopt;
    return o->second;
  }
  auto h = world.lookup(id);
  if (!h) return std::nullopt;
  const world::WorldObject* object = world.find(*h);
  if (object == nullptr || object->pending_delete()) return std::nullopt;
  return object->ownership().owner;
}

void Watcher::reroute(world::ObjectId id, PlayerNumber owner) {
  overrides_[id] = owner;
}

std::vector<world::ObjectId> Watcher::routed_to(const world::World& world, PlayerNumber player) const {
  std::vector<world::ObjectId> out;
  for (const world::Handle& h : world.queue()) {
    const world::WorldObject* o = world.find(h);
    if (o == nullptr) continue;
    if (route(world, o->id()) == player) out.push_back(o->id());
  }
  for (const auto& [id, owner] : overrides_) {
    if (owner == player && !world.lookup(id)) out.push_back(id);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<world::ObjectId> orphaned_objects(const world::World& world, const std::vector<PlayerNumber>& players) {
  std::vector<world::ObjectId> out;
  for (const world::Handle& h : world.queue()) {
    const world::WorldObject* o = world.find(h);
    if (o == nullptr || o->pending_delete()) continue;
    const PlayerNumber owner = o->ownership().owner;
    if (owner == world.local_player()) continue;
    if (std::find(players.begin(), players.end(), owner) != players.end()) continue;
    out.push_back(o->id());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sortie::net
