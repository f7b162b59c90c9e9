// `sortie fomap hash|migrate|bake|json|materialize`: the output side of FOnline .fomap support.
// Registered as `fomap_out` so it runs after `fomap` (fomap-core's lint/fmt), whose group it
// reuses; if that group does not exist yet it is created here.
#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/fomap/hash.hpp"
#include "sortie/fomap/migrate.hpp"

namespace sortie::cli {
namespace {

using core::Diagnostic;
using core::Json;

CLI::App* fomap_group_of(CLI::App& root) {
  for (CLI::App* sub : root.get_subcommands([](CLI::App* a) { return a->get_name() == "fomap"; })) return sub;
  CLI::App* group = root.add_subcommand("fomap", "FOnline .fomap maps: lint, fmt, bake, materialize, json, migrate, hash");
  group->require_subcommand(1);
  return group;
}

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
      std::cout << fmt::format("  not carried: {}:{}: {} [{}] x{}: {}\n", o.input, l.first_line, l.what.empty() ? "-" : l.what,
                               l.code, l.count, l.message);
  }
  return res->lossless() ? kExitOk : kExitInvalid;
}

}  // namespace

}  // namespace sortie::cli

SORTIE_COMMAND(fomap_out, [](CLI::App& root, sortie::cli::Outcome& outcome) {
  using namespace sortie::cli;
  CLI::App* group = fomap_group_of(root);

  auto ho = std::make_shared<HashOptions>();
  auto* hash = group->add_subcommand("hash", "Print the engine's string hash (hstring) of each argument");
  hash->footer("Examples:\n  sortie fomap hash Item art/tiles/floor.frm\n");
  hash->add_option("strings", ho->strings, "strings to hash (empty string = the null hash 0)")->required();
  hash->add_flag("--json", ho->json, "machine-readable output");
  hash->callback([ho, &outcome] { outcome.exit_code = run_hash(*ho); });

  auto mo = std::make_shared<MigrateCliOptions>();
  auto* migrate = group->add_subcommand(
      "migrate", "Convert a legacy map (bare [Critter]/[Item] sections, or classic [Header]/[Tiles]/[Objects]) to the "
                 "current nested format; exit 1 when something could not be carried (the file is still written)");
  migrate->footer(
      "Examples:\n  sortie fomap migrate old/arroyo.fomap -o Maps/arroyo.fomap\n"
      "  sortie fomap migrate glow4.fomap -o glow4.new.fomap --proto-names pids.tsv --tile-proto Tile --json\n");
  migrate->add_option("old", mo->input, "legacy map file")->required();
  migrate->add_option("-o,--output", mo->output, "output file (written atomically)")->required();
  migrate->add_option("--tile-proto", mo->tile_proto, "item proto for tiles (default: tiles are reported, not carried)");
  migrate->add_option("--roof-proto", mo->roof_proto, "item proto for roof tiles");
  migrate->add_option("--name", mo->name, "write `$Name = NAME` into the new anchor");
  migrate->add_option("--proto-names", mo->proto_names, "TSV file `<pid>\\t<proto name>` for classic numeric ProtoIds");
  migrate->add_flag("--json", mo->json, "machine-readable report");
  migrate->callback([mo, &outcome] { outcome.exit_code = run_migrate(*mo); });
});
