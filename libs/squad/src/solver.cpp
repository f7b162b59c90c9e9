#include "sortie/squad/solver.hpp"

#include <algorithm>

namespace sortie::squad {

const std::array<core::Vec2, kRingDirections>& ring_directions() {
  constexpr float kHalf = 0.5f;
  constexpr float kRoot3Half = 0.8660254037844386f;
  static const std::array<core::Vec2, kRingDirections> kDirs{{
      {1.0f, 0.0f},
      {kRoot3Half, kHalf},
      {kHalf, kRoot3Half},
      {0.0f, 1.0f},
      {-kHalf, kRoot3Half},
      {-kRoot3Half, kHalf},
      {-1.0f, 0.0f},
      {-kRoot3Half, -kHalf},
      {-kHalf, -kRoot3Half},
      {0.0f, -1.0f},
      {kHalf, -kRoot3Half},
      {kRoot3Half, -kHalf},
  }};
  return kDirs;
}

std::array<core::Vec2, kCandidateCount> candidate_positions(core::Vec2 current, const Tuning& t) {
  std::array<core::Vec2, kCandidateCount> out{};
  out[0] = current;
  const float radii[kRingCount] = {t.ring_radius_1, t.ring_radius_2, t.ring_radius_3};
  const auto& dirs = ring_directions();
  for (int r = 0; r < kRingCount; ++r) {
    for (int k = 0; k < kRingDirections; ++k) {
      out[static_cast<std::size_t>(1 + r * kRingDirections + k)] =
          current + dirs[static_cast<std::size_t>(k)] * radii[r];
    }
  }
  return out;
}

ScoreTerms score_candidate(const CandidateFacts& f, const Tuning& t) {
  ScoreTerms s;
  s.lane = f.lane_clear ? t.score_lane : 0.0f;
  s.share = f.live_targets > 0
                ? t.score_share * (static_cast<float>(f.clear_targets) / static_cast<float>(f.live_targets))
                : 0.0f;
  s.block = -t.score_block * static_cast<float>(f.blocked_allies);
  s.move = -t.score_move * f.move_distance;
  s.cohesion = -t.score_cohesion * std::max(0.0f, f.anchor_distance - t.cohesion_radius);
  s.close = f.nearest_target_distance < t.min_engage_dist ? -t.score_close : 0.0f;
  return s;
}

}  // namespace sortie::squad
