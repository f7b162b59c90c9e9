// `sortie squad run|accept|check`: the squad-tactics simulation headless (libs/squad).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli_options.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/game/squad_picture.hpp"
#include "sortie/render/image_io.hpp"
#include "sortie/squad/accept.hpp"
#include "sortie/squad/input.hpp"
#include "sortie/squad/run.hpp"
#include "sortie/squad/squad_world.hpp"
#include "sortie/squad/tuning.hpp"
#include "sortie/world/command_log.hpp"

namespace sortie::cli {
namespace {

struct SquadRunOptions {
  std::string map;
  double seconds = 60.0;
  std::uint64_t seed = 1;
  bool json = false;
  std::string record;
  std::string replay;
};

int fail_with(const core::Diagnostic& d, bool json) {
  if (json) print_json(core::Json{{"ok", false}, {"error", d.to_json()}});
  print_error(d);
  return exit_code_for(d);
}

int squad_run(const SquadRunOptions& o) {
  auto map = squad::load_squad_map(o.map);
  if (!map) return fail_with(map.error(), o.json);
  squad::InputLog replay;
  world::CommandLog replay_world;
  squad::RunOptions ro;
  ro.seconds = o.seconds;
  ro.seed = o.seed;
  if (!o.replay.empty()) {
    auto bytes = core::read_file(o.replay, squad::kInputLogTicksMax * 8 + 64);
    if (!bytes) return fail_with(bytes.error(), o.json);
    // A world command log ("SCLG", what --record writes) or the older input log ("SQIL").
    if (core::as_chars(core::ByteView(*bytes).first(std::min<std::size_t>(4, bytes->size()))) == "SCLG") {
      auto log = world::read_command_log(*bytes, *squad::squad_command_registry());
      if (!log) return fail_with(log.error().of(o.replay), o.json);
      replay_world = std::move(*log);
      ro.replay_world = &replay_world;
    } else {
      auto log = squad::read_input_log(*bytes, o.replay);
      if (!log) return fail_with(log.error(), o.json);
      replay = std::move(*log);
      ro.replay = &replay;
    }
  }
  auto rep = squad::run_squad(*map, ro);
  if (!rep) return fail_with(rep.error(), o.json);
  if (!o.record.empty()) {
    auto bytes = world::write_command_log(rep->world_log, *squad::squad_command_registry());
    if (!bytes) return fail_with(bytes.error(), o.json);
    auto st = core::write_file_atomic(o.record, *bytes);
    if (!st) {
      fail_with(st.error(), o.json);
      return kExitUsage;
    }
  }
  if (o.json) {
    core::Json j = rep->to_json();
    j["ok"] = true;
    if (!o.record.empty()) j["recorded"] = o.record;
    print_json(j);
    return kExitOk;
  }
  const auto& s = rep->stats;
  std::cout << fmt::format("map: {} ({})\n", rep->map_name, o.map);
  std::cout << fmt::format("{} {} ticks ({:.1f} s) with seed {} in {:.0f} ms\n", rep->replayed ? "replayed" : "played",
                           rep->ticks, static_cast<double>(rep->ticks) / squad::kTickRate, rep->seed, rep->wall_ms);
  std::cout << fmt::format("agents alive {}/{}, hostiles alive {}/{} (spawned {}), kills {}\n", rep->agents_alive,
                           rep->agents_total, rep->targets_alive, rep->targets_total, s.spawned, s.kills);
  std::cout << fmt::format("shots {} (hit {}, wall {}, vetoed at the trigger {}), FRIENDLY_HITS {}\n", s.shots,
                           s.bullet_target_hits, s.bullet_wall_hits, s.shots_vetoed, s.friendly_hits);
  std::cout << fmt::format("melee strikes {} (hits {}, withheld {}), solves {}, commits {}, claws {}\n",
                           s.melee_strikes, s.melee_hits, s.melee_withheld, s.solves, s.commits, s.hostile_attacks);
  if (!o.record.empty()) std::cout << "world command log: " << o.record << "\n";
  std::cout << "final state hash: " << core::hash_hex(rep->final_hash) << "\n";
  std::cout << "world state hash: " << core::hash_hex(rep->world_hash) << "\n";
  return kExitOk;
}

int squad_check(const std::vector<std::string>& maps, bool json) {
  core::Json out = core::Json::array();
  int code = kExitOk;
  for (const auto& path : maps) {
    auto map = squad::load_squad_map(path);
    if (!map) {
      if (!json) print_error(map.error());
      out.push_back({{"map", path}, {"ok", false}, {"error", map.error().to_json()}});
      code = std::max(code, exit_code_for(map.error()));
      continue;
    }
    out.push_back({{"map", path},
                   {"ok", true},
                   {"name", map->name},
                   {"width", map->width},
                   {"height", map->height},
                   {"squads", map->squads.size()},
                   {"hostiles", map->hostiles.size()},
                   {"lairs", map->lairs.size()}});
    if (!json) {
      std::cout << fmt::format("{}: ok: '{}' {}x{}, {} squad(s) of {}, {} hostiles, {} lairs\n", path, map->name,
                               map->width, map->height, map->squads.size(), map->squad_size, map->hostiles.size(),
                               map->lairs.size());
    }
  }
  if (json) print_json(out);
  return code;
}

struct SquadAcceptOptions {
  std::uint64_t seed = 1;
  std::vector<std::string> maps;
  bool json = false;
  double seconds = 180.0;
};

// The maps of the repository: ./data/squad, or data/squad beside the build tree or the install.
std::vector<std::filesystem::path> default_map_dirs() {
  namespace fs = std::filesystem;
  std::vector<fs::path> dirs{fs::path("data") / "squad"};
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back(exe.parent_path() / ".." / ".." / ".." / ".." / "data" / "squad");  // build/<preset>/apps/sortie
    dirs.push_back(exe.parent_path() / ".." / "share" / "sortie" / "squad");
  }
  return dirs;
}

core::Result<std::vector<squad::NamedMap>> collect_maps(const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  const auto add_dir = [&](const fs::path& dir) {
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.is_regular_file() && entry.path().extension() == ".txt") found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  };
  if (args.empty()) {
    for (const auto& dir : default_map_dirs()) {
      std::error_code ec;
      if (fs::is_directory(dir, ec)) {
        add_dir(dir);
        break;
      }
    }
    if (files.empty()) {
      return core::fail(core::Diagnostic::error("usage.squad.maps",
                                                "no maps found (looked for data/squad); pass --maps DIR|FILE..."));
    }
  }
  for (const auto& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      const std::size_t before = files.size();
      add_dir(a);
      if (files.size() == before)
        return core::fail(core::Diagnostic::error("usage.squad.maps", "no *.txt maps in the directory").of(a));
    } else {
      files.emplace_back(a);
    }
  }
  std::vector<squad::NamedMap> maps;
  for (const auto& f : files) {
    SORTIE_TRY(squad::SquadMap m, squad::load_squad_map(f));
    maps.push_back({f.filename().string(), std::move(m)});
  }
  return maps;
}

