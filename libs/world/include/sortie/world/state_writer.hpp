#pragma once
// The canonical state encoding of the world is core's one encoder (core/state_writer.hpp).
#include "sortie/core/state_writer.hpp"

namespace sortie::world {

using StateWriter = core::StateWriter;

}  // namespace sortie::world
