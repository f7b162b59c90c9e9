#include "sortie/game/squad_picture.hpp"

#include <cmath>
#include <optional>

#include "sortie/game/squad_snapshot.hpp"
#include "sortie/squad/run.hpp"

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

}  // namespace sortie::game
