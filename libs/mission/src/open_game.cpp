#include "sortie/mission/open_game.hpp"

#include <utility>

namespace sortie::mission {

assets::SampleScale sample_scale_from(std::string_view name) {
  return name == "corpus" ? assets::SampleScale::corpus : assets::SampleScale::demo;
}

core::Result<GameDir> resolve_game_dir(const GameSource& source) {
  GameDir g;
  if (!source.dir.empty()) {
    g.path = source.dir;
    return g;
  }
  assets::SampleOptions so;
  so.scale = source.sample;
  SORTIE_TRY(g.path,
             assets::ensure_cached_sample(
                 so, source.cache_root.empty() ? assets::default_cache_root() : source.cache_root, &g.generated));
  g.sample = true;
  return g;
}

core::Result<OpenGame> open_game(const GameDir& dir, std::string_view mission) {
  SORTIE_TRY(auto context, GameContext::open(dir.path));
  std::string name(mission);
  if (name.empty()) {
    SORTIE_TRY(name, context.first_mission());
  }
  return OpenGame{dir.path, dir.sample, dir.generated, std::move(context), std::move(name)};
}

core::Result<OpenGame> open_game(const GameSource& source, std::string_view mission) {
  SORTIE_TRY(const auto dir, resolve_game_dir(source));
  return open_game(dir, mission);
}

}  // namespace sortie::mission
