#include "sortie/move/move_system.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sortie/core/hash.hpp"
#include "sortie/move/behavior.hpp"
#include "sortie/move/class_ids.hpp"
#include "sortie/move/control.hpp"
#include "sortie/world/event.hpp"
#include "sortie/world/object.hpp"
#include "sortie/world/world.hpp"

namespace sortie::move {

using world::ObjectId;
using world::WorldObject;

void MoveStats::encode(world::StateWriter& out) const {
  out.u64(steps);
  out.u64(contacts);
  out.u64(blocked_moves);
  out.u64(arrivals);
  out.u64(failures);
  out.u64(replans);
  out.u64(proxies_rebuilt);
}

void MoveSystem::update(world::UpdateContext& ctx) {
  step(ctx.world, ctx.clock.dt_seconds());
}

void MoveSystem::encode(world::StateWriter& out) const {
  out.u32(static_cast<std::uint32_t>(members_.size()));
  for (const ObjectId& id : members_) out.u64(id.raw());
  out.u32(static_cast<std::uint32_t>(contacts_.size()));
  for (const auto& [a, b] : contacts_) {
    out.u64(a);
    out.u64(b);
  }
  stats_.encode(out);
  out.u32(static_cast<std::uint32_t>(diagnostics_.size()));
  for (const core::Diagnostic& d : diagnostics_) {
    out.str(d.code);
    out.str(d.field);
  }
}

void MoveSystem::add_member(ObjectId id) {
  auto it = std::lower_bound(members_.begin(), members_.end(), id);
  if (it == members_.end() || *it != id) members_.insert(it, id);
}

ProxyView MoveSystem::view(const Mover& m) const {
  const CollisionProxy& p = *m.proxy;
  return ProxyView{m.xy, m.z, p.shape, p.radius, p.height, p.category, p.collides_with, p.is_static};
}

void MoveSystem::gather(world::World& world) {
  movers_.clear();
  float max_radius = 0.0f;
  std::size_t keep = 0;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    const ObjectId id = members_[i];
    WorldObject* o = world.find_live(id);
    Body* body = o != nullptr ? o->components.get<Body>() : nullptr;
    if (o == nullptr || body == nullptr) continue;  // deleted, pending deletion or disabled: dropped
    members_[keep++] = id;
    // A mirror (owned by a networked player) moves too: its owner gives the orders, every replica
    // runs them (docs/net-protocol.md §2).
    if (!o->registered() || !o->active) continue;
    Mover m;
    m.object = o;
    m.body = body;
    m.behavior = o->components.get<BehaviorState>();
    if (m.behavior == nullptr) m.behavior = &o->components.emplace(BehaviorState{});
    m.wizard = o->components.get<WizardState>();
    if (m.wizard == nullptr) m.wizard = &o->components.emplace(WizardState{});
    m.control = o->components.get<ControlState>();
    if (m.control == nullptr) m.control = &o->components.emplace(ControlState{});
    m.proxy = o->components.get<CollisionProxy>();
    if (m.proxy == nullptr) m.proxy = &o->components.emplace(CollisionProxy{});
    // The proxy follows the body and the model: rebuilt when either changed.
    const std::uint64_t model = core::hash64(o->prototype_key);
    if (m.proxy->body_revision != body->revision || m.proxy->model_key != model) {
      CollisionProxy& p = *m.proxy;
      p.shape = body->shape;
      p.radius = body->radius;
      p.height = body->height;
      p.category = body->category;
      p.collides_with = body->collides_with;
      p.is_static = body->is_static;
      p.body_revision = body->revision;
      p.model_key = model;
      p.rebuilds += 1;
      stats_.proxies_rebuilt += 1;
    }
    m.start = m.xy = o->transform.position.xy();
    m.z = o->transform.position.z;
    m.controlled = !body->is_static && !o->controller;
    max_radius = std::max(max_radius, m.proxy->radius);
    movers_.push_back(m);
  }
  members_.resize(keep);
  cell_ = std::max(2.0f * max_radius, 1.0f);
}

bool MoveSystem::ground_ok(core::Vec2 p, std::optional<nav::SurfaceSample>* sample) const {
  if (!env_ || !env_->terrain) return true;
  const auto s = env_->terrain->surface_at(p.x, p.y);
  if (!s || s->normal.z < env_->params.min_ground_normal_z) return false;
  if (env_->areals && !env_->areals->locate_areal(p, nav::LocateOptions{true, s->z})) return false;
  if (sample != nullptr) *sample = s;
  return true;
}