int squad_accept(const SquadAcceptOptions& o) {
  auto maps = collect_maps(o.maps);
  if (!maps) return fail_with(maps.error(), o.json);
  squad::AcceptOptions ao;
  ao.seed = o.seed;
  ao.combat_seconds = o.seconds;
  Progress bar("squad accept", maps->size() + 1);
  ao.progress = [&](std::string_view what, std::size_t done, std::size_t) { bar.update(done, what); };
  auto rep = squad::run_acceptance(*maps, ao);
  bar.finish();
  if (!rep) return fail_with(rep.error(), o.json);
  if (o.json) {
    print_json(rep->to_json());
  } else {
    std::cout << rep->to_text();
  }
  return rep->ok() ? kExitOk : kExitInvalid;
}

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
  unsigned w = 0;
  unsigned h = 0;
  char x = 0;
  char extra = 0;
  if (std::sscanf(o.size.c_str(), "%u%c%u%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w == 0 || h == 0 ||
      w > 8192 || h > 8192) {
    return fail_with(core::Diagnostic::error("usage.squad.size", "--size must be WIDTHxHEIGHT, each 1..8192")
                         .expect("e.g. 1280x720", o.size),
                     o.json);
  }
  auto map = squad::load_squad_map(o.map);
  if (!map) return fail_with(map.error(), o.json);
  game::SquadPictureOptions po;
  po.at_seconds = o.at;
  po.seed = o.seed;
  po.view.width = w;
  po.view.height = h;
  po.view.overlay = o.overlay;
  po.view.horror = !o.plain;
  po.view.threads = o.threads;
  auto pic = game::render_squad_picture(*map, po);
  if (!pic) return fail_with(pic.error(), o.json);
  auto st = render::write_png(o.out, pic->image);
  if (!st) {
    fail_with(st.error(), o.json);
    return kExitUsage;
  }
  if (o.json) {
    print_json(core::Json{{"ok", true},
                          {"map", map->name},
                          {"tick", pic->tick},
                          {"seed", o.seed},
                          {"width", w},
                          {"height", h},
                          {"state_hash", core::hash_hex(pic->state_hash)},
                          {"frame_ms", pic->stats.total_ms},
                          {"scene_ms", pic->stats.scene.total_ms},
                          {"light_ms", pic->stats.light_ms},
                          {"effects_ms", pic->stats.effects.total_ms},
                          {"post_ms", pic->stats.post_ms},
                          {"out", o.out}});
    return kExitOk;
  }
  std::cout << fmt::format("{}: tick {} ({:.2f} s), seed {}, {}x{}, state hash {}, frame {:.1f} ms -> {}\n", map->name,
                           pic->tick, static_cast<double>(pic->tick) / squad::kTickRate, o.seed, w, h,
                           core::hash_hex(pic->state_hash), pic->stats.total_ms, o.out);
  return kExitOk;
}

