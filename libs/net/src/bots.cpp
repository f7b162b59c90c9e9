#include "sortie/net/bots.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "sortie/move/commands.hpp"
#include "sortie/move/components.hpp"
#include "sortie/net/class_ids.hpp"
#include "sortie/net/net_commands.hpp"

namespace sortie::net {

namespace {

// Units owned by `owner`, ascending id.
std::vector<world::ObjectId> units_of(const world::World& w, PlayerNumber owner) {
  std::vector<world::ObjectId> out;
  for (const world::Handle& h : w.queue()) {
    const world::WorldObject* o = w.find(h);
    if (o != nullptr && !o->pending_delete() && w.classes().is_unit(o->class_id()) && o->ownership().owner == owner)
      out.push_back(o->id());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The orders that walk `unit` to `goal` with the movement stack, as `sortie run` gives them: a
// body first when the unit has none (a spawned or taken unit), then move.goto.
std::vector<world::Command> walk_orders(const world::World& w, world::ObjectId unit, core::Vec2 goal,
                                        const BotOptions& options) {
  std::vector<world::Command> out;
  const auto h = w.lookup(unit);
  const world::WorldObject* o = h ? w.find(*h) : nullptr;
  if (o != nullptr && !o->components.has<move::Body>()) {
    move::EnableCommand enable;
    enable.target = unit;
    enable.radius = options.unit_radius;
    enable.height = options.unit_height;
    enable.max_speed = options.speed;
    out.push_back(world::make_command(0, enable));
  }
  out.push_back(world::make_command(0, move::GotoCommand{unit, goal, options.speed}));
  return out;
}

core::Vec2 random_point(core::Rng& rng, const PlayArea& a) {
  const float margin = 4.0f;
  const float w = std::max(1.0f, a.max_x - a.min_x - 2 * margin);
  const float h = std::max(1.0f, a.max_y - a.min_y - 2 * margin);
  return {a.min_x + margin + rng.unit_f32() * w, a.min_y + margin + rng.unit_f32() * h};
}

}  // namespace

PlayArea play_area(const Replica& replica) {
  PlayArea a{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest(),
             std::numeric_limits<float>::lowest()};
  auto grow = [&](float x, float y) {
    a.min_x = std::min(a.min_x, x);
    a.min_y = std::min(a.min_y, y);
    a.max_x = std::max(a.max_x, x);
    a.max_y = std::max(a.max_y, y);
  };
  if (replica.terrain() && !replica.terrain()->positions.empty()) {
    for (const core::Vec3& p : replica.terrain()->positions) grow(p.x, p.y);
  } else {
    for (const world::Handle& h : replica.world().queue()) {
      const world::WorldObject* o = replica.world().find(h);
      if (o != nullptr) grow(o->transform.position.x, o->transform.position.y);
    }
  }
  if (!(a.min_x <= a.max_x) || !(a.min_y <= a.max_y)) return PlayArea{};
  return a;
}

core::Status HostBot::step(Server& server) {
  if (options_.interval == 0 || server.ticks() % options_.interval != 0) return {};
  const std::vector<world::ObjectId> units = units_of(server.world(), server.watcher().authority());
  if (units.empty()) return {};
  const PlayArea area = play_area(server.replica());
  for (std::uint32_t k = 0; k < options_.orders; ++k) {
    const world::ObjectId unit = units[rng_.below(static_cast<std::uint32_t>(units.size()))];
    const core::Vec2 goal = random_point(rng_, area);
    // Skip a unit the authority no longer routes (taken by a player since).
    if (server.watcher().route(server.world(), unit) != server.watcher().authority()) continue;
    for (const world::Command& c : walk_orders(server.world(), unit, goal, options_)) SORTIE_CHECK(server.submit(c));
  }
  return {};
}

core::Status ClientBot::step(Client& client) {
  if (client.state() != ClientState::in_game || client.ticks() < client.live_tick()) return {};
  const Replica& r = *client.replica();
  const world::World& w = r.world();
  const PlayArea area = play_area(r);
  if (!spawned_) {
    spawned_ = true;
    std::string prototype = r.prototypes().empty() ? std::string() : r.prototypes().front();
    for (const world::Handle& h : w.queue()) {  // prefer the prototype of a unit the mission placed
      const world::WorldObject* o = w.find(h);
      if (o != nullptr && o->class_id() != class_ids::kNetUnit && w.classes().is_unit(o->class_id())) {
        prototype = o->prototype_key;
        break;
      }
    }
    if (!prototype.empty()) {
      for (std::uint32_t i = 0; i < options_.units; ++i) {
        const core::Vec2 at = random_point(rng_, area);
        SORTIE_CHECK(client.order(world::make_command(
            0, SpawnForCommand{client.player(), class_ids::kNetUnit, prototype, core::Vec3{at.x, at.y, 0.0f}})));
        ++orders_;
      }
    }
    next_wave_ = client.ticks() + options_.interval;
  }
  if (options_.take && !took_) {
    const std::vector<world::ObjectId> theirs = units_of(w, w.local_player());
    if (!theirs.empty()) {
      took_ = true;
      SORTIE_CHECK(client.take(theirs[rng_.below(static_cast<std::uint32_t>(theirs.size()))]));
      ++orders_;
    }
  }
  const std::uint64_t now = client.now_us();
  if (options_.interval == 0 || client.ticks() < next_wave_ || now < next_wave_us_) return {};
  next_wave_ = client.ticks() + options_.interval;
  next_wave_us_ = now + options_.min_wave_us;
  const std::vector<world::ObjectId> mine = units_of(w, client.player());
  if (mine.empty()) return {};
  for (std::uint32_t k = 0; k < options_.orders; ++k) {
    const world::ObjectId unit = mine[rng_.below(static_cast<std::uint32_t>(mine.size()))];
    const core::Vec2 goal = random_point(rng_, area);
    for (const world::Command& c : walk_orders(w, unit, goal, options_)) {
      SORTIE_CHECK(client.order(c));
      ++orders_;
    }
  }
  return {};
}

}  // namespace sortie::net
