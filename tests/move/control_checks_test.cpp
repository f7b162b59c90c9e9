// Seed 001, "Проверки Control": one test per item of the check list, named after it.
//   движение без препятствий                            -> movement_without_obstacles
//   slope/terrain-following                             -> slope_terrain_following
//   симметричные pair-collision tests с переставленными IDs -> pair_collision_symmetric_under_permuted_ids
//   contact event отправляется один раз в предписанной фазе -> contact_event_sent_once_in_its_phase
//   удаление объекта в collision callback безопасно     -> deletion_in_collision_callback_is_safe
//   replay одинакового input log даёт одинаковые transforms -> replay_of_the_same_log_gives_the_same_transforms
//   collision proxy перестраивается после смены component/model state ->
//   collision_proxy_rebuilt_after_component_or_model_change
#include <gtest/gtest.h>

#include <cmath>

#include "sortie/core/det_math.hpp"
#include "sortie/world/command_log.hpp"
#include "sortie_test/move_world.hpp"

using namespace sortie;
using namespace sortie::move;
using namespace sortie::move_test;
using world::EventType;
using world::ObjectId;

namespace {

constexpr float kDt = 0.016f;  // 16 ms step

std::vector<world::Event> events_of(world::World& w) {
  return w.snapshot()->events;
}

}  // namespace

TEST(ControlChecks, movement_without_obstacles) {
  TestWorld t(environment(plane(64.0f), areal_grid(4, 16.0f)));
  const ObjectId u = t.unit(1, {10.0f, 10.0f});
  t.enable(u);
  t.go(u, {40.0f, 10.0f});
  t.tick();
  // Tick 0: the orders apply, Behavior plans, Control accelerates from rest along the heading
  // (0 = +X, no turn): speed = MaxAccel * dt, step = speed * dt on flat ground.
  const float speed = 0.0f + 24.0f * kDt;
  EXPECT_EQ(t.component<ControlState>(u).speed, speed);
  EXPECT_EQ(t.position(u).x, 10.0f + speed * kDt);
  EXPECT_EQ(t.position(u).y, 10.0f);
  EXPECT_EQ(t.component<BehaviorState>(u).mode, BehaviorMode::following);
  EXPECT_EQ(t.component<BehaviorState>(u).global_path, (std::vector<std::uint32_t>{0, 1, 2}));
  // It arrives: 30 units at 8 u/s with acceleration and braking takes a little over 4 s.
  int arrived_at = -1;
  for (int tick = 1; tick < 600 && arrived_at < 0; ++tick) {
    t.tick();
    for (const auto& e : events_of(*t.world))
      if (e.type == EventType::arrived && e.b == 0) arrived_at = tick;
  }
  ASSERT_GT(arrived_at, 230);
  ASSERT_LT(arrived_at, 300);
  EXPECT_NEAR(t.position(u).x, 40.0f, 0.1f);
  t.tick(30);  // braking ends within the arrival distance
  EXPECT_NEAR(t.position(u).x, 40.0f, 0.2f);
  EXPECT_EQ(t.position(u).y, 10.0f);  // a straight line: never left y = 10
  EXPECT_EQ(t.component<BehaviorState>(u).mode, BehaviorMode::arrived);
  const MoveStats& s = t.system().stats();
  EXPECT_EQ(s.arrivals, 1u);
  EXPECT_EQ(s.contacts, 0u);
  EXPECT_EQ(s.blocked_moves, 0u);
  EXPECT_EQ(s.failures, 0u);
}

