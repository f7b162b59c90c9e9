#pragma once
// The game a command works on (`sortie run`, `render`, `route`, `serve`): GAME_DIR, or without
// one the embedded sample (generated once into the cache directory), and its mission: --mission,
// or the game's first mission.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>
#include <string_view>

#include "sortie/assets/sample_game.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/mission/game_context.hpp"

namespace sortie::cli {

// Adds the positional game_dir (default: the embedded sample) and --mission,-m (default: the
// first mission).
void add_game_options(CLI::App* cmd, std::string& game_dir, std::string& mission);
// Adds --sample: the scale of the embedded sample, demo (default) or corpus.
void add_sample_option(CLI::App* cmd, std::string& scale);
// "corpus" is SampleScale::corpus; anything else (the options accept only demo|corpus) is demo.
assets::SampleScale sample_scale_from(std::string_view name);

struct GameDir {
  std::filesystem::path path;
  bool sample = false;     // the embedded sample
  bool generated = false;  // the sample was generated into `path` just now (else it was cached)
};

// `game_dir`, or when it is empty the embedded sample at `scale` in the default cache root.
core::Result<GameDir> game_dir_or_sample(const std::string& game_dir, assets::SampleScale scale);

struct OpenGame {
  std::filesystem::path dir;
  mission::GameContext context;
  std::string mission;  // the one asked for, or the game's first mission
};

// Opens the game at `dir` and names its mission: `mission`, or the first one when it is empty.
core::Result<OpenGame> open_game(const std::filesystem::path& dir, const std::string& mission);
// game_dir_or_sample, then open_game.
core::Result<OpenGame> open_game_or_sample(const std::string& game_dir, assets::SampleScale scale,
                                           const std::string& mission);

}  // namespace sortie::cli
