// The program bootstrap (mission/bootstrap.hpp) through `sortie run`'s library call: the stage
// order and the reverse teardown of a failed start, the trace channels of a short run of the
// embedded sample (tick stamps, contents, the state hash untouched) and the maintenance passes.
#include "sortie/mission/bootstrap.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/mission_run.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/world/command_registry.hpp"

using namespace sortie;
namespace fs = std::filesystem;

namespace {

class BootstrapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-bootstrap-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  mission::MissionRunRequest request(std::uint64_t ticks) const {
    mission::MissionRunRequest rq;
    rq.source = {{}, assets::SampleScale::demo, dir_ / "cache"};
    rq.ticks = ticks;
    return rq;
  }
  static std::vector<std::string> lines(const fs::path& file) {
    std::vector<std::string> out;
    auto text = core::read_text_file(file);
    if (!text) return out;
    std::size_t at = 0;
    while (at < text->size()) {
      const std::size_t nl = text->find('\n', at);
      out.push_back(text->substr(at, nl - at));
      at = nl == std::string::npos ? text->size() : nl + 1;
    }
    return out;
  }
  fs::path dir_;
};

std::size_t index_of(const std::vector<std::string>& v, const std::string& s) {
  return static_cast<std::size_t>(std::find(v.begin(), v.end(), s) - v.begin());
}

TEST_F(BootstrapTest, a_subsystem_failing_at_subsystems_ready_stops_the_started_ones_in_reverse) {
  auto rq = request(60);
  std::vector<std::string> stopped;
  rq.subsystems.push_back({world::Stage::subsystems_ready, "display", [] { return core::Status{}; },
                           [&] { stopped.push_back("display"); }});
  rq.subsystems.push_back({world::Stage::subsystems_ready, "sound",
                           [] { return core::fail(core::Diagnostic::error("sound.device", "no sound device")); },
                           [&] { stopped.push_back("sound"); }});
  rq.out_dir = dir_ / "out";
  rq.trace = {"lifecycle"};
  auto run = mission::run_mission(rq);
  ASSERT_TRUE(run.has_value());
  ASSERT_TRUE(run->failure);
  EXPECT_EQ(run->failure->code, "sound.device");  // the subsystem's own diagnostic, not lifecycle.start_failed
  EXPECT_FALSE(run->reached_main_loop);
  EXPECT_EQ(run->result.ticks, 0u);                         // the main loop never ran
  EXPECT_EQ(stopped, std::vector<std::string>{"display"});  // the failed one never started
  EXPECT_FALSE(fs::exists(rq.out_dir / "report.json"));     // nothing of the main loop
  const std::vector<std::string> expected = {"start archives",
                                             "stage LIBRARY_READY",
                                             "stage ENTRYPOINTS_READY",
                                             "stage SHELL_CREATED",
                                             "start mission",
                                             "stage GAME_CREATED",
                                             "start world",
                                             "start movement",
                                             "start scenario",
                                             "start display",
                                             "start sound",
                                             "fail sound",
                                             "stop display",
                                             "stop scenario",
                                             "stop movement",
                                             "stop world",
                                             "stage SUBSYSTEMS_CLOSED",
                                             "stop mission",
                                             "stage GAME_DELETED",
                                             "stop archives",
                                             "stage SHELL_DELETED"};
  EXPECT_EQ(run->lifecycle, expected);
  EXPECT_EQ(index_of(run->lifecycle, "stage MAIN_LOOP"), run->lifecycle.size());
  // The same stages in lifecycle.log, written although the start failed; each line has its tick.
  const auto log = lines(rq.out_dir / "lifecycle.log");
  ASSERT_EQ(log.size(), expected.size());
  for (std::size_t i = 0; i < log.size(); ++i) EXPECT_EQ(log[i], "tick 0: " + expected[i]);
}

