// Fuzzes the command log reader; a log that reads must write back to the same bytes, and
// replaying it into an empty world must never crash.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "sortie/world/command.hpp"
#include "sortie/world/world.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView bytes(data, size);
  auto log = world::read_command_log(bytes);
  if (!log) return 0;
  const core::Bytes back = world::write_command_log(*log);
  if (back.size() != size || !std::equal(back.begin(), back.end(), data)) __builtin_trap();
  world::World w;
  for (const auto& command : log->commands) {
    if (command.tick > 64) continue;  // bounded run
    (void)w.submit(command);
  }
  for (int i = 0; i < 65; ++i) {
    if (!w.tick()) __builtin_trap();
  }
  return 0;
}
