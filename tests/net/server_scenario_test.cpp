// The mission's scenario on a served world (net/server_scenario.hpp; issue #18 part 2), over the
// in-process transport and a manual clock: the demo sample's m01 with its Lua script and SuperAI
// runs on the server, two clients with bots end on the server's hash and learn the outcome, the
// server's message log replays to it, a session without players ends on `sortie run`'s hash, a
// script error stops the script and not the session, and a late joiner gets the scenario state.
#include "sortie/net/server_scenario.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/mission/scenario.hpp"
#include "sortie/net/bots.hpp"
#include "sortie/net/message_log.hpp"
#include "sortie/net/serve_session.hpp"
#include "sortie/net/session_report.hpp"
#include "sortie/scenario/commands.hpp"
#include "sortie_test/demo_game.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;
using net::test::MemorySession;

namespace {

constexpr const char* kScriptPath = "MISSIONS/m01/mission.lua";
constexpr std::uint64_t kSeed = 1;

// The demo sample's m01 served over the in-process transport: its setup hosted, the units'
// bodies submitted and its scenario on the server's world (as `sortie serve` does it).
class ServedMission {
 public:
  explicit ServedMission(const sortie::test::Files& files = sortie::test::demo_files())
      : context_(sortie::test::game_over(files)) {
    auto hosted = host_mission(context_, "m01", kSeed);
    EXPECT_TRUE(hosted) << (hosted ? "" : hosted.error().to_string());
    if (!hosted) return;
    session_ = std::make_unique<MemorySession>(hosted->setup);
    for (const world::Command& c : hosted->start) EXPECT_TRUE(session_->server().submit(c));
    scenario::RuntimeOptions ro;
    ro.seed = kSeed;
    auto sc = ServerScenario::create(session_->server(), *context_.current(), ro);
    EXPECT_TRUE(sc) << (sc ? "" : sc.error().to_string());
    if (sc) scenario_ = std::move(*sc);
    EXPECT_NE(scenario_, nullptr);
    session_->before_tick([this] { return scenario_->before_tick(); });
  }

  [[nodiscard]] bool ok() const { return session_ && scenario_; }
  MemorySession& session() { return *session_; }
  Server& server() { return session_->server(); }
  ServerScenario& scenario() { return *scenario_; }

  Client& add_client(const std::string& name) {
    Client& c = session_->add_client(name);
    BotOptions bo;
    bo.seed = bots_.size() + 1;
    bo.interval = 10;
    bots_.emplace_back(bo);
    session_->pump();
    return c;
  }
  // Ticks until the scenario's outcome or `limit` ticks; every client's bot acts after each tick.
  void play(std::uint64_t limit) {
    for (std::uint64_t t = 0; t < limit && !scenario_->decided(); ++t) {
      session_->tick();
      for (std::size_t i = 0; i < bots_.size(); ++i) {
        Client& c = session_->client(i);
        if (c.state() != ClientState::in_game) continue;
        auto st = bots_[i].step(c);
        EXPECT_TRUE(st) << (st ? "" : st.error().to_string());
      }
    }
    session_->pump();
  }

 private:
  mission::GameContext context_;
  std::unique_ptr<MemorySession> session_;
  std::unique_ptr<ServerScenario> scenario_;
  std::vector<ClientBot> bots_;
};

sortie::test::Files with_script(const std::string& script) {
  sortie::test::Files files = sortie::test::demo_files();
  files[kScriptPath] = core::Bytes(script.begin(), script.end());
  return files;
}

// A client's replica has the server's objectives and outcome.
void expect_same_scenario(const Client& client, const mission::ScenarioSummary& server) {
  ASSERT_NE(client.replica(), nullptr);
  const auto mine = mission::summarize_scenario(client.replica()->world(), nullptr);
  ASSERT_TRUE(mine.has_value());
  EXPECT_EQ(mine->outcome, server.outcome);
  EXPECT_EQ(mine->reason, server.reason);
  EXPECT_EQ(mine->tick, server.tick);
  EXPECT_EQ(mine->digest, server.digest);
  ASSERT_EQ(mine->objectives.size(), server.objectives.size());
  for (std::size_t i = 0; i < mine->objectives.size(); ++i) {
    EXPECT_EQ(mine->objectives[i].id, server.objectives[i].id);
    EXPECT_EQ(mine->objectives[i].status, server.objectives[i].status);
  }
  EXPECT_TRUE(mine->parts.empty());  // no part ran on the client
}

}  // namespace