TEST_F(BootstrapTest, a_run_goes_through_every_stage_and_its_traces_never_change_the_hash) {
  auto plain = request(240);
  auto none = mission::run_mission(plain);
  ASSERT_TRUE(none.has_value() && !none->failure) << (none ? none->failure->to_string() : none.error().to_string());
  EXPECT_TRUE(none->reached_main_loop);
  EXPECT_NE(index_of(none->lifecycle, "stage MAIN_LOOP"), none->lifecycle.size());
  EXPECT_EQ(none->lifecycle.back(), "stage SHELL_DELETED");

  auto traced = request(240);
  traced.out_dir = dir_ / "traced";
  traced.trace = {"all"};
  auto all = mission::run_mission(traced);
  ASSERT_TRUE(all.has_value() && !all->failure);
  EXPECT_EQ(all->result.final_hash, none->result.final_hash);
  EXPECT_EQ(all->result.checkpoints, none->result.checkpoints);

  // control: a unit starts its order at the tick its move.goto applies.
  const auto& registry = all->game->context.current()->world->commands();
  const auto* goto_kind = registry.find(move::GotoCommand::kName);
  ASSERT_NE(goto_kind, nullptr);
  const world::Command* first = nullptr;
  for (const auto& c : all->result.log.commands)
    if (c.kind == goto_kind->wire_id) {
      first = &c;
      break;
    }
  ASSERT_NE(first, nullptr) << "the sample's scenario orders its units";
  const auto order = world::decode_payload<move::GotoCommand>(first->payload);
  ASSERT_TRUE(order.has_value());
  const std::string start = fmt::format("tick {}: {} order start move.goto to", first->tick, order->target.to_string());
  const auto control = lines(traced.out_dir / "control.log");
  EXPECT_TRUE(std::any_of(control.begin(), control.end(), [&](const std::string& l) { return l.rfind(start, 0) == 0; }))
      << start;
  // behavior: the same unit plans its path at that tick (the movement step after the command).
  const auto behavior = lines(traced.out_dir / "behavior.log");
  const std::string planned = fmt::format("tick {}: {} planned revision", first->tick, order->target.to_string());
  EXPECT_TRUE(std::any_of(behavior.begin(), behavior.end(), [&](const std::string& l) {
    return l.rfind(planned, 0) == 0;
  })) << planned;
  // queue: the objects registered at load (tick 0), the commands of the order's tick.
  const auto queue = lines(traced.out_dir / "queue.log");
  ASSERT_FALSE(queue.empty());
  EXPECT_EQ(queue.front().rfind("tick 0: add ", 0), 0u) << queue.front();
  const std::string commands = fmt::format("tick {}: commands", first->tick);
  EXPECT_TRUE(std::any_of(queue.begin(), queue.end(), [&](const std::string& l) {
    return l.rfind(commands, 0) == 0 && l.find("move.goto x") != std::string::npos;
  })) << commands;
  // The last maintenance pass at the end of the run: trims with their counts.
  EXPECT_TRUE(std::any_of(queue.begin(), queue.end(), [](const std::string& l) {
    return l.find(": maintenance caches-20s (final pass)") != std::string::npos;
  }));
  EXPECT_TRUE(std::any_of(queue.begin(), queue.end(),
                          [](const std::string& l) { return l.find(": trim visual: ") != std::string::npos; }));
  // Every line of every file starts with its tick, and ticks never go past the run.
  const std::regex stamped(R"(^tick (\d+): .+$)");
  for (const char* channel : {"lifecycle", "queue", "behavior", "control", "lua", "superai"}) {
    const auto ls = lines(traced.out_dir / (std::string(channel) + ".log"));
    EXPECT_FALSE(ls.empty()) << channel;
    for (const auto& l : ls) {
      std::smatch m;
      ASSERT_TRUE(std::regex_match(l, m, stamped)) << channel << ": " << l;
      EXPECT_LE(std::stoull(m[1]), all->result.ticks) << l;
    }
  }
  // lifecycle: the teardown at the run's last tick.
  const auto lc = lines(traced.out_dir / "lifecycle.log");
  EXPECT_EQ(lc.front(), "tick 0: start archives");
  EXPECT_EQ(lc.back(), fmt::format("tick {}: stage SHELL_DELETED", all->result.ticks));  // the scenario's end

  // With tracing off nothing is written.
  auto quiet = request(30);
  quiet.out_dir = dir_ / "quiet";
  auto q = mission::run_mission(quiet);
  ASSERT_TRUE(q.has_value() && !q->failure);
  for (const auto& e : fs::directory_iterator(quiet.out_dir)) EXPECT_NE(e.path().extension(), ".log") << e.path();
}

