#pragma once
// Save files of a headless run (docs/save-files.md). A run is deterministic: the loaded mission,
// the seed and the scenario decide every tick. A save names the run (the game, the mission, the
// seed) and where it stood (the tick, the world's state hash there); loading re-simulates the
// run from the mission's load to that tick and refuses to go on unless the state hash there is
// the saved one. The file is JSON with a checksum over its content, written atomically.
#include <cstdint>
#include <filesystem>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"

namespace sortie::mission {

inline constexpr int kSaveVersion = 1;

struct SaveGame {
  std::string build;             // save_build_id() of the writer
  std::string game;              // the game directory as given; empty: the embedded sample
  std::string sample_scale;      // "demo" | "corpus" (the embedded sample only)
  std::string mission;           // the mission as the run resolved it (data.tma path)
  std::uint64_t seed = 1;        // the simulation and order streams' seed
  std::uint64_t tick = 0;        // the world's tick when saved
  std::uint64_t state_hash = 0;  // World::last_hash() at `tick`
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
// Errors (located at the path): save.read (cannot be read), save.json (not JSON), save.format
// (not a sortie save), save.version (another save version), save.checksum (damaged: the content
// does not match its checksum), save.field (a field missing or of the wrong type), save.build
// (written by another build).
core::Result<SaveGame> read_save(const std::filesystem::path& path);
core::Result<SaveGame> save_from_json(const core::Json& j);

}  // namespace sortie::mission
