#include "sortie/game/squad_picture.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "sortie/core/hash.hpp"
#include "sortie/game/squad_snapshot.hpp"
#include "sortie/render/image_io.hpp"
#include "sortie/squad/run.hpp"
#include "sortie/squad/tuning.hpp"

namespace sortie::game {

core::Result<SquadPicture> render_squad_picture(const squad::SquadMap& map, const SquadPictureOptions& options) {
  SquadView view(options.view);
  squad::RunOptions ro;
  ro.seconds = options.at_seconds;
  ro.seed = options.seed;
  const double ticks = options.at_seconds * squad::kTickRate;
  const auto last_tick =
      std::isfinite(ticks) && ticks >= 0.0 && ticks < 1e18 ? static_cast<std::uint64_t>(std::llround(ticks)) : 0;
  std::optional<SquadSnapshot> last;
  SORTIE_TRY(const squad::RunReport rep, squad::run_squad(map, ro, [&](const squad::SquadSim& sim) {
               const bool pictured = sim.tick() == last_tick;
               SquadSnapshot snap = take_snapshot(sim, pictured);
               view.observe(snap);
               if (pictured) last = std::move(snap);
             }));
  SquadPicture out;
  out.state_hash = rep.final_hash;
  if (!last) {
    // Zero seconds: the initial state.
    SORTIE_TRY(const squad::SquadSim sim, squad::SquadSim::create(map, {.seed = options.seed}));
    last = take_snapshot(sim, true);
    view.observe(*last);
    out.state_hash = sim.state_hash();
  }
  out.tick = last->tick;
  SORTIE_CHECK(view.render(*last, out.image, &out.stats));
  return out;
}

core::Result<SquadPictureFile> write_squad_picture(const std::string& map_path, const SquadPictureOptions& options,
                                                   const std::string& out) {
  SORTIE_TRY(const squad::SquadMap map, squad::load_squad_map(map_path));
  SORTIE_TRY(SquadPicture picture, render_squad_picture(map, options));
  SORTIE_CHECK(render::write_png(out, picture.image));
  return SquadPictureFile{map.name, out, std::move(picture), options.seed};
}

core::Json SquadPictureFile::to_json() const {
  return core::Json{{"ok", true},
                    {"map", map_name},
                    {"tick", picture.tick},
                    {"seed", seed},
                    {"width", picture.image.width()},
                    {"height", picture.image.height()},
                    {"state_hash", core::hash_hex(picture.state_hash)},
                    {"frame_ms", picture.stats.total_ms},
                    {"scene_ms", picture.stats.scene.total_ms},
                    {"light_ms", picture.stats.light_ms},
                    {"effects_ms", picture.stats.effects.total_ms},
                    {"post_ms", picture.stats.post_ms},
                    {"out", out}};
}

std::string SquadPictureFile::to_text() const {
  return fmt::format("{}: tick {} ({:.2f} s), seed {}, {}x{}, state hash {}, frame {:.1f} ms -> {}\n", map_name,
                     picture.tick, static_cast<double>(picture.tick) / squad::kTickRate, seed, picture.image.width(),
                     picture.image.height(), core::hash_hex(picture.state_hash), picture.stats.total_ms, out);
}

}  // namespace sortie::game
