// The mission game's controls and world overlay (mission_game.hpp); the HUD is mission_hud.cpp.
#include "sortie/game/mission_game.hpp"

#include <algorithm>
#include <cmath>

#include "mission_game_draw.hpp"
#include "sortie/move/components.hpp"
#include "sortie/world/world.hpp"

namespace sortie::game {

namespace {

constexpr render::Rgba8 kRingColor{90, 255, 120, 255};
constexpr render::Rgba8 kPilotColor{255, 210, 60, 255};
constexpr render::Rgba8 kPathColor{140, 255, 170, 200};
constexpr render::Rgba8 kFollowColor{120, 200, 255, 220};
constexpr render::Rgba8 kGoalColor{255, 235, 90, 255};
constexpr render::Rgba8 kFollowFlashColor{120, 200, 255, 255};

}  // namespace

const world::WorldObject* live_object(const world::World& w, world::ObjectId id) {
  const auto h = w.lookup(id);
  const world::WorldObject* o = h ? w.find(*h) : nullptr;
  return o != nullptr && !o->pending_delete() ? o : nullptr;
}

namespace {

// A flat ring (annulus) of `segments` quads around `centre`, on the ground plane at its height.
void add_ring(render::Mesh& mesh, core::Vec3 centre, float inner, float outer, render::Rgba8 color, int segments = 28) {
  const auto base = static_cast<std::uint32_t>(mesh.positions.size());
  for (int i = 0; i <= segments; ++i) {
    const float a = 2.0f * core::kPi * static_cast<float>(i) / static_cast<float>(segments);
    const float c = std::cos(a), s = std::sin(a);
    mesh.positions.push_back({centre.x + c * inner, centre.y + s * inner, centre.z});
    mesh.positions.push_back({centre.x + c * outer, centre.y + s * outer, centre.z});
    mesh.colors.push_back(color);
    mesh.colors.push_back(color);
  }
  for (int i = 0; i < segments; ++i) {
    const std::uint32_t k = base + static_cast<std::uint32_t>(i) * 2;
    mesh.indices.insert(mesh.indices.end(), {k, k + 1, k + 3, k, k + 3, k + 2});
  }
}

// A flat band of `width` from a to b (a path segment seen from above).
void add_band(render::Mesh& mesh, core::Vec3 a, core::Vec3 b, float width, render::Rgba8 color) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-4f) return;
  const float nx = -dy / len * width * 0.5f, ny = dx / len * width * 0.5f;
  const auto k = static_cast<std::uint32_t>(mesh.positions.size());
  mesh.positions.insert(mesh.positions.end(),
                        {core::Vec3{a.x + nx, a.y + ny, a.z}, core::Vec3{a.x - nx, a.y - ny, a.z},
                         core::Vec3{b.x + nx, b.y + ny, b.z}, core::Vec3{b.x - nx, b.y - ny, b.z}});
  mesh.colors.insert(mesh.colors.end(), {color, color, color, color});
  mesh.indices.insert(mesh.indices.end(), {k, k + 1, k + 3, k, k + 3, k + 2});
}

}  // namespace

MissionGame::MissionGame(mission::GameSession& play, const render::MissionScene& scene, MissionGameOptions options)
    : play_(play), scene_(scene), options_(options), draw_(std::make_unique<Draw>()) {
  draw_->build_minimap(play_.mission(), options_.minimap_size);
}

MissionGame::~MissionGame() = default;

std::optional<world::ObjectId> MissionGame::unit_near(const render::Camera& camera, const render::Viewport& viewport,
                                                      float x, float y, bool own_only) const {
  const world::World& w = play_.world();
  std::optional<world::ObjectId> best;
  float best_d = options_.pick_radius_px * options_.pick_radius_px;
  for (const world::Handle h : w.queue()) {
    const world::WorldObject* o = w.find(h);
    if (o == nullptr || o->pending_delete()) continue;
    const move::Body* body = o->components.get<move::Body>();
    if (body == nullptr || body->is_static) continue;
    if (own_only && !play_.commandable(o->id())) continue;
    const core::Vec3 p = o->transform.position + core::Vec3{0.0f, 0.0f, body->height * 0.5f};
    const auto s = camera.project(p, viewport);
    if (!s || s->w <= 0.0f || s->depth < 0.0f || s->depth > 1.0f) continue;
    const float d = (s->x - x) * (s->x - x) + (s->y - y) * (s->y - y);
    if (d < best_d || (d == best_d && best && o->id() < *best)) {
      best_d = d;
      best = o->id();
    }
  }
  return best;
}

