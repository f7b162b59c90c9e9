#include "cli_game.hpp"

#include <utility>

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

assets::SampleScale sample_scale_from(std::string_view name) {
  return name == "corpus" ? assets::SampleScale::corpus : assets::SampleScale::demo;
}

core::Result<GameDir> game_dir_or_sample(const std::string& game_dir, assets::SampleScale scale) {
  GameDir g;
  if (!game_dir.empty()) {
    g.path = game_dir;
    return g;
  }
  assets::SampleOptions so;
  so.scale = scale;
  SORTIE_TRY(g.path, assets::ensure_cached_sample(so, assets::default_cache_root(), &g.generated));
  g.sample = true;
  return g;
}

core::Result<OpenGame> open_game(const std::filesystem::path& dir, const std::string& mission) {
  SORTIE_TRY(auto context, mission::GameContext::open(dir));
  std::string name = mission;
  if (name.empty()) {
    SORTIE_TRY(name, context.first_mission());
  }
  return OpenGame{dir, std::move(context), std::move(name)};
}

core::Result<OpenGame> open_game_or_sample(const std::string& game_dir, assets::SampleScale scale,
                                           const std::string& mission) {
  SORTIE_TRY(const auto dir, game_dir_or_sample(game_dir, scale));
  return open_game(dir.path, mission);
}

}  // namespace sortie::cli
