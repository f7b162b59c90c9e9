#pragma once
// A runtime object (seed 003 "минимальный runtime-object"): identity, class, ownership,
// transform, active state, ordered properties (sortie's keyed ones and the source file's raw
// records), typed components, a controller slot, participation in calculation and render, and
// the world-managed registration / deferred-deletion state.
#include <cstdint>
#include <memory>
#include <string>

#include "sortie/core/math.hpp"
#include "sortie/world/component.hpp"
#include "sortie/world/controller.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/properties.hpp"

namespace sortie::world {

struct Ownership {
  PlayerId owner = 0;   // current owner player
  bool mirror = false;  // owned remotely: the local runtime only keeps its visible state
  friend bool operator==(const Ownership&, const Ownership&) = default;
};

class WorldObject {
 public:
  // Filled during construction (before add-to-game) and changed by controllers afterwards.
  std::string prototype_key;
  core::Transform transform;     // position, raw orientation, scale: exact IEEE-754 bits, hashed
  Properties properties;         // sortie's keyed properties (one value per key, insertion order)
  RawProperties raw_properties;  // the source file's property records, verbatim, file order, repeats kept
  ComponentStore components;     // typed per-object state of the game layers (component.hpp)
  bool active = true;            // takes part in the calculation pass
  bool visible = true;           // takes part in the render snapshot
  std::unique_ptr<Controller> controller;

  [[nodiscard]] const ObjectId& id() const { return id_; }
  [[nodiscard]] ClassId class_id() const { return id_.class_id; }
  [[nodiscard]] Handle handle() const { return handle_; }
  [[nodiscard]] const Ownership& ownership() const { return ownership_; }
  [[nodiscard]] bool is_mirror() const { return ownership_.mirror; }
  [[nodiscard]] bool is_local() const { return !ownership_.mirror; }
  [[nodiscard]] bool registered() const { return registered_; }
  [[nodiscard]] bool pending_add() const { return pending_add_; }
  [[nodiscard]] bool pending_delete() const { return pending_delete_; }
  [[nodiscard]] std::uint64_t registration_sequence() const { return registration_sequence_; }

 private:
  friend class World;
  ObjectId id_;
  Handle handle_;
  Ownership ownership_;
  bool registered_ = false;
  bool pending_add_ = false;
  bool pending_delete_ = false;
  std::uint64_t registration_sequence_ = 0;
};

}  // namespace sortie::world
