// Fuzzes the command log readers: bytes (version 1 and 2) and JSON (v1 and v2 formats).
// A version 2 log that reads must write back to the same bytes; a version 1 log (or a JSON log)
// must survive write + read unchanged; replaying a log into an empty world must never crash.
// The registry is a mission world's (libs/move move_command_registry: the standard set, the v1
// movement kinds and the movement stack's, without an environment), so v1 logs read in full.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "sortie/move/commands.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/command_log.hpp"
#include "sortie/world/world.hpp"

namespace {

using namespace sortie;

const world::CommandRegistry& registry() {
  static const auto r = move::move_command_registry(nullptr);
  return *r;
}

void replay_bounded(const world::CommandLog& log) {
  world::World w(world::WorldConfig{.commands = move::move_command_registry(nullptr)});
  for (const auto& command : log.commands) {
    if (command.tick > 64) continue;  // bounded run
    (void)w.submit(command);
  }
  for (int i = 0; i < 65; ++i) {
    if (!w.tick()) __builtin_trap();
  }
}

void check_bytes(const std::uint8_t* data, std::size_t size) {
  auto log = world::read_command_log(core::ByteView(data, size), registry());
  if (!log) return;
  auto back = world::write_command_log(*log, registry());
  if (!back) __builtin_trap();  // everything that reads must write
  const bool v2 = size >= 8 && data[4] == world::kCommandLogVersion;
  if (v2 && (back->size() != size || !std::equal(back->begin(), back->end(), data))) __builtin_trap();
  auto again = world::read_command_log(*back, registry());
  if (!again || *again != *log) __builtin_trap();
  replay_bounded(*log);
}

void check_json(const std::uint8_t* data, std::size_t size) {
  const core::Json j = core::Json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return;
  auto log = world::command_log_from_json(j, registry());
  if (!log) return;
  auto out = world::command_log_json(*log, registry());
  if (!out) __builtin_trap();
  auto again = world::command_log_from_json(core::Json::parse(core::dump_json(*out)), registry());
  if (!again || *again != *log) __builtin_trap();
  replay_bounded(*log);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size >= 4 && std::equal(data, data + 4, "SCLG")) {
    check_bytes(data, size);
  } else {
    check_json(data, size);
  }
  return 0;
}
