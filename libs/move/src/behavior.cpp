#include "sortie/move/behavior.hpp"

#include <algorithm>
#include <cmath>

namespace sortie::move {

void clear_paths(BehaviorState& s) {
  s.global_path.clear();
  s.local_path.clear();
  s.route_index = 0;
  s.next_point = 0;
}

MoveFailure plan_path(BehaviorState& s, core::Vec3 position, const MoveEnvironment& env,
                      nav::PathWorkspace& workspace) {
  clear_paths(s);
  s.path_revision += 1;
  auto fail_with = [&](MoveFailure f) {
    s.mode = BehaviorMode::failed;
    s.failure = f;
    return f;
  };
  if (!env.terrain) return fail_with(MoveFailure::no_terrain);
  if (!env.areals) return fail_with(MoveFailure::no_areal_map);
  const nav::ArealMap& map = *env.areals;
  const nav::LocateOptions here{true, position.z};
  const auto start = map.locate_areal(position.xy(), here);
  if (!start) {
    return fail_with(start.error() == nav::LocateMiss::not_walkable ? MoveFailure::non_walkable
                                                                    : MoveFailure::not_in_areal);
  }
  const auto goal = map.locate_areal(s.target, nav::LocateOptions{true, std::nullopt});
  if (!goal) {
    return fail_with(goal.error() == nav::LocateMiss::not_walkable ? MoveFailure::goal_not_walkable
                                                                   : MoveFailure::goal_off_map);
  }
  nav::PathOptions po;
  po.locate.z = position.z;
  auto path = map.find_path(position.xy(), s.target, po, &workspace);
  if (!path) return fail_with(MoveFailure::unreachable);  // both ends located: only the route can fail
  const auto& points = path->points;
  s.global_path = std::move(path->areals);
  s.current_areal = start->areal;
  s.origin = position.xy();
  // The trajectory: the funnel's corners after the start, each segment split evenly until it
  // has at least PathFind_MinPointInTrajectory points.
  const auto want = static_cast<std::size_t>(std::max(1, env.params.min_point_in_trajectory));
  std::vector<core::Vec2> corners(points.begin() + 1, points.end());
  if (corners.empty()) corners.push_back(s.target);
  if (corners.size() >= want) {
    s.local_path = std::move(corners);
  } else {
    // Split the longest segments first (lowest index on ties) until `want` points.
    std::vector<std::uint32_t> splits(corners.size(), 1);
    std::vector<core::Vec2> from(corners.size());
    for (std::size_t i = 0; i < corners.size(); ++i) from[i] = i == 0 ? position.xy() : corners[i - 1];
    for (std::size_t total = corners.size(); total < want; ++total) {
      std::size_t best = 0;
      float best_len = -1.0f;
      for (std::size_t i = 0; i < corners.size(); ++i) {
        const float len = core::distance(from[i], corners[i]) / static_cast<float>(splits[i]);
        if (len > best_len) {
          best_len = len;
          best = i;
        }
      }
      splits[best] += 1;
    }
    for (std::size_t i = 0; i < corners.size(); ++i) {
      for (std::uint32_t k = 1; k < splits[i]; ++k) {
        s.local_path.push_back(core::lerp(from[i], corners[i], static_cast<float>(k) / static_cast<float>(splits[i])));
      }
      s.local_path.push_back(corners[i]);
    }
  }
  s.mode = BehaviorMode::following;
  s.failure = MoveFailure::none;
  return MoveFailure::none;
}

PathCheck observe_areal(BehaviorState& s, std::uint32_t areal) {
  s.current_areal = areal;
  if (s.mode != BehaviorMode::following) return PathCheck::on_path;
  for (std::size_t i = s.route_index; i < s.global_path.size(); ++i) {
    if (s.global_path[i] == areal) {
      s.route_index = static_cast<std::uint32_t>(i);
      return PathCheck::on_path;
    }
  }
  // Back in an areal the path already passed also counts as on the path (a push backwards).
  for (std::size_t i = 0; i < s.route_index && i < s.global_path.size(); ++i) {
    if (s.global_path[i] == areal) return PathCheck::on_path;
  }
  s.replans_without_progress += 1;
  if (s.replans_without_progress > kMaxReplansWithoutProgress) return PathCheck::cycle;
  return PathCheck::off_path;
}

BehaviorIntent follow_path(BehaviorState& s, core::Vec2 position, const Body& body, const MoveParams& params,
                           bool obstructed) {
  BehaviorIntent out;
  if (s.mode != BehaviorMode::following || s.local_path.empty()) return out;
  const auto last = static_cast<std::uint32_t>(s.local_path.size() - 1);
  auto passed = [&](std::uint32_t i) {
    const core::Vec2 a = i == 0 ? s.origin : s.local_path[i - 1];
    const core::Vec2 p = s.local_path[i];
    const core::Vec2 q = s.local_path[i + 1];
    const float d = core::distance(position, p);
    const core::Vec2 in = p - a;
    const core::Vec2 on = q - p;
    const bool corner = std::fabs(core::cross(in, on)) > 1e-6f * core::length(in) * core::length(on);
    if (corner) return d <= kArriveDistance || core::dot(position - p, in) >= 0.0f;
    return d <= params.step_dist || core::distance(position, q) < core::length(on);
  };
  while (s.next_point < last && passed(s.next_point)) {
    s.next_point += 1;
    s.replans_without_progress = 0;
  }
  const core::Vec2 aim = s.local_path[std::min(s.next_point, last)];
  const float to_target = core::distance(position, s.target);
  if (s.next_point >= last && (to_target <= kArriveDistance || (obstructed && to_target <= body.radius))) {
    out.arrived = true;
    return out;
  }
  const core::Vec2 d = aim - position;
  const float len = core::length(d);
  if (len > 0.0f) out.direction = d / len;
  // Remaining distance along the trajectory, for braking before the target.
  float remaining = len;
  for (std::uint32_t i = s.next_point; i < last; ++i) remaining += core::distance(s.local_path[i], s.local_path[i + 1]);
  const float brake = std::sqrt(2.0f * params.max_accel * remaining);
  out.speed = std::min({s.speed, body.max_speed, brake});
  return out;
}

}  // namespace sortie::move
