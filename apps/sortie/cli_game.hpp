#pragma once
// The game options of a command (`sortie run`, `render`, `route`, `serve`): the positional
// GAME_DIR (default: the embedded sample), --mission and --sample. Opening the game is
// mission::open_game.
#include <CLI/CLI.hpp>
#include <string>

#include "sortie/mission/open_game.hpp"

namespace sortie::cli {

using mission::sample_scale_from;

// Adds the positional game_dir (default: the embedded sample) and --mission,-m (default: the
// first mission).
void add_game_options(CLI::App* cmd, std::string& game_dir, std::string& mission);
// Adds --sample: the scale of the embedded sample, demo (default) or corpus.
void add_sample_option(CLI::App* cmd, std::string& scale);

// mission::open_game of GAME_DIR (the sample at `scale` when it is empty).
core::Result<mission::OpenGame> open_game_or_sample(const std::string& game_dir, assets::SampleScale scale,
                                                    const std::string& mission);

}  // namespace sortie::cli
