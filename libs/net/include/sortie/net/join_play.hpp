#pragma once
// A joined player's game (issue #19 part 7): the mission game (game::MissionGame) over a client's
// replica instead of a local world. It is a mission::GameSession: the same selection, formation,
// follow, stop and piloting as the viewer's own game (one mission::OrderPlanner), but its
// movement commands travel as NET_ORDERs; the server checks that the player owns every target
// (`order_rejected why=not_owner` otherwise), stamps them with its next tick and sends them to
// every replica, so they are logged and replayed like the server's own orders.
//
// The player's units: once the client follows live, claim() takes (GMSG_TAKE_OBJECT) every unit
// of its clan the authority still owns, at most the server's per-player limit. The clan is the
// one `clan` names (data.tma's clan name), by default the mission's player clan (the one a
// person plays in the viewer's own game); a unit another player took first stays theirs.
//
//   JoinPlay play(client, mission, {});   // mission: the session's mission, loaded locally
//   each frame:  session.pump(); play.step();   // claims once, re-aims follows
//   MissionGame game(play, scene);               // orders as in the local game
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sortie/mission/game_session.hpp"
#include "sortie/net/client.hpp"

namespace sortie::net {

struct JoinPlayOptions {
  std::string clan;   // data.tma's clan name; empty: the mission's player clan
  bool claim = true;  // false: a spectator (commands nothing)
  mission::PlayOptions play;
};

class JoinPlay final : public mission::GameSession {
 public:
  // `mission`: the session's mission loaded locally (its data; the world played is the replica's).
  // Errors: join.not_ready (the client's replica has no setup yet), join.clan (`clan` names no
  // clan of the mission).
  static core::Result<std::unique_ptr<JoinPlay>> create(Client& client, const mission::LoadedMission& mission,
                                                        JoinPlayOptions options = {});

  // Once the client follows live: claims the clan's units (once); then the follows re-aim.
  // Errors: the client's (net.session.closed).
  core::Status step();
  // The units claimed (takes sent), 0 before.
  [[nodiscard]] std::size_t claimed() const { return claimed_; }
  [[nodiscard]] bool claim_sent() const { return claim_sent_; }
  // The replica's tick when the claim was sent.
  [[nodiscard]] std::uint64_t claim_tick() const { return claim_tick_; }
  // Orders sent (NET_ORDERs), and the first error sending one (the client closed).
  [[nodiscard]] std::uint64_t orders_sent() const { return orders_sent_; }

  [[nodiscard]] const world::World& world() const override;
  [[nodiscard]] const mission::LoadedMission& mission() const override { return mission_; }
  [[nodiscard]] std::uint64_t tick_number() const override { return client_.ticks(); }
  [[nodiscard]] bool decided() const override;
  [[nodiscard]] bool runs_ticks() const override { return false; }
  core::Status tick() override { return {}; }
  [[nodiscard]] std::int32_t player_clan() const override { return clan_; }
  [[nodiscard]] const std::string& player_clan_name() const override { return clan_name_; }
  [[nodiscard]] std::optional<std::int32_t> clan_of(world::ObjectId id) const override;
  // A live unit with a moving body that the client's player owns.
  [[nodiscard]] bool commandable(world::ObjectId id) const override;
  [[nodiscard]] std::vector<world::ObjectId> player_units() const override;
  std::size_t go(std::span<const world::ObjectId> units, core::Vec2 point) override;
  std::size_t follow(std::span<const world::ObjectId> units, world::ObjectId target) override;
  std::size_t halt(std::span<const world::ObjectId> units) override;
  std::size_t drive(world::ObjectId unit, float speed, float turn) override;
  [[nodiscard]] std::optional<world::ObjectId> following(world::ObjectId unit) const override {
    return planner_.following(unit);
  }
  [[nodiscard]] std::optional<mission::PlayAction> last_action() const override { return last_; }
  [[nodiscard]] std::optional<mission::ScenarioSummary> summary() const override;
  [[nodiscard]] const std::vector<scenario::TraceLine>& messages() const override;
  [[nodiscard]] std::uint64_t message_count() const override { return 0; }
  [[nodiscard]] const mission::PlayOptions& options() const override { return options_.play; }

 private:
  JoinPlay(Client& client, const mission::LoadedMission& mission, JoinPlayOptions options);
  [[nodiscard]] bool playing() const;
  std::size_t give(mission::PlayAction a);
  [[nodiscard]] mission::CommandSink sink();

  Client& client_;
  const mission::LoadedMission& mission_;
  JoinPlayOptions options_;
  mission::OrderPlanner planner_;
  std::int32_t clan_ = -1;
  std::string clan_name_;
  bool claim_sent_ = false;
  std::size_t claimed_ = 0;
  std::uint64_t claim_tick_ = 0;
  std::uint64_t orders_sent_ = 0;
  std::optional<mission::PlayAction> last_;
  std::map<world::ObjectId, std::pair<float, float>> driving_;  // the last drive sent per unit
};

}  // namespace sortie::net
