#include "sortie/mission/fomap_materialize_run.hpp"

#include <fmt/format.h>

#include "sortie/core/exit_code.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/fomap/bake.hpp"
#include "sortie/world/world.hpp"

namespace sortie::mission {

int FomapMaterializeRun::exit_code() const {
  for (const auto& m : maps)
    if (!m.outcome.instance || !m.outcome.errors.empty()) return core::kExitInvalid;
  return core::kExitOk;
}

core::Json FomapMaterializeRun::to_json() const {
  core::Json list = core::Json::array();
  for (const auto& m : maps) {
    if (!m.outcome.instance || !m.outcome.errors.empty()) {
      core::Json errors = core::Json::array();
      for (const auto& d : m.outcome.errors) errors.push_back(d.to_json());
      list.push_back({{"map", m.outcome.map}, {"errors", std::move(errors)}});
      continue;
    }
    core::Json j = m.outcome.instance->to_json();
    if (m.published) {
      core::Json w = m.published->to_json();
      w.erase("mapping");  // the entities above already carry the runtime ids
      w.erase("skipped");
      j["world"] = std::move(w);
    }
    list.push_back(std::move(j));
  }
  return {{"file", file}, {"maps", std::move(list)}};
}

std::string FomapMaterializeRun::to_text(core::Diagnostics& errors) const {
  std::string out;
  for (const auto& map : maps) {
    if (!map.outcome.instance || !map.outcome.errors.empty()) {
      errors.insert(errors.end(), map.outcome.errors.begin(), map.outcome.errors.end());
      continue;
    }
    const auto& in = *map.outcome.instance;
    const auto& m = in.materialized;
    std::size_t critters = 0;
    for (const auto& e : m.entities) critters += e.kind == fomap::EntityKind::critter;
    out += fmt::format(
        "{}: {} static grid items, {} critters, {} items created ({} children skipped); client: {} static items\n",
        m.map, in.statics.static_items.size(), critters, m.entities.size() - critters, m.skipped.size(),
        in.client_items.size());
    for (const auto& s : m.skipped)
      out += fmt::format("  skipped Item $Id={} $Proto={} ({} of {}): {}\n", s.authored_id, s.proto,
                         fomap::to_string(s.ownership), s.owner_authored_id, s.reason);
    if (map.published)
      out += fmt::format("  world: {} objects, {} registered, state hash {}\n", map.published->created,
                         map.published->registered, core::hash_hex(map.published->state_hash));
  }
  return out;
}

core::Result<FomapMaterializeRun> materialize_fomap(const fomap::MapContainer& container, const fomap::Project& project,
                                                    std::string file, std::string_view only, bool publish) {
  const fomap::BakeRegistrars regs(project.properties);
  SORTIE_TRY(auto outcomes, fomap::materialize_container(container, project, regs, only));
  FomapMaterializeRun run;
  run.file = std::move(file);
  for (auto& outcome : outcomes) {
    FomapMaterializeRun::Map map{std::move(outcome), std::nullopt};
    if (publish && map.outcome.instance) {
      world::World fresh;  // one world per map
      FomapPublishOptions options;
      options.statics = &map.outcome.instance->statics;
      auto published = publish_fomap_instance(map.outcome.instance->materialized, fresh, options);
      if (published) {
        map.published = std::move(*published);
      } else {
        core::Diagnostic d = published.error();
        d.file = run.file;
        map.outcome.errors.push_back(std::move(d));
      }
    }
    run.maps.push_back(std::move(map));
  }
  return run;
}

}  // namespace sortie::mission
