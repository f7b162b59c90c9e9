#include "sortie/world/class_registry.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace sortie::world {

using core::Diagnostic;
using core::fail;

core::Status ClassRegistry::add(const ClassInfo& info) {
  if (info.id == 0) {
    return fail(Diagnostic::error("world.class.id_zero", "class id 0 is never assigned")
                    .in(std::string(info.area))
                    .expect("a class id > 0", std::string(info.name)));
  }
  const ClassInfo* same_id = find(info.id);
  if (same_id != nullptr) {
    if (same_id->name == info.name && same_id->role == info.role && same_id->area == info.area) return {};
    return fail(Diagnostic::error("world.class.id_taken", "class id is already assigned to another class")
                    .in(std::string(info.area))
                    .expect(fmt::format("{} free", info.id),
                            fmt::format("{} ({} of {})", info.id, same_id->name, same_id->area)));
  }
  if (const ClassInfo* same_name = find(info.name); same_name != nullptr) {
    return fail(Diagnostic::error("world.class.name_taken", "class name is already assigned to another id")
                    .in(std::string(info.area))
                    .expect(fmt::format("{} unused", info.name),
                            fmt::format("{} is class {} of {}", info.name, same_name->id, same_name->area)));
  }
  const auto at = std::lower_bound(rows_.begin(), rows_.end(), info.id,
                                   [](const ClassInfo& row, ClassId id) { return row.id < id; });
  rows_.insert(at, info);
  return {};
}

core::Status ClassRegistry::add(std::span<const ClassInfo> rows) {
  for (const ClassInfo& row : rows) {
    SORTIE_CHECK(add(row));
  }
  return {};
}

const ClassInfo* ClassRegistry::find(ClassId id) const {
  const auto at = std::lower_bound(rows_.begin(), rows_.end(), id,
                                   [](const ClassInfo& row, ClassId wanted) { return row.id < wanted; });
  return at != rows_.end() && at->id == id ? &*at : nullptr;
}

const ClassInfo* ClassRegistry::find(std::string_view name) const {
  const auto at = std::find_if(rows_.begin(), rows_.end(), [&](const ClassInfo& row) { return row.name == name; });
  return at != rows_.end() ? &*at : nullptr;
}

bool ClassRegistry::is_unit(ClassId id) const {
  const ClassInfo* row = find(id);
  return row != nullptr && row->role == ClassRole::unit;
}

}  // namespace sortie::world