void MissionGame::select(std::span<const world::ObjectId> units, bool add) {
  if (!add) selection_.clear();
  for (const auto& u : units)
    if (play_.commandable(u)) selection_.push_back(u);
  std::sort(selection_.begin(), selection_.end());
  selection_.erase(std::unique(selection_.begin(), selection_.end()), selection_.end());
}

void MissionGame::click(const render::Camera& camera, const render::Viewport& viewport, float x, float y, bool add) {
  const auto hit = unit_near(camera, viewport, x, y, true);
  if (!add) {
    selection_.clear();
    if (hit) selection_.push_back(*hit);
    return;
  }
  if (!hit) return;
  const auto it = std::lower_bound(selection_.begin(), selection_.end(), *hit);
  if (it != selection_.end() && *it == *hit) {
    selection_.erase(it);
  } else {
    selection_.insert(it, *hit);
  }
}

void MissionGame::box(const render::Camera& camera, const render::Viewport& viewport, float x0, float y0, float x1,
                      float y1, bool add) {
  const float lx = std::min(x0, x1), hx = std::max(x0, x1), ly = std::min(y0, y1), hy = std::max(y0, y1);
  std::vector<world::ObjectId> inside;
  const world::World& w = play_.world();
  for (const auto& id : play_.player_units()) {
    const world::WorldObject* o = live_object(w, id);
    const auto s = camera.project(o->transform.position, viewport);
    if (!s || s->w <= 0.0f || s->depth < 0.0f || s->depth > 1.0f) continue;
    if (s->x >= lx && s->x <= hx && s->y >= ly && s->y <= hy) inside.push_back(id);
  }
  select(inside, add);
}

std::size_t MissionGame::order(const render::Camera& camera, const render::Viewport& viewport, float x, float y) {
  if (selection_.empty()) return 0;
  // A unit under the cursor (any clan, not one of the selection) is followed.
  if (const auto unit = unit_near(camera, viewport, x, y, false);
      unit && !std::binary_search(selection_.begin(), selection_.end(), *unit)) {
    const std::size_t n = play_.follow(selection_, *unit);
    if (n > 0)
      if (const auto* o = live_object(play_.world(), *unit)) flashes_.push_back({o->transform.position, 0.0, true});
    return n;
  }
  const auto hit = scene_.pick(camera, viewport, x, y);
  if (!hit) return 0;
  if (hit->placed_index >= 0) {
    // A placed object: units approach it (a static one cannot be followed, so go next to it).
    const auto ids = play_.mission().ids_by_placement();
    const auto i = static_cast<std::size_t>(hit->placed_index);
    if (i < ids.size() && live_object(play_.world(), ids[i]) != nullptr) {
      const auto* o = live_object(play_.world(), ids[i]);
      const move::Body* body = o->components.get<move::Body>();
      if (body != nullptr && !body->is_static) {
        const std::size_t n = play_.follow(selection_, ids[i]);
        if (n > 0) flashes_.push_back({o->transform.position, 0.0, true});
        return n;
      }
    }
  }
  const std::size_t n = play_.go(selection_, {hit->point.x, hit->point.y});
  if (n > 0) flashes_.push_back({hit->point, 0.0, false});
  return n;
}

std::size_t MissionGame::order_at(core::Vec2 point) {
  const std::size_t n = play_.go(selection_, point);
  if (n > 0) {
    float z = 0.0f;
    if (const auto& env = play_.mission().movement; env && env->terrain)
      z = env->terrain->height_at(point.x, point.y).value_or(0.0f);
    flashes_.push_back({{point.x, point.y, z}, 0.0, false});
  }
  return n;
}

std::size_t MissionGame::stop() {
  return play_.halt(selection_);
}

void MissionGame::store_group(int n) {
  if (n < 0 || n > 9) return;
  groups_[static_cast<std::size_t>(n)] = selection_;
}

bool MissionGame::recall_group(int n) {
  if (n < 0 || n > 9) return false;
  auto& g = groups_[static_cast<std::size_t>(n)];
  std::erase_if(g, [&](const world::ObjectId& id) { return !play_.commandable(id); });
  if (g.empty()) return false;
  selection_ = g;
  return true;
}

