// `sortie fomap hash|migrate|bake|json|materialize`: the output side of FOnline .fomap support,
// added to the shared `fomap` group (fomap_group.hpp).
#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <memory>
#include <optional>

#include "cli_util.hpp"
#include "command.hpp"
#include "fomap_group.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/fomap/bake.hpp"
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

core::Result<std::map<std::int64_t, std::string>> read_pid_table(const std::string& path) {
  SORTIE_TRY(const std::string text, core::read_text_file(path));
  std::map<std::int64_t, std::string> table;
  std::size_t pos = 0;
  std::uint32_t line = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    std::string_view l(text.data() + pos, (nl == std::string::npos ? text.size() : nl) - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    ++line;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (l.empty() || l.front() == '#') continue;
    const std::size_t tab = l.find('\t');
    std::int64_t pid = 0;
    const auto [p, ec] = std::from_chars(l.data(), l.data() + (tab == std::string_view::npos ? l.size() : tab), pid);
    if (tab == std::string_view::npos || ec != std::errc() || p != l.data() + tab || tab + 1 >= l.size())
      return core::fail(Diagnostic::error("usage.proto_names", "expected `<pid><TAB><name>`")
                            .of(path)
                            .in(fmt::format("line {}", line))
                            .expect("<pid>\\t<name>", std::string(l)));
    table[pid] = std::string(l.substr(tab + 1));
  }
  return table;
}

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
    project = fomap::Project::load(std::vector<std::filesystem::path>(o.protos.begin(), o.protos.end()));
    mo.catalog = &project->properties;
  }
  if (!o.proto_names.empty()) {
    auto table = read_pid_table(o.proto_names);
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

std::vector<std::filesystem::path> as_paths(const std::vector<std::string>& v) {
  return {v.begin(), v.end()};
}

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

int run_bake(const BakeCliOptions& o) {
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec || !std::filesystem::is_directory(o.out_dir)) {
    print_error(Diagnostic::error("io.output", "cannot create the output directory").of(o.out_dir));
    return kExitUsage;
  }
  const fomap::Project project = fomap::Project::load(as_paths(o.protos));
  const fomap::BakeRegistrars regs(project.properties);
  fomap::BakeOptions bo;
  bo.client_dictionary_includes_server_strings = !o.fact_sheet_client_dictionary;
  fomap::BakeSession session(project, regs, bo);
  const auto files = fomap::find_map_containers(as_paths(o.paths));
  Progress progress("bake", files.size());
  int worst = kExitOk;
  std::map<std::string, std::string> written;  // map id -> source (pack-wide duplicates)
  Json results = Json::array();
  std::size_t done = 0, ok = 0, failed = 0;
  for (const auto& path : files) {
    progress.update(done++, path.filename().string());
    auto text = core::read_text_file(path);
    if (!text) {
      print_error(text.error());
      worst = std::max(worst, kExitUsage);
      continue;
    }
    const fomap::MapContainer container = fomap::MapContainer::from_text(std::move(*text), path.string());
    for (const auto& map : container.maps()) {
      if (!o.only.empty() && map.name != o.only) continue;
      fomap::BakeOutcome outcome = session.bake_map(container, map);
      if (outcome.baked) {
        auto [it, fresh] = written.emplace(map.name, path.string());
        if (!fresh)
          outcome.errors.push_back(
              Diagnostic::error("fomap.bake.duplicate_map", "map id already baked from another container")
                  .of(path.string())
                  .expect("unique map ids in a pack", it->second));
      }
      if (outcome.errors.empty() && outcome.baked) {
        if (auto st = fomap::write_baked_map(*outcome.baked, o.out_dir); !st) {
          print_error(st.error());
          worst = std::max(worst, kExitUsage);
          continue;
        }
        ++ok;
        if (o.json) results.push_back(outcome.baked->summary_json());
      } else {
        ++failed;
        worst = std::max(worst, kExitInvalid);
        if (o.json) {
          results.push_back(
              Json{{"map", map.name}, {"source", path.string()}, {"errors", core::diagnostics_json(outcome.errors)}});
        } else {
          std::cerr << fmt::format("sortie: {}: map {} not baked ({} error(s))\n", path.string(), map.name,
                                   outcome.errors.size());
          print_errors(outcome.errors);
        }
      }
    }
    if (container.maps().empty() && !container.structure_errors().empty()) {
      ++failed;
      worst = std::max(worst, kExitInvalid);
      for (const auto& e : container.structure_errors())
        print_error(Diagnostic::error(e.code, e.message).of(path.string()).in(fmt::format("line {}", e.line)));
    }
  }
  progress.finish();
  if (o.json) {
    print_json(Json{{"maps", results}, {"summary", {{"baked", ok}, {"failed", failed}, {"files", files.size()}}}});
  } else {
    std::cout << fmt::format("{} file(s): {} map(s) baked to {}, {} failed\n", files.size(), ok, o.out_dir, failed);
    if (!o.only.empty() && ok + failed == 0)
      std::cout << fmt::format("no container declares map {}: nothing written\n", o.only);
  }
  return worst;
}

