#pragma once
// Object identity (seed 003 "Идентичность объектов") and generation-checked handles (spec §26.2).
#include <compare>
#include <cstdint>
#include <functional>
#include <string>

namespace sortie::world {

using PlayerId = std::uint16_t;
using ClassId = std::uint16_t;

// Logical identity of a game object: the player that created it, its class and an index.
// The identity is stable for the object's whole life (also across an ownership change) and is
// what command logs, scripts and network messages name. Whether an object is a local object
// or a mirror is a property of the object's current ownership, not of this value.
struct ObjectId {
  PlayerId owner = 0;
  ClassId class_id = 0;
  std::uint32_t index = 0;

  [[nodiscard]] constexpr std::uint64_t raw() const {
    return (std::uint64_t{owner} << 48) | (std::uint64_t{class_id} << 32) | index;
  }
  static constexpr ObjectId from_raw(std::uint64_t raw) {
    return ObjectId{static_cast<PlayerId>(raw >> 48), static_cast<ClassId>((raw >> 32) & 0xffffu),
                    static_cast<std::uint32_t>(raw & 0xffffffffu)};
  }
  friend constexpr auto operator<=>(const ObjectId&, const ObjectId&) = default;
  [[nodiscard]] std::string to_string() const;  // "p1:c7:#42"
};

// A reference to a slot of the world that knows which occupant it was made for. After the
// occupant is deleted the slot's generation moves on and the handle becomes stale: looking it
// up is an error (`world.handle.stale`), never a dangling pointer. Generation 0 is never live.
struct Handle {
  std::uint32_t slot = 0;
  std::uint32_t generation = 0;

  [[nodiscard]] constexpr bool is_null() const { return generation == 0; }
  friend constexpr auto operator<=>(const Handle&, const Handle&) = default;
};

}  // namespace sortie::world

template <>
struct std::hash<sortie::world::ObjectId> {
  std::size_t operator()(const sortie::world::ObjectId& id) const noexcept {
    return std::hash<std::uint64_t>{}(id.raw());
  }
};
