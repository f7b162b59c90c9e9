// `sortie import model unit.glb GAME_DIR --name NAME [--archive imported.lib]`: a glTF 2.0 model
// made elsewhere into Iron3D entries of a game directory (docs/interchange.md).
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/interchange/interchange_files.hpp"

namespace sortie::cli {

SORTIE_COMMAND(import, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<interchange::ModelImportRequest>();
  auto json = std::make_shared<bool>(false);
  auto* cmd = root.add_subcommand("import", "Bring a glTF 2.0 model into a game directory");
  cmd->require_subcommand(1);
  auto* model = cmd->add_subcommand("model", "MSH, WEAR, MAT0, Texm entries, an objects.rlb prototype, a unit DAT");
  model->footer(
      "The default scene's triangles become one MSH node (transforms applied, Y up turned to Z up);\n"
      "each glTF material a WEAR row and a MAT0 NAME_<row>, its base colour texture a Texm\n"
      "NAME_t<row> with a box-filtered mip chain. The unit DAT UNITS\\IMPORTED\\NAME.dat names the\n"
      "prototype NAME; place it in data.tma by that path. Nothing is written unless the whole model\n"
      "converts; --dry-run converts and checks only.\n\n"
      "Examples:\n  sortie import model tank.glb /games/mod --name mytank\n"
      "  sortie import model house.gltf /games/mod --name house2 --archive mod.lib --dry-run\n");
  model->add_option("input", o->input, "a .glb or .gltf file")->required();
  model->add_option("game_dir", o->game_dir, "the game directory to add the model to")->required();
  model->add_option("--name", o->name, "prototype name: 1..10 of A-Z a-z 0-9 _")->required();
  model->add_option("--archive", o->archive, "model archive (game path)")->default_str("imported.lib");
  model->add_flag("--dry-run", o->dry_run, "convert and check; write nothing");
  model->add_flag("--json", *json, "print the report as JSON");
  model->callback([o, json, &outcome] {
    auto r = interchange::import_model_file(*o);
    if (!r) {
      outcome.exit_code = cli::fail_with(r.error(), *json);
      return;
    }
    print_report(*r, *json);
    outcome.exit_code = kExitOk;
  });
});

}  // namespace sortie::cli
