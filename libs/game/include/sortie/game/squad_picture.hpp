#pragma once
// The game's picture headless: play a map with the scripted player (sortie squad run's script)
// up to a time, observing every tick, and draw that moment. The first client is
// `sortie squad render`.
#include <cstdint>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
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

// `sortie squad render MAP -o OUT.png`: the map loaded, its picture drawn and written atomically.
struct SquadPictureFile {
  std::string map_name;
  std::string out;
  SquadPicture picture;
  std::uint64_t seed = 1;
  [[nodiscard]] core::Json to_json() const;
  [[nodiscard]] std::string to_text() const;
};
// Errors: load_squad_map's, render_squad_picture's, the PNG writer's (io.*).
core::Result<SquadPictureFile> write_squad_picture(const std::string& map_path, const SquadPictureOptions& options,
                                                   const std::string& out);

}  // namespace sortie::game
