// `sortie fomap materialize FILE --protos P [--world]`: bake in memory, load the server statics,
// materialize one instance per map, load the client statics (fomap/materialize.hpp); with --world
// each instance is published into a fresh world (mission/fomap_instance.hpp).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli_util.hpp"
#include "command.hpp"
#include "fomap_group.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/fomap/bake.hpp"
#include "sortie/fomap/materialize.hpp"
#include "sortie/mission/fomap_instance.hpp"
#include "sortie/world/world.hpp"

namespace sortie::cli {
namespace {

using core::Diagnostic;
using core::Json;

struct MaterializeCliOptions {
  std::string file;
  std::vector<std::string> protos;
  std::string map;
  bool json = false;
  bool world = false;
};

// --world: publishes an instance into a fresh world (one per map).
core::Result<mission::FomapInstanceResult> publish(const fomap::MaterializedInstance& instance,
                                                   const std::string& file) {
  world::World fresh;
  mission::FomapPublishOptions options;
  options.statics = &instance.statics;
  auto r = mission::publish_fomap_instance(instance.materialized, fresh, options);
  if (!r) {
    Diagnostic d = r.error();
    d.file = file;
    return core::fail(std::move(d));
  }
  return r;
}

void print_instance(const fomap::MaterializedInstance& in, const mission::FomapInstanceResult* published) {
  const auto& m = in.materialized;
  std::size_t critters = 0;
  for (const auto& e : m.entities) critters += e.kind == fomap::EntityKind::critter;
  std::cout << fmt::format(
      "{}: {} static grid items, {} critters, {} items created ({} children skipped); client: {} static items\n", m.map,
      in.statics.static_items.size(), critters, m.entities.size() - critters, m.skipped.size(), in.client_items.size());
  for (const auto& s : m.skipped)
    std::cout << fmt::format("  skipped Item $Id={} $Proto={} ({} of {}): {}\n", s.authored_id, s.proto,
                             fomap::to_string(s.ownership), s.owner_authored_id, s.reason);
  if (published)
    std::cout << fmt::format("  world: {} objects, {} registered, state hash {}\n", published->created,
                             published->registered, core::hash_hex(published->state_hash));
}

int run_materialize(const MaterializeCliOptions& o) {
  const auto input = load_container(o.file, o.protos);
  if (!input) return kExitUsage;
  const fomap::BakeRegistrars regs(input->project.properties);
  auto outcomes = fomap::materialize_container(input->container, input->project, regs, o.map);
  if (!outcomes) {
    print_error(outcomes.error());
    return kExitInvalid;
  }
  Json maps = Json::array();
  int worst = kExitOk;
  for (const auto& outcome : *outcomes) {
    if (!outcome.instance) {
      print_errors(outcome.errors);
      worst = kExitInvalid;
      continue;
    }
    std::optional<mission::FomapInstanceResult> published;
    if (o.world) {
      auto r = publish(*outcome.instance, o.file);
      if (!r) {
        print_error(r.error());
        worst = kExitInvalid;
        continue;
      }
      published = std::move(*r);
    }
    if (o.json) {
      Json j = outcome.instance->to_json();
      if (published) {
        Json w = published->to_json();
        w.erase("mapping");  // the entities above already carry the runtime ids
        w.erase("skipped");
        j["world"] = std::move(w);
      }
      maps.push_back(std::move(j));
    } else {
      print_instance(*outcome.instance, published ? &*published : nullptr);
    }
  }
  if (o.json) print_json(Json{{"file", o.file}, {"maps", maps}});
  return worst;
}

}  // namespace
}  // namespace sortie::cli

SORTIE_COMMAND(fomap_materialize, [](CLI::App& root, sortie::cli::Outcome& outcome) {
  using namespace sortie::cli;
  CLI::App* group = &fomap_group(root);

  auto mzo = std::make_shared<MaterializeCliOptions>();
  auto* mat = group->add_subcommand(
      "materialize",
      "Bake in memory, then load the server static data, materialize one instance and load the client statics");
  mat->footer(
      "Examples:\n  sortie fomap materialize Maps/arroyo.fomap --protos protos/ --json\n"
      "  sortie fomap materialize Maps/arroyo.fomap --protos protos/ --world\n");
  mat->add_option("file", mzo->file, "map container")->required();
  add_list_option(mat, "--protos", mzo->protos, "proto directory or file")->required();
  mat->add_option("--map", mzo->map, "only this map of a multi-map container");
  mat->add_flag("--json", mzo->json, "entities, id map and skipped children as JSON");
  mat->add_flag(
      "--world", mzo->world,
      "also publish each instance into a fresh world: object and registered counts, state hash (JSON: `world`)");
  mat->callback([mzo, &outcome] { outcome.exit_code = run_materialize(*mzo); });
});
