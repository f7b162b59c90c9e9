#pragma once
// The game's picture headless: play a map with the scripted player (sortie squad run's script)
// up to a time, observing every tick, and draw that moment. The first client is
// `sortie squad render`.
#include <cstdint>

#include "sortie/core/diagnostic.hpp"
#include "sortie/game/squad_view.hpp"
#include "sortie/render/framebuffer.hpp"
#include "sortie/squad/map.hpp"

namespace sortie::game {

struct SquadPictureOptions {
  double at_seconds = 10.0;
  std::uint64_t seed = 1;
  SquadViewOptions view;
};

struct SquadPicture {
  render::Framebuffer image;
  std::uint64_t tick = 0;
  std::uint64_t state_hash = 0;  // of the simulation at the pictured tick
  SquadFrameStats stats;
};

// Codes: squad.run.seconds, squad.tuning.*, render.framebuffer.size.
core::Result<SquadPicture> render_squad_picture(const squad::SquadMap& map, const SquadPictureOptions& options);

}  // namespace sortie::game
