#pragma once
// The private state of SquadView: the memory of the horror layer, the static scene, the light
// map and per-frame scratch meshes. Shared by squad_view.cpp, squad_light.cpp, squad_overlay.cpp.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sortie/core/noise.hpp"
#include "sortie/game/squad_view.hpp"
#include "sortie/render/iso_scene.hpp"
#include "sortie/render/mesh.hpp"
#include "sortie/render/texture.hpp"

namespace sortie::game::detail {

struct Blood {
  core::Vec2 pos;
  float size = 0.3f;
  std::uint32_t seed = 0;
  bool human = false;  // red; hostiles bleed darker
};

struct Flash {
  core::Vec2 pos;
  core::Vec2 dir;
  std::uint64_t tick = 0;
};

// Light and sight sampled on the map grid, kLightRes samples per cell side, over a window.
inline constexpr int kLightRes = 4;
struct LightMap {
  int x0 = 0;  // first cell of the window
  int y0 = 0;
  int cols = 0;  // samples
  int rows = 0;
  // Per sample, interleaved: the factors of the light pass (colour multiplier R, G, B and the
  // memory weight), 4 floats.
  std::vector<float> factors;
};

// Affine map from window (x, y, depth) to render world for the orthographic camera.
struct PixelToWorld {
  core::Vec3 origin, dx, dy, dd;
};

struct Templates {
  render::Mesh rifle_body, blade_body, helmet, gun, blade, hostile_body, hostile_head, hostile_arm, corpse_agent,
      corpse_hostile, corpse_blood_agent;
};

struct State {
  explicit State(unsigned threads) : renderer(render::RendererOptions{threads, true, render::Isa::best}) {}

  render::Renderer renderer;
  // Memory.
  int map_w = 0;
  int map_h = 0;
  std::vector<std::uint8_t> seen;  // per cell: the squad has seen it
  std::vector<Blood> blood;
  bool blood_dirty = true;
  std::vector<Flash> flashes;
  float tension = 0.0f;
  std::uint64_t last_tick = 0;
  std::uint64_t observed = 0;
  // Static scene (rebuilt when the map changes).
  std::optional<render::IsoScene> scene;
  render::Texture floor_texture;
  render::Texture wall_texture;
  std::vector<std::uint8_t> scene_walls;  // the wall cells the scene was built from
  Templates templates;
  bool templates_ready = false;
  // Per frame.
  render::Mesh blood_mesh;
  render::Mesh actors;
  render::Mesh glow;    // additive triangles: tracers, flashes, the disc
  render::Mesh eyes;    // additive points
  render::Mesh lines;   // overlay
  render::Mesh points;  // overlay
  std::vector<render::DrawCall> draws;
  std::vector<render::Label> labels;
  LightMap light;
  // Finishing pass tables (rebuilt when the size changes): vignette factor per pixel, and a
  // tile of grain offsets shifted per frame.
  std::uint32_t finish_w = 0;
  std::uint32_t finish_h = 0;
  std::vector<float> vignette;  // 1 - smoothstep over r^2
  std::vector<float> edge;      // where the tension pulse shows
  std::vector<float> grain;     // kGrainSize^2 values in [-1, 1]
};

inline constexpr std::uint32_t kGrainSize = 256;

// squad_textures.cpp
render::Texture make_floor_texture();
render::Texture make_wall_texture();
using core::hash32;     // sortie/core/noise.hpp
using core::hash_unit;  // [0, 1)

// squad_light.cpp
bool sees(const squad::WallGrid& walls, core::Vec2 from, core::Vec2 to);
void mark_seen(State& st, const SquadSnapshot& s);
void build_light_map(State& st, const SquadSnapshot& s, core::Vec2 lo, core::Vec2 hi);
void light_pass(const State& st, const SquadSnapshot& s, const PixelToWorld& p2w, render::Framebuffer& fb,
                unsigned threads);
void finish_pass(State& st, const SquadSnapshot& s, render::Framebuffer& fb, unsigned threads);

// squad_overlay.cpp
void build_overlay(State& st, const SquadSnapshot& s, const SquadViewOptions& o);
void build_hud(State& st, const SquadSnapshot& s, const SquadViewOptions& o);

// Squad (x, y) to render world.
inline core::Vec3 to_render(const SquadSnapshot& s, core::Vec2 p, float z = 0.0f) {
  return {p.x, static_cast<float>(s.walls.height()) - p.y, z};
}

// Runs f(row_begin, row_end) over `rows` split in `threads` bands (the calling thread takes one).
void parallel_rows(unsigned threads, std::uint32_t rows, const std::function<void(std::uint32_t, std::uint32_t)>& f);

}  // namespace sortie::game::detail