void MoveSystem::report_failure(world::World& world, Mover& m, MoveFailure failure) {
  BehaviorState& b = *m.behavior;
  b.mode = BehaviorMode::failed;
  b.failure = failure;
  clear_paths(b);
  clear_wizard_path(*m.wizard);
  stats_.failures += 1;
  if (auto* t = world::traced(world, "behavior"))
    t->write("behavior", fmt::format("{} failed: {}", m.object->id().to_string(), to_string(failure)));
  if (auto* t = world::traced(world, "control"))
    t->write("control", fmt::format("{} order failed: {}", m.object->id().to_string(), diagnostic_code(failure)));
  if (diagnostics_.size() < kMaxKeptDiagnostics) {
    const WorldObject& o = *m.object;
    diagnostics_.push_back(
        core::Diagnostic::error(diagnostic_code(failure), fmt::format("unit {} cannot follow its order: {}",
                                                                      o.id().to_string(), to_string(failure)))
            .in(o.id().to_string())
            .expect(fmt::format("a path to ({}, {})", b.target.x, b.target.y),
                    fmt::format("unit at ({}, {})", o.transform.position.x, o.transform.position.y)));
  }
  world.post(world::Event{0, world::EventType::arrived, m.object->handle(), {}, 0, static_cast<std::int64_t>(failure)});
}

void MoveSystem::think(world::World& world, Mover& m, float dt) {
  BehaviorState& b = *m.behavior;
  ControlState& c = *m.control;
  const MoveParams& params = env_->params;
  const core::Vec3 here{m.xy.x, m.xy.y, m.z};
  if (b.mode == BehaviorMode::planning) {
    const MoveFailure f = plan_path(b, here, *env_, workspace_);
    if (f != MoveFailure::none) {
      report_failure(world, m, f);
    } else if (auto* t = world::traced(world, "behavior")) {
      t->write("behavior", fmt::format("{} planned revision {}: {} areals, {} points to ({:.2f}, {:.2f})",
                                       m.object->id().to_string(), b.path_revision, b.global_path.size(),
                                       b.local_path.size(), b.target.x, b.target.y));
    }
  } else if (b.mode == BehaviorMode::following && env_->areals) {
    const auto at = env_->areals->locate_areal(m.xy, nav::LocateOptions{true, m.z});
    const PathCheck check = at ? observe_areal(b, at->areal) : PathCheck::off_path;
    if (!at) b.replans_without_progress += 1;
    if (check == PathCheck::cycle || b.replans_without_progress > kMaxReplansWithoutProgress) {
      report_failure(world, m, MoveFailure::path_cycle);
    } else if (check == PathCheck::off_path) {
      // The global path is damaged: a new revision from here, the detour forgotten.
      stats_.replans += 1;
      if (auto* t = world::traced(world, "behavior"))
        t->write("behavior", fmt::format("{} off its path at ({:.2f}, {:.2f}): re-plan", m.object->id().to_string(),
                                         m.xy.x, m.xy.y));
      clear_wizard_path(*m.wizard);
      const std::uint32_t budget = b.replans_without_progress;
      const MoveFailure f = plan_path(b, here, *env_, workspace_);
      b.replans_without_progress = budget;
      if (f != MoveFailure::none) report_failure(world, m, f);
    }
  }
  if (b.mode == BehaviorMode::following) {
    const bool obstructed = (c.flags & (kFlagContact | kFlagBlocked)) != 0;
    const BehaviorIntent intent = follow_path(b, m.xy, *m.body, params, obstructed);
    if (intent.arrived) {
      b.mode = BehaviorMode::arrived;
      clear_paths(b);
      clear_wizard_path(*m.wizard);
      stats_.arrivals += 1;
      if (auto* t = world::traced(world, "behavior"))
        t->write("behavior", fmt::format("{} arrived at ({:.2f}, {:.2f})", m.object->id().to_string(), m.xy.x, m.xy.y));
      if (auto* t = world::traced(world, "control"))
        t->write("control", fmt::format("{} order end: arrived", m.object->id().to_string()));
      world.post(world::Event{0, world::EventType::arrived, m.object->handle(), {}, 0, 0});
      steer(c, {}, 0.0f, dt, params);
      return;
    }
    // The wizard looks at the bodies around the unit.
    near_.clear();
    const float look = params.building_nearest_dist + 2.0f * m.proxy->radius + cell_;
    // Positions at the start of the step (the grid's), whichever units already moved.
    grid_.query(m.start, look, query_);
    const ProxyView self = view(m);
    for (std::uint32_t j : query_) {
      const Mover& n = movers_[j];
      if (&n == &m || !interacts(self, view(n))) continue;
      near_.push_back(Neighbour{n.object->id(), n.start, n.proxy->radius, n.proxy->is_static});
    }
    const world::ObjectId avoided = m.wizard->avoiding;
    const WizardResult w = wizard_correct(*m.wizard, m.object->id(), m.xy, m.proxy->radius, intent.direction, near_,
                                          params, env_->areals.get());
    if (m.wizard->avoiding != avoided) trace_wizard(world, m, avoided);
    steer(c, w.direction, intent.speed * w.speed_factor, dt, params);
    return;
  }
  if (b.mode == BehaviorMode::manual) {
    steer_manual(c);
    return;
  }
  steer(c, {}, 0.0f, dt, params);  // idle, arrived, failed: brake to a stop
}

