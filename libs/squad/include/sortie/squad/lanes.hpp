#pragma once
// Lines of fire (seed 002 §1 and §4).
//
// lane_clear_from(from, target): the muzzle is `from` moved muzzleOffset towards the target;
//   1. allies: any live agent other than the shooter whose centre is closer than
//      bodyRadius + laneHalfWidth + safetyMargin (0.53) to the muzzle->target segment blocks;
//   2. walls: a DDA walk of muzzle->target through the wall grid;
//   3. range: |target - muzzle| > weaponRange.
// `from` is any point, so the solver asks "what if I stood there".
//
// The lane registry holds the lanes of firing agents and of lane-intent agents; an agent inside
// another's reserve (the lane threshold x laneReserveScale) is pushed perpendicular to it.
#include <cstdint>
#include <span>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/squad/spatial.hpp"
#include "sortie/squad/state.hpp"
#include "sortie/squad/tuning.hpp"
#include "sortie/squad/walls.hpp"

namespace sortie::squad {

struct LaneCheck {
  bool clear = false;
  bool blocked_by_ally = false;
  bool blocked_by_wall = false;
  bool out_of_range = false;
  std::int32_t ally = -1;  // a blocking ally
  core::Vec2 muzzle;
};

enum class LaneDetail : std::uint8_t {
  first_failure,  // stop at the first failed check (cheapest first: range, walls, allies)
  all_reasons,    // evaluate all three, in the seed's order, for the overlay flags
};

// `allies` indexes the live agents (index = agent index); `shooter` is left out (-1: none).
LaneCheck lane_clear_from(const WallGrid& walls, const Tuning& tuning, const BodyGrid& allies, std::int32_t shooter,
                          core::Vec2 from, core::Vec2 target, LaneDetail detail = LaneDetail::first_failure);

inline core::Vec2 muzzle_point(core::Vec2 from, core::Vec2 target, float muzzle_offset) {
  return from + core::normalize_or(target - from, {1.0f, 0.0f}) * muzzle_offset;
}

// Push of one lane on a point: perpendicular to the lane, towards the side the point is on (the
// right-hand side when exactly on the axis), of size min(1, (1 - d/reserve) x strength) inside the
// reserve, zero outside.
core::Vec2 lane_push(core::Vec2 p, const Lane& lane, float reserve, float strength);

class LaneRegistry {
 public:
  void reset(float width, float height);
  void clear() { lanes_.clear(); }
  void add(const Lane& lane) { lanes_.push_back(lane); }
  // Indexes the lanes by cell; call after the last add() of a tick.
  void build(float reserve);

  [[nodiscard]] std::span<const Lane> lanes() const { return lanes_; }
  // Sum of lane_push over the lanes of other agents, saturated to length 1. When two of those
  // pushes oppose (the agent stands between lanes), the push instead goes across the lanes' mean
  // direction towards the side where leaving every reserve takes the shorter way.
  [[nodiscard]] core::Vec2 avoidance(core::Vec2 p, std::int32_t self, float strength) const;
  // Number of other agents' lanes passing closer than `threshold` to p (the solver's block term).
  [[nodiscard]] int count_blocked(core::Vec2 p, std::int32_t self, float threshold) const;

 private:
  std::vector<Lane> lanes_;
  float reserve_ = 1.0f;
  int cols_ = 1;
  int rows_ = 1;
  std::vector<std::uint32_t> start_;
  std::vector<std::uint32_t> items_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> scratch_;  // (cell, lane)
  [[nodiscard]] int cell_index(core::Vec2 p) const;
};

}  // namespace sortie::squad