TEST(ControlChecks, slope_terrain_following) {
  // z = 0.5 x: normal (-0.5, 0, 1) / sqrt(1.25). Walking up +X at full speed the horizontal step
  // is speed * dt / sqrt(1 + 0.5^2), the height stays on the plane and the pitch is -atan(0.5).
  TestWorld t(environment(plane(64.0f, 0.5f), areal_grid(4, 16.0f)));
  const ObjectId u = t.unit(1, {4.0f, 8.0f});
  t.enable(u);
  t.go(u, {60.0f, 8.0f});
  t.tick(60);  // 0.96 s: full speed (8 u/s is reached after 1/3 s)
  const core::Vec3 a = t.position(u);
  t.tick();
  const core::Vec3 b = t.position(u);
  EXPECT_EQ(t.component<ControlState>(u).speed, 8.0f);
  EXPECT_NEAR(b.x - a.x, 8.0f * kDt / std::sqrt(1.25f), 1e-5f);
  EXPECT_NEAR(b.z, 0.5f * b.x, 1e-4f);
  EXPECT_NEAR(a.z, 0.5f * a.x, 1e-4f);
  // The 3-D distance per step is the speed's.
  EXPECT_NEAR(core::distance(a, b), 8.0f * kDt, 1e-5f);
  const core::Vec3 o = t.object(u).transform.orientation;
  EXPECT_NEAR(o.y, -std::atan(0.5f), 1e-6f);  // pitch: nose up the slope
  EXPECT_NEAR(o.x, 0.0f, 1e-6f);              // no roll
  EXPECT_EQ(o.z, 0.0f);                       // heading +X
  // The body's up axis lies on the terrain normal.
  const core::Mat4 r = core::Mat4::iron3d_rotation(o);
  const core::Vec3 up = r.transform_direction({0, 0, 1});
  EXPECT_NEAR(up.x, -0.5f / std::sqrt(1.25f), 1e-5f);
  EXPECT_NEAR(up.z, 1.0f / std::sqrt(1.25f), 1e-5f);
}

namespace {

struct PairRun {
  core::Vec3 left;
  core::Vec3 right;
  std::uint64_t contacts;
};

// Two units walking at each other along y = 16 +- 0.25 (not head-on, so the geometry decides
// every side), with the wizard off: the bodies meet and are pushed apart. `left_index` and
// `right_index` are the ObjectId indices of the body starting left and the one starting right.
PairRun run_pair(std::uint32_t left_index, std::uint32_t right_index) {
  MoveParams p;
  p.use_wizard = false;
  TestWorld t(environment(plane(64.0f), areal_grid(4, 16.0f), p));
  const ObjectId left = t.unit(left_index, {20.0f, 16.25f});
  const ObjectId right = t.unit(right_index, {44.0f, 15.75f}, 3.14159265f);
  t.enable(left);
  t.enable(right);
  t.go(left, {50.0f, 16.25f});
  t.go(right, {14.0f, 15.75f});
  t.tick(150);
  return {t.position(left), t.position(right), t.system().stats().contacts};
}

}  // namespace

TEST(ControlChecks, pair_collision_symmetric_under_permuted_ids) {
  const PairRun a = run_pair(1, 2);
  const PairRun b = run_pair(2, 1);
  EXPECT_GE(a.contacts, 1u);
  EXPECT_EQ(a.contacts, b.contacts);
  // Bit for bit the same transforms, whichever body has the lower id.
  EXPECT_TRUE(core::same_bits(a.left, b.left));
  EXPECT_TRUE(core::same_bits(a.right, b.right));
  // They did collide: pushed apart to at least the sum of the radii in XY.
  EXPECT_GE(core::distance_xy(a.left, a.right), 2.0f - 1e-4f);
  // The narrow phase itself is antisymmetric to the bit.
  ProxyView x{{1.0f, 2.0f}, 0.0f, Shape::capsule, 1.0f, 2.0f, 1, ~0u, false};
  ProxyView y{{2.3f, 2.7f}, 0.5f, Shape::capsule, 0.8f, 2.0f, 1, ~0u, false};
  const auto xy = narrow_phase(x, y);
  const auto yx = narrow_phase(y, x);
  ASSERT_TRUE(xy && yx);
  EXPECT_EQ(xy->depth, yx->depth);
  EXPECT_EQ(xy->normal, -yx->normal);
}

