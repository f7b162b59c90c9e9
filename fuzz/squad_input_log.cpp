// Fuzzes the squad input log reader: an accepted log must write back to the same bytes, and its
// first frames must drive a small simulation without crashing.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "sortie/squad/input.hpp"
#include "sortie/squad/sim.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie::squad;
  const sortie::core::ByteView bytes(data, size);
  auto log = read_input_log(bytes);
  if (!log) return 0;
  const sortie::core::Bytes back = write_input_log(*log);
  if (back.size() != size || !std::equal(back.begin(), back.end(), data)) __builtin_trap();
  static const auto map = parse_squad_map(
      "squad-map 1\ngrid 12 6\n############\n#@.........#\n#.....h....#\n#..........#\n#.........H#\n############\n");
  if (!map) __builtin_trap();
  auto sim = SquadSim::create(*map, SimConfig{.seed = log->seed});
  if (!sim) __builtin_trap();
  const std::size_t n = std::min<std::size_t>(log->frames.size(), 120);
  for (std::size_t k = 0; k < n; ++k) sim->step(log->frames[k]);
  return 0;
}
