#include "sortie/net/server_scenario.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

#include "sortie/mission/scenario.hpp"

namespace sortie::net {

core::Result<std::unique_ptr<ServerScenario>> ServerScenario::create(Server& server, mission::LoadedMission& mission,
                                                                     scenario::RuntimeOptions options) {
  // The server decides every command of a tick: the runtime's join its sequence.
  options.submit = [&server](world::Command c) { return server.submit(c); };
  SORTIE_TRY(auto runtime,
             mission::make_scenario_runtime(mission, options, /*human=*/false, &server.replica().world()));
  if (!runtime) return std::unique_ptr<ServerScenario>();
  return std::unique_ptr<ServerScenario>(new ServerScenario(server, std::move(runtime)));
}

core::Status ServerScenario::before_tick() {
  if (decided()) return {};
  // The players of the session's world now (GMSG_CREATE_REMOTE_PLAYER / GMSG_KILL_PLAYER of the
  // ticks run so far), the authority left out, compared with those the runtime knows of.
  std::set<PlayerNumber> now;
  const Replica& replica = server_.replica();
  for (const auto& [number, player] : replica.players())
    if (number != replica.welcome().authority) now.insert(number);
  std::vector<PlayerNumber> joined, left;
  std::set_difference(now.begin(), now.end(), players_.begin(), players_.end(), std::back_inserter(joined));
  std::set_difference(players_.begin(), players_.end(), now.begin(), now.end(), std::back_inserter(left));
  for (const PlayerNumber p : joined) runtime_->player_joined(p);
  for (const PlayerNumber p : left) runtime_->player_left(p);
  players_ = std::move(now);
  return mission::scenario_before_tick(*runtime_, server_.world());
}

bool ServerScenario::decided() const {
  return mission::scenario_decided(server_.world());
}

std::optional<mission::ScenarioSummary> ServerScenario::summary() const {
  return mission::summarize_scenario(server_.world(), runtime_.get());
}

}  // namespace sortie::net
