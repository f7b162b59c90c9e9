#pragma once
// Every absolute limit of the mission runtime's own files (issue #21 part 4): save files
// (docs/save-files.md). The game data a mission loads is bounded by the readers' limits
// (iron3d/limits.hpp, fomap/limits.hpp); command logs by world/limits.hpp.
// tests/mission/limits_test.cpp feeds each limit and limit + 1.
#include <cstddef>
#include <cstdint>

namespace sortie::mission {

// Bytes of a save file: 64 MiB. A save holds the run's identity and the player's actions
// (about 100 bytes each), so the action cap below fits with room; save.limit, before parsing.
inline constexpr std::uint64_t kMaxSaveFileBytes = std::uint64_t{64} << 20;
// Player actions in one save: 262,144 (an order every second for three days of play);
// save.limit. PlaySession::actions() beyond it cannot be saved: write_save refuses the same.
inline constexpr std::size_t kMaxSaveActions = std::size_t{1} << 18;
// Bytes of each text field of a save (build, game directory, sample scale, mission): 4096;
// save.limit.
inline constexpr std::size_t kMaxSaveTextBytes = 4096;
// A save's world image (save_image.hpp): objects in it, 65,536 (the corpus-scale sample places
// 885, the retail catalogue's size); save.limit.
inline constexpr std::size_t kMaxSaveImageObjects = std::size_t{1} << 16;
// Nesting of the whole file's JSON arrays and objects: 64 (the image nests a Lua table of the
// script state's depth 16 within about ten levels); save.limit, checked on the text before it is
// parsed, so a hostile file never reaches a recursive walk.
inline constexpr std::size_t kMaxSaveDepth = 64;
// Bytes of one text value in the image (a prototype key, a Lua string, ...): 1 MiB; save.limit.
inline constexpr std::size_t kMaxSaveImageTextBytes = std::size_t{1} << 20;

}  // namespace sortie::mission
