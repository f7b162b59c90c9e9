#pragma once
// Save files of a headless run (docs/save-files.md). A run is deterministic: the loaded mission,
// the seed and the scenario decide every tick. A save names the run (the game, the mission, the
// seed) and where it stood (the tick, the world's state hash there); loading re-simulates the
// run from the mission's load to that tick and refuses to go on unless the state hash there is
// the saved one. The file is JSON with a checksum over its content, written atomically.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/mission/play_session.hpp"

namespace sortie::mission {

// 1: a headless run (sortie run --save-at). 2: "mode" and, for a game played in the viewer
// (mode "play"), the player's actions. 3: "image", the whole world's state as data at the tick
// (save_image.hpp), compared entry by entry after the re-simulation. Versions 1 and 2 are refused
// (save.version): they hold no image to check against (docs/save-files.md).
inline constexpr int kSaveVersion = 3;

enum class SaveMode : std::uint8_t { run = 0, play = 1 };

struct SaveGame {
  std::string build;             // save_build_id() of the writer
  std::string game;              // the game directory as given; empty: the embedded sample
  std::string sample_scale;      // "demo" | "corpus" (the embedded sample only)
  std::string mission;           // the mission as the run resolved it (data.tma path)
  std::uint64_t seed = 1;        // the simulation and order streams' seed
  std::uint64_t tick = 0;        // the world's tick when saved
  std::uint64_t state_hash = 0;  // World::last_hash() at `tick`
  // run: `sortie run`'s headless run (its scenario or random orders); play: a PlaySession (the
  // viewer's game), re-played with `actions` (ascending ticks, all before `tick`).
  SaveMode mode = SaveMode::run;
  std::vector<PlayAction> actions;
  // The world image at `tick` (save_image.hpp: {"world", "scenario"}), checked by
  // check_save_image when read.
  core::Json image;
  bool operator==(const SaveGame&) const = default;
};

// "sortie <version>; sample generator <n>; save <n>": a save from another build is refused (the
// same code on another machine, compiler or build type gives the same hashes; another version
// may not).
std::string save_build_id();

// The file's JSON: {"format": "sortie-save", "version", fields..., "checksum"}, where checksum
// is the xxHash64 (hex) of the compact dump of every other member.
core::Json save_json(const SaveGame& save);
// Writes the file atomically (a temporary file renamed over `path`).
core::Status write_save(const std::filesystem::path& path, const SaveGame& save);
// Errors (located at the path): save.limit (over 64 MiB, or nested deeper than kMaxSaveDepth:
// checked on the text, before parsing), save.read (cannot be read), save.json (not JSON), save.format
// (not a sortie save), save.version (another save version), save.checksum (damaged: the content
// does not match its checksum), save.field (a field missing or of the wrong type), save.build
// (written by another build); an action's own errors are save.field.
core::Result<SaveGame> read_save(const std::filesystem::path& path);
core::Result<SaveGame> save_from_json(const core::Json& j);

// `sortie save show`: the header (every field but the image) and save_image_summary's summary
// of the image; as text, the same in lines.
core::Json save_show_json(const SaveGame& save);
std::string save_show_text(const SaveGame& save);

// The nesting depth of JSON text's arrays and objects (strings skipped), stopping once it passes
// `limit` (the value returned is then limit + 1).
std::size_t json_text_depth(std::string_view text, std::size_t limit);

// The save of a played session (mode play) at its current tick: its actions, state hash and image.
// `game` / `sample_scale` / `mission` / `seed` name what was loaded (as in SaveGame).
SaveGame play_save(const PlaySession& play, std::string game, std::string sample_scale, std::string mission,
                   std::uint64_t seed);
// Loads the save's mission into `context` again (the current world is replaced only when the
// load succeeds) and re-plays the session to the save's tick, checked by the image entry by entry
// and the state hash.
// Errors: save.game (a run save, or another mission than `mission`), load.failed, replay_play's
// (play.action, save.mismatch).
core::Result<std::unique_ptr<PlaySession>> resume_play(GameContext& context, const SaveGame& save,
                                                       const std::string& mission, const PlayOptions& options = {});
// A fresh session of `mission` in `context` (the restart of a game): loaded again with `seed`.
core::Result<std::unique_ptr<PlaySession>> restart_play(GameContext& context, const std::string& mission,
                                                        std::uint64_t seed, const PlayOptions& options = {});

}  // namespace sortie::mission
