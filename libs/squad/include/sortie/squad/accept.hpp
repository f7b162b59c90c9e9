#pragma once
// The acceptance run (issue 10 part 3): scripted scenarios for every behaviour, then three minutes
// of combat per map with the scripted player, one line per criterion with its figure and
// PASS/FAIL. Thresholds are fixed here and documented in docs/squad-maps.md; the simulation has
// to meet them, they are not tuned to it.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/squad/map.hpp"
#include "sortie/squad/sim.hpp"
#include "sortie/squad/spatial.hpp"

namespace sortie::squad {

struct Criterion {
  std::string scope;   // map label or "scenario"
  std::string name;    // FRIENDLY_HITS, FIRE_UPTIME_HOLDING, ...
  double value = 0.0;  // the figure as a number
  std::string figure;  // the figure as printed
  std::string need;    // the threshold, e.g. "= 0", ">= 0.60"
  bool pass = false;
};

struct AcceptReport {
  std::uint64_t seed = 0;
  std::vector<Criterion> criteria;
  [[nodiscard]] bool ok() const;
  [[nodiscard]] core::Json to_json() const;
  [[nodiscard]] std::string to_text() const;  // one line per criterion, then a summary line
};

struct NamedMap {
  std::string label;  // file name, shown as the scope
  SquadMap map;
};

struct AcceptOptions {
  std::uint64_t seed = 1;
  double combat_seconds = 180.0;
  bool scenarios = true;
  // Progress: (what is running, done, total).
  std::function<void(std::string_view, std::size_t, std::size_t)> progress;
};

// Thresholds.
inline constexpr double kUptimeMin = 0.60;  // clear-lane share of holding rifle-ticks with a target in sight
inline constexpr double kCommitsPerAgentSecondMax = 0.5;
inline constexpr double kOverlapMax = 0.05;  // deepest body overlap, units
// The holding distance counts agents that stand (slower than kStandingSpeed, units/s) from
// kHoldSettleSeconds after the halt: an agent walking to its post is not standing anywhere yet.
inline constexpr double kHoldSettleSeconds = 1.0;
inline constexpr double kStandingSpeed = 0.1;
inline constexpr double kDistanceRounding = 1e-3;  // float rounding of a distance held exactly at a bound

// Per-map combat figures of one run (exposed for tests).
struct CombatFigures {
  std::uint64_t ticks = 0;
  std::uint64_t friendly_hits = 0;
  std::uint64_t holding_rifle_ticks_engageable = 0;
  std::uint64_t holding_rifle_ticks_with_lane = 0;
  double max_disc_distance_holding = 0.0;  // standing agents, kHoldSettleSeconds after the halt
  double max_disc_distance_advancing = 0.0;
  double max_overlap = 0.0;
  double agent_seconds = 0.0;
  std::uint64_t commits = 0;
  std::uint64_t melee_hits = 0;
  std::uint64_t melee_through_ally = 0;  // hits whose blade->target segment crosses an ally's body
  std::uint64_t shots = 0;
  std::uint64_t kills = 0;
  std::uint64_t final_hash = 0;
  [[nodiscard]] double uptime() const;
};

// Observes a simulation after each step and accumulates the figures.
class CombatObserver {
 public:
  void observe(const SquadSim& sim);
  [[nodiscard]] const CombatFigures& figures() const { return f_; }

 private:
  CombatFigures f_;
  BodyGrid agents_;
  BodyGrid targets_;
  bool ready_ = false;
};

core::Result<AcceptReport> run_acceptance(std::span<const NamedMap> maps, const AcceptOptions& options);

// The scripted behaviour scenarios alone (accept_scenarios.cpp).
std::vector<Criterion> run_scenarios(std::uint64_t seed);

}  // namespace sortie::squad
