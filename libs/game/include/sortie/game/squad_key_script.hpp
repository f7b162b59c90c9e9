#pragma once
// Scripted key presses for unattended runs of the squad viewer (`sortie-viewer squad MAP --script
// FILE`) and its tests. Text, one entry per line; '#' starts a comment:
//
//   # frames  keys held during them (inclusive; one frame when TO is left out)
//   0-59      w                 # up the screen for one second
//   60-89     d shift           # right, sprinting
//   90        space             # pressed on frame 90 only
//   120       shot after_move.png
//
// Keys: w a s d shift space left right tab 1 2 3 o p n r. `shot FILE` on a frame saves the picture
// of that frame (after its ticks). Frames are counted from 0; at most 2^24.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/game/squad_controls.hpp"

namespace sortie::game {

inline constexpr std::uint64_t kKeyScriptFramesMax = 1ull << 24;
inline constexpr std::uint64_t kKeyScriptFileMax = 1ull << 20;

struct KeyScriptEntry {
  std::uint64_t from = 0;
  std::uint64_t to = 0;
  SquadKeys keys;
  std::string shot;  // non-empty: a screenshot (from == to)
  int line = 0;
};

struct SquadKeyScript {
  std::vector<KeyScriptEntry> entries;
  // The keys held on `frame` (the union of every entry covering it).
  [[nodiscard]] SquadKeys keys_at(std::uint64_t frame) const;
  // Screenshot files due on `frame`.
  [[nodiscard]] std::vector<std::string> shots_at(std::uint64_t frame) const;
  // One past the last frame any entry names.
  [[nodiscard]] std::uint64_t length() const;
};

// Codes (with file:line): game.script.frames (a bad frame or range), game.script.key (an unknown
// key name), game.script.shot (no file name), game.script.empty (a frame without keys).
core::Result<SquadKeyScript> parse_key_script(std::string_view text, std::string_view file = "<script>");
core::Result<SquadKeyScript> load_key_script(const std::filesystem::path& path);

}  // namespace sortie::game
