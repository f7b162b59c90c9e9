#include "seeds.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/move/v1_commands.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/command_log.hpp"

SORTIE_FUZZ_SEEDS(world_command_log, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  using namespace sortie::world;
  using move::MoveCommand;
  using move::RouteCommand;
  const auto registry = move::move_command_registry(nullptr);
  CommandLog log;
  log.commands.push_back(make_command(0, SpawnCommand{1, "unit", {1.0f, 2.0f, 0.0f}}));
  log.commands.push_back(make_command(1, MoveCommand{ObjectId{1, 1, 1}, {10.0f, 4.0f}, 3.0f}));
  log.commands.push_back(make_command(5, PauseCommand{true}));
  log.commands.push_back(make_command(6, SetSpeedCommand{2000}));
  log.commands.push_back(make_command(7, PauseCommand{false}));
  log.commands.push_back(make_command(8, SetPropertyCommand{ObjectId{1, 1, 1}, "hp", 7}));
  log.commands.push_back(
      make_command(9, RouteCommand{ObjectId{1, 1, 1}, {{3.0f, 2.0f}, {3.0f, 9.0f}, {0.5f, 9.5f}}, 2.0f}));
  log.commands.push_back(make_command(12, StopCommand{ObjectId{1, 1, 1}}));
  log.commands.push_back(make_command(20, RemoveCommand{ObjectId{1, 1, 1}}));
  out.add("session", write_command_log(log, *registry).value());
  out.add("empty", write_command_log(CommandLog{}).value());
  const std::string json = core::dump_json(command_log_json(log, *registry).value());
  out.add("session_json", core::Bytes(json.begin(), json.end()));

  // Version 1 (read only): the same session in the old fixed record, byte by byte.
  core::ByteWriter v1;
  v1.bytes(std::string_view("SCLG"));
  v1.u32(1);
  v1.u32(3);
  auto record = [&](std::uint64_t tick, std::uint8_t kind, ObjectId target, float x, float y, float speed,
                    std::int64_t value, std::string_view text) {
    v1.u64(tick);
    v1.u8(kind);
    v1.u64(target.raw());
    v1.f32(x);
    v1.f32(y);
    v1.f32(0.0f);
    v1.f32(speed);
    v1.u64(static_cast<std::uint64_t>(value));
    v1.lp_string(text);
  };
  record(0, 5, {}, 1.0f, 2.0f, 0.0f, 1, "unit");
  record(1, 1, ObjectId{1, 1, 1}, 10.0f, 4.0f, 3.0f, 0, "");
  record(9, 8, ObjectId{1, 1, 1}, 3.0f, 9.0f, 2.0f, 0, "40400000,40000000;40400000,41100000");
  out.add("session_v1", v1.take());
  const std::string v1_json =
      R"({"format":"sortie-command-log-v1","commands":[{"tick":2,"kind":"pause","target":{"owner":0,"class":0,)"
      R"("index":0},"x_bits":0,"y_bits":0,"z_bits":0,"speed_bits":0,"value":1,"text":""}]})";
  out.add("session_v1_json", core::Bytes(v1_json.begin(), v1_json.end()));
});
