#pragma once
// Every absolute limit of the scenario parts (issue #21 part 4): what a Lua mission script may
// use (docs/mission-scripts.md) and what the native script bundles may accumulate (spec §20 sets
// no number for either). The Lua state's memory and instruction limits are LuaOptions' defaults
// (a smaller override is tested); the rest are fixed. The bundles' files are read by iron3d
// (iron3d/limits.hpp). tests/scenario/limits_test.cpp feeds each limit and limit + 1.
#include <cstddef>
#include <cstdint>

namespace sortie::scenario {

// VM instructions a Lua script may run in one tick (its start: the chunk too): 2 M, a few
// milliseconds; lua.budget.
inline constexpr std::uint64_t kLuaInstructionBudget = 2'000'000;
// Bytes a script's Lua state may hold: 16 MiB (a mission's tables of units and zones need
// kilobytes); lua.memory, refused by the allocator before it allocates.
inline constexpr std::size_t kLuaMemoryCap = std::size_t{16} << 20;
// Repetitions of one string.rep: 1 M (the result is also held under the memory cap); a Lua error
// (lua.runtime), before the string is built.
inline constexpr std::int64_t kLuaRepCountMax = 1'000'000;
// Nested tables of a script's globals the state encoding (its share of the state hash) follows:
// 16; a deeper table is written as a cut marker, not an error (a cycle is cut the same way).
inline constexpr int kLuaStateDepthMax = 16;
// Values (keys and values) the state encoding writes per tick: 65536; every further value is a
// cut marker, so a script with huge globals costs a bounded encoding.
inline constexpr std::uint32_t kLuaStateValuesMax = 1u << 16;
// Native events raised and waiting for the next step: 4096; native.raise_limit.
inline constexpr std::size_t kMaxRaisedEvents = 4096;
// Handler(8) problem records one clan may address: 4096; native.problem_limit.
inline constexpr std::size_t kMaxProblemRecords = 4096;

}  // namespace sortie::scenario