// The longest run an input log can hold, in seconds (the library checks it again).
constexpr std::uint64_t kMaxWholeSeconds = squad::kInputLogTicksMax / squad::kTickRate;
constexpr double kMaxSeconds = static_cast<double>(kMaxWholeSeconds);

void add_accept_options(CLI::App* app, SquadAcceptOptions& o) {
  add_number(app, "--seed", o.seed, "seed of every run")->default_str("1");
  app->add_option("--maps", o.maps, "map directories (every *.txt) or files (default: data/squad)");
  add_number(app, "--seconds", o.seconds, "seconds of combat per map", 0.0, kMaxSeconds)->default_str("180");
  app->add_flag("--json", o.json, "print the criteria as JSON");
}

}  // namespace

SORTIE_COMMAND(squad, [](CLI::App& root, Outcome& outcome) {
  auto* cmd = root.add_subcommand("squad", "Squad tactics: run the simulation headless, replay, accept, check maps");
  cmd->require_subcommand(0, 1);
  cmd->footer(
      "Examples:\n"
      "  sortie squad run data/squad/rooms.txt --seconds 60 --seed 7 --record /tmp/rooms.sqil\n"
      "  sortie squad run data/squad/rooms.txt --replay /tmp/rooms.sqil     (same final hash)\n"
      "  sortie squad check data/squad/*.txt\n"
      "  sortie squad render data/squad/rooms.txt --at 20 --overlay -o /tmp/rooms.png\n"
      "  sortie squad accept --seed 3 --maps data/squad      (also: sortie squad --accept ...)\n");
  // `sortie squad --accept [options]` is the same as `sortie squad accept [options]`.
  auto top = std::make_shared<SquadAcceptOptions>();
  auto accept_flag = std::make_shared<bool>(false);
  cmd->add_flag("--accept", *accept_flag, "run the acceptance (same as the accept subcommand)");
  add_accept_options(cmd, *top);
  cmd->callback([cmd, top, accept_flag, &outcome] {
    if (!cmd->get_subcommands().empty()) return;
    if (!*accept_flag) throw CLI::RequiredError("a subcommand (run, accept, check) or --accept");
    outcome.exit_code = squad_accept(*top);
  });
  auto ao = std::make_shared<SquadAcceptOptions>();
  auto* accept = cmd->add_subcommand(
      "accept", "Acceptance: scripted scenarios and 3 minutes of combat per map, PASS/FAIL per criterion");
  add_accept_options(accept, *ao);
  accept->callback([ao, &outcome] { outcome.exit_code = squad_accept(*ao); });

  auto ro = std::make_shared<SquadRunOptions>();
  auto* run = cmd->add_subcommand("run", "Play a map headless with the scripted player and print the final hash");
  run->add_option("map", ro->map, "map file (docs/squad-maps.md)")->required();
  auto* seconds =
      add_number(run, "--seconds", ro->seconds, "seconds of simulated time (60 ticks each)", 0.0, kMaxSeconds)
          ->default_str("60");
  auto* seed = add_number(run, "--seed", ro->seed, "seed of the simulation's random streams")->default_str("1");
  run->add_flag("--json", ro->json, "print the report as JSON");
  run->add_option("--record", ro->record, "write the world command log (SCLG, docs/squad-maps.md) to this file");
  run->add_option("--replay", ro->replay,
                  "replay a world command log or an older SQIL input log (its seed and length) instead of the script")
      ->excludes(seconds)
      ->excludes(seed);
  run->callback([ro, &outcome] { outcome.exit_code = squad_run(*ro); });

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

  auto maps = std::make_shared<std::vector<std::string>>();
  auto check_json = std::make_shared<bool>(false);
  auto* check = cmd->add_subcommand("check", "Check map files; file:line diagnostics, exit 1 on the first broken map");
  check->add_option("maps", *maps, "map files")->required();
  check->add_flag("--json", *check_json, "print the results as JSON");
  check->callback([maps, check_json, &outcome] { outcome.exit_code = squad_check(*maps, *check_json); });
});

}  // namespace sortie::cli
