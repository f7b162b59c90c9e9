#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "sortie/mission/mission_loader.hpp"
#include "sortie/scenario/super_ai.hpp"

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

std::vector<core::Vec3> LoadedMission::player_clan_positions() const {
  std::vector<core::Vec3> at;
  if (world == nullptr || data == nullptr) return at;
  const auto& clans = data->tma.clans;
  const std::string name = scenario::player_clan(data->tma);
  const auto clan = std::find_if(clans.begin(), clans.end(), [&](const auto& c) { return c.name == name; });
  if (name.empty() || clan == clans.end()) return at;
  const auto index = static_cast<std::int64_t>(clan - clans.begin());  // the "clan" property indexes the clans
  for (const world::Handle h : world->queue())
    if (const world::WorldObject* o = world->find(h); o != nullptr && o->active)
      if (const auto c = o->properties.get_int("clan"); c && *c == index) at.push_back(o->transform.position);
  return at;
}

}  // namespace sortie::mission
