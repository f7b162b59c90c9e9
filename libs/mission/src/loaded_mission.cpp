#include <cstddef>

#include "sortie/mission/mission_loader.hpp"

namespace sortie::mission {

std::vector<ObjectId> LoadedMission::ids_by_placement() const {
  std::vector<ObjectId> ids;
  for (const auto& obj : objects) {
    const auto i = static_cast<std::size_t>(obj.placed_index);
    if (i >= ids.size()) ids.resize(i + 1);
    ids[i] = obj.id;
  }
  return ids;
}

}  // namespace sortie::mission
