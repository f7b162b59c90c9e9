#pragma once
// The game a client works on (`sortie run`, `render`, `route`, `serve`, the viewer): a game
// directory, or without one the embedded sample (generated once into the cache directory), and
// its mission: the one asked for, or the game's first mission.
#include <filesystem>
#include <string>
#include <string_view>

#include "sortie/assets/sample_game.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/mission/game_context.hpp"

namespace sortie::mission {

struct GameSource {
  std::filesystem::path dir;                               // empty: the embedded sample
  assets::SampleScale sample = assets::SampleScale::demo;  // the sample's scale
  std::filesystem::path cache_root;                        // where the sample is kept; empty: default_cache_root()
};

// "corpus" is SampleScale::corpus, anything else demo (command lines accept only demo|corpus).
assets::SampleScale sample_scale_from(std::string_view name);

struct GameDir {
  std::filesystem::path path;
  bool sample = false;     // the embedded sample
  bool generated = false;  // the sample was generated into `path` just now (else it was cached)
};

// The directory of `source`: its dir, or the embedded sample (generated when not cached).
core::Result<GameDir> resolve_game_dir(const GameSource& source);

struct OpenGame {
  std::filesystem::path dir;
  bool sample = false;     // the embedded sample
  bool generated = false;  // the sample was generated into `dir` just now (else it was cached)
  GameContext context;
  std::string mission;  // the one asked for, or the game's first mission
};

// Opens the game of `source` and names its mission: `mission`, or the first one when it is
// empty. Errors: the sample's generation, GameContext::open (io.not_found,
// io.not_a_directory), load.no_missions.
core::Result<OpenGame> open_game(const GameSource& source, std::string_view mission = {});
// The same for a resolved directory.
core::Result<OpenGame> open_game(const GameDir& dir, std::string_view mission = {});

}  // namespace sortie::mission
