// `sortie tma edit`: change a data.tma mission without a hex editor. Edits apply in the order
// given on the command line; everything not edited is written back byte for byte.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "ordered_options.hpp"
#include "sortie/iron3d/tma_edit.hpp"

namespace sortie::cli {
namespace {

using iron3d::TmaEdit;
using iron3d::TmaEditKind;

struct EditOptions {
  std::string input;
  std::string output;
  bool compatible = false;
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

int run_edit(const EditOptions& o, std::vector<TmaEdit> edits) {
  iron3d::TmaFileEdit request{o.input, o.output, o.compatible ? core::Profile::compatible : core::Profile::strict,
                              std::move(edits)};
  auto done = iron3d::edit_tma_file(request);
  if (!done) return fail_with(done.error());
  for (const auto& w : done->warnings) std::cerr << "warning: " << w.to_string() << "\n";
  std::cout << fmt::format("{}: {} edit(s) applied; wrote {} ({} bytes, {} objects)\n", o.input, done->edits, o.output,
                           done->bytes, done->objects);
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
    int args;
    TmaEditKind kind;
    const char* help;
  };
  const Spec specs[] = {
      {"--set", 1, TmaEditKind::set, "PATH=VALUE (see below)"},
      {"--add-property", 1, TmaEditKind::add_property, "objects[N].properties[NAME]=WORDS (appended)"},
      {"--remove-property", 1, TmaEditKind::remove_property, "objects[N].properties[NAME or K]"},
      {"--move", 4, TmaEditKind::move, "N X Y Z: set the position of object N"},
      {"--rename", 2, TmaEditKind::rename, "N NAME: set the instance name of object N"},
      {"--add-object", 1, TmaEditKind::add_object, "JSON object (shape of `inspect --json` objects)"},
      {"--remove-object", 1, TmaEditKind::remove_object, "N: remove object N (later ones move down)"},
  };
  auto ordered = std::make_shared<OrderedOptions>();
  for (const auto& s : specs) ordered->add(*cmd, s.name, static_cast<int>(s.kind), s.args, s.help);
  cmd->callback([o, cmd, ordered, &outcome] {
    auto uses = ordered->uses(*cmd);
    if (!uses) {
      outcome.exit_code = fail_with(uses.error());
      return;
    }
    std::vector<TmaEdit> edits;
    for (auto& use : *uses) edits.push_back({static_cast<TmaEditKind>(use.tag), std::move(use.values)});
    if (edits.empty()) {
      outcome.exit_code = fail_with(core::Diagnostic::error("usage.no_edit", "no edit given (see --help)"));
      return;
    }
    outcome.exit_code = run_edit(*o, std::move(edits));
  });
});

}  // namespace sortie::cli
