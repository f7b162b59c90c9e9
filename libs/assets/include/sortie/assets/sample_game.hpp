#pragma once
// The sample game generator: a complete, self-consistent synthetic Iron3D game directory built
// with sortie's own writers. It is the embedded default input of `sortie run` and of tests.
//
//   demo   -- 3 missions on small maps, a few dozen placed objects: quick to generate and load.
//   corpus -- the size of the retail Part 2 catalogue (seed 000): 885 placed objects, 561 unit
//             references expanding to ~5,500 components, ~5,800 prototype requests, ~50,000
//             material slots, ~68,000 texture requests, maps of ~6,000 vertices and ~600 areals.
// Both scales carry sound: sounds.lib and music.lib at the game root (22,050 Hz RIFF/WAVE, MS
// ADPCM and PCM), and per mission a mission.cfg (THEME loop and variation pools) and a
// sky.weather schedule (docs/weather-schedule.md): missions cycle clear (DEFAULT pool), rain
// with lightning (DAY/NIGHT pools), snow (DEFAULT pool from music.lib).
// Deterministic: the same options give byte-identical files.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sortie/assets/game_builder.hpp"
#include "sortie/core/json.hpp"

namespace sortie::assets {

enum class SampleScale : std::uint8_t { demo, corpus };
std::string_view to_string(SampleScale scale);

struct SampleOptions {
  SampleScale scale = SampleScale::demo;
  std::uint64_t seed = 1;
  ArchiveFormat objects_format = ArchiveFormat::rsli;  // objects.rlb container
};

struct SampleMission {
  std::string name;      // e.g. "m01"
  std::string tma_path;  // game path of data.tma
  std::string land_dir;  // game path of the map directory
  std::uint32_t placed_objects = 0;
  std::uint32_t unit_references = 0;
};

struct SampleSummary {
  SampleOptions options;
  std::vector<SampleMission> missions;
  std::uint32_t prototypes = 0;
  std::uint32_t unit_dats = 0;
  std::uint32_t models = 0;
  std::uint32_t materials = 0;
  std::uint32_t textures = 0;
  std::uint32_t lightmaps = 0;
  std::uint64_t files = 0;  // game files written (the sortie-sample.json manifest is extra)
  std::uint64_t bytes = 0;
  [[nodiscard]] core::Json to_json() const;
};

// Every file of the sample by game path, plus the summary.
core::Result<std::pair<std::map<std::string, core::Bytes>, SampleSummary>> generate_sample_files(
    const SampleOptions& options);
// Writes the sample into `dir` (created if needed; files written atomically) and a
// `sortie-sample.json` manifest describing it.
core::Result<SampleSummary> write_sample(const SampleOptions& options, const std::filesystem::path& dir);

// The sample used by `sortie run` when no game directory is given: generated once into
// `cache_root/sample-<scale>-<seed>-v<version>` and reused while its manifest matches.
core::Result<std::filesystem::path> ensure_cached_sample(const SampleOptions& options,
                                                         const std::filesystem::path& cache_root,
                                                         bool* generated = nullptr);
// $XDG_CACHE_HOME/sortie, else $HOME/.cache/sortie, else the system temporary directory.
std::filesystem::path default_cache_root();

// 2: Land1.wea / Land2.wea have four rows (the terrain's face tags reach Land2 row 3).
// 3: sounds.lib and music.lib (synthesised music, weather loops, thunder; MS ADPCM and PCM) and
//    per mission MISSIONS/<m>/mission.cfg (ambient music) and MISSIONS/<m>/sky.weather.
// 4: sky objects in the rain (overcast day, night from 90 s) and snow (winter) sky.weather.
// 5: MISSIONS/SCRIPTS/: player, enemy and spatial .scr + .fml, the shared varset.var, enemy.trf
//    (every clan's script and TRF reference resolves; docs/script-bundles.md).
// 6: MISSIONS/<m>/mission.lua (the scenario in sortie's own script API; docs/mission-scripts.md).
// 7: looks like a game: painted plates instead of checkers, five terrain textures (TERR_*) chosen
//    by height and slope through Land2.wea, models shaped by their archive (vehicles, walkers,
//    buildings, towers, trees, rocks; sample_art.hpp). The seeded stream is drawn as before.
// 8: mission.lua leaves the Player clan to a person when one plays (human(), the viewer's game)
//    and tells them what happens (message()); headless runs are unchanged.
// 9: effects (docs/effects.md): effects.rlb with the seed's lightning and a beacon, their
//    materials env_lightning / env_beacon and textures FX_BOLT / FX_GLOW; the rain mission's
//    sky.weather names its lightning effect; mission.lua marks the depot with the beacon when a
//    person plays (headless runs are unchanged).
// 10: looks like a place: every map is an island (its edge falls to a sea floor), each map has a
//    baked lightmap LM_MAP<nn> (hill shading from the sun, darker hollows, cast shadows; 565,
//    spanning the map) named by Land2.wea's LIGHTMAPS row, which the renderer blends into the
//    terrain's surface (libs/render terrain_surface.hpp).
// 11: units drawn up in rings (the Player's in the yard, the Enemy's at the outpost: slots 9 units
//    apart, no longer a heap in one spot); mission.lua's depot lies 20 + 4 i units past the edge
//    of the Player's formation (headless time limit 20 s), and when a person plays halfway to
//    the Enemy's units.
// 12, 13: machines drawn at their footprint's size; the base's buildings clear of its formation.
// 14: formation slots 12 units apart (neighbours at least 10.6 apart); buildings, towers, the open
//    ground of the areal map and the places' distance from the shore follow the formations'
//    sizes, so every machine starts in an areal; the reinforcement spawns on walkable ground.
//    docs/decisions/0004-sample-game.md has each version's hashes.
inline constexpr int kSampleGeneratorVersion = 14;

}  // namespace sortie::assets