TEST_F(BootstrapTest, the_20_s_pass_runs_by_the_fixed_step_and_trims_what_no_one_holds) {
  // 20 s of 16 ms ticks is 1250 ticks: the short pass runs at tick 1249's maintenance phase, and
  // the run's end runs both passes once more. Random orders: the sample's scenario ends sooner.
  auto rq = request(1300);
  rq.scenario = false;
  rq.out_dir = dir_ / "out";
  rq.trace = {"queue"};
  auto run = mission::run_mission(rq);
  ASSERT_TRUE(run.has_value() && !run->failure);
  std::vector<std::string> passes, visual, resolver;
  const std::regex counts(R"(: trim [a-z.]+: (\d+) -> (\d+) entries)");
  for (const auto& l : lines(rq.out_dir / "queue.log")) {
    if (l.find(": maintenance caches-") != std::string::npos) passes.push_back(l);
    if (l.find(": trim visual: ") != std::string::npos) visual.push_back(l);
    if (l.find(": trim resolver: ") != std::string::npos) resolver.push_back(l);
  }
  ASSERT_EQ(passes.size(), 3u);
  EXPECT_EQ(passes[0], "tick 1249: maintenance caches-20s at 20.000 s");
  EXPECT_EQ(passes[1], "tick 1300: maintenance caches-20s (final pass)");
  EXPECT_EQ(passes[2], "tick 1300: maintenance caches-60s (final pass)");
  ASSERT_EQ(visual.size(), 2u);
  ASSERT_EQ(resolver.size(), 2u);
  // The mission's store holds every prepared visual: both passes keep them all.
  for (const auto& l : visual) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(l, m, counts)) << l;
    EXPECT_EQ(m[1], m[2]) << l;
    EXPECT_NE(m[1], "0") << l;
  }
  // The resolver's checks were looked up at the load, in the first pass's period: kept then; not
  // since: dropped by the second, but for the effect the store holds.
  std::smatch first, second;
  ASSERT_TRUE(std::regex_search(resolver[0], first, counts));
  ASSERT_TRUE(std::regex_search(resolver[1], second, counts));
  EXPECT_EQ(first[1], first[2]);
  EXPECT_EQ(second[1], first[2]);
  EXPECT_LT(std::stoull(second[2]), std::stoull(second[1]));

  // The deep pass again: the directory listings, used in no pass since the load, go; the mounts
  // no one holds go too.
  mission::GameContext& game = run->game->context;
  const auto deep = mission::long_maintenance(game);
  ASSERT_EQ(deep.size(), 2u);
  EXPECT_EQ(deep[0].cache, "vfs.listings");
  EXPECT_GT(deep[0].entries_before, 0u);
  EXPECT_EQ(deep[0].entries_after, 0u);
  EXPECT_EQ(deep[0].bytes_after, 0u);
  EXPECT_EQ(deep[1].cache, "archives");
  EXPECT_LE(deep[1].entries_after, deep[1].entries_before);
  // ... and everything comes back on demand: the same mission loads again to the state and the
  // prepared visuals of a load in a game opened afresh.
  mission::MissionLoadOptions lo;
  lo.world.seed = 1;
  auto again = game.load(run->game->mission, lo);
  ASSERT_TRUE(again.has_value() && again->ok);
  auto fresh = mission::open_game(run->dir, run->game->mission);
  ASSERT_TRUE(fresh.has_value());
  auto fresh_load = fresh->context.load(fresh->mission, lo);
  ASSERT_TRUE(fresh_load.has_value() && fresh_load->ok);
  EXPECT_EQ(game.current()->world->compute_state_hash(), fresh->context.current()->world->compute_state_hash());
  EXPECT_EQ(again->visuals.texture_bytes, fresh_load->visuals.texture_bytes);
  EXPECT_EQ(again->visuals.textures, run->load.visuals.textures);
  EXPECT_EQ(again->visuals.texture_bytes, run->load.visuals.texture_bytes);
  EXPECT_EQ(again->visuals.meshes, run->load.visuals.meshes);
}

}  // namespace
