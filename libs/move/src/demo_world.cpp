#include "sortie/move/demo_world.hpp"

#include <memory>

#include "sortie/move/v1_movers.hpp"

namespace sortie::move {

namespace {

using world::Event;
using world::EventType;
using world::Handle;
using world::World;
using world::WorldObject;

using core::Transform;
using core::Vec2;
using core::Vec3;

// Every draw is its own statement: the order of function arguments is unspecified (gcc and
// clang differ), and the order of draws is part of the simulation.
Vec2 random_point(core::Rng& rng, float arena) {
  const float x = rng.unit_f32() * arena;
  const float y = rng.unit_f32() * arena;
  return Vec2{x, y};
}

float random_speed(core::Rng& rng) {
  return 4.0f + static_cast<float>(rng.below(8));
}

core::Result<Handle> spawn_unit(World& world, const DemoConfig& config) {
  core::Rng& rng = world.sim_rng();
  Transform t;
  const Vec2 p = random_point(rng, config.arena);
  t.position = Vec3{p.x, p.y, 0.0f};
  SORTIE_CHECK(world.classes().add(move::kClasses));
  SORTIE_TRY(Handle h, world.create_local_object(move::class_ids::kDemoUnit, "unit.demo", t));
  WorldObject* o = world.find(h);
  o->properties.set("hp", std::int64_t{100});
  o->properties.set("arrivals", std::int64_t{0});
  if (config.controllers) {
    const Vec2 target = random_point(rng, config.arena);
    const float speed = random_speed(rng);
    o->controller = std::make_unique<MoveController>(target, speed, world.height_field());
  }
  SORTIE_CHECK(world.add_to_game(h));  // deferred when called from a handler
  return h;
}

}  // namespace

core::Status populate_demo_world(World& world, const DemoConfig& config) {
  for (std::uint32_t i = 0; i < config.units; ++i) {
    SORTIE_TRY(Handle h, spawn_unit(world, config));
    (void)h;
  }
  world.on(EventType::arrived, [config](World& w, const Event& e) {
    WorldObject* self = w.find(e.target);
    if (self == nullptr) return;
    core::Rng& rng = w.sim_rng();
    const std::int64_t arrivals = self->properties.get_int("arrivals").value_or(0) + 1;
    self->properties.set("arrivals", arrivals);
    const std::uint32_t roll = rng.below(8);
    if (config.churn && roll == 0) {
      (void)w.request_delete(e.target);  // deferred: we are inside the calculation pass
      (void)spawn_unit(w, config);       // added after the traversal
      return;
    }
    if (roll <= 2 && !w.queue().empty()) {
      const Handle victim = w.queue()[rng.below(static_cast<std::uint32_t>(w.queue().size()))];
      const auto amount = static_cast<std::int64_t>(10 + rng.below(30));
      w.post(Event{0, EventType::damage, victim, e.target, amount, 0});
    }
    if (auto* move = dynamic_cast<MoveController*>(self->controller.get())) {
      const Vec2 target = random_point(rng, config.arena);
      const float speed = random_speed(rng);
      move->order(target, speed);
    }
  });
  world.on(EventType::damage, [config](World& w, const Event& e) {
    WorldObject* target = w.find(e.target);
    if (target == nullptr) return;
    const std::int64_t hp = target->properties.get_int("hp").value_or(0) - e.a;
    target->properties.set("hp", hp);
    if (hp <= 0 && config.churn) {
      (void)w.request_delete(e.target);
      (void)spawn_unit(w, config);
    }
  });
  return {};
}

}  // namespace sortie::move
