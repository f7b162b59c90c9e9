#pragma once
// Controllers: the per-object logic slot. A controller reads only the game clock (never a
// render delta), changes its own object's transform, and talks to the rest of the world
// through the World's deferred operations (post an event, request a deletion, create and add
// objects). New controllers (navigation-backed movement, behaviour) implement this interface.
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string_view>

#include "sortie/world/clock.hpp"
#include "sortie/world/state_writer.hpp"

namespace sortie::world {

class World;
class WorldObject;

struct UpdateContext {
  World& world;
  WorldObject& self;
  const GameClock& clock;  // dt = clock.dt_seconds(); 0 while paused
};

class Controller {
 public:
  virtual ~Controller() = default;
  // Stable name, part of the state hash ("move", "route", ...).
  [[nodiscard]] virtual std::string_view kind() const = 0;
  virtual void update(UpdateContext& ctx) = 0;
  // Canonical encoding of the controller's own state (fixed field order, exact bits).
  virtual void encode(StateWriter& out) const = 0;
  // The controller's state as data in a save's world image (docs/save-files.md); the default is
  // its canonical encoding ({"encoding": hex}).
  virtual void image(nlohmann::json& out) const;
  [[nodiscard]] virtual std::unique_ptr<Controller> clone() const = 0;
};

// Ground height under a point; a terrain (libs/nav TerrainWorld) adapts to this. nullopt when
// the point is outside every surface.
class HeightField {
 public:
  virtual ~HeightField() = default;
  [[nodiscard]] virtual std::optional<float> height_at(float x, float y) const = 0;
};

}  // namespace sortie::world
