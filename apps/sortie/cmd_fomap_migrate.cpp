// `sortie fomap migrate OLD -o NEW`: a legacy map converted to the current nested format
// (fomap/migrate.hpp); what could not be carried is listed and gives exit 1.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli_util.hpp"
#include "command.hpp"
#include "fomap_group.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/fomap/migrate.hpp"

namespace sortie::cli {
namespace {

using core::Diagnostic;
using core::Json;

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

}  // namespace
}  // namespace sortie::cli

SORTIE_COMMAND(fomap_migrate, [](CLI::App& root, sortie::cli::Outcome& outcome) {
  using namespace sortie::cli;
  CLI::App* group = &fomap_group(root);

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
});