TEST(ControlChecks, contact_event_sent_once_in_its_phase) {  // NOLINT(readability-function-size)
  MoveParams p;
  p.use_wizard = false;
  TestWorld t(environment(plane(64.0f), areal_grid(4, 16.0f), p));
  const ObjectId a = t.unit(1, {30.0f, 16.0f});
  const ObjectId b = t.unit(2, {33.0f, 16.0f}, 3.14159265f);
  t.enable(a);
  t.enable(b);
  // Head-on on one line, each wanting the other's side: they meet and keep pressing.
  t.go(a, {40.0f, 16.0f});
  t.go(b, {20.0f, 16.0f});
  int handled = 0;
  std::vector<world::Phase> phases;
  t.world->on(EventType::collision, [&](world::World& w, const world::Event& e) {
    ++handled;
    phases.push_back(w.phase());
    EXPECT_TRUE(w.in_calculation());
    EXPECT_EQ(w.find(e.target)->id(), a);  // target = the lower ObjectId
    EXPECT_EQ(w.find(e.other)->id(), b);
    EXPECT_EQ(e.a, 0);  // a body contact
  });
  // Posted in the step that found the contact, dispatched at the start of the next tick.
  std::uint64_t contact_tick = 0;
  for (int i = 0; i < 200 && contact_tick == 0; ++i) {
    t.tick();
    if (t.system().stats().contacts > 0) contact_tick = t.world->clock().tick;
  }
  ASSERT_GT(contact_tick, 0u);
  EXPECT_EQ(handled, 0);  // not yet dispatched
  EXPECT_EQ(t.world->pending_events(), 1u);
  t.tick();
  EXPECT_EQ(handled, 1);
  t.tick(200);  // pressed together the whole time: still one event
  EXPECT_EQ(handled, 1);
  EXPECT_EQ(t.system().stats().contacts, 1u);
  ASSERT_EQ(t.system().contacts().size(), 1u);
  EXPECT_EQ(phases, (std::vector<world::Phase>{world::Phase::calculating}));
  // Separating and touching again is a new contact: a second event, one tick after it begins.
  t.go(a, {10.0f, 16.0f});
  t.tick(120);
  EXPECT_TRUE(t.system().contacts().empty());
  t.go(a, {40.0f, 16.0f});
  std::uint64_t second = 0;
  for (int i = 0; i < 400 && second == 0; ++i) {
    t.tick();
    if (t.system().stats().contacts > 1) second = t.world->clock().tick;
  }
  ASSERT_GT(second, 0u);
  EXPECT_EQ(handled, 1);
  t.tick();
  EXPECT_EQ(handled, 2);
}

TEST(ControlChecks, deletion_in_collision_callback_is_safe) {
  MoveParams p;
  p.use_wizard = false;
  TestWorld t(environment(plane(64.0f), areal_grid(4, 16.0f), p));
  const ObjectId a = t.unit(1, {20.0f, 16.0f});
  const ObjectId b = t.unit(2, {26.0f, 16.0f});
  t.enable(a);
  t.enable(b);
  t.go(a, {50.0f, 16.0f});
  bool requested = false;
  bool pending_seen = false;
  t.world->on(EventType::collision, [&](world::World& w, const world::Event& e) {
    // Delete the obstacle from inside the callback: deferred to the end of the pass.
    ASSERT_TRUE(w.request_delete(e.other));
    requested = true;
    pending_seen = w.find(e.other) != nullptr && w.find(e.other)->pending_delete();
  });
  for (int i = 0; i < 400 && !requested; ++i) t.tick();
  ASSERT_TRUE(requested);
  EXPECT_TRUE(pending_seen);                  // still there during the pass, marked
  EXPECT_EQ(t.world->find_live(b), nullptr);  // released after it
  EXPECT_FALSE(t.world->lookup(b).has_value());
  // The system dropped it and the survivor walks on to its target.
  bool arrived = false;
  for (int i = 0; i < 600 && !arrived; ++i) {
    t.tick();
    for (const auto& e : events_of(*t.world)) arrived |= e.type == EventType::arrived && e.b == 0;
  }
  EXPECT_TRUE(arrived);
  EXPECT_NEAR(t.position(a).x, 50.0f, 0.5f);
  EXPECT_EQ(t.system().members(), (std::vector<ObjectId>{a}));
  EXPECT_TRUE(t.system().contacts().empty());
}

