// sortie-viewer: `sortie-viewer [MODE] [options]`; without a mode name the mission mode runs
// (`sortie-viewer [GAME_DIR] --mission M`). Common options: --size, --frames, --screenshot,
// --script, --threads.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "sortie/cli/options.hpp"
#include "sortie/cli/report.hpp"
#include "sortie/mission/bootstrap.hpp"
#include "sortie/render/view_spec.hpp"
#include "viewer_app.hpp"
#include "viewer_mode.hpp"

namespace sortie::viewer {
namespace {

std::vector<ModeInfo>& registry() {
  static std::vector<ModeInfo> r;
  return r;
}

}  // namespace

void register_mode(ModeInfo info) {
  auto& r = registry();
  r.push_back(std::move(info));
  std::sort(r.begin(), r.end(), [](const ModeInfo& a, const ModeInfo& b) { return a.name < b.name; });
}
const std::vector<ModeInfo>& modes() {
  return registry();
}

// The viewer through the program bootstrap (mission/bootstrap.hpp): GAME_CREATED the mode (its
// game, mission and world), SUBSYSTEMS_READY the mode's own subsystems (ViewerMode::attach: the
// world's trace and maintenance, sound) and then the window with its renderer, MAIN_LOOP the
// frames; teardown in reverse, then the trace files.
int run_viewer(const ModeFactory& factory, const AppOptions& options, const world::TraceOptions& trace) {
  mission::Bootstrap boot(trace);
  std::unique_ptr<ViewerMode> mode;
  AppSurfacePtr surface;
  int exit_code = 0;
  auto st = boot.add(
      world::Stage::game_created, "mode",
      [&]() -> core::Status {
        SORTIE_TRY(mode, factory());
        return {};
      },
      [&] { mode.reset(); });
  if (st) st = boot.add(world::Stage::subsystems_ready, "world", [&] { return mode->attach(boot); });
  if (st)
    st = boot.add(
        world::Stage::subsystems_ready, "window",
        [&]() -> core::Status {
          SORTIE_TRY(surface, open_surface(mode->title(), options));
          return {};
        },
        [&] { surface.reset(); });
  if (st)
    st = boot.run([&]() -> core::Status {
      exit_code = run_app(*mode, options, *surface);
      return {};
    });
  if (!st) return cli::fail_with(st.error());
  return exit_code;
}

}  // namespace sortie::viewer

namespace {

int viewer_main(int argc, char** argv) {
  using namespace sortie;
  cli::set_program_name("sortie-viewer");
  CLI::App app{"sortie-viewer: the mission viewer (software-rendered, SDL2 window)"};
  app.footer(
      "Keys: W/A/S/D move, Q/E down/up, Shift faster, wheel changes speed, right button + mouse or the\n"
      "arrows look, Home re-centres the view, left click picks an object (name, prototype, properties,\n"
      "id), F12 writes sortie-viewer-NNN.png, Escape quits.\n\nExamples:\n  sortie-viewer\n"
      "  sortie-viewer /games/parkan --mission m03\n"
      "  sortie-viewer --frames 60 --screenshot shot.png --camera 10,-40,60,90,-30\n"
      "  sortie-viewer --weather storm.weather --theme THEME.WAV --variations VAR1.WAV,VAR2.WAV\n"
      "  sortie-viewer join 127.0.0.1:7777 --name eve --ticks 600\n"
      "  sortie-viewer --frames 600 --trace input,camera,sound,control --trace-dir traces\n"
      "The viewer starts through the program bootstrap (docs/architecture.md): the mode (game, mission,\n"
      "world), its subsystems (trace, 20 s / 60 s cache maintenance in real time, sound), then the window\n"
      "and renderer; a failure stops what started, in reverse.\n");
  std::string size = "1280x720";
  viewer::AppOptions ao;
  std::string screenshot, script;
  app.add_option("--size", size, "window size WIDTHxHEIGHT")->default_str("1280x720");
  cli::add_number(&app, "--frames", ao.frames, "quit after N frames (fixed 1/60 s steps)", std::uint64_t{1},
                  std::uint64_t{100'000'000});
  auto* bench =
      cli::add_number(&app, "--bench-frames", ao.bench_frames,
                      "time N frames after 30 warm-up frames and print the frame-time distribution, then quit",
                      std::uint64_t{1}, std::uint64_t{1'000'000});
  bench->excludes(app.get_option("--frames"));
  app.add_option("--screenshot", screenshot, "with --frames: write the last frame to this PNG");
  app.add_option("--script", script, "scripted input: lines 'FRAME EVENT ARGS'");
  cli::add_number(&app, "--threads", ao.threads, "render threads (0 = every core)", 0u, 256u);
  world::TraceOptions trace;
  app.add_option("--trace", trace.channels,
                 "trace channels to write as <channel>.log into --trace-dir (docs/traces.md: lifecycle, queue, "
                 "behavior, wizard, control, input, camera, sound, lua, ai, superai, scenario, fx, all)")
      ->delimiter(',');
  app.add_option("--trace-dir", trace.dir, "where --trace writes its <channel>.log files (at exit)");
  viewer::ModeFactory chosen;
  std::vector<std::pair<CLI::App*, viewer::ModeFactory>> subs;
  for (const auto& m : viewer::modes()) {
    if (m.name == "mission") {
      chosen = m.setup(app);  // the default mode's options live on the root
    } else {
      CLI::App* sub = app.add_subcommand(m.name, m.help);
      sub->fallthrough();
      subs.emplace_back(sub, m.setup(*sub));
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  for (const auto& [sub, factory] : subs)
    if (sub->parsed()) chosen = factory;
  auto parsed_size = render::parse_image_size(size);
  if (!parsed_size) {
    cli::print_error(parsed_size.error());
    return cli::kExitUsage;
  }
  ao.width = parsed_size->width;
  ao.height = parsed_size->height;
  ao.screenshot = screenshot;
  ao.script = script;
  if (!chosen) {
    std::cerr << "sortie-viewer: no mode\n";
    return 2;
  }
  return viewer::run_viewer(chosen, ao, trace);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return viewer_main(argc, argv);
  } catch (const std::exception& e) {  // out of memory and the like: never an uncaught exception
    std::cerr << "sortie-viewer: " << e.what() << "\n";
    return 2;
  }
}
