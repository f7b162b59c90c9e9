#pragma once
// SuperAI: the controller of one clan (seed 001: one SuperAI per clan, CreateSuperAI /
// GetSuperAI). It keeps a radar per unit — the hostile units within sensor range and in sight
// over the terrain — and, on a fixed cadence, decides each unit's order: patrol a route, guard a
// point, pursue the nearest visible enemy, or fall back to the guard point when outnumbered. It
// orders through the movement stack (move.goto / move.halt: Behavior -> Wizard -> Control), so
// everything it does is a logged command.
//
// What is ours, not the seed's (docs/superai.md): the seeds describe no weapons, so contact is
// the engagement rule — a hostile unit that stays within `engage_radius` of one of this clan's
// units, in sight, for `engage_ticks` consecutive ticks is destroyed (the `remove` command).
// Hostility comes from data.tma's relation table: a negative relation value, in either
// direction, makes two clans hostile. A unit belongs to the clan whose index in data.tma's clan
// list (0-based, handler 19's ClanID) is its `clan` property (the loader sets it from the
// placement's identity_or_clan word; a spawn sets it with set_property).
//
// Determinism: units in ObjectId order; a unit decides on the first tick it is in the clan,
// then on the ticks where (tick + its rank) % cadence == 0, so the work is spread over the cadence; ties in distance go
// to the lower ObjectId; no randomness.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/scenario/part.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::scenario {

enum class AiOrder : std::uint8_t { idle = 0, patrol = 1, guard = 2, pursue = 3, fall_back = 4 };
std::string_view to_string(AiOrder order);

struct SuperAIConfig {
  std::uint32_t cadence_ticks = 15;         // each unit decides once per cadence
  float sensor_range = 80.0f;               // radar radius (world units, ground plane)
  std::uint32_t max_tracks = 16;            // enemies a unit's radar holds (the nearest visible ones)
  float eye_height = 1.5f;                  // sight lines run between points this high above the units
  float speed = 6.0f;                       // move.goto speed of every order
  std::vector<core::Vec2> patrol_route{};   // empty: guard
  std::optional<core::Vec2> guard_point{};  // unset: the clan's anchor from data.tma
  float guard_radius = 24.0f;               // a guard returns when farther than this
  float arrive_radius = 3.0f;               // a patrol point counts as reached within this
  float leash = 0.0f;                       // pursue only enemies this close to the guard point (0: any)
  float fall_back_ratio = 0.5f;             // fall back when friends in range < ratio x enemies seen
  float regoal_distance = 2.0f;             // re-order a pursuit when the goal moved this much
  bool engage = true;                       // the contact rule above
  float engage_radius = 5.0f;
  std::uint32_t engage_ticks = 90;
};

inline constexpr std::uint64_t kNeverDecided = ~std::uint64_t{0};

// A unit's radar and order (what the HUD and the traces show).
struct UnitRadar {
  world::ObjectId unit;
  world::ObjectId target;  // the enemy pursued (null id when none)
  std::uint32_t enemies_seen = 0;
  std::uint32_t friends_near = 0;
  AiOrder order = AiOrder::idle;
  core::Vec2 goal{};
  std::uint32_t route_index = 0;
  std::uint64_t decided_tick = kNeverDecided;
};

struct SuperAIStats {
  std::uint64_t decisions = 0;
  std::uint64_t orders = 0;     // commands submitted (goto and halt)
  std::uint64_t sightings = 0;  // decisions that saw at least one enemy
  std::uint64_t kills = 0;      // hostile units removed by the contact rule
  std::uint64_t sight_rays = 0;
};

class SuperAI final : public ScenarioPart {
 public:
  // `clan_name` is the data.tma clan this controller plays.
  explicit SuperAI(std::string clan_name, SuperAIConfig config = {});

  [[nodiscard]] std::string name() const override { return "superai:" + clan_name_; }
  // Finds the clan (scenario.superai.clan_unknown when data.tma has none of that name), its
  // index, anchor and hostile clans.
  core::Status start(ScenarioContext& ctx) override;
  core::Status step(ScenarioContext& ctx) override;
  void encode(world::StateWriter& out) const override;
  // {"clan", "clan_id", "cadence", "radar": [{"unit", "target", "seen", "near", "order", "goal",
  // "route_index", "decided"}, ...], "contacts": [[ours, theirs, ticks], ...], "stats": [decisions,
  // orders, sightings, kills, sight_rays]}
  void image(nlohmann::json& out) const override;

  // Changes the configuration from the next decision on (a Lua script, the mission's data).
  void configure(SuperAIConfig config) { config_ = std::move(config); }
  [[nodiscard]] const SuperAIConfig& config() const { return config_; }
  [[nodiscard]] const std::string& clan_name() const { return clan_name_; }
  [[nodiscard]] std::int32_t clan_id() const { return clan_id_; }  // index in data.tma's clan list
  [[nodiscard]] const std::vector<std::int32_t>& hostile_clans() const { return hostile_; }
  [[nodiscard]] const std::vector<UnitRadar>& radar() const { return radar_; }
  [[nodiscard]] const SuperAIStats& stats() const { return stats_; }

  struct Contact {
    world::ObjectId ours;
    world::ObjectId theirs;
    std::uint32_t ticks = 0;
    friend auto operator<=>(const Contact&, const Contact&) = default;
  };

  // One unit of the world as the radar sees it (exposed for the implementation's helpers).
  struct Seen {
    world::ObjectId id;
    std::int32_t clan = 0;
    core::Vec3 position;
    bool played = false;  // owned by a player other than the world's local one (a networked player)
  };

 private:
  void decide(ScenarioContext& ctx, UnitRadar& unit, const Seen& self, const std::vector<Seen>& all);
  void order(ScenarioContext& ctx, UnitRadar& unit, AiOrder order, core::Vec2 goal, world::ObjectId target);
  void engage(ScenarioContext& ctx, const std::vector<Seen>& all);
  [[nodiscard]] bool hostile(std::int32_t clan) const;
  [[nodiscard]] bool in_sight(const ScenarioContext& ctx, const core::Vec3& from, const core::Vec3& to);

  std::string clan_name_;
  SuperAIConfig config_;
  std::int32_t clan_id_ = 0;
  core::Vec2 anchor_{};
  std::vector<std::int32_t> hostile_;  // ascending
  std::vector<UnitRadar> radar_;       // ObjectId order
  std::vector<Contact> contacts_;      // (ours, theirs) order
  SuperAIStats stats_;
};

// The clans SuperAI plays in a mission: every clan of data.tma that is not spatial (mode 0) and
// is hostile to another clan (a negative relation in either direction), in data.tma order,
// except `player_clan` (the clan a person plays; empty: none, as in a headless run).
std::vector<std::string> superai_clans(const iron3d::Tma& tma, std::string_view player_clan = {});

// The clan a person plays (and a mission script orders): the first clan of data.tma that is not
// spatial; empty when there is none. sortie's reading: the seeds do not say which clan is the
// player's.
std::string player_clan(const iron3d::Tma& tma);

}  // namespace sortie::scenario