namespace {

struct Recording {
  std::vector<std::vector<core::Transform>> transforms;  // per tick, per unit
  std::vector<std::vector<world::Event>> events;         // dispatched per tick
  std::vector<std::uint64_t> hashes;
  world::CommandLog log;
};

// Eight units crossing a 4 x 4 areal map with a blocked areal, orders given over time.
Recording record(const world::CommandLog* replay) {
  TestWorld t(environment(plane(64.0f), areal_grid(4, 16.0f, {5})), 7);
  std::vector<ObjectId> units;
  for (std::uint32_t i = 0; i < 8; ++i)
    units.push_back(t.unit(i + 1, {6.0f + 7.0f * static_cast<float>(i), 4.0f + 1.5f * static_cast<float>(i % 3)}));
  Recording r;
  if (replay != nullptr) {
    for (const auto& c : replay->commands) EXPECT_TRUE(t.world->submit(c));
  } else {
    for (const ObjectId& u : units) t.enable(u);
  }
  for (int tick = 0; tick < 400; ++tick) {
    if (replay == nullptr && tick % 50 == 0) {
      for (std::size_t i = 0; i < units.size(); ++i) {
        const float gx = 4.0f + static_cast<float>((tick / 50 * 5 + i * 7) % 56);
        const float gy = 60.0f - static_cast<float>((tick / 50 * 3 + i * 11) % 56);
        t.go(units[i], {gx, gy}, 6.0f + static_cast<float>(i % 3));
      }
    }
    t.tick();
    std::vector<core::Transform> tf;
    for (const ObjectId& u : units) tf.push_back(t.object(u).transform);
    r.transforms.push_back(std::move(tf));
    r.events.push_back(events_of(*t.world));
    r.hashes.push_back(t.world->last_hash());
  }
  r.log = t.world->command_log();
  return r;
}

bool same_events(const std::vector<world::Event>& a, const std::vector<world::Event>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].sequence != b[i].sequence || a[i].type != b[i].type || a[i].target != b[i].target ||
        a[i].other != b[i].other || a[i].a != b[i].a || a[i].b != b[i].b)
      return false;
  }
  return true;
}

}  // namespace

TEST(ControlChecks, replay_of_the_same_log_gives_the_same_transforms) {
  const Recording live = record(nullptr);
  // Through the byte log codec, as a recorded file would be.
  const auto registry = move_command_registry(environment(plane(64.0f), areal_grid(4, 16.0f, {5})));
  auto bytes = world::write_command_log(live.log, *registry);
  ASSERT_TRUE(bytes);
  auto log = world::read_command_log(*bytes, *registry);
  ASSERT_TRUE(log) << log.error().to_string();
  const Recording again = record(&*log);
  ASSERT_EQ(again.transforms.size(), live.transforms.size());
  std::size_t contact_events = 0;
  for (std::size_t tick = 0; tick < live.transforms.size(); ++tick) {
    for (std::size_t u = 0; u < live.transforms[tick].size(); ++u)
      ASSERT_TRUE(core::same_bits(live.transforms[tick][u], again.transforms[tick][u]))
          << "tick " << tick << " unit " << u;
    ASSERT_TRUE(same_events(live.events[tick], again.events[tick])) << "tick " << tick;
    for (const auto& e : live.events[tick]) contact_events += e.type == EventType::collision;
  }
  EXPECT_EQ(live.hashes, again.hashes);
  EXPECT_GT(contact_events, 0u);  // the run did exercise contacts
}

TEST(ControlChecks, collision_proxy_rebuilt_after_component_or_model_change) {
  MoveParams p;
  p.use_wizard = false;
  TestWorld t(environment(plane(64.0f), areal_grid(4, 16.0f), p));
  const ObjectId a = t.unit(1, {30.0f, 30.0f});
  const ObjectId b = t.unit(2, {33.0f, 30.0f});
  t.enable(a);
  t.enable(b);
  t.tick();
  EXPECT_EQ(t.component<CollisionProxy>(a).radius, 1.0f);
  EXPECT_EQ(t.component<CollisionProxy>(a).rebuilds, 1u);
  EXPECT_EQ(t.system().stats().proxies_rebuilt, 2u);
  EXPECT_EQ(t.system().stats().contacts, 0u);  // 3 apart, radii 1 + 1
  // Component state: a new body with radius 2.5 -> the proxy follows at the next step, and
  // now the two overlap (2.5 + 1 > 3): a contact, and they are pushed apart.
  t.enable(a, 2.5f);
  t.tick();
  EXPECT_EQ(t.component<Body>(a).revision, 2u);
  EXPECT_EQ(t.component<CollisionProxy>(a).radius, 2.5f);
  EXPECT_EQ(t.component<CollisionProxy>(a).body_revision, 2u);
  EXPECT_EQ(t.component<CollisionProxy>(a).rebuilds, 2u);
  EXPECT_EQ(t.system().stats().contacts, 1u);
  EXPECT_GE(core::distance_xy(t.position(a), t.position(b)), 3.5f - 1e-4f);
  // Model state: the object's model changes -> rebuilt again (same body).
  t.object(b).prototype_key = "unit_upgraded";
  t.tick();
  EXPECT_EQ(t.component<CollisionProxy>(b).rebuilds, 2u);
  EXPECT_EQ(t.component<CollisionProxy>(a).rebuilds, 2u);  // unchanged
  EXPECT_EQ(t.system().stats().proxies_rebuilt, 4u);
}
