#pragma once
// What MissionGame keeps for drawing: the overlay mesh and its draw call, and the minimap's
// relief image (made once from the terrain's heights and normals).
#include <vector>

#include "sortie/game/mission_game.hpp"
#include "sortie/render/mesh.hpp"
#include "sortie/world/world.hpp"

namespace sortie::game {

struct MissionGame::Draw {
  render::Mesh mesh;
  std::vector<render::DrawCall> calls;
  int minimap_size = 0;
  std::vector<render::Rgba8> minimap;  // minimap_size^2, row 0 at the map's +Y edge (north up)
  mission::MapBounds bounds;
  std::vector<bool> hostile;  // per data.tma clan: hostile to the player's clan (either direction)
  void build_minimap(const mission::LoadedMission& mission, int size);
};

// The object with this id unless it is gone or pending deletion.
const world::WorldObject* live_object(const world::World& w, world::ObjectId id);
// Text with a one-pixel (scaled) black shadow.
void shadow_text(render::Framebuffer& target, int x, int y, std::string_view text, render::Rgba8 color, int scale = 1);
// The colour of a unit on the minimap: the player's own green, a hostile clan's red, others yellow.
render::Rgba8 unit_color(bool own, bool hostile);

}  // namespace sortie::game
