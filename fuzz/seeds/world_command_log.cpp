#include "seeds.hpp"
#include "sortie/world/command.hpp"

SORTIE_FUZZ_SEEDS(world_command_log, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie::world;
  CommandLog log;
  log.commands.push_back(Command::spawn(0, 1, "unit", 1.0f, 2.0f, 0.0f));
  log.commands.push_back(Command::move(1, ObjectId{1, 1, 1}, 10.0f, 4.0f, 3.0f));
  log.commands.push_back(Command::pause(5, true));
  log.commands.push_back(Command::set_speed(6, 2000));
  log.commands.push_back(Command::pause(7, false));
  log.commands.push_back(Command::set_property(8, ObjectId{1, 1, 1}, "hp", 7));
  log.commands.push_back(Command::route(9, ObjectId{1, 1, 1}, {{3.0f, 2.0f}, {3.0f, 9.0f}, {0.5f, 9.5f}}, 2.0f));
  log.commands.push_back(Command::remove(20, ObjectId{1, 1, 1}));
  out.add("session", write_command_log(log));
  out.add("empty", write_command_log(CommandLog{}));
});
