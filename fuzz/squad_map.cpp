// Fuzzes the squad map reader: an accepted map's canonical text must read back to the same map
// and be a fixed point of the writer; a small accepted map must run a few ticks without crashing.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sortie/squad/map.hpp"
#include "sortie/squad/sim.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie::squad;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto map = parse_squad_map(text, "fuzz.txt");
  if (!map) return 0;
  const std::string canonical = write_squad_map(*map);
  auto again = parse_squad_map(canonical, "canonical.txt");
  if (!again || !(*again == *map) || write_squad_map(*again) != canonical) __builtin_trap();
  if (map->width * map->height > 64 * 64) return 0;  // bounded run
  auto sim = SquadSim::create(*map, {});
  if (!sim) return 0;
  for (int k = 0; k < 30; ++k) sim->step(InputFrame::moving_towards({1.0f, static_cast<float>(k % 3) - 1.0f}));
  return 0;
}
