#pragma once
// The registry of the tests that drive the v1 movers (the demo world, v1 and v2 logs with the
// `move` and `route` kinds): the world's standard set plus the v1 movement kinds of libs/move.
#include <memory>
#include <stdexcept>

#include "sortie/move/v1_commands.hpp"
#include "sortie/world/command_registry.hpp"

namespace sortie::move::test {

inline const std::shared_ptr<const world::CommandRegistry>& v1_registry() {
  static const std::shared_ptr<const world::CommandRegistry> registry = [] {
    world::CommandRegistry r = world::CommandRegistry::standard();
    if (auto st = register_v1_move_commands(r); !st) throw std::logic_error(st.error().to_string());
    return std::make_shared<const world::CommandRegistry>(std::move(r));
  }();
  return registry;
}

}  // namespace sortie::move::test
