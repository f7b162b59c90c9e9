// SquadView: memory of the horror layer and the frame: scene (floor, walls, blood, bodies), the
// light/fog pass, glowing effects, the finishing pass, then the overlay and HUD.
#include "sortie/game/squad_view.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "sortie/render/mesh_builders.hpp"
#include "squad_view_state.hpp"

namespace sortie::game {

using detail::State;
using render::Mesh;
using render::Rgba8;

namespace {

constexpr std::size_t kBloodMax = 2048;
constexpr float kWallHeight = 1.15f;

float smooth_towards(float v, float target, float up, float down) {
  return v + (target - v) * (target > v ? up : down);
}

Mesh box(float x0, float y0, float z0, float x1, float y1, float z1, Rgba8 c) {
  return render::make_box(core::Aabb{{x0, y0, z0}, {x1, y1, z1}}, c);
}

void build_templates(detail::Templates& t) {
  // Local frame: +X is the facing direction, Z up, origin at the feet.
  t.rifle_body = box(-0.15f, -0.2f, 0.0f, 0.13f, 0.2f, 0.62f, {66, 72, 60, 255});
  t.blade_body = box(-0.15f, -0.2f, 0.0f, 0.13f, 0.2f, 0.62f, {62, 44, 40, 255});
  t.helmet = box(-0.12f, -0.12f, 0.62f, 0.12f, 0.12f, 0.84f, {44, 48, 42, 255});
  t.gun = box(0.05f, 0.08f, 0.42f, 0.55f, 0.15f, 0.5f, {28, 28, 30, 255});
  t.blade = box(0.1f, 0.1f, 0.45f, 0.62f, 0.14f, 0.49f, {190, 195, 200, 255});
  t.hostile_body = box(-0.16f, -0.17f, 0.0f, 0.14f, 0.17f, 0.86f, {150, 138, 122, 255});
  t.hostile_head = box(0.0f, -0.11f, 0.78f, 0.26f, 0.11f, 1.04f, {170, 150, 135, 255});
  t.hostile_arm = box(0.05f, -0.28f, 0.35f, 0.5f, -0.2f, 0.42f, {140, 120, 110, 255});
  t.hostile_arm.append(box(0.05f, 0.2f, 0.38f, 0.48f, 0.28f, 0.45f, {140, 120, 110, 255}));
  t.corpse_agent = box(-0.45f, -0.18f, 0.0f, 0.35f, 0.18f, 0.14f, {52, 56, 48, 255});
  t.corpse_hostile = box(-0.5f, -0.2f, 0.0f, 0.45f, 0.2f, 0.12f, {84, 64, 60, 255});
}

core::Mat4 place(const SquadSnapshot& s, core::Vec2 pos, core::Vec2 facing) {
  // Squad facing (x, y south) is (x, -y) in render space.
  const float angle = std::atan2(-facing.y, facing.x);
  return core::Mat4::translation(detail::to_render(s, pos)) * core::Mat4::rotation_z(angle);
}

void add_splat(Mesh& m, const SquadSnapshot& s, const detail::Blood& b) {
  const Rgba8 core_color = b.human ? Rgba8{120, 6, 8, 215} : Rgba8{58, 12, 28, 225};
  const Rgba8 rim = b.human ? Rgba8{90, 4, 6, 120} : Rgba8{40, 8, 20, 130};
  const auto fan = [&](core::Vec2 c, float radius, int n, std::uint32_t salt) {
    const auto base = static_cast<std::uint32_t>(m.positions.size());
    m.positions.push_back(detail::to_render(s, c, 0.004f));
    m.colors.push_back(core_color);
    for (int k = 0; k < n; ++k) {
      const float a = 2.0f * core::kPi * static_cast<float>(k) / static_cast<float>(n);
      const float r = radius * (0.55f + 0.7f * detail::hash_unit(b.seed, salt, static_cast<std::uint32_t>(k)));
      m.positions.push_back(detail::to_render(s, c + core::Vec2{std::cos(a), std::sin(a)} * r, 0.004f));
      m.colors.push_back(rim);
    }
    for (int k = 0; k < n; ++k) {
      // Counter-clockwise in render space (squad y is flipped): centre, k + 1, k.
      m.indices.push_back(base);
      m.indices.push_back(base + 1 + static_cast<std::uint32_t>(k));
      m.indices.push_back(base + 1 + static_cast<std::uint32_t>((k + 1) % n));
    }
  };
  fan(b.pos, b.size, 11, 1);
  const int drops = 3 + static_cast<int>(detail::hash32(b.seed, 7) % 4);
  for (int k = 0; k < drops; ++k) {
    const float a = 2.0f * core::kPi * detail::hash_unit(b.seed, 20, static_cast<std::uint32_t>(k));
    const float d = b.size * (1.1f + 1.6f * detail::hash_unit(b.seed, 21, static_cast<std::uint32_t>(k)));
    fan(b.pos + core::Vec2{std::cos(a), std::sin(a)} * d, b.size * 0.22f, 6, 30 + static_cast<std::uint32_t>(k));
  }
}

// A flat ribbon along a -> b at height z, `width` wide (additive glow).
void ribbon(Mesh& m, const SquadSnapshot& s, core::Vec2 a, core::Vec2 b, float z, float width, Rgba8 ca, Rgba8 cb) {
  const core::Vec2 d = core::normalize_or(b - a, {1.0f, 0.0f});
  const core::Vec2 side{-d.y * width * 0.5f, d.x * width * 0.5f};
  const auto base = static_cast<std::uint32_t>(m.positions.size());
  m.positions.push_back(detail::to_render(s, a - side, z));
  m.positions.push_back(detail::to_render(s, a + side, z));
  m.positions.push_back(detail::to_render(s, b + side, z));
  m.positions.push_back(detail::to_render(s, b - side, z));
  m.colors.insert(m.colors.end(), {ca, ca, cb, cb});
  m.indices.insert(m.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
}

void star(Mesh& m, const SquadSnapshot& s, core::Vec2 c, core::Vec2 dir, float z, float size, std::uint32_t seed,
          Rgba8 hot, Rgba8 rim) {
  const auto base = static_cast<std::uint32_t>(m.positions.size());
  m.positions.push_back(detail::to_render(s, c, z));
  m.colors.push_back(hot);
  constexpr int kRays = 10;
  const float a0 = std::atan2(dir.y, dir.x);
  for (int k = 0; k < kRays; ++k) {
    const float a = a0 + 2.0f * core::kPi * static_cast<float>(k) / kRays;
    const float along = std::max(0.0f, std::cos(a - a0));
    const float r = size * ((k % 2 == 0) ? 0.35f + 0.9f * along : 0.15f) *
                    (0.7f + 0.6f * detail::hash_unit(seed, static_cast<std::uint32_t>(k)));
    m.positions.push_back(detail::to_render(s, c + core::Vec2{std::cos(a), std::sin(a)} * r, z));
    m.colors.push_back(rim);
  }
  for (int k = 0; k < kRays; ++k) {
    m.indices.push_back(base);
    m.indices.push_back(base + 1 + static_cast<std::uint32_t>(k));
    m.indices.push_back(base + 1 + static_cast<std::uint32_t>((k + 1) % kRays));
  }
}

void ring(Mesh& m, const SquadSnapshot& s, core::Vec2 c, float radius, float width, float z, Rgba8 color) {
  constexpr int kSeg = 40;
  const auto base = static_cast<std::uint32_t>(m.positions.size());
  for (int k = 0; k <= kSeg; ++k) {
    const float a = 2.0f * core::kPi * static_cast<float>(k) / kSeg;
    const core::Vec2 u{std::cos(a), std::sin(a)};
    m.positions.push_back(detail::to_render(s, c + u * (radius - width * 0.5f), z));
    m.positions.push_back(detail::to_render(s, c + u * (radius + width * 0.5f), z));
    m.colors.push_back(color);
    m.colors.push_back(color);
  }
  for (std::uint32_t k = 0; k < kSeg; ++k) {
    const std::uint32_t i = base + 2 * k;
    m.indices.insert(m.indices.end(), {i, i + 1, i + 3, i, i + 3, i + 2});
  }
}

// Static scene: floor tiles and walls (rebuilt when the walls change), and the body templates.
core::Status prepare_static_scene(State& st, const SquadSnapshot& s) {
  const auto cells = s.walls.cells();
  if (!st.scene || !std::equal(cells.begin(), cells.end(), st.scene_walls.begin(), st.scene_walls.end())) {
    if (st.floor_texture.level_count() == 0) {
      st.floor_texture = detail::make_floor_texture();
      st.wall_texture = detail::make_wall_texture();
    }
    render::IsoGrid grid;
    grid.columns = static_cast<std::uint32_t>(s.walls.width());
    grid.rows = static_cast<std::uint32_t>(s.walls.height());
    grid.wall_height = kWallHeight;
    grid.cells.resize(static_cast<std::size_t>(grid.columns) * grid.rows);
    for (std::uint32_t r = 0; r < grid.rows; ++r) {
      for (std::uint32_t c = 0; c < grid.columns; ++c) {
        const int y = static_cast<int>(grid.rows - 1 - r);
        render::IsoCell& cell = grid.cells[static_cast<std::size_t>(r) * grid.columns + c];
        cell.floor = static_cast<std::uint8_t>(1 + detail::hash32(c, static_cast<std::uint32_t>(y), 99) % 3);
        if (s.walls.solid(static_cast<int>(c), y)) cell.wall = 1;
      }
    }
    render::IsoStyle style;
    style.floor_colors = {{118, 116, 108, 255}, {104, 108, 100, 255}, {122, 112, 102, 255}};
    style.wall_colors = {{128, 124, 118, 255}};
    style.checker = 0.04f;
    style.floor_texture = st.floor_texture.view();
    style.wall_texture = st.wall_texture.view();
    style.filter = render::Filter::bilinear;
    SORTIE_TRY(render::IsoScene scene, render::build_iso_scene(grid, style));
    scene.wall_material.lit = true;
    st.scene = std::move(scene);
    st.scene_walls.assign(cells.begin(), cells.end());
  }
  if (!st.templates_ready) {
    build_templates(st.templates);
    st.templates_ready = true;
  }
  return {};
}

// The isometric camera on the squad's disc (the map's centre without a squad).
render::Camera squad_camera(const SquadSnapshot& s, const SquadViewOptions& options) {
  const core::Vec2 focus2 = s.squads.empty() ? core::Vec2{static_cast<float>(s.walls.width()) * 0.5f,
                                                          static_cast<float>(s.walls.height()) * 0.5f}
                                             : s.squads.front().disc;
  render::IsometricView iv;
  iv.focus = detail::to_render(s, focus2, 0.0f);
  iv.view_width = options.view_width;
  iv.aspect = static_cast<float>(options.width) / static_cast<float>(options.height);
  iv.yaw = options.yaw;
  iv.distance = 100.0f;
  return render::Camera::isometric(iv);
}

// Blood decals (kept between frames, rebuilt when new blood fell) and this frame's bodies.
void build_blood_and_bodies(State& st, const SquadSnapshot& s) {
  if (st.blood_dirty) {
    st.blood_mesh = Mesh{};
    for (const detail::Blood& b : st.blood) add_splat(st.blood_mesh, s, b);
    st.blood_dirty = false;
  }
  st.actors = Mesh{};
  const detail::Templates& t = st.templates;
  for (const squad::Target& tg : s.targets) {
    const core::Vec2 dir = core::normalize_or(tg.vel, {0.0f, 1.0f});
    const core::Mat4 m = place(s, tg.pos, dir);
    if (!tg.alive) {
      st.actors.append(t.corpse_hostile, m);
      continue;
    }
    // A lurch: the body leans with its speed.
    st.actors.append(t.hostile_body, m);
    st.actors.append(t.hostile_head, m);
    st.actors.append(t.hostile_arm, m);
  }
  for (const squad::Agent& a : s.agents) {
    const core::Mat4 m = place(s, a.pos, a.facing);
    if (!a.alive) {
      st.actors.append(t.corpse_agent, m);
      continue;
    }
    const bool blade = a.role == squad::Role::blade;
    st.actors.append(blade ? t.blade_body : t.rifle_body, m);
    st.actors.append(t.helmet, m);
    st.actors.append(blade ? t.blade : t.gun, m);
  }
}

// The lit scene pass: static scene, blood, bodies, cleared to black.
render::Frame scene_frame(State& st, const render::Camera& camera) {
  st.draws.clear();
  for (const auto& d : st.scene->draws()) st.draws.push_back(d);
  render::Material blood_mat;
  blood_mat.blend = render::Blend::alpha;
  blood_mat.depth_write = false;
  blood_mat.cull = render::Cull::none;
  blood_mat.depth_bias = -1e-4f;
  if (!st.blood_mesh.positions.empty()) st.draws.push_back({st.blood_mesh.view(), blood_mat, core::Mat4::identity()});
  render::Material actor_mat;
  actor_mat.lit = true;
  if (!st.actors.positions.empty()) st.draws.push_back({st.actors.view(), actor_mat, core::Mat4::identity()});

  render::Frame frame;
  frame.camera = camera;
  frame.light.direction = core::normalize_or(core::Vec3{0.45f, 0.75f, -1.0f}, core::Vec3{0.0f, 0.0f, -1.0f});
  frame.light.color = {0.7f, 0.7f, 0.7f};
  frame.light.ambient = {0.4f, 0.4f, 0.4f};
  frame.draws = st.draws;
  frame.clear_color = render::kBlack;
  return frame;
}

// Window -> world for the light pass.
detail::PixelToWorld pixel_to_world(const render::Camera& camera, const render::Viewport& vp) {
  const auto at = [&](float x, float y, float d) { return camera.unproject(x, y, d, vp).value_or(core::Vec3{}); };
  detail::PixelToWorld p2w;
  p2w.origin = at(0.0f, 0.0f, 0.0f);
  p2w.dx = at(1.0f, 0.0f, 0.0f) - p2w.origin;
  p2w.dy = at(0.0f, 1.0f, 0.0f) - p2w.origin;
  p2w.dd = at(0.0f, 0.0f, 1.0f) - p2w.origin;
  return p2w;
}

// The window of the map the picture shows (the floor plane's corners, padded for walls): low
// and high corners in squad coordinates.
std::pair<core::Vec2, core::Vec2> visible_map_window(const detail::PixelToWorld& p2w, const SquadSnapshot& s,
                                                     const SquadViewOptions& options) {
  core::Vec2 lo{1e9f, 1e9f};
  core::Vec2 hi{-1e9f, -1e9f};
  for (const float x : {0.0f, static_cast<float>(options.width)}) {
    for (const float y : {0.0f, static_cast<float>(options.height)}) {
      // The ray through the corner meets Z = 0 at some depth.
      const core::Vec3 a = p2w.origin + p2w.dx * x + p2w.dy * y;
      const float k = std::abs(p2w.dd.z) > 1e-9f ? -a.z / p2w.dd.z : 0.0f;
      const core::Vec3 w = a + p2w.dd * k;
      const core::Vec2 q{w.x, static_cast<float>(s.walls.height()) - w.y};
      lo = {std::min(lo.x, q.x), std::min(lo.y, q.y)};
      hi = {std::max(hi.x, q.x), std::max(hi.y, q.y)};
    }
  }
  return {lo, hi};
}

// Glowing effects: tracers, muzzle flashes, the disc, hostiles' eyes.
void build_glow(State& st, const SquadSnapshot& s) {
  st.glow = Mesh{};
  st.eyes = Mesh{};
  st.eyes.primitive = render::Primitive::points;
  for (const squad::Bullet& b : s.bullets) {
    const core::Vec2 tail = b.pos - b.dir * 1.1f;
    ribbon(st.glow, s, tail, b.pos, 0.5f, 0.24f, {0, 0, 0, 255}, {150, 70, 20, 255});
    ribbon(st.glow, s, b.pos - b.dir * 0.6f, b.pos, 0.5f, 0.06f, {60, 40, 10, 255}, {255, 235, 170, 255});
  }
  for (const detail::Flash& f : st.flashes) {
    const std::uint64_t age = s.tick - f.tick;
    if (age > 2) continue;
    const auto k = static_cast<std::uint8_t>(255 - 80 * age);
    star(st.glow, s, f.pos, f.dir, 0.5f, 0.42f, static_cast<std::uint32_t>(f.tick * 7 + age),
         {k, static_cast<std::uint8_t>(static_cast<float>(k) * 0.85f),
          static_cast<std::uint8_t>(static_cast<float>(k) * 0.5f), 255},
         {90, 40, 10, 255});
  }
  for (const squad::Squad& q : s.squads) {
    const float u = std::clamp(q.urgency, 0.0f, 1.0f);
    ring(st.glow, s, q.disc, 0.32f, 0.05f, 0.01f,
         {static_cast<std::uint8_t>(25 + 110 * u), static_cast<std::uint8_t>(45 - 25 * u),
          static_cast<std::uint8_t>(60 - 40 * u), 255});
  }
  for (const squad::Target& tg : s.targets) {
    if (!tg.alive) continue;
    const core::Vec2 dir = core::normalize_or(tg.vel, {0.0f, 1.0f});
    const core::Vec2 side{-dir.y, dir.x};
    const core::Vec2 front = tg.pos + dir * 0.27f;
    const Rgba8 eye = tg.awake ? Rgba8{255, 40, 20, 255} : Rgba8{120, 30, 20, 255};
    st.eyes.positions.push_back(detail::to_render(s, front + side * 0.06f, 0.95f));
    st.eyes.positions.push_back(detail::to_render(s, front - side * 0.06f, 0.95f));
    st.eyes.colors.push_back(eye);
    st.eyes.colors.push_back(eye);
  }
}

// The glow pass: additive over the lit picture, with its depth; `frame` keeps the scene's
// camera and stops clearing from here on.
core::Status draw_glow(State& st, const SquadViewOptions& options, render::Frame& frame, render::Framebuffer& fb,
                       render::FrameStats& stats) {
  st.draws.clear();
  render::Material glow_mat;
  glow_mat.blend = render::Blend::additive;
  glow_mat.depth_write = false;
  glow_mat.cull = render::Cull::none;
  if (!st.glow.positions.empty()) st.draws.push_back({st.glow.view(), glow_mat, core::Mat4::identity()});
  render::Material eye_mat = glow_mat;
  eye_mat.point_size = std::max(2.0f, std::round(static_cast<float>(options.width) / 480.0f));
  if (!st.eyes.positions.empty()) st.draws.push_back({st.eyes.view(), eye_mat, core::Mat4::identity()});
  frame.draws = st.draws;
  frame.clear_color.reset();
  frame.clear_depth.reset();
  frame.keep_depth = false;
  if (!st.draws.empty()) SORTIE_CHECK(st.renderer.render(frame, fb, &stats));
  return {};
}

// Overlay and HUD: drawn last, untouched by the light, fog and grain.
core::Status draw_overlay_and_hud(State& st, const SquadSnapshot& s, const SquadViewOptions& options,
                                  render::Frame& frame, render::Framebuffer& fb) {
  st.draws.clear();
  st.labels.clear();
  st.lines = Mesh{};
  st.lines.primitive = render::Primitive::lines;
  st.points = Mesh{};
  st.points.primitive = render::Primitive::points;
  if (options.overlay) detail::build_overlay(st, s, options);
  if (options.hud) detail::build_hud(st, s, options);
  render::Material over;
  over.depth_test = false;
  over.depth_write = false;
  over.cull = render::Cull::none;
  if (!st.lines.positions.empty()) st.draws.push_back({st.lines.view(), over, core::Mat4::identity()});
  render::Material dots = over;
  dots.point_size = 4.0f;
  if (!st.points.positions.empty()) st.draws.push_back({st.points.view(), dots, core::Mat4::identity()});
  if (!st.draws.empty() || !st.labels.empty()) {
    frame.draws = st.draws;
    frame.labels = st.labels;
    SORTIE_CHECK(st.renderer.render(frame, fb));
  }
  return {};
}

}  // namespace

SquadView::SquadView(SquadViewOptions options) : options_(options), state_(std::make_unique<State>(options.threads)) {}
SquadView::~SquadView() = default;
SquadView::SquadView(SquadView&&) noexcept = default;
SquadView& SquadView::operator=(SquadView&&) noexcept = default;

void SquadView::set_size(std::uint32_t width, std::uint32_t height) {
  options_.width = width;
  options_.height = height;
}

std::size_t SquadView::blood_count() const {
  return state_->blood.size();
}
float SquadView::tension() const {
  return state_->tension;
}
std::size_t SquadView::remembered_cells() const {
  return static_cast<std::size_t>(std::count(state_->seen.begin(), state_->seen.end(), std::uint8_t{1}));
}

void SquadView::reset() {
  State& st = *state_;
  st.map_w = 0;
  st.map_h = 0;
  st.seen.clear();
  st.blood.clear();
  st.blood_dirty = true;
  st.flashes.clear();
  st.tension = 0.0f;
  st.observed = 0;
}

void SquadView::observe(const SquadSnapshot& s) {
  State& st = *state_;
  if (st.map_w != s.walls.width() || st.map_h != s.walls.height() || s.tick < st.last_tick) {
    reset();
    st.map_w = s.walls.width();
    st.map_h = s.walls.height();
    st.seen.assign(static_cast<std::size_t>(st.map_w) * static_cast<std::size_t>(st.map_h), 0);
  }
  st.last_tick = s.tick;
  if (st.observed % 3 == 0) detail::mark_seen(st, s);
  ++st.observed;
  // Blood and flashes of this tick's events.
  for (const squad::Event& e : s.events) {
    const auto seed = detail::hash32(static_cast<std::uint32_t>(e.tick), static_cast<std::uint32_t>(e.actor),
                                     static_cast<std::uint32_t>(e.subject) * 31u + static_cast<std::uint32_t>(e.kind));
    using K = squad::EventKind;
    const auto bleed = [&](core::Vec2 p, float size, bool human) {
      if (st.blood.size() >= kBloodMax) st.blood.erase(st.blood.begin(), st.blood.begin() + kBloodMax / 8);
      st.blood.push_back({p, size, seed, human});
      st.blood_dirty = true;
    };
    switch (e.kind) {
      case K::shot:
        if (e.actor >= 0 && static_cast<std::size_t>(e.actor) < s.agents.size()) {
          const squad::Agent& a = s.agents[static_cast<std::size_t>(e.actor)];
          st.flashes.push_back({a.pos + a.facing * 0.6f, a.facing, s.tick});
        }
        break;
      case K::bullet_target:
      case K::melee_hit:
        bleed(e.pos, 0.2f + 0.12f * detail::hash_unit(seed, 1), false);
        break;
      case K::target_killed:
        bleed(e.pos, 0.6f + 0.2f * detail::hash_unit(seed, 2), false);
        break;
      case K::friendly_hit:
      case K::hostile_attack:
        bleed(e.pos, 0.2f + 0.1f * detail::hash_unit(seed, 3), true);
        break;
      case K::agent_down:
        bleed(e.pos, 0.7f, true);
        break;
      default:
        break;
    }
  }
  std::erase_if(st.flashes, [&](const detail::Flash& f) { return s.tick - f.tick > 8; });
  // Tension: hostiles close to the squad, the leash pulling, losses.
  float closest = 1e9f;
  for (const squad::Target& t : s.targets) {
    if (!t.alive || !t.awake) continue;
    for (const squad::Agent& a : s.agents) {
      if (a.alive) closest = std::min(closest, core::distance(t.pos, a.pos));
    }
  }
  const float near = closest < 1e8f ? std::clamp(1.0f - (closest - 1.0f) / 7.0f, 0.0f, 1.0f) : 0.0f;
  float urgency = 0.0f;
  for (const squad::Squad& q : s.squads) urgency = std::max(urgency, q.urgency);
  const float losses =
      s.agents.empty() ? 0.0f : 1.0f - static_cast<float>(s.live_agents) / static_cast<float>(s.agents.size());
  const float target = std::clamp(0.65f * near + 0.25f * urgency + 0.5f * losses, 0.0f, 1.0f);
  st.tension = smooth_towards(st.tension, target, 0.08f, 0.01f);
}

core::Status SquadView::render(const SquadSnapshot& s, render::Framebuffer& fb, SquadFrameStats* stats) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  State& st = *state_;
  if (fb.width() != options_.width || fb.height() != options_.height) {
    SORTIE_CHECK(fb.resize(options_.width, options_.height));
  }
  if (fb.empty()) return {};
  if (st.map_w != s.walls.width() || st.map_h != s.walls.height()) {
    // Rendered without observing: remember nothing, but keep the sizes consistent.
    reset();
    st.map_w = s.walls.width();
    st.map_h = s.walls.height();
    st.seen.assign(static_cast<std::size_t>(st.map_w) * static_cast<std::size_t>(st.map_h), 0);
  }
  SORTIE_CHECK(prepare_static_scene(st, s));
  const render::Camera camera = squad_camera(s, options_);
  const render::Viewport vp{0, 0, static_cast<int>(options_.width), static_cast<int>(options_.height)};
  build_blood_and_bodies(st, s);
  SquadFrameStats local;
  SquadFrameStats& out = stats != nullptr ? *stats : local;
  render::Frame frame = scene_frame(st, camera);
  SORTIE_CHECK(st.renderer.render(frame, fb, &out.scene));

  const detail::PixelToWorld p2w = pixel_to_world(camera, vp);
  const auto t1 = Clock::now();
  if (options_.horror) {
    const auto [lo, hi] = visible_map_window(p2w, s, options_);
    detail::build_light_map(st, s, lo, hi);
    out.light_map_ms = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
    detail::light_pass(st, s, p2w, fb, options_.threads);
  }
  const auto t2 = Clock::now();
  build_glow(st, s);
  SORTIE_CHECK(draw_glow(st, options_, frame, fb, out.effects));
  const auto t3 = Clock::now();
  if (options_.horror) detail::finish_pass(st, s, fb, options_.threads);
  const auto t4 = Clock::now();
  SORTIE_CHECK(draw_overlay_and_hud(st, s, options_, frame, fb));
  const auto t5 = Clock::now();
  const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  out.light_ms = ms(t1, t2);
  out.post_ms = ms(t3, t4);
  out.total_ms = ms(t0, t5);
  return {};
}

}  // namespace sortie::game
