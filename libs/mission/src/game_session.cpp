// The orders of a person's game (game_session.hpp): one rule for the local game and a joined
// player.
#include "sortie/mission/game_session.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sortie/move/commands.hpp"
#include "sortie/world/world.hpp"

namespace sortie::mission {

std::string_view to_string(ActionKind kind) {
  switch (kind) {
    case ActionKind::go:
      return "go";
    case ActionKind::follow:
      return "follow";
    case ActionKind::halt:
      return "halt";
    case ActionKind::drive:
      return "drive";
  }
  return "?";
}

std::vector<core::Vec2> formation_goals(core::Vec2 centre, core::Vec2 from, std::size_t count, float spacing) {
  std::vector<core::Vec2> goals;
  if (count == 0) return goals;
  // Forward: the way the group travels (from -> centre); +X when they coincide.
  core::Vec2 fwd{centre.x - from.x, centre.y - from.y};
  const float len = std::sqrt(fwd.x * fwd.x + fwd.y * fwd.y);
  fwd = len > 1e-3f ? core::Vec2{fwd.x / len, fwd.y / len} : core::Vec2{1.0f, 0.0f};
  const core::Vec2 side{-fwd.y, fwd.x};
  const auto per_row = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(count))));
  const std::size_t rows = (count + per_row - 1) / per_row;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t in_row = std::min(per_row, count - r * per_row);
    // Row 0 is the rearmost (nearest `from`); rows centred on the centre along the travel axis.
    const float along = (static_cast<float>(r) - static_cast<float>(rows - 1) * 0.5f) * -spacing;
    for (std::size_t c = 0; c < in_row; ++c) {
      const float across = (static_cast<float>(c) - static_cast<float>(in_row - 1) * 0.5f) * spacing;
      goals.push_back({centre.x + fwd.x * along + side.x * across, centre.y + fwd.y * along + side.y * across});
    }
  }
  return goals;
}

