#pragma once
// Immutable presentation snapshot. The renderer and sound read this, never the live queue.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/world/event.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/object.hpp"

namespace sortie::world {

struct ObjectView {
  Handle handle;
  ObjectId id;
  Ownership ownership;
  std::string prototype_key;
  core::Transform transform;
  bool active = true;
};

struct WorldSnapshot {
  std::uint64_t tick = 0;
  std::uint64_t game_time_us = 0;
  bool paused = false;
  std::uint64_t state_hash = 0;
  std::vector<ObjectView> objects;  // registered, live, visible; queue (registration) order
  std::vector<Event> events;        // events dispatched by the last tick, in sequence order
};

using SnapshotPtr = std::shared_ptr<const WorldSnapshot>;

}  // namespace sortie::world
