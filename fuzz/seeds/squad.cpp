#include <string_view>

#include "seeds.hpp"
#include "sortie/squad/input.hpp"
#include "sortie/squad/map.hpp"
#include "sortie/squad/squad_world.hpp"
#include "sortie/world/command_log.hpp"

namespace {
sortie::core::Bytes text_bytes(std::string_view s) {
  return {s.begin(), s.end()};
}
}  // namespace

SORTIE_FUZZ_SEEDS(squad_map, [](sortie::fuzz::SeedSink& out) {
  out.add("minimal", text_bytes("squad-map 1\ngrid 3 1\n@.h\n"));
  out.add("full", text_bytes("# room\nsquad-map 1\nname Seed room\nsquad 3\nformation ring\nheading north\n"
                             "tune weaponRange 9\ntune freeFireSecondary false\ngrid 8 5\n########\n#@..h..#\n"
                             "#..##..#\n#.....H#\n########\n"));
  out.add("two_squads", text_bytes("squad-map 1\nsquad 2\ngrid 6 3\n@....@\n..hh..\n......\n"));
  out.add("bad_row", text_bytes("squad-map 1\ngrid 4 2\n####\n#@h\n"));
});

SORTIE_FUZZ_SEEDS(squad_input_log, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie::squad;
  InputLog log;
  log.seed = 7;
  log.map_fingerprint = 42;
  InputFrame east = InputFrame::moving_towards({1.0f, 0.0f});
  InputFrame manual;
  manual.toggle_manual = true;
  InputFrame aim;
  aim.aim_right = true;
  aim.cycle_target = true;
  aim.formation = 2;
  InputFrame sprint = InputFrame::moving_towards({0.0f, -1.0f});
  sprint.sprint = true;
  for (int k = 0; k < 30; ++k) log.frames.push_back(east);
  log.frames.push_back(manual);
  for (int k = 0; k < 10; ++k) log.frames.push_back(aim);
  for (int k = 0; k < 20; ++k) log.frames.push_back(sprint);
  log.frames.push_back(InputFrame{});
  out.add("session", write_input_log(log));
  out.add("empty", write_input_log(InputLog{}));
});

SORTIE_FUZZ_SEEDS(squad_world_log, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  auto map = squad::parse_squad_map("squad-map 1\ngrid 8 5\n########\n#@..h..#\n#..##..#\n#.....H#\n########\n");
  if (!map) return;
  auto game = squad::SquadWorld::create(*map, {.seed = 3}, 40);
  if (!game) return;
  squad::InputFrame east = squad::InputFrame::moving_towards({1.0f, 0.0f});
  squad::InputFrame aim;
  aim.toggle_manual = true;
  aim.cycle_target = true;
  aim.aim_left = true;
  aim.formation = 3;
  for (int k = 0; k < 40; ++k) (void)game->step(k < 20 ? east : (k == 20 ? aim : squad::InputFrame{}));
  auto bytes = world::write_command_log(game->world().command_log(), *squad::squad_command_registry());
  if (bytes) out.add("session", std::move(*bytes));
});