TEST(ServerScenario, the_sample_script_and_superai_run_on_the_server_and_two_clients_end_on_its_hash) {
  ServedMission m;
  ASSERT_TRUE(m.ok());
  Client& alice = m.add_client("alice");
  Client& bob = m.add_client("bob");
  m.play(3000);
  ASSERT_TRUE(m.scenario().decided());
  const auto summary = m.scenario().summary();
  ASSERT_TRUE(summary.has_value());
  EXPECT_NE(summary->outcome, scenario::Outcome::none);
  EXPECT_EQ(summary->tick + 1, m.server().ticks());  // the game ended after the outcome's tick
  // The script and a SuperAI ran on the server, and still run.
  ASSERT_GE(summary->parts.size(), 2u);
  EXPECT_EQ(summary->parts.front().name, std::string("lua:") + kScriptPath);
  EXPECT_TRUE(summary->parts.front().running);
  EXPECT_TRUE(std::any_of(summary->parts.begin(), summary->parts.end(),
                          [](const scenario::PartStatus& p) { return p.name.rfind("superai:", 0) == 0 && p.running; }));
  EXPECT_GT(m.scenario().runtime().steps(), 100u);
  EXPECT_EQ(m.server().replica().players().size(), 3u);  // the authority, alice and bob
  const std::uint64_t hash = m.server().replica().state_hash();
  for (const Client* c : {&alice, &bob}) {
    ASSERT_EQ(c->state(), ClientState::in_game);
    EXPECT_EQ(c->ticks(), m.server().ticks());
    EXPECT_EQ(c->replica()->state_hash(), hash);
    EXPECT_EQ(c->stats().sync_mismatches, 0u);
    expect_same_scenario(*c, *summary);
  }
  // The server's message log (`sortie serve --log`) replays to the same hash without a script.
  const auto log = read_message_log(m.server().message_log());
  ASSERT_TRUE(log) << log.error().to_string();
  const auto replayed = replay_message_log(*log);
  ASSERT_TRUE(replayed) << replayed.error().to_string();
  EXPECT_EQ(replayed->ticks, m.server().ticks());
  EXPECT_EQ(replayed->final_hash, hash);
}

TEST(ServerScenario, without_players_a_served_mission_ends_on_the_hash_of_sortie_run) {
  ServedMission m;
  ASSERT_TRUE(m.ok());
  m.play(3000);
  ASSERT_TRUE(m.scenario().decided());
  // `sortie run` of the same mission: the same bodies, parts and steps, so the same world.
  mission::GameContext context = sortie::test::game_over(sortie::test::demo_files());
  mission::MissionLoadOptions lo;
  lo.world.seed = kSeed;
  const auto loaded = context.load("m01", lo);
  ASSERT_TRUE(loaded && loaded->ok);
  scenario::RuntimeOptions ro;
  ro.seed = kSeed;
  auto runtime = mission::make_scenario_runtime(*context.current(), ro);
  ASSERT_TRUE(runtime && *runtime);
  mission::ScenarioOptions so;
  so.ticks = 3000;
  so.seed = kSeed;
  so.wander = false;
  const auto run = mission::run_scenario(*context.current(), so, nullptr, runtime->get());
  ASSERT_TRUE(run) << run.error().to_string();
  EXPECT_EQ(run->ticks, m.server().ticks());
  EXPECT_EQ(run->final_hash, m.server().replica().state_hash());
  ASSERT_TRUE(run->scenario.has_value());
  EXPECT_EQ(run->scenario->outcome, m.scenario().summary()->outcome);
}