bool MissionGame::toggle_pilot() {
  if (pilot_) {
    play_.drive(*pilot_, 0.0f, 0.0f);
    play_.halt(std::span<const world::ObjectId>(&*pilot_, 1));
    pilot_.reset();
    return true;
  }
  if (selection_.empty()) return false;
  pilot_ = selection_.front();
  play_.halt(std::span<const world::ObjectId>(&*pilot_, 1));
  return true;
}

void MissionGame::drive(float speed, float turn) {
  if (pilot_) play_.drive(*pilot_, speed, turn);
}

void MissionGame::set_speed(int speed) {
  speed_ = speed >= 4 ? 4 : speed >= 2 ? 2 : 1;
}

void MissionGame::prune() {
  std::erase_if(selection_, [&](const world::ObjectId& id) { return !play_.commandable(id); });
  if (pilot_ && !play_.commandable(*pilot_)) pilot_.reset();
}

core::Status MissionGame::advance(std::uint64_t dt_us) {
  ticks_last_ = 0;
  const double seconds = static_cast<double>(dt_us) * 1e-6;
  for (auto& f : flashes_) f.age += seconds;
  std::erase_if(flashes_, [&](const Flash& f) { return f.age > options_.flash_seconds; });
  if (!paused_ && !play_.decided() && play_.runs_ticks()) {
    ticks_last_ = pacer_.frame(dt_us * static_cast<std::uint64_t>(speed_));
    for (std::uint32_t i = 0; i < ticks_last_ && !play_.decided(); ++i) SORTIE_CHECK(play_.tick());
  }
  prune();
  return {};
}

std::span<const render::DrawCall> MissionGame::overlay() {
  Draw& d = *draw_;
  d.mesh = render::Mesh{};
  const world::World& w = play_.world();
  for (const auto& id : selection_) {
    const world::WorldObject* o = live_object(w, id);
    if (o == nullptr) continue;
    const move::Body* body = o->components.get<move::Body>();
    const float r = body != nullptr ? body->radius : 1.5f;
    const core::Vec3 at = o->transform.position + core::Vec3{0.0f, 0.0f, 0.15f};
    add_ring(d.mesh, at, r * 1.35f, r * 1.35f + 0.35f, pilot_ && *pilot_ == id ? kPilotColor : kRingColor);
    if (const auto target = play_.following(id)) {
      if (const world::WorldObject* t = live_object(w, *target))
        add_band(d.mesh, at, t->transform.position + core::Vec3{0.0f, 0.0f, 0.15f}, 0.2f, kFollowColor);
      continue;
    }
    // The path still ahead: the trajectory points from the next one to the goal.
    const auto* b = o->components.get<move::BehaviorState>();
    if (b == nullptr || (b->mode != move::BehaviorMode::planning && b->mode != move::BehaviorMode::following)) continue;
    core::Vec3 from = at;
    for (std::size_t i = b->next_point; i < b->local_path.size(); ++i) {
      const core::Vec3 to{b->local_path[i].x, b->local_path[i].y, at.z};
      add_band(d.mesh, from, to, 0.25f, kPathColor);
      from = to;
    }
    if (b->local_path.empty()) add_band(d.mesh, at, {b->target.x, b->target.y, at.z}, 0.25f, kPathColor);
  }
  for (const Flash& f : flashes_) {
    // A ring shrinking onto the goal, fading.
    const auto k = static_cast<float>(f.age / options_.flash_seconds);
    render::Rgba8 c = f.follow ? kFollowFlashColor : kGoalColor;
    c.a = static_cast<std::uint8_t>(std::clamp(255.0f * (1.0f - k), 0.0f, 255.0f));
    const float r = 3.0f * (1.0f - 0.6f * k);
    add_ring(d.mesh, f.at + core::Vec3{0.0f, 0.0f, 0.2f}, r, r + 0.45f, c);
    add_ring(d.mesh, f.at + core::Vec3{0.0f, 0.0f, 0.2f}, 0.0f, 0.5f, c, 12);
  }
  d.calls.clear();
  if (!d.mesh.positions.empty()) {
    render::DrawCall call;
    call.mesh = d.mesh.view();
    call.material.blend = render::Blend::alpha;
    call.material.cull = render::Cull::none;
    call.material.depth_write = false;
    call.material.depth_bias = -0.0005f;
    d.calls.push_back(call);
  }
  return d.calls;
}

}  // namespace sortie::game
