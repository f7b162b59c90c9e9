#include "sortie/world/lifecycle.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sortie/world/world.hpp"

using namespace sortie::world;
using sortie::core::Diagnostic;
using sortie::core::Status;

namespace {

struct Recorder {
  std::vector<std::string> calls;
  std::string fail_on;
  void add(Lifecycle& life, Stage stage, const std::string& name) {
    ASSERT_TRUE(life.add(
        stage, name,
        [this, name]() -> Status {
          calls.push_back("start " + name);
          if (name == fail_on) return sortie::core::fail(Diagnostic::error("display.no_3d_device", "no 3D device"));
          return {};
        },
        [this, name]() { calls.push_back("stop " + name); }));
  }
  // Registered out of stage order on purpose: the stage decides the order, not the call.
  void add_all(Lifecycle& life) {
    add(life, Stage::subsystems_ready, "display");
    add(life, Stage::library_ready, "iron3d.dll");
    add(life, Stage::subsystems_ready, "sound");
    add(life, Stage::game_created, "game");
    add(life, Stage::shell_created, "shell");
    add(life, Stage::entrypoints_ready, "entrypoints");
    add(life, Stage::subsystems_ready, "world3d");
  }
};

}  // namespace

TEST(LifecycleTest, starts_in_stage_order_and_stops_in_reverse) {
  Recorder rec;
  Lifecycle life;
  rec.add_all(life);
  ASSERT_TRUE(life.start_up());
  EXPECT_EQ(life.stage(), Stage::main_loop);
  EXPECT_TRUE(life.started("sound"));
  life.shut_down();
  EXPECT_EQ(life.stage(), Stage::shell_deleted);
  EXPECT_FALSE(life.started("sound"));
  EXPECT_EQ(rec.calls, (std::vector<std::string>{"start iron3d.dll", "start entrypoints", "start shell", "start game",
                                                 "start display", "start sound", "start world3d", "stop world3d",
                                                 "stop sound", "stop display", "stop game", "stop shell",
                                                 "stop entrypoints", "stop iron3d.dll"}));
  EXPECT_EQ(life.trace(), (std::vector<std::string>{"start iron3d.dll",
                                                    "stage LIBRARY_READY",
                                                    "start entrypoints",
                                                    "stage ENTRYPOINTS_READY",
                                                    "start shell",
                                                    "stage SHELL_CREATED",
                                                    "start game",
                                                    "stage GAME_CREATED",
                                                    "start display",
                                                    "start sound",
                                                    "start world3d",
                                                    "stage SUBSYSTEMS_READY",
                                                    "stage MAIN_LOOP",
                                                    "stop world3d",
                                                    "stop sound",
                                                    "stop display",
                                                    "stage SUBSYSTEMS_CLOSED",
                                                    "stop game",
                                                    "stage GAME_DELETED",
                                                    "stop shell",
                                                    "stop entrypoints",
                                                    "stop iron3d.dll",
                                                    "stage SHELL_DELETED"}));
}

TEST(LifecycleTest, partial_start_is_torn_down_in_reverse_and_never_reaches_the_main_loop) {
  Recorder rec;
  rec.fail_on = "sound";
  Lifecycle life;
  rec.add_all(life);
  auto status = life.start_up();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, "lifecycle.start_failed");
  EXPECT_EQ(status.error().field, "SUBSYSTEMS_READY.sound");
  EXPECT_NE(status.error().message.find("display.no_3d_device"), std::string::npos);
  EXPECT_EQ(life.stage(), Stage::shell_deleted);
  // sound never started, so it is never stopped; world3d never started at all
  EXPECT_EQ(rec.calls, (std::vector<std::string>{"start iron3d.dll", "start entrypoints", "start shell", "start game",
                                                 "start display", "start sound", "stop display", "stop game",
                                                 "stop shell", "stop entrypoints", "stop iron3d.dll"}));
  for (const char* name : {"iron3d.dll", "entrypoints", "shell", "game", "display", "sound", "world3d"}) {
    EXPECT_FALSE(life.started(name)) << name;
  }
  life.shut_down();  // idempotent
  EXPECT_EQ(rec.calls.size(), 11u);
}

TEST(LifecycleTest, failure_in_the_first_stage_stops_nothing) {
  Recorder rec;
  rec.fail_on = "iron3d.dll";
  Lifecycle life;
  rec.add_all(life);
  ASSERT_FALSE(life.start_up());
  EXPECT_EQ(rec.calls, (std::vector<std::string>{"start iron3d.dll"}));
}

TEST(LifecycleTest, destructor_shuts_down_a_running_lifecycle) {
  Recorder rec;
  {
    Lifecycle life;
    rec.add(life, Stage::library_ready, "lib");
    rec.add(life, Stage::subsystems_ready, "queue");
    ASSERT_TRUE(life.start_up());
  }
  EXPECT_EQ(rec.calls, (std::vector<std::string>{"start lib", "start queue", "stop queue", "stop lib"}));
}

TEST(LifecycleTest, rejects_bad_registrations) {
  Lifecycle life;
  auto noop = []() -> Status { return {}; };
  EXPECT_EQ(life.add(Stage::main_loop, "x", noop, {}).error().code, "lifecycle.stage");
  EXPECT_EQ(life.add(Stage::process_created, "x", noop, {}).error().code, "lifecycle.stage");
  ASSERT_TRUE(life.add(Stage::game_created, "x", noop, {}));
  EXPECT_EQ(life.add(Stage::game_created, "x", noop, {}).error().code, "lifecycle.duplicate");
  ASSERT_TRUE(life.start_up());
  EXPECT_EQ(life.add(Stage::game_created, "y", noop, {}).error().code, "lifecycle.state");
  EXPECT_EQ(life.start_up().error().code, "lifecycle.state");
  EXPECT_EQ(to_string(Stage::subsystems_closed), "SUBSYSTEMS_CLOSED");
}

TEST(LifecycleTest, world_runtime_as_subsystems_in_seed_order) {
  // stdInitGame order: the queue before world objects, the renderer before render resources,
  // NetWatcher before mirrors; shutdown releases objects before the managers they use.
  std::vector<std::string> calls;
  std::unique_ptr<World> world;
  std::vector<Handle> released;
  Lifecycle life;
  auto step = [&](const char* name) {
    return [&calls, name]() -> Status {
      calls.push_back(std::string("start ") + name);
      return {};
    };
  };
  auto stop = [&](const char* name) { return [&calls, name]() { calls.push_back(std::string("stop ") + name); }; };
  ASSERT_TRUE(life.add(
      Stage::subsystems_ready, "queue",
      [&]() -> Status {
        calls.push_back("start queue");
        world = std::make_unique<World>();
        return {};
      },
      [&]() {
        calls.push_back("stop queue");
        world.reset();
      }));
  ASSERT_TRUE(life.add(Stage::subsystems_ready, "renderer", step("renderer"), stop("renderer")));
  ASSERT_TRUE(life.add(
      Stage::subsystems_ready, "objects",
      [&]() -> Status {
        calls.push_back("start objects");
        SORTIE_TRY(auto h, world->add_new_object(1, "hq"));
        (void)h;
        return {};
      },
      [&]() {
        calls.push_back("stop objects");
        released = world->shutdown();
      }));
  ASSERT_TRUE(life.start_up());
  ASSERT_TRUE(world->tick());
  life.shut_down();
  EXPECT_EQ(calls, (std::vector<std::string>{"start queue", "start renderer", "start objects", "stop objects",
                                             "stop renderer", "stop queue"}));
  EXPECT_EQ(released.size(), 1u);
  EXPECT_EQ(world, nullptr);
}
