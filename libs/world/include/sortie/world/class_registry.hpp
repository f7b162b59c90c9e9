#pragma once
// Object classes (ObjectId::class_id). A class id says what kind of thing an object is and which
// per-class index counter it draws from; it is part of every ObjectId, so of command logs,
// network messages and the state hash: an assigned value never changes.
//
// The world pins no class: each area declares its own rows (sortie/<area>/class_ids.hpp) and
// registers them with the world it puts objects into (World::classes()). Code that needs to know
// what kind of object it has (is it a unit?) asks the registry, never another area's ids; a class
// id that comes from outside (a network mirror) is checked against it. A second area that claims a
// taken id or name is refused at registration. The world's own tests and replays of old command
// logs create objects of ad-hoc classes, so creation itself does not require a row. The table of
// assigned ids, by area, is in docs/architecture.md ("Rules that hold everywhere");
// tests/net/class_table_test.cpp checks that every area's rows fit together in one registry.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::world {

// What the rest of the engine may assume about objects of a class without knowing its area.
enum class ClassRole : std::uint8_t {
  unit,    // takes movement orders and is counted as a unit by scripts, bots and the HUD
  thing,   // placed or materialised content that does not move on orders (buildings, items)
  system,  // an invisible object that carries a subsystem's state (movement, scenario, game)
};

struct ClassInfo {
  ClassId id = 0;
  std::string_view name;  // stable snake_case name ("tma_unit"), unique across areas
  ClassRole role = ClassRole::thing;
  std::string_view area;  // the library that owns the class ("mission")
};

class ClassRegistry {
 public:
  // Adds a row. The same row again is accepted (an area registers on every install).
  // Errors: world.class.id_zero, world.class.id_taken (the id is another class's),
  // world.class.name_taken (the name is another id's).
  core::Status add(const ClassInfo& info);
  core::Status add(std::span<const ClassInfo> rows);

  [[nodiscard]] const ClassInfo* find(ClassId id) const;
  [[nodiscard]] const ClassInfo* find(std::string_view name) const;
  [[nodiscard]] bool is_unit(ClassId id) const;
  // Every registered row, ascending id.
  [[nodiscard]] std::span<const ClassInfo> rows() const { return rows_; }

 private:
  std::vector<ClassInfo> rows_;
};

}  // namespace sortie::world
