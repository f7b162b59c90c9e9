#pragma once
// The firing-position solver's pure parts (seed 002 §3): candidates, score terms, the commit rule.
// The simulation gathers the facts of each candidate (lanes, allies, distances) and calls these.
#include <array>

#include "sortie/core/math.hpp"
#include "sortie/squad/tuning.hpp"

namespace sortie::squad {

// Unit directions of the 12 ring spokes, 30 degrees apart starting at +x (exact table: no libm).
const std::array<core::Vec2, kRingDirections>& ring_directions();

// Index 0 is the current position; then ring r (0..2), direction k (0..11) at 1 + 12 r + k with
// radius ringRadius1/2/3.
std::array<core::Vec2, kCandidateCount> candidate_positions(core::Vec2 current, const Tuning& t);

struct CandidateFacts {
  bool lane_clear = false;               // a clear lane to the main target from the candidate
  int clear_targets = 0;                 // targets with a clear lane from the candidate
  int live_targets = 0;                  // all live targets
  int blocked_allies = 0;                // allies whose current lane the candidate blocks
  float move_distance = 0.0f;            // from the agent's current position
  float anchor_distance = 0.0f;          // from the squad's disc
  float nearest_target_distance = 0.0f;  // to the nearest live target (large when none)
};

struct ScoreTerms {
  float lane = 0.0f;      // +100 if lane_clear
  float share = 0.0f;     // +25 x clear/live
  float block = 0.0f;     // -35 x blocked allies
  float move = 0.0f;      // -9 x move distance
  float cohesion = 0.0f;  // -24 x max(0, anchor distance - 2.1)
  float close = 0.0f;     // -60 if the nearest target is closer than 1.6
  [[nodiscard]] float total() const { return lane + share + block + move + cohesion + close; }
};

ScoreTerms score_candidate(const CandidateFacts& f, const Tuning& t);

// The hysteresis rule: a new post only when it is better by more than commitMargin.
inline bool should_commit(float best_score, float current_score, const Tuning& t) {
  return best_score > current_score + t.commit_margin;
}
// The hard limit: candidates farther than cohesionRadius + postLeash from the disc are rejected.
inline bool beyond_hard_limit(float anchor_distance, const Tuning& t) {
  return anchor_distance > hard_limit(t);
}

}  // namespace sortie::squad
