// `sortie export model RESOURCE [GAME_DIR] -o unit.glb` and `sortie export mission [GAME_DIR]
// [-m M] -o m01.glb`: glTF 2.0 for Blender and web viewers (docs/interchange.md).
#include <iostream>
#include <memory>

#include "cli_game.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/interchange/interchange_files.hpp"

namespace sortie::cli {
namespace {

struct ExportCliOptions {
  std::string game_dir;
  std::string resource;
  std::string mission;
  std::string out;
  std::string sample_scale = "demo";
  bool rest_pose = false;
  bool no_textures = false;
  bool areals = false;
  bool routes = false;
  bool json = false;
  float frame = 0;
  std::string ctl;
};

int report(const core::Result<interchange::ExportReport>& r, bool json) {
  if (!r) return cli::fail_with(r.error(), json);
  print_report(*r, json);
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(export, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<ExportCliOptions>();
  auto* cmd = root.add_subcommand("export", "Write a model or a mission as glTF 2.0 (.glb or .gltf + .bin)");
  cmd->require_subcommand(1);
  cmd->footer(
      "Vertex data stays in Iron3D's coordinates (Z up); one root node turns the scene to glTF's Y up.\n"
      "--frame samples the node animation (spec 9.2); --ctl poses each node at its CTLD row's frame.\n"
      "Materials carry the base colour texture (Texm level 0 as PNG) and, in extras.sortie, the MAT0\n"
      "and WEAR facts an import restores. docs/interchange.md describes the mapping.\n\n"
      "Examples:\n  sortie export model s_tree_04 -o tree.glb\n"
      "  sortie export model 'UNITS\\TANKS\\u_000.dat' /games/parkan -o tank.gltf\n"
      "  sortie export mission -m m01 -o m01.glb --routes --areals\n");
  auto* model = cmd->add_subcommand("model", "A prototype or a unit DAT with its materials and textures");
  model->add_option("resource", o->resource, "prototype key or unit DAT path, as data.tma names it")->required();
  model->add_option("game_dir", o->game_dir, "game directory (default: the embedded sample)");
  model->add_option("--out,-o", o->out, "NAME.glb or NAME.gltf")->required();
  model->add_flag("--rest-pose", o->rest_pose, "identity node transforms instead of the static pose");
  model->add_flag("--no-textures", o->no_textures, "materials without embedded textures");
  auto* model_frame =
      add_number(model, "--frame", o->frame, "pose every node at this animation time (frames)", 0.0f, 1e6f);
  model->add_option("--ctl", o->ctl, "a CTLD (.ctl) file: pose each node at the frame its rows give");
  model->add_flag("--json", o->json, "print the report as JSON");
  add_sample_option(model, o->sample_scale);
  model->callback([o, model_frame, &outcome] {
    interchange::ModelExportRequest rq;
    rq.source = {o->game_dir, sample_scale_from(o->sample_scale), {}};
    rq.resource = o->resource;
    rq.out = o->out;
    rq.rest_pose = o->rest_pose;
    rq.textures = !o->no_textures;
    if (model_frame->count() > 0) rq.frame = o->frame;
    rq.ctl = o->ctl;
    outcome.exit_code = report(interchange::export_model_file(rq), o->json);
  });
  auto* mission = cmd->add_subcommand("mission", "The terrain and every placed object of a mission");
  add_game_options(mission, o->game_dir, o->mission);
  mission->add_option("--out,-o", o->out, "NAME.glb or NAME.gltf")->required();
  mission->add_flag("--areals", o->areals, "the Land.map areal outlines as lines");
  mission->add_flag("--routes", o->routes, "the data.tma paths as line strips");
  mission->add_flag("--rest-pose", o->rest_pose, "identity node transforms instead of the static pose");
  mission->add_flag("--no-textures", o->no_textures, "materials without embedded textures");
  auto* mission_frame =
      add_number(mission, "--frame", o->frame, "pose every model's nodes at this animation time (frames)", 0.0f, 1e6f);
  mission->add_flag("--json", o->json, "print the report as JSON");
  add_sample_option(mission, o->sample_scale);
  mission->callback([o, mission_frame, &outcome] {
    interchange::MissionExportRequest rq;
    rq.source = {o->game_dir, sample_scale_from(o->sample_scale), {}};
    rq.mission = o->mission;
    rq.out = o->out;
    rq.rest_pose = o->rest_pose;
    rq.textures = !o->no_textures;
    rq.areals = o->areals;
    rq.routes = o->routes;
    if (mission_frame->count() > 0) rq.frame = o->frame;
    outcome.exit_code = report(interchange::export_mission_file(rq), o->json);
  });
});

}  // namespace sortie::cli