TEST(ServerScenario, a_script_error_on_the_server_stops_the_script_with_its_diagnostic_and_the_session_goes_on) {
  // human() reads false on a server: the player's clan stays the script's; the runtime tells the
  // script of a player who joined.
  ServedMission m(with_script(R"lua(
on_start(function() objective_add(human() and "human" or "machine", "Hold on") end)
on_player_joined(function(player) objective_add("player" .. player, "A player joined") end)
after(0.5, function() error("boom on the server") end)
)lua"));
  ASSERT_TRUE(m.ok());
  Client& alice = m.add_client("alice");
  m.play(120);
  EXPECT_EQ(m.server().ticks(), 120u);  // no outcome: the tick limit ends it
  EXPECT_FALSE(m.scenario().decided());
  const auto summary = m.scenario().summary();
  ASSERT_TRUE(summary.has_value());
  ASSERT_FALSE(summary->parts.empty());
  const scenario::PartStatus& lua = summary->parts.front();
  EXPECT_EQ(lua.name, std::string("lua:") + kScriptPath);
  EXPECT_FALSE(lua.running);
  ASSERT_TRUE(lua.error.has_value());
  EXPECT_EQ(lua.error->code, "lua.runtime");
  EXPECT_NE(lua.error->message.find("boom on the server"), std::string::npos) << lua.error->to_string();
  EXPECT_EQ(lua.error->field, "tick 32");  // 0.5 s: the timer is due at tick 32 (31.25 rounded up)
  for (std::size_t i = 1; i < summary->parts.size(); ++i) EXPECT_TRUE(summary->parts[i].running) << i;
  ASSERT_EQ(summary->objectives.size(), 2u);
  EXPECT_EQ(summary->objectives[0].id, "machine");
  EXPECT_EQ(summary->objectives[1].id, "player2");
  EXPECT_EQ(alice.ticks(), 120u);
  EXPECT_EQ(alice.replica()->state_hash(), m.server().replica().state_hash());
  expect_same_scenario(alice, *summary);
}

TEST(ServerScenario, a_late_joiner_gets_the_scenario_state_and_the_outcome) {
  ServedMission m;
  ASSERT_TRUE(m.ok());
  m.play(60);  // objectives set, the reinforcement spawned, no outcome yet
  ASSERT_FALSE(m.scenario().decided());
  Client& late = m.add_client("late");
  m.session().pump(10);
  ASSERT_EQ(late.state(), ClientState::in_game);
  EXPECT_EQ(late.live_tick(), 60u);
  const auto early = mission::summarize_scenario(late.replica()->world(), nullptr);
  ASSERT_TRUE(early.has_value());  // the catch-up built the scenario object
  EXPECT_EQ(early->objectives.size(), 2u);
  EXPECT_EQ(early->outcome, scenario::Outcome::none);
  m.play(3000);
  ASSERT_TRUE(m.scenario().decided());
  EXPECT_EQ(late.replica()->state_hash(), m.server().replica().state_hash());
  expect_same_scenario(late, *m.scenario().summary());
  EXPECT_EQ(m.server().replica().players().size(), 2u);  // the authority and the late joiner
}

TEST(ServerScenario, serve_session_plays_it_after_host_and_ends_at_the_outcome) {
  mission::GameContext context = sortie::test::game_over(sortie::test::demo_files());
  auto hosted = host_mission(context, "m01", kSeed);
  ASSERT_TRUE(hosted) << hosted.error().to_string();
  ServeOptions o;
  o.port = 0;
  o.ticks = 3000;
  o.fast = true;
  auto serve = ServeSession::listen(o);
  ASSERT_TRUE(serve) << serve.error().to_string();
  const auto early = (*serve)->play_scenario(*context.current());
  ASSERT_FALSE(early);
  EXPECT_EQ(early.error().code, "serve.scenario");
  ASSERT_TRUE((*serve)->host(hosted->setup));
  for (const world::Command& c : hosted->start) ASSERT_TRUE((*serve)->server().submit(c));
  ASSERT_TRUE((*serve)->play_scenario(*context.current()));
  ASSERT_NE((*serve)->scenario(), nullptr);
  const auto ran = (*serve)->run();
  ASSERT_TRUE(ran) << ran.error().diagnostic.to_string();
  ASSERT_TRUE((*serve)->scenario()->decided());
  const auto summary = (*serve)->scenario()->summary();
  ASSERT_TRUE(summary.has_value());
  EXPECT_EQ(summary->outcome, scenario::Outcome::win);
  EXPECT_EQ((*serve)->server().ticks(), summary->tick + 1);  // not the 3000 asked for
  const core::Json report = serve_report_json(**serve, hosted->setup);
  EXPECT_EQ(report.at("scenario").at("outcome"), "win");
  EXPECT_EQ(report.at("scenario").at("objectives").size(), 2u);
  EXPECT_NE(serve_report_text(**serve).find("scenario result: win at tick"), std::string::npos);
}
