#pragma once
// Typed events of the World3D queue. Every event gets a global sequence number when it is
// posted; the calculation pass dispatches them in sequence order.
#include <cstdint>
#include <string_view>

#include "sortie/world/ids.hpp"

namespace sortie::world {

enum class EventType : std::uint32_t {
  arrived = 1,    // a movement controller reached its target (a = 0)
  spawned = 2,    // an object was added to the game
  damage = 3,     // a = amount
  collision = 4,  // GMSG_COLLISION_DETECTED analogue: target hit `other`
  timer = 5,      // a = timer id
  user = 1000,    // first id free for subsystems
};

std::string_view to_string(EventType type);

struct Event {
  std::uint64_t sequence = 0;  // stamped by World::post
  EventType type = EventType::user;
  Handle target;  // may be null (a world-wide event)
  Handle other;
  std::int64_t a = 0;
  std::int64_t b = 0;
};

}  // namespace sortie::world
