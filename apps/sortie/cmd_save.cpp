// `sortie save show FILE [--json]`: a save's header and a summary of its world image
// (docs/save-files.md); --json prints the header and the whole image. One library call:
// mission::read_save, printed by save_show_text / save_show_json.
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/mission/save_game.hpp"

namespace sortie::cli {
namespace {

struct SaveShowOptions {
  std::string file;
  bool json = false;
};

int run_show(const SaveShowOptions& o) {
  auto save = mission::read_save(o.file);
  if (!save) return fail_with(save.error());
  if (o.json) {
    core::Json j = mission::save_show_json(*save);
    print_json(core::Json{{"save", std::move(j["save"])}, {"summary", std::move(j["image"])}, {"image", save->image}});
  } else {
    std::cout << mission::save_show_text(*save);
  }
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(save, [](CLI::App& root, Outcome& outcome) {
  CLI::App& group =
      command_group(root, "save", "Save files of sortie run --save and the viewer's F5",
                    "Examples:\n"
                    "  sortie run --save-at 600 --save /tmp/t600.save --ticks 600\n"
                    "  sortie save show /tmp/t600.save\n"
                    "  sortie save show /tmp/t600.save --json   (the header and the whole world image)\n");
  auto o = std::make_shared<SaveShowOptions>();
  auto* show = group.add_subcommand(
      "show", "Print a save's header and a summary of its world image (checked as --load checks it)");
  show->add_option("file", o->file, "the save file")->required();
  show->add_flag("--json", o->json, "{\"save\": the header, \"summary\", \"image\": the whole world image}");
  show->callback([o, &outcome] { outcome.exit_code = run_show(*o); });
});

}  // namespace sortie::cli