struct JsonCliOptions {
  std::string file;
  std::vector<std::string> protos;
};

int run_json(const JsonCliOptions& o) {
  auto text = core::read_text_file(o.file);
  if (!text) {
    print_error(text.error());
    return kExitUsage;
  }
  const fomap::Project project = fomap::Project::load(as_paths(o.protos));
  const fomap::MapContainer container = fomap::MapContainer::from_text(std::move(*text), o.file);
  fomap::write_container_json(std::cout, container, project);
  std::cout.flush();
  return container.loadable() ? kExitOk : kExitInvalid;
}

struct MaterializeCliOptions {
  std::string file;
  std::vector<std::string> protos;
  std::string map;
  bool json = false;
  bool world = false;
};

int run_materialize(const MaterializeCliOptions& o) {
  auto text = core::read_text_file(o.file);
  if (!text) {
    print_error(text.error());
    return kExitUsage;
  }
  const fomap::Project project = fomap::Project::load(as_paths(o.protos));
  const fomap::BakeRegistrars regs(project.properties);
  const fomap::MapContainer container = fomap::MapContainer::from_text(std::move(*text), o.file);
  const fomap::ProtoNames names = fomap::proto_names_of(project);
  Json maps = Json::array();
  int worst = kExitOk;
  std::uint64_t next_runtime_id = 1;
  bool any = false;
  for (const auto& map : container.maps()) {
    if (!o.map.empty() && map.name != o.map) continue;
    any = true;
    auto outcome = fomap::bake_map(container, map, project, regs);
    if (!outcome.baked) {
      print_errors(outcome.errors);
      worst = kExitInvalid;
      continue;
    }
    const auto size = fomap::map_size_of(container, map, project);
    if (!size) {
      print_error(Diagnostic::error("fomap.runtime.size", "map Size does not parse").of(o.file).in(map.name));
      worst = kExitInvalid;
      continue;
    }
    // Through the bytes, as the runtime reads them.
    auto server = fomap::read_server_blob(outcome.baked->server_bytes(), fomap::server_blob_name(map.name));
    auto client = fomap::read_client_blob(outcome.baked->client_bytes(), fomap::client_blob_name(map.name));
    if (!server || !client) {
      print_error(!server ? server.error() : client.error());
      worst = kExitInvalid;
      continue;
    }
    auto statics = fomap::load_server_statics(*server, map.name, *size, regs, names);
    if (!statics) {
      Diagnostic d = statics.error();
      d.file = o.file;
      print_error(d);
      worst = kExitInvalid;
      continue;
    }
    auto materialized = fomap::materialize(*statics, next_runtime_id);
    auto client_items = fomap::load_client_statics(*client, *size, regs, names);
    if (!materialized || !client_items) {
      Diagnostic d = !materialized ? materialized.error() : client_items.error();
      d.file = o.file;
      print_error(d);
      worst = kExitInvalid;
      continue;
    }
    // --world: publish into a fresh world (one per map) and report its size and state hash.
    std::optional<mission::FomapInstanceResult> published;
    if (o.world) {
      world::World fresh;
      mission::FomapPublishOptions publish_options;
      publish_options.statics = &*statics;
      auto r = mission::publish_fomap_instance(*materialized, fresh, publish_options);
      if (!r) {
        Diagnostic d = r.error();
        d.file = o.file;
        print_error(d);
        worst = kExitInvalid;
        continue;
      }
      published = std::move(*r);
    }
    if (o.json) {
      Json j = materialized->to_json();
      j["server_static"] = {{"critter_billets", statics->critters.size()},
                            {"static_items", statics->static_items.size()},
                            {"hex_item_billets", statics->hex_items.size()},
                            {"child_item_billets", statics->child_items.size()}};
      j["client_static_items"] = client_items->size();
      if (published) {
        Json w = published->to_json();
        w.erase("mapping");  // the entities above already carry the runtime ids
        w.erase("skipped");
        j["world"] = std::move(w);
      }
      maps.push_back(std::move(j));
    } else {
      std::size_t critters = 0;
      for (const auto& e : materialized->entities) critters += e.kind == fomap::EntityKind::critter;
      std::cout << fmt::format(
          "{}: {} static grid items, {} critters, {} items created ({} children skipped); client: {} static items\n",
          map.name, statics->static_items.size(), critters, materialized->entities.size() - critters,
          materialized->skipped.size(), client_items->size());
      for (const auto& s : materialized->skipped)
        std::cout << fmt::format("  skipped Item $Id={} $Proto={} ({} of {}): {}\n", s.authored_id, s.proto,
                                 fomap::to_string(s.ownership), s.owner_authored_id, s.reason);
      if (published)
        std::cout << fmt::format("  world: {} objects, {} registered, state hash {}\n", published->created,
                                 published->registered, core::hash_hex(published->state_hash));
    }
  }
  if (!any) {
    print_error(Diagnostic::error("fomap.materialize.no_map",
                                  o.map.empty() ? "the file declares no map" : "no such map in the file")
                    .of(o.file)
                    .expect("a declared map", o.map));
    return kExitInvalid;
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
  migrate->add_option("--protos", mo->protos,
                      "target project's proto directories: its property catalog decides which "
                      "converted keys are kept (default: engine properties only)");
  migrate->add_flag("--json", mo->json, "machine-readable report");
  migrate->callback([mo, &outcome] { outcome.exit_code = run_migrate(*mo); });

  auto bo = std::make_shared<BakeCliOptions>();
  auto* bake = group->add_subcommand(
      "bake",
      "Bake every map of the given containers to <MapId>.fomap-bin-server and -client (always both, atomically)");
  bake->footer(
      "Examples:\n  sortie fomap bake --protos protos/ -o out/ Maps/\n  sortie fomap bake --protos protos/ -o out/ "
      "--only arroyo Maps/\n");
  bake->add_option("--protos", bo->protos, "proto directories or files (walked recursively)")->required();
  bake->add_option("-o,--output", bo->out_dir, "output directory (flat: map ids, no subdirectories)")->required();
  bake->add_option("paths", bo->paths, "map containers or directories (walked)")->required();
  bake->add_option("--only", bo->only,
                   "targeted bake: only this map id (nothing written when no container declares it)");
  bake->add_flag("--fact-sheet-client-dictionary", bo->fact_sheet_client_dictionary,
                 "client dictionary from static items only (spec §10.2) instead of the contract's superset");
  bake->add_flag("--json", bo->json, "machine-readable report");
  bake->callback([bo, &outcome] { outcome.exit_code = run_bake(*bo); });

  auto jo = std::make_shared<JsonCliOptions>();
  auto* json = group->add_subcommand("json", "Print a map container as JSON in the canonical model's vocabulary");
  json->footer("Examples:\n  sortie fomap json Maps/arroyo.fomap --protos protos/\n");
  json->add_option("file", jo->file, "map container")->required();
  json->add_option("--protos", jo->protos, "proto directories (for project property types)");
  json->callback([jo, &outcome] { outcome.exit_code = run_json(*jo); });

  auto mzo = std::make_shared<MaterializeCliOptions>();
  auto* mat = group->add_subcommand(
      "materialize",
      "Bake in memory, then load the server static data, materialize one instance and load the client statics");
  mat->footer(
      "Examples:\n  sortie fomap materialize Maps/arroyo.fomap --protos protos/ --json\n"
      "  sortie fomap materialize Maps/arroyo.fomap --protos protos/ --world\n");
  mat->add_option("file", mzo->file, "map container")->required();
  mat->add_option("--protos", mzo->protos, "proto directories or files")->required();
  mat->add_option("--map", mzo->map, "only this map of a multi-map container");
  mat->add_flag("--json", mzo->json, "entities, id map and skipped children as JSON");
  mat->add_flag(
      "--world", mzo->world,
      "also publish each instance into a fresh world: object and registered counts, state hash (JSON: `world`)");
  mat->callback([mzo, &outcome] { outcome.exit_code = run_materialize(*mzo); });
});
