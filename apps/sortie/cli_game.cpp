#include "cli_game.hpp"

namespace sortie::cli {

void add_game_options(CLI::App* cmd, std::string& game_dir, std::string& mission) {
  cmd->add_option("game_dir", game_dir, "game directory (default: the embedded sample)");
  cmd->add_option("--mission,-m", mission, "mission name or data.tma path (default: the first mission)");
}

void add_sample_option(CLI::App* cmd, std::string& scale) {
  cmd->add_option("--sample", scale, "scale of the embedded sample: demo or corpus")
      ->check(CLI::IsMember({"demo", "corpus"}))
      ->default_str("demo");
}

core::Result<mission::OpenGame> open_game_or_sample(const std::string& game_dir, assets::SampleScale scale,
                                                    const std::string& mission) {
  return mission::open_game({game_dir, scale, {}}, mission);
}

}  // namespace sortie::cli
