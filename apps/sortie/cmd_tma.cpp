// `sortie tma edit`: change a data.tma mission without a hex editor. Edits apply in the order
// given on the command line; everything not edited is written back byte for byte.
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/iron3d/tma_edit.hpp"

namespace sortie::cli {
namespace {

using iron3d::TmaEdit;
using iron3d::TmaEditKind;

struct EditOptions {
  std::string input;
  std::string output;
  bool compatible = false;
  // Option targets; the order of the edits comes from the parse order.
  std::vector<std::string> set, add_property, remove_property, move, rename, add_object, remove_object;
};

constexpr const char* kFooter = R"(Edits apply in command-line order. Object and property indices are 0-based
and refer to the document as edited so far. Text is UTF-8 and is stored as Windows-1251.

Paths for --set:
  objects[N].properties[NAME]=WORDS      first property named NAME (order and duplicates kept)
  objects[N].properties[K]=WORDS         property number K; ["3"] means the name 3
  objects[N].properties[NAME].name=TEXT  rename a property
  objects[N].position=X,Y,Z              also orientation (radians), scale
  objects[N].resource_name=TEXT          also instance_name
  objects[N].raw_kind=INT                also flags, raw_after_resource, identity_or_clan_raw,
                                         raw_after_name, link0, link1
  land_path=TEXT   mission_flag=INT
WORDS: 1 to 4 comma-separated raw words (decimal, -decimal, 0x-hex, or 1.5f for float bits);
the words given replace the leading words, the rest keep their value.

Examples:
  sortie tma edit data.tma --set 'objects[3].properties[Life state]=0' -o data.tma
  sortie tma edit data.tma --move 0 420 718.5 3.1 --rename 0 tank_01 -o out.tma
  sortie tma edit data.tma --add-property 'objects[2].properties[Invulnerability]=1' -o out.tma
  sortie tma edit data.tma --remove-object 5 --set 'land_path=DATA\MAPS\Tut_2\land' -o out.tma
  sortie tma edit data.tma -o out.tma --add-object \
      '{"resource_name":"s_tree_04","instance_name":"tree_09","position":[400,700,3],
        "properties":[{"name":"Life state","raw":[1,0,0,0]}]}'
  (copy an object from `sortie inspect --json data.tma`; unknown keys are rejected)
)";

int run_edit(const EditOptions& o, const std::vector<TmaEdit>& edits) {
  auto bytes = core::read_file(o.input);
  if (!bytes) {
    print_error(bytes.error());
    return exit_code_for(bytes.error());
  }
  core::Diagnostics warnings;
  const auto profile = o.compatible ? core::Profile::compatible : core::Profile::strict;
  auto tma = iron3d::read_tma(*bytes, {profile, o.input}, &warnings);
  if (!tma) {
    print_error(tma.error());
    return kExitInvalid;
  }
  for (const auto& w : warnings) std::cerr << "warning: " << w.to_string() << "\n";
  auto st = iron3d::apply_tma_edits(*tma, edits);
  if (!st) {
    auto d = st.error();
    if (d.file.empty()) d.file = o.input;
    print_error(d);
    return kExitInvalid;
  }
  auto out = iron3d::write_tma(*tma);
  if (!out) {
    auto d = out.error();
    if (d.file.empty()) d.file = o.output;
    print_error(d);
    return kExitInvalid;
  }
  auto written = core::write_file_atomic(o.output, *out);
  if (!written) {
    print_error(written.error());
    return exit_code_for(written.error());
  }
  std::cout << fmt::format("{}: {} edit(s) applied; wrote {} ({} bytes, {} objects)\n", o.input, edits.size(), o.output,
                           out->size(), tma->objects.size());
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(tma, [](CLI::App& root, Outcome& outcome) {
  auto* tma = root.add_subcommand("tma", "data.tma missions: edit placed objects and properties");
  tma->require_subcommand(1);
  auto o = std::make_shared<EditOptions>();
  auto* cmd = tma->add_subcommand("edit", "Apply edits to a data.tma and write the result atomically");
  cmd->footer(kFooter);
  cmd->add_option("file", o->input, "input data.tma")->required();
  cmd->add_option("-o,--output", o->output, "output file (may be the input; written atomically)")->required();
  cmd->add_flag("--compatible", o->compatible,
                "read the input with the compatible profile (unknown versions/flags kept)");
  struct Spec {
    const char* name;
    std::vector<std::string>* target;
    int args;
    TmaEditKind kind;
    const char* help;
  };
  const Spec specs[] = {
      {"--set", &o->set, 1, TmaEditKind::set, "PATH=VALUE (see below)"},
      {"--add-property", &o->add_property, 1, TmaEditKind::add_property,
       "objects[N].properties[NAME]=WORDS (appended)"},
      {"--remove-property", &o->remove_property, 1, TmaEditKind::remove_property, "objects[N].properties[NAME or K]"},
      {"--move", &o->move, 4, TmaEditKind::move, "N X Y Z: set the position of object N"},
      {"--rename", &o->rename, 2, TmaEditKind::rename, "N NAME: set the instance name of object N"},
      {"--add-object", &o->add_object, 1, TmaEditKind::add_object, "JSON object (shape of `inspect --json` objects)"},
      {"--remove-object", &o->remove_object, 1, TmaEditKind::remove_object,
       "N: remove object N (later ones move down)"},
  };
  auto kinds = std::make_shared<std::map<const CLI::Option*, std::pair<TmaEditKind, int>>>();
  for (const auto& s : specs) {
    auto* opt = cmd->add_option(s.name, *s.target, s.help)
                    ->expected(s.args)
                    ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    if (s.args > 1) opt->allow_extra_args(false);
    (*kinds)[opt] = {s.kind, s.args};
  }
  cmd->callback([o, cmd, kinds, &outcome] {
    std::vector<TmaEdit> edits;
    // parse_order() lists an option once per value: an edit is complete every `args` values.
    std::map<const CLI::Option*, std::size_t> used;
    for (const CLI::Option* opt : cmd->parse_order()) {
      auto it = kinds->find(opt);
      if (it == kinds->end()) continue;
      const auto n = static_cast<std::size_t>(it->second.second);
      const std::size_t at = ++used[opt];
      if (at % n != 0) continue;
      const auto& results = opt->results();
      if (at > results.size()) continue;
      TmaEdit e{it->second.first, std::vector<std::string>(results.begin() + static_cast<std::ptrdiff_t>(at - n),
                                                           results.begin() + static_cast<std::ptrdiff_t>(at))};
      edits.push_back(std::move(e));
    }
    for (const auto& [opt, count] : used) {
      const auto n = static_cast<std::size_t>(kinds->at(opt).second);
      if (count % n != 0) {
        std::cerr << fmt::format("sortie tma edit: {} takes {} values per use\n", opt->get_name(), n);
        outcome.exit_code = kExitUsage;
        return;
      }
    }
    if (edits.empty()) {
      std::cerr << "sortie tma edit: no edit given (see --help)\n";
      outcome.exit_code = kExitUsage;
      return;
    }
    outcome.exit_code = run_edit(*o, edits);
  });
});

}  // namespace sortie::cli
