#pragma once
// Every absolute limit of the squad readers (issue #21 part 4): the squad map text
// (docs/squad-maps.md), the input log and the replay file `squad play --replay` reads (an input
// log or the world's command log, whose own limits are world/limits.hpp). These formats are ours:
// no spec sets the numbers. Codes are the readers' own (named beside each);
// tests/squad/limits_test.cpp feeds each limit and limit + 1.
#include <cstddef>
#include <cstdint>

namespace sortie::squad {

// A squad map file: 4 MiB, room for a full 512 x 512 grid (256 KiB) and many comments; io.too_large.
inline constexpr std::uint64_t kMapFileMax = std::uint64_t{4} * 1024 * 1024;
// Cells per side of a map's grid: 512 (a flow field per squad is 256 K cells); squad.map.value,
// read before the grid is allocated.
inline constexpr int kMapSizeMax = 512;
// Squad starts '@' in one map: 16 (a squad is one player's, a session holds a few);
// squad.map.too_many_squads.
inline constexpr std::size_t kSquadsMax = 16;
// Ticks of an input log (its frames are held one per tick): 2^24 (77 hours at 60 Hz, 64 MiB of
// frames); squad.input.length, before a run's frames are added. The run count is bounded by it
// too (a run is at least one tick; squad.input.limit, before anything is read).
inline constexpr std::uint64_t kInputLogTicksMax = 1ull << 24;
// A replay file: the largest input log (every tick its own 8-byte run, a 28-byte header) with
// room to spare; io.too_large, before the file is read.
inline constexpr std::uint64_t kReplayFileMax = kInputLogTicksMax * 8 + 64;

}  // namespace sortie::squad