std::vector<world::ObjectId> commandable_units(std::span<const world::ObjectId> units,
                                               const std::function<bool(world::ObjectId)>& commandable) {
  std::vector<world::ObjectId> out;
  for (const auto& u : units)
    if (commandable(u)) out.push_back(u);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<std::pair<float, float>> clamp_drive(const PlayOptions& o, float speed, float turn) {
  if (!std::isfinite(speed) || !std::isfinite(turn)) return std::nullopt;
  return std::pair{std::clamp(speed, -o.max_drive_speed, o.max_drive_speed),
                   std::clamp(turn, -o.max_drive_turn, o.max_drive_turn)};
}

namespace {

const world::WorldObject* live(const world::World& w, world::ObjectId id) {
  const auto h = w.lookup(id);
  const world::WorldObject* o = h ? w.find(*h) : nullptr;
  return o != nullptr && !o->pending_delete() ? o : nullptr;
}

}  // namespace

core::Status OrderPlanner::go_to(const world::World& w, world::ObjectId unit, core::Vec2 goal,
                                 const CommandSink& sink) const {
  goal.x = std::clamp(goal.x, bounds_.min_x + 2.0f, std::max(bounds_.min_x + 2.0f, bounds_.max_x - 2.0f));
  goal.y = std::clamp(goal.y, bounds_.min_y + 2.0f, std::max(bounds_.min_y + 2.0f, bounds_.max_y - 2.0f));
  return sink(world::make_command(w.clock().tick, move::GotoCommand{unit, goal, options_.scenario.speed}));
}

void OrderPlanner::drop_follows(std::span<const world::ObjectId> units) {
  std::erase_if(follows_, [&](const Follow& f) { return std::binary_search(units.begin(), units.end(), f.unit); });
}

core::Vec2 OrderPlanner::follow_goal(const world::WorldObject& unit, core::Vec2 target) const {
  const core::Vec2 at{unit.transform.position.x, unit.transform.position.y};
  const float dx = target.x - at.x, dy = target.y - at.y;
  const float d = std::sqrt(dx * dx + dy * dy);
  if (d <= options_.follow_distance) return at;
  const float k = (d - options_.follow_distance) / d;
  return {at.x + dx * k, at.y + dy * k};
}

core::Status OrderPlanner::refresh_follows(const world::World& w, const CommandSink& sink) {
  const std::uint64_t tick = w.clock().tick;
  for (auto it = follows_.begin(); it != follows_.end();) {
    const world::WorldObject* u = live(w, it->unit);
    const world::WorldObject* t = live(w, it->target);
    if (u == nullptr || t == nullptr) {
      it = follows_.erase(it);
      continue;
    }
    if (tick >= it->next) {
      it->next = tick + std::max<std::uint32_t>(1, options_.follow_interval);
      const core::Vec2 now{t->transform.position.x, t->transform.position.y};
      const float mx = now.x - it->aimed.x, my = now.y - it->aimed.y;
      if (mx * mx + my * my > 4.0f) {
        it->aimed = now;
        SORTIE_CHECK(go_to(w, it->unit, follow_goal(*u, now), sink));
      }
    }
    ++it;
  }
  return {};
}

core::Status OrderPlanner::act(const world::World& w, const PlayAction& a, std::span<const world::ObjectId> units,
                               const CommandSink& sink) {
  const std::uint64_t tick = w.clock().tick;
  drop_follows(units);
  switch (a.kind) {
    case ActionKind::go: {
      core::Vec2 from{};
      for (const auto& u : units) {
        const auto& p = live(w, u)->transform.position;
        from.x += p.x / static_cast<float>(units.size());
        from.y += p.y / static_cast<float>(units.size());
      }
      auto goals = formation_goals(a.point, from, units.size(), options_.spacing);
      // Goals in order, each to the nearest unit still free (ties: the lower id).
      std::vector<world::ObjectId> free(units.begin(), units.end());
      std::vector<std::pair<world::ObjectId, core::Vec2>> orders;
      for (const core::Vec2& g : goals) {
        std::size_t best = 0;
        float best_d = std::numeric_limits<float>::max();
        for (std::size_t i = 0; i < free.size(); ++i) {
          const auto& p = live(w, free[i])->transform.position;
          const float d = (p.x - g.x) * (p.x - g.x) + (p.y - g.y) * (p.y - g.y);
          if (d < best_d) best_d = d, best = i;
        }
        orders.emplace_back(free[best], g);
        free.erase(free.begin() + static_cast<std::ptrdiff_t>(best));
      }
      std::sort(orders.begin(), orders.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      for (const auto& [unit, goal] : orders) SORTIE_CHECK(go_to(w, unit, goal, sink));
      return {};
    }
    case ActionKind::follow: {
      const world::WorldObject* t = live(w, a.target);
      if (t == nullptr) return {};
      const core::Vec2 now{t->transform.position.x, t->transform.position.y};
      for (const auto& u : units) {
        if (u == a.target) continue;
        follows_.push_back(Follow{u, a.target, now, tick + std::max<std::uint32_t>(1, options_.follow_interval)});
        SORTIE_CHECK(go_to(w, u, follow_goal(*live(w, u), now), sink));
      }
      std::sort(follows_.begin(), follows_.end(), [](const Follow& x, const Follow& y) { return x.unit < y.unit; });
      return {};
    }
    case ActionKind::halt:
      for (const auto& u : units) SORTIE_CHECK(sink(world::make_command(tick, move::HaltCommand{u})));
      return {};
    case ActionKind::drive:
      for (const auto& u : units) SORTIE_CHECK(sink(world::make_command(tick, move::DriveCommand{u, a.speed, a.turn})));
      return {};
  }
  return {};
}

std::optional<world::ObjectId> OrderPlanner::following(world::ObjectId unit) const {
  for (const auto& f : follows_)
    if (f.unit == unit) return f.target;
  return std::nullopt;
}

void OrderPlanner::forget(const std::function<bool(world::ObjectId)>& keep) {
  std::erase_if(follows_, [&](const Follow& f) { return !keep(f.unit); });
}

}  // namespace sortie::mission
