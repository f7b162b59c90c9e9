// Trace channels (world/trace.hpp): off by default, on by name or "all", lines stamped with the
// tick, written as <channel>.log; the world's "queue" channel; the maintenance clock's drives.
#include "sortie/world/trace.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "sortie/core/file_io.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/world.hpp"

using namespace sortie;
using namespace sortie::world;
namespace fs = std::filesystem;

namespace {

TraceOptions options(std::vector<std::string> channels, fs::path dir = {}, std::size_t max_lines = kMaxTraceLines) {
  TraceOptions o;
  o.channels = std::move(channels);
  o.dir = std::move(dir);
  o.max_lines = max_lines;
  return o;
}

TEST(Trace, a_channel_is_off_unless_named_and_all_turns_every_one_on) {
  Trace off;
  EXPECT_FALSE(off.any());
  EXPECT_FALSE(off.on("queue"));
  off.write("queue", "x");
  EXPECT_TRUE(off.lines().empty());

  Trace some(options({"queue", "control"}));
  EXPECT_TRUE(some.on("queue"));
  EXPECT_TRUE(some.on("control"));
  EXPECT_FALSE(some.on("wizard"));
  some.set_tick(7);
  some.write("queue", "add a");
  some.write("wizard", "not kept");
  some.write_at(9, "control", "order start");
  ASSERT_EQ(some.lines().size(), 2u);
  EXPECT_EQ(some.lines_of("queue"), std::vector<std::string>{"tick 7: add a"});
  EXPECT_EQ(some.lines_of("control"), std::vector<std::string>{"tick 9: order start"});

  Trace all(options({"all"}));
  for (std::string_view c : kTraceChannelNames) EXPECT_TRUE(all.on(c)) << c;
  EXPECT_TRUE(all.on("a_script_channel"));
}

TEST(Trace, save_writes_one_file_per_named_channel_and_keeps_at_most_max_lines) {
  const fs::path dir = fs::temp_directory_path() / ("sortie-trace-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  Trace t(options({"queue", "sound"}, dir, 2));
  t.write("queue", "one");
  t.write("queue", "two");
  t.write("queue", "three");  // over max_lines: counted, not kept
  EXPECT_EQ(t.dropped(), 1u);
  ASSERT_TRUE(t.save());
  EXPECT_EQ(core::read_text_file(dir / "queue.log").value_or("?"), "tick 0: one\ntick 0: two\n");
  EXPECT_EQ(core::read_text_file(dir / "sound.log").value_or("?"), "");  // named, wrote nothing: empty
  EXPECT_FALSE(fs::exists(dir / "control.log"));
  fs::remove_all(dir);
  // Without a directory nothing is written.
  EXPECT_TRUE(Trace(options({"queue"})).save());
  EXPECT_EQ(TraceOptions{}.max_lines, kMaxTraceLines);
}

TEST(WorldTrace, the_queue_channel_stamps_adds_deletions_commands_and_maintenance_with_the_tick) {
  World world;
  auto trace = std::make_shared<Trace>(options({"queue"}));
  world.set_trace(trace);
  auto a = world.add_new_object(1, "a");
  ASSERT_TRUE(a);
  ASSERT_TRUE(world.submit(make_command(2, PauseCommand{true})));
  ASSERT_TRUE(world.submit(make_command(2, SetSpeedCommand{500})));
  int runs = 0;
  world.add_maintenance_task("sweep", 3 * kDefaultStepUs, [&](World&) { ++runs; });
  world.drive_maintenance_clock(MaintenanceDrive::fixed_step);
  // A deletion inside the pass is deferred: requested from an event handler at tick 1.
  world.on(EventType::timer, [&](World& w, const Event&) { ASSERT_TRUE(w.request_delete(*a)); });
  for (int i = 0; i < 4; ++i) {
    if (i == 1) world.post(Event{0, EventType::timer, {}, {}, 0, 0});
    ASSERT_TRUE(world.tick());
  }
  EXPECT_EQ(runs, 1);  // at tick 2: 3 steps of maintenance time
  const auto q = trace->lines_of("queue");
  ASSERT_EQ(q.size(), 4u);
  const std::string id = ObjectId{1, 1, 1}.to_string();
  EXPECT_EQ(q[0], "tick 0: add " + id + " 'a' seq 1");
  EXPECT_EQ(q[1], "tick 1: delete " + id + " (deferred)");
  EXPECT_EQ(q[2], "tick 2: commands pause x1; set_speed x1;");
  EXPECT_EQ(q[3], "tick 2: maintenance sweep at 0.048 s");
  EXPECT_EQ(trace->tick(), 4u);  // the world moved the stamp after its last pass

  // The same world without a trace hashes the same: tracing is not state.
  World plain;
  auto b = plain.add_new_object(1, "a");
  ASSERT_TRUE(plain.submit(make_command(2, PauseCommand{true})));
  ASSERT_TRUE(plain.submit(make_command(2, SetSpeedCommand{500})));
  plain.on(EventType::timer, [&](World& w, const Event&) { ASSERT_TRUE(w.request_delete(*b)); });
  for (int i = 0; i < 4; ++i) {
    if (i == 1) plain.post(Event{0, EventType::timer, {}, {}, 0, 0});
    ASSERT_TRUE(plain.tick());
  }
  EXPECT_EQ(plain.hash_history(), world.hash_history());
}

TEST(WorldTrace, the_maintenance_clock_follows_its_drive) {
  World external;  // the default: only advance_maintenance_clock (world::FrameLoop) moves it
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(external.tick());
  EXPECT_EQ(external.maintenance_clock().time_us, 0u);
  World fixed;
  fixed.drive_maintenance_clock(MaintenanceDrive::fixed_step);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(fixed.tick());
  EXPECT_EQ(fixed.maintenance_clock().time_us, 3u * kDefaultStepUs);
  World real;
  real.drive_maintenance_clock(MaintenanceDrive::real_time);
  ASSERT_TRUE(real.tick());
  const std::uint64_t first = real.maintenance_clock().time_us;
  EXPECT_EQ(first, 0u);  // the first tick starts the real clock
  ::usleep(20'000);
  ASSERT_TRUE(real.tick());
  EXPECT_GE(real.maintenance_clock().time_us, 15'000u);
  // run_all_maintenance runs every task now, whatever its period.
  int runs = 0;
  external.add_maintenance_task("deep", kLongMaintenanceUs, [&](World&) { ++runs; });
  external.run_due_maintenance();
  EXPECT_EQ(runs, 0);
  external.run_all_maintenance();
  EXPECT_EQ(runs, 1);
}

}  // namespace
