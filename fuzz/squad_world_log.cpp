// Fuzzes the world command log reader with the squad command kinds (wire ids 24..29): a log that
// reads must write back to the same bytes and read again unchanged; replaying it into a small
// squad world for a bounded number of ticks must never crash.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "sortie/squad/squad_world.hpp"
#include "sortie/world/command_log.hpp"

namespace {

using namespace sortie;

const squad::SquadMap& small_map() {
  static const squad::SquadMap map = [] {
    auto m = squad::parse_squad_map("squad-map 1\ngrid 8 5\n########\n#@..h..#\n#..##..#\n#.....H#\n########\n");
    if (!m) __builtin_trap();
    return *m;
  }();
  return map;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& registry = *squad::squad_command_registry();
  auto log = world::read_command_log(core::ByteView(data, size), registry);
  if (!log) return 0;
  auto back = world::write_command_log(*log, registry);
  if (!back) __builtin_trap();
  const bool v2 = size >= 8 && data[4] == world::kCommandLogVersion;
  if (v2 && (back->size() != size || !std::equal(back->begin(), back->end(), data))) __builtin_trap();
  auto again = world::read_command_log(*back, registry);
  if (!again || *again != *log) __builtin_trap();
  auto game = squad::SquadWorld::create_for_replay(small_map());
  if (!game) __builtin_trap();
  for (const auto& c : log->commands) {
    if (c.tick <= 40) (void)game->world().submit(c);  // a session of another map is refused here
  }
  for (int k = 0; k < 40; ++k) {
    if (!game->tick()) __builtin_trap();
  }
  return 0;
}