void MoveSystem::trace_wizard(world::World& world, const Mover& m, world::ObjectId avoided) {
  world::Trace* t = world::traced(world, "wizard");
  if (t == nullptr) return;
  const WizardState& w = *m.wizard;
  if (w.avoiding == world::ObjectId{}) {
    t->write("wizard", fmt::format("{} clear of {}", m.object->id().to_string(), avoided.to_string()));
  } else {
    t->write("wizard", fmt::format("{} steps around {}: {} detour points", m.object->id().to_string(),
                                   w.avoiding.to_string(), w.path.size()));
  }
}

void MoveSystem::resolve_bodies(std::vector<ContactKey>& touching) {
  positions_.clear();
  for (const Mover& m : movers_) positions_.push_back(m.xy);
  grid_.build(positions_, cell_);
  grid_.pairs(pairs_);
  push_.assign(movers_.size(), core::Vec2{});
  for (int pass = 0; pass < kCorrectionPasses; ++pass) {
    bool any = false;
    std::fill(push_.begin(), push_.end(), core::Vec2{});
    for (const auto& [i, j] : pairs_) {
      Mover& a = movers_[i];
      Mover& b = movers_[j];
      const auto contact = narrow_phase(view(a), view(b));
      if (!contact) continue;
      any = true;
      if (pass == 0) {
        touching.emplace_back(a.object->id().raw(), b.object->id().raw());
        a.touched = b.touched = true;
      }
      const bool move_a = !a.proxy->is_static;
      const bool move_b = !b.proxy->is_static;
      const float share = move_a && move_b ? 0.5f : 1.0f;
      const core::Vec2 d = contact->normal * (contact->depth * share);
      if (move_a) push_[i] -= d;
      if (move_b) push_[j] += d;
    }
    if (!any) break;
    for (std::size_t k = 0; k < movers_.size(); ++k) {
      Mover& m = movers_[k];
      if (push_[k].x == 0.0f && push_[k].y == 0.0f) continue;
      const core::Vec2 moved = m.xy + push_[k];
      // A push the terrain refuses is not applied (never into a wall or off the map).
      if (ground_ok(moved)) {
        m.xy = moved;
      } else {
        m.blocked = true;
      }
    }
  }
}

void MoveSystem::finish(world::World& world, float dt) {
  next_ground_.clear();
  for (Mover& m : movers_) {
    ControlState& c = *m.control;
    WorldObject& o = *m.object;
    c.flags = (m.blocked ? kFlagBlocked : 0u) | (m.touched ? kFlagContact : 0u);
    const bool moved = m.xy.x != m.start.x || m.xy.y != m.start.y;
    if (!moved && !m.controlled) continue;
    core::Vec3 next = o.transform.position;
    std::optional<nav::SurfaceSample> ground;
    if (moved && env_->terrain) {
      const bool same = m.ground && m.ground_xy.x == m.xy.x && m.ground_xy.y == m.xy.y;
      ground = same ? m.ground : env_->terrain->surface_at(m.xy.x, m.xy.y);
    }
    if (moved) {
      next.x = m.xy.x;
      next.y = m.xy.y;
      if (ground) next.z = ground->z;
    }
    if (ground) c.flags |= kFlagOnGround;
    c.linear_velocity = dt > 0.0f ? (next - o.transform.position) / dt : core::Vec3{};
    const bool turned = m.controlled && o.transform.orientation.z != c.heading;
    o.transform.position = next;
    if (moved || turned) {
      if (!ground && env_->terrain) ground = env_->terrain->surface_at(next.x, next.y);
      const core::Vec3 normal = ground ? ground->normal : core::Vec3{0.0f, 0.0f, 1.0f};
      if (ground) next_ground_.push_back(GroundMemo{o.id().raw(), next.xy(), *ground});
      const float heading = m.controlled ? c.heading : o.transform.orientation.z;
      o.transform.orientation = ground_orientation(heading, normal);
    }
  }
  (void)world;
}

