#pragma once
// A synthetic busy world for determinism tests and benchmarks: units walk to random targets
// (the v1 MoveController of v1_movers.hpp, so the demo's recorded hashes stay); on arrival a handler either gives a new
// order, damages another unit (a damage event) or - with churn - deletes the unit from inside the handler and spawns a
// replacement. Units are of class move::class_ids::kDemoUnit. Every random choice comes from the world's simulation
// RNG stream.
#include <cstdint>

#include "sortie/core/diagnostic.hpp"
#include "sortie/move/class_ids.hpp"
#include "sortie/world/world.hpp"

namespace sortie::move {

struct DemoConfig {
  std::uint32_t units = 64;
  float arena = 256.0f;  // targets in [0, arena)^2
  bool churn = true;     // delete/respawn from handlers
  bool controllers = true;
};

core::Status populate_demo_world(world::World& world, const DemoConfig& config);

}  // namespace sortie::move
