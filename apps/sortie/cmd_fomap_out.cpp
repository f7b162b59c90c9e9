// `sortie fomap hash|migrate|bake|json|materialize`: the output side of FOnline .fomap support,
// added to the shared `fomap` group (fomap_group.hpp).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli_util.hpp"
#include "command.hpp"
#include "fomap_group.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/fomap/bake.hpp"
#include "sortie/fomap/bake_pack.hpp"
#include "sortie/fomap/hash.hpp"
#include "sortie/fomap/json_model.hpp"
#include "sortie/fomap/materialize.hpp"
#include "sortie/fomap/migrate.hpp"
#include "sortie/mission/fomap_instance.hpp"

namespace sortie::cli {
namespace {

using core::Diagnostic;
using core::Json;

// ---- hash -------------------------------------------------------------------------------

struct HashOptions {
  std::vector<std::string> strings;
  bool json = false;
};

int run_hash(const HashOptions& o) {
  if (o.json) {
    Json arr = Json::array();
    for (const auto& s : o.strings) arr.push_back({{"string", s}, {"hash", fomap::hash_text(fomap::string_hash(s))}});
    print_json(arr);
  } else {
    for (const auto& s : o.strings) std::cout << fomap::hash_text(fomap::string_hash(s)) << "  " << s << "\n";
  }
  return kExitOk;
}

// ---- migrate ----------------------------------------------------------------------------

struct MigrateCliOptions {
  std::string input;
  std::string output;
  std::string tile_proto;
  std::string roof_proto;
  std::string name;
  std::string proto_names;  // TSV: pid <tab> name
  std::vector<std::string> protos;
  bool json = false;
};

int run_migrate(const MigrateCliOptions& o) {
  auto text = core::read_text_file(o.input);
  if (!text) {
    print_error(text.error());
    return kExitUsage;
  }
  fomap::MigrateOptions mo;
  mo.tile_proto = o.tile_proto;
  mo.roof_proto = o.roof_proto;
  mo.map_name = o.name;
  std::optional<fomap::Project> project;
  if (!o.protos.empty()) {
    project = load_project(o.protos);
    if (!project) return kExitUsage;
    mo.catalog = &project->properties;
    mo.protos = &project->protos;
  }
  if (!o.proto_names.empty()) {
    auto table = fomap::read_proto_name_table(o.proto_names);
    if (!table) {
      print_error(table.error());
      return exit_code_for(table.error());
    }
    mo.proto_names = std::move(*table);
  }
  auto res = fomap::migrate_map(*text, o.input, mo);
  if (!res) {
    print_error(res.error());
    return exit_code_for(res.error());
  }
  if (auto st = core::write_file_atomic(o.output, res->text); !st) {
    print_error(st.error());
    return kExitUsage;
  }
  if (o.json) {
    Json j = res->to_json();
    j["input"] = o.input;
    j["output"] = o.output;
    print_json(j);
  } else {
    std::cout << fmt::format("{}: {} -> current ({} critters, {} items) written to {}\n", o.input,
                             fomap::to_string(res->from), res->critters, res->items, o.output);
    for (const auto& l : res->losses)
      std::cout << fmt::format("  not carried: {}:{}: {} [{}] x{}: {}\n", o.input, l.first_line,
                               l.what.empty() ? "-" : l.what, l.code, l.count, l.message);
  }
  return res->lossless() ? kExitOk : kExitInvalid;
}

// ---- bake / json / materialize ------------------------------------------------------------

struct BakeCliOptions {
  std::vector<std::string> protos;
  std::string out_dir;
  std::vector<std::string> paths;
  std::string only;
  bool fact_sheet_client_dictionary = false;
  bool json = false;
};

void print_errors(const core::Diagnostics& errors, std::size_t limit = 50) {
  std::size_t n = 0;
  for (const auto& d : errors) {
    if (++n > limit) {
      std::cerr << fmt::format("sortie: ... {} more error(s); use --json for all\n", errors.size() - limit);
      break;
    }
    print_error(d);
  }
}

// The worst exit code of a set of diagnostics (I/O and usage: 2, the rest: 1).
int worst_exit(const core::Diagnostics& errors) {
  int worst = kExitOk;
  for (const auto& d : errors) worst = std::max(worst, exit_code_for(d));
  return worst;
}

int run_bake(const BakeCliOptions& o) {
  const auto project = load_project(o.protos);
  if (!project) return kExitUsage;
  fomap::PackOptions options;
  options.bake.client_dictionary_includes_server_strings = !o.fact_sheet_client_dictionary;
  options.only = o.only;
  options.output = o.out_dir;
  std::optional<Progress> progress;
  const fomap::PackReport report =
      fomap::bake_pack({o.paths.begin(), o.paths.end()}, *project, options,
                       [&](std::size_t done, std::size_t total, const std::filesystem::path& file) {
                         if (!progress) progress.emplace("bake", total);
                         progress->update(done, file.filename().string());
                       });
  if (progress) progress->finish();
  print_errors(report.io_errors);
  int worst = worst_exit(report.io_errors);
  for (const auto& m : report.maps) {
    if (m.ok()) continue;
    worst = std::max(worst, worst_exit(m.errors));
    if (o.json) continue;
    std::cerr << fmt::format("sortie: {}: map {} not baked ({} error(s))\n", m.source, m.map, m.errors.size());
    print_errors(m.errors);
  }
  if (o.json) {
    print_json(report.to_json());
  } else {
    std::cout << fmt::format("{} file(s): {} map(s) baked to {}, {} failed\n", report.files, report.baked(), o.out_dir,
                             report.failed());
  }
  return worst;
}

struct JsonCliOptions {
  std::string file;
  std::vector<std::string> protos;
};

// A container named on the command line and the project of its --protos; nullopt (the error
// printed) when the file cannot be read or the protos cannot be loaded: exit 2.
struct ContainerInput {
  fomap::Project project;
  fomap::MapContainer container;
};

std::optional<ContainerInput> load_container(const std::string& file, const std::vector<std::string>& protos) {
  auto text = core::read_text_file(file);
  if (!text) {
    print_error(text.error());
    return std::nullopt;
  }
  auto project = load_project(protos);
  if (!project) return std::nullopt;
  return ContainerInput{std::move(*project), fomap::MapContainer::from_text(std::move(*text), file)};
}

int run_json(const JsonCliOptions& o) {
  const auto input = load_container(o.file, o.protos);
  if (!input) return kExitUsage;
  fomap::write_container_json(std::cout, input->container, input->project);
  std::cout.flush();
  return input->container.loadable() ? kExitOk : kExitInvalid;
}

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

SORTIE_COMMAND(fomap_out, [](CLI::App& root, sortie::cli::Outcome& outcome) {
  using namespace sortie::cli;
  CLI::App* group = &fomap_group(root);

  auto ho = std::make_shared<HashOptions>();
  auto* hash = group->add_subcommand("hash", "Print the engine's string hash (hstring) of each argument");
  hash->footer("Examples:\n  sortie fomap hash Item art/tiles/floor.frm\n");
  hash->add_option("strings", ho->strings, "strings to hash (empty string = the null hash 0)")->required();
  hash->add_flag("--json", ho->json, "machine-readable output");
  hash->callback([ho, &outcome] { outcome.exit_code = run_hash(*ho); });

  auto mo = std::make_shared<MigrateCliOptions>();
  auto* migrate = group->add_subcommand(
      "migrate",
      "Convert a legacy map (bare [Critter]/[Item] sections, or classic [Header]/[Tiles]/[Objects]) to the "
      "current nested format; exit 1 when something could not be carried (the file is still written)");
  migrate->footer(
      "Examples:\n  sortie fomap migrate old/arroyo.fomap -o Maps/arroyo.fomap\n"
      "  sortie fomap migrate glow4.fomap -o glow4.new.fomap --proto-names pids.tsv --tile-proto Tile --json\n");
  migrate->add_option("old", mo->input, "legacy map file")->required();
  migrate->add_option("-o,--output", mo->output, "output file (written atomically)")->required();
  migrate->add_option("--tile-proto", mo->tile_proto,
                      "item proto for tiles (default: tiles are reported, not carried)");
  migrate->add_option("--roof-proto", mo->roof_proto, "item proto for roof tiles");
  migrate->add_option("--name", mo->name, "write `$Name = NAME` into the new anchor");
  migrate->add_option("--proto-names", mo->proto_names, "TSV file `<pid>\\t<proto name>` for classic numeric ProtoIds");
  add_list_option(migrate, "--protos", mo->protos,
                  "target project's proto directory: its property catalog decides which converted keys are kept "
                  "(default: engine properties only) and its prototypes name classic ProtoName objects");
  migrate->add_flag("--json", mo->json, "machine-readable report");
  migrate->callback([mo, &outcome] { outcome.exit_code = run_migrate(*mo); });

  auto bo = std::make_shared<BakeCliOptions>();
  auto* bake = group->add_subcommand(
      "bake",
      "Bake every map of the given containers to <MapId>.fomap-bin-server and -client (always both, atomically)");
  bake->footer(
      "Examples:\n  sortie fomap bake --protos protos/ -o out/ Maps/\n  sortie fomap bake --protos protos/ -o out/ "
      "--only arroyo Maps/\n");
  add_list_option(bake, "--protos", bo->protos, "proto directory or file (walked recursively)")->required();
  bake->add_option("-o,--output", bo->out_dir, "output directory (flat: map ids, no subdirectories)")->required();
  bake->add_option("paths", bo->paths, "map containers or directories (walked)")->required();
  bake->add_option("--only", bo->only,
                   "targeted bake: only this map id (exit 2, nothing written, when no container declares it)");
  bake->add_flag("--fact-sheet-client-dictionary", bo->fact_sheet_client_dictionary,
                 "client dictionary from static items only (spec §10.2) instead of the contract's superset");
  bake->add_flag("--json", bo->json, "machine-readable report");
  bake->callback([bo, &outcome] { outcome.exit_code = run_bake(*bo); });

  auto jo = std::make_shared<JsonCliOptions>();
  auto* json = group->add_subcommand("json", "Print a map container as JSON in the canonical model's vocabulary");
  json->footer("Examples:\n  sortie fomap json Maps/arroyo.fomap --protos protos/\n");
  json->add_option("file", jo->file, "map container")->required();
  add_list_option(json, "--protos", jo->protos, "proto directory (for project property types)");
  json->callback([jo, &outcome] { outcome.exit_code = run_json(*jo); });

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