void MoveSystem::step(world::World& world, float dt) {
  stats_.steps += 1;
  gather(world);
  if (!env_ || !(dt > 0.0f)) return;  // paused: nothing moves, no contact changes
  const MoveParams& params = env_->params;
  // 2. broad phase on the current positions (the wizard's neighbours).
  positions_.clear();
  for (const Mover& m : movers_) positions_.push_back(m.xy);
  grid_.build(positions_, cell_);
  std::vector<ContactKey> touching;
  // 3. behaviour, wizard, control -> candidates; 4. the terrain narrow phase.
  std::size_t memo = 0;
  for (Mover& m : movers_) {
    if (!m.controlled) continue;
    think(world, m, dt);
    core::Vec3 normal{0.0f, 0.0f, 1.0f};
    if (env_->terrain) {
      const std::uint64_t id = m.object->id().raw();
      while (memo < last_ground_.size() && last_ground_[memo].id < id) ++memo;
      const GroundMemo* g = memo < last_ground_.size() ? &last_ground_[memo] : nullptr;
      if (g != nullptr && g->id == id && g->xy.x == m.xy.x && g->xy.y == m.xy.y) {
        normal = g->sample.normal;  // the same point as the last step's final sample
      } else if (auto s = env_->terrain->surface_at(m.xy.x, m.xy.y)) {
        normal = s->normal;
      }
    }
    const core::Vec2 candidate = integrate(*m.control, m.xy, normal, dt, params);
    if (candidate.x == m.xy.x && candidate.y == m.xy.y) continue;
    if (ground_ok(candidate, &m.ground)) {
      m.xy = candidate;
      m.ground_xy = candidate;
      continue;
    }
    // Slide along one axis, X first; else stay. Either way the move was blocked.
    m.blocked = true;
    stats_.blocked_moves += 1;
    touching.emplace_back(m.object->id().raw(), 0);
    const core::Vec2 along_x{candidate.x, m.xy.y};
    const core::Vec2 along_y{m.xy.x, candidate.y};
    if (ground_ok(along_x)) {
      m.xy = along_x;
    } else if (ground_ok(along_y)) {
      m.xy = along_y;
    } else {
      m.control->speed = 0.0f;
    }
  }
  // 5. bodies.
  resolve_bodies(touching);
  // 6. final transforms.
  finish(world, dt);
  std::swap(last_ground_, next_ground_);
  // 7. contact events: each contact once, when it begins.
  std::sort(touching.begin(), touching.end());
  touching.erase(std::unique(touching.begin(), touching.end()), touching.end());
  std::size_t k = 0;
  for (const ContactKey& key : touching) {
    while (k < contacts_.size() && contacts_[k] < key) ++k;
    if (k < contacts_.size() && contacts_[k] == key) continue;
    const auto a = world.lookup(ObjectId::from_raw(key.first));
    const auto b = key.second != 0 ? world.lookup(ObjectId::from_raw(key.second)) : std::nullopt;
    if (!a) continue;
    world.post(
        world::Event{0, world::EventType::collision, *a, b.value_or(world::Handle{}), key.second == 0 ? 1 : 0, 0});
    stats_.contacts += 1;
  }
  contacts_ = std::move(touching);
}

world::ObjectId move_system_id(const world::World& world) {
  return ObjectId{world.local_player(), move::class_ids::kMoveSystem, 1};
}

MoveSystem* find_move_system(world::World& world) {
  WorldObject* o = world.find_live(move_system_id(world));
  if (o == nullptr || !o->controller) return nullptr;
  return dynamic_cast<MoveSystem*>(o->controller.get());
}

const MoveSystem* find_move_system(const world::World& world) {
  auto h = world.lookup(move_system_id(world));
  if (!h) return nullptr;
  const WorldObject* o = world.find(*h);
  if (o == nullptr || o->pending_delete() || !o->controller) return nullptr;
  return dynamic_cast<const MoveSystem*>(o->controller.get());
}

core::Result<MoveSystem*> ensure_move_system(world::World& world, const MoveEnvironmentPtr& env) {
  if (MoveSystem* s = find_move_system(world)) return s;
  SORTIE_CHECK(world.classes().add(kClasses));
  SORTIE_TRY(world::Handle h, world.create_object(move_system_id(world), std::string(MoveSystem::kKind)));
  WorldObject* o = world.find(h);
  o->visible = false;
  o->controller = std::make_unique<MoveSystem>(env);
  SORTIE_CHECK(world.add_to_game(h));
  return static_cast<MoveSystem*>(o->controller.get());
}

}  // namespace sortie::move
