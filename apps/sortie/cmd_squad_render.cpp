// `sortie squad render`: the squad game's picture at a moment of a scripted run (PNG, headless).
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/game/squad_picture.hpp"
#include "sortie/render/view_spec.hpp"
#include "sortie/squad/input.hpp"
#include "squad_group.hpp"

namespace sortie::cli {
namespace {

struct SquadRenderOptions {
  std::string map;
  double at = 10.0;
  std::uint64_t seed = 1;
  std::string size = "1280x720";
  bool overlay = false;
  bool plain = false;
  unsigned threads = 1;
  std::string out;
  bool json = false;
};

int squad_render(const SquadRenderOptions& o) {
  auto size = render::parse_image_size(o.size);
  if (!size) return fail_with(size.error(), o.json);
  game::SquadPictureOptions po;
  po.at_seconds = o.at;
  po.seed = o.seed;
  po.view.width = size->width;
  po.view.height = size->height;
  po.view.overlay = o.overlay;
  po.view.horror = !o.plain;
  po.view.threads = o.threads;
  auto written = game::write_squad_picture(o.map, po, o.out);
  if (!written) return fail_with(written.error(), o.json);
  print_report(*written, o.json);
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(squad_render, [](CLI::App& root, Outcome& outcome) {
  auto* cmd = &squad_group(root);
  constexpr double kMaxSeconds = static_cast<double>(squad::kInputLogTicksMax / squad::kTickRate);
  auto rd = std::make_shared<SquadRenderOptions>();
  auto* rend = cmd->add_subcommand("render", "Draw the game's picture at a moment of a scripted run (PNG, headless)");
  rend->add_option("map", rd->map, "map file (docs/squad-maps.md)")->required();
  add_number(rend, "--at", rd->at, "seconds into the scripted run", 0.0, kMaxSeconds)->default_str("10");
  add_number(rend, "--seed", rd->seed, "seed of the simulation's random streams")->default_str("1");
  rend->add_option("--size", rd->size, "picture size WIDTHxHEIGHT")->default_str("1280x720");
  rend->add_flag("--overlay", rd->overlay, "draw the debug overlay (lanes, solver candidates, leash)");
  rend->add_flag("--plain", rd->plain, "without the horror layer (light, fog, grain, vignette)");
  add_number(rend, "--threads", rd->threads, "render threads (the picture is the same for any count)", 1u, 64u)
      ->default_str("1");
  rend->add_option("-o,--output", rd->out, "PNG file to write (atomically)")->required();
  rend->add_flag("--json", rd->json, "print the result as JSON");
  rend->callback([rd, &outcome] { outcome.exit_code = squad_render(*rd); });
});

}  // namespace sortie::cli
