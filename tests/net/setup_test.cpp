// The session setup: captured from a loaded mission it rebuilds the very same world state, the
// resources round-trip and refuse hostile bytes, and the mirror path validates player, id and
// prototype before it creates anything.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sortie/assets/sample_game.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie/move/class_ids.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/move/v1_movers.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/net/replica.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;

namespace {

Welcome welcome_for(const SessionSetup& setup, std::size_t count) {
  Welcome w;
  w.authority = setup.authority;
  w.step_us = setup.step_us;
  w.seed = setup.seed;
  w.setup_count = static_cast<std::uint32_t>(count);
  return w;
}

// The embedded sample game (demo scale, seed 1) over an in-memory VFS.
mission::GameContext sample_context() {
  auto files = assets::generate_sample_files({assets::SampleScale::demo, 1, assets::ArchiveFormat::rsli});
  EXPECT_TRUE(files.has_value());
  auto vfs = std::make_unique<assets::MemoryVfs>();
  if (files) {
    for (const auto& [path, bytes] : files->first) EXPECT_TRUE(vfs->add(path, bytes).has_value());
  }
  return mission::GameContext::over(std::move(vfs));
}

// Loads the first mission with world seed `seed`; its path.
core::Result<std::string> load_first_mission(mission::GameContext& context, std::uint64_t seed) {
  mission::MissionLoadOptions lo;
  lo.world.seed = seed;
  SORTIE_TRY(const auto first, context.first_mission());
  SORTIE_TRY(const auto report, context.load(first, lo));
  if (!report.ok) return core::fail(core::Diagnostic::error("test.load", "the sample mission did not load"));
  return report.mission;
}

// The session setup of a loaded mission, as `sortie serve` captures it: the terrain and the
// movement resource (Land.map and the movement parameters).
core::Result<SessionSetup> session_of(const mission::LoadedMission& m, std::uint64_t seed, const std::string& path) {
  SessionMovement movement;
  movement.areals = m.data->land_map;
  movement.params = m.movement->params;
  return capture_setup(*m.world, seed, path, nav::triangle_soup_from(m.data->land_msh), std::move(movement));
}

}  // namespace

TEST(SetupTest, mission_world_is_rebuilt_exactly_from_its_setup) {
  auto context = sample_context();
  const auto mission = load_first_mission(context, 5);
  ASSERT_TRUE(mission.has_value()) << mission.error().to_string();
  const mission::LoadedMission& m = *context.current();
  auto setup = session_of(m, 5, *mission);
  ASSERT_TRUE(setup.has_value()) << setup.error().to_string();
  EXPECT_EQ(setup->objects.size(), m.world->live_count());
  EXPECT_TRUE(std::is_sorted(setup->prototypes.begin(), setup->prototypes.end()));
  ASSERT_TRUE(setup->terrain.has_value());
  ASSERT_TRUE(setup->movement.has_value());
  // The server builds its world from the setup messages: the same state as the mission's.
  world::ManualPlatformClock clock;
  MemoryNetwork network(clock);
  auto t = network.listen("s").value();
  auto server = Server::host(*t, *setup, {}, clock).value();
  EXPECT_EQ(server->world().canonical_state(), m.world->canonical_state());
  ASSERT_NE(server->replica().movement_environment(), nullptr);
  EXPECT_NE(server->replica().movement_environment()->areals, nullptr);  // the areal map travelled
}

// A client that draws a session from its own game data checks its copy first: the served
// mission passes; another mission (another ground) or a copy without one of the session's
// prototypes is refused with net.join.mission_mismatch.
TEST(SetupTest, a_client_checks_its_local_copy_of_the_served_mission) {
  auto context = sample_context();
  const auto mission = load_first_mission(context, 5);
  ASSERT_TRUE(mission.has_value()) << mission.error().to_string();
  const mission::LoadedMission& m = *context.current();
  auto setup = session_of(m, 5, *mission);
  ASSERT_TRUE(setup.has_value()) << setup.error().to_string();
  world::ManualPlatformClock clock;
  MemoryNetwork network(clock);
  auto t = network.listen("s").value();
  auto server = Server::host(*t, *setup, {}, clock).value();
  const auto keys_of = [](const mission::LoadedMission& lm) {
    std::vector<std::string> keys;
    for (const world::Handle h : lm.world->queue())
      if (const world::WorldObject* o = lm.world->find(h)) keys.push_back(o->prototype_key);
    return keys;
  };
  const auto keys = keys_of(m);
  EXPECT_TRUE(check_local_mission(server->replica(), nav::triangle_soup_from(m.data->land_msh), keys).has_value());

  auto other = sample_context();
  ASSERT_TRUE(other.load("m02").has_value());
  const mission::LoadedMission& m2 = *other.current();
  const auto wrong_ground = check_local_mission(server->replica(), nav::triangle_soup_from(m2.data->land_msh), keys);
  ASSERT_FALSE(wrong_ground.has_value());
  EXPECT_EQ(wrong_ground.error().code, "net.join.mission_mismatch");
  EXPECT_NE(wrong_ground.error().message.find("ground"), std::string::npos);

  std::vector<std::string> fewer = keys;
  fewer.erase(std::remove(fewer.begin(), fewer.end(), setup->prototypes.front()), fewer.end());
  const auto missing = check_local_mission(server->replica(), nav::triangle_soup_from(m.data->land_msh), fewer);
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("prototype"), std::string::npos);
}

// One movement story: the orders of `sortie run` (the scenario's bodies and move.goto waves)
// given to a served session move its units exactly as they move in the plain mission world -
// every checkpoint hash, the final hash and every unit's transform bit for bit, on the server
// and on a client that follows over the in-process transport.
TEST(SetupTest, served_session_moves_units_exactly_as_the_plain_world) {
  auto context = sample_context();
  const auto mission = load_first_mission(context, 1);
  ASSERT_TRUE(mission.has_value()) << mission.error().to_string();
  mission::LoadedMission& m = *context.current();
  auto setup = session_of(m, 1, *mission);
  ASSERT_TRUE(setup.has_value()) << setup.error().to_string();

  // The plain world: `sortie run`'s scenario (300 ticks).
  mission::ScenarioOptions options;
  options.ticks = 300;
  auto plain = mission::run_scenario(m, options);
  ASSERT_TRUE(plain.has_value()) << plain.error().to_string();
  ASSERT_GT(plain->orders, 0u);
  ASSERT_GT(plain->movement.steps, 0u);
  const auto& log = plain->log.commands;
  ASSERT_EQ(log.front().kind, move::EnableCommand::kWireId);

  // The served session: the host gives the same orders on the same ticks; a client follows.
  world::ManualPlatformClock clock;
  MemoryNetwork network(clock);
  auto t = network.listen("s").value();
  auto server = Server::host(*t, *setup, {}, clock).value();
  auto ct = network.connect("s").value();
  auto client = Client::join(*ct, ClientConfig{"eve"}, clock).value();
  std::size_t next = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> checkpoints;
  for (std::uint64_t tick = 0; tick < options.ticks; ++tick) {
    for (; next < log.size() && log[next].tick == tick; ++next) ASSERT_TRUE(server->submit(log[next]).has_value());
    ASSERT_TRUE(server->poll(0).has_value());
    ASSERT_TRUE(server->run_tick().has_value());
    clock.advance(world::kDefaultStepUs);
    ASSERT_TRUE(client->poll(0).has_value());
    const std::uint64_t done = server->ticks();
    if (done % 100 == 0 || done == options.ticks) checkpoints.emplace_back(done, server->world().last_hash());
  }
  EXPECT_EQ(next, log.size());
  EXPECT_EQ(checkpoints, plain->checkpoints);
  EXPECT_EQ(server->world().last_hash(), plain->final_hash);
  for (const auto& o : m.objects) {
    const world::WorldObject& a = *server->world().find(*server->world().lookup(o.id));
    const world::WorldObject& b = *m.world->find(o.handle);
    EXPECT_TRUE(core::same_bits(a.transform, b.transform)) << o.id.to_string();
  }
  // The server's command log is the plain world's: the same kinds, ticks and payloads.
  EXPECT_EQ(server->world().command_log().commands, log);
  for (int i = 0; i < 50 && client->ticks() < options.ticks; ++i) {
    ASSERT_TRUE(server->poll(0).has_value());
    ASSERT_TRUE(client->poll(0).has_value());
  }
  ASSERT_EQ(client->ticks(), options.ticks);
  EXPECT_EQ(client->replica()->state_hash(), plain->final_hash);
}

TEST(SetupTest, refuses_worlds_it_cannot_carry) {
  {
    auto w = net::test::small_world();
    ASSERT_TRUE(w->tick().has_value());
    EXPECT_EQ(capture_setup(*w, 7, "m", std::nullopt).error().code, "net.setup.unsupported");
  }
  {
    auto w = net::test::small_world();
    w->find(*w->lookup(world::ObjectId{1, mission::class_ids::kTmaUnit, 1}))->controller =
        std::make_unique<move::MoveController>(core::Vec2{1, 1}, 1.0f);
    EXPECT_EQ(capture_setup(*w, 7, "m", std::nullopt).error().code, "net.setup.unsupported");
  }
  {
    auto w = net::test::small_world();  // an id counter the objects alone do not reproduce
    ASSERT_TRUE(w->add_new_object(move::class_ids::kDemoUnit, "x").has_value());
    const auto r = capture_setup(*w, 7, "m", std::nullopt);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, "net.setup.unsupported");
  }
  {
    auto w = net::test::small_world();  // another seed: the RNG state differs
    EXPECT_EQ(capture_setup(*w, 8, "m", std::nullopt).error().code, "net.setup.unsupported");
  }
  {
    auto w = net::test::small_world();
    w->find(*w->lookup(world::ObjectId{1, mission::class_ids::kTmaUnit, 1}))->properties.set(std::string(65, 'k'), 1);
    EXPECT_EQ(capture_setup(*w, 7, "m", std::nullopt).error().code, "net.setup.limit");
  }
  // Raw property records (ADR 0020): at the limits the setup is taken and its mirror carries
  // them; one record more, or one name byte more, is net.setup.limit.
  const auto with_records = [](std::size_t records, std::size_t name_bytes, std::size_t raw_bytes) {
    auto w = net::test::small_world();
    auto* o = w->find(*w->lookup(world::ObjectId{1, mission::class_ids::kTmaUnit, 1}));
    for (std::size_t i = 0; i < records; ++i)
      o->raw_properties.add({std::string(name_bytes, 'n'), std::string(raw_bytes, '\x98'), {1, 2, 3, 4}});
    return capture_setup(*w, 7, "m", std::nullopt);
  };
  const auto at_limit = with_records(kMaxMirrorRawProperties, kMaxRawPropertyNameBytes, kMaxRawPropertyNameBytes);
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().to_string();
  const world::ObjectId unit{1, mission::class_ids::kTmaUnit, 1};
  const auto m = std::find_if(at_limit->objects.begin(), at_limit->objects.end(),
                              [&](const CreateMirror& c) { return c.id == unit; });
  ASSERT_NE(m, at_limit->objects.end());
  EXPECT_EQ(m->raw_properties.size(), kMaxMirrorRawProperties);
  EXPECT_EQ(with_records(kMaxMirrorRawProperties + 1, 1, 0).error().code, "net.setup.limit");
  EXPECT_EQ(with_records(1, kMaxRawPropertyNameBytes + 1, 0).error().code, "net.setup.limit");
  EXPECT_EQ(with_records(1, 1, kMaxRawPropertyNameBytes + 1).error().code, "net.setup.limit");
}

TEST(SetupTest, resources_round_trip) {
  const nav::TriangleSoup soup = net::test::small_terrain();
  const core::Bytes t = encode_terrain(soup);
  EXPECT_EQ(t.size(), 4u + 4 * 12 + 4 + 2 * 16);
  EXPECT_EQ(decode_terrain(t).value(), soup);
  const std::vector<std::string> keys{"a", "b.dat", "z"};
  const core::Bytes p = encode_prototypes(keys);
  EXPECT_EQ(decode_prototypes(p).value(), keys);
  const core::Bytes blob(2500, 3);
  const auto chunks = resource_chunks(4, ResourceKind::blob, "b", blob);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[2].offset, 2048u);
  EXPECT_EQ(chunks[2].chunk.size(), 452u);
  EXPECT_EQ(resource_chunks(4, ResourceKind::blob, "b", {}).size(), 1u);
}

TEST(SetupTest, rejects_terrain_face_beyond_positions) {
  nav::TriangleSoup soup = net::test::small_terrain();
  soup.faces[1].vertices[2] = 4;
  const auto r = decode_terrain(encode_terrain(soup));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.resource.terrain_vertex");
  EXPECT_EQ(r.error().field, "faces[1]");
}

TEST(SetupTest, rejects_terrain_count_overflow) {
  core::ByteWriter w;
  w.u32(0xffffffffu);
  EXPECT_EQ(decode_terrain(w.buffer()).error().code, "net.resource.limit");
  core::ByteWriter v;
  v.u32(1000);  // 1000 positions in no bytes
  EXPECT_EQ(decode_terrain(v.buffer()).error().code, "net.resource.eof");
}

TEST(SetupTest, rejects_unsorted_prototypes_and_trailing_bytes) {
  EXPECT_EQ(decode_prototypes(encode_prototypes({"b", "a"})).error().code, "net.resource.prototype_order");
  EXPECT_EQ(decode_prototypes(encode_prototypes({"a", "a"})).error().code, "net.resource.prototype_order");
  core::Bytes p = encode_prototypes({"a"});
  p.push_back(0);
  EXPECT_EQ(decode_prototypes(p).error().code, "net.resource.trailing");
}

TEST(SetupTest, resource_transfer_is_checked_chunk_by_chunk) {
  const SessionSetup setup = net::test::small_setup();
  auto chunks = resource_chunks(9, ResourceKind::blob, "blob", core::Bytes(3000, 1));
  {
    auto r = Replica::create(welcome_for(setup, 10)).value();
    ASSERT_TRUE(r->feed(chunks[0]).has_value());
    EXPECT_EQ(r->feed(chunks[2]).error().code, "net.resource.order");  // a gap
  }
  {
    auto r = Replica::create(welcome_for(setup, 10)).value();
    EXPECT_EQ(r->feed(chunks[1]).error().code, "net.resource.order");  // no start
  }
  {
    auto r = Replica::create(welcome_for(setup, 10)).value();
    for (auto& c : chunks) c.content_hash ^= 1;
    ASSERT_TRUE(r->feed(chunks[0]).has_value());
    ASSERT_TRUE(r->feed(chunks[1]).has_value());
    EXPECT_EQ(r->feed(chunks[2]).error().code, "net.resource.hash");
  }
  {
    // The setup ends before a resource is complete.
    auto r = Replica::create(welcome_for(setup, 1)).value();
    EXPECT_EQ(r->feed(resource_chunks(9, ResourceKind::blob, "blob", core::Bytes(3000, 1))[0]).error().code,
              "net.resource.incomplete");
  }
}

TEST(SetupTest, mirror_path_validates_before_creating) {
  const SessionSetup setup = net::test::small_setup();
  std::vector<Message> messages = setup_messages(setup).value();
  const std::size_t first_mirror = messages.size() - setup.objects.size();
  auto with = [&](std::function<void(CreateMirror&)> edit) {
    std::vector<Message> m = messages;
    edit(std::get<CreateMirror>(m[first_mirror]));
    auto r = Replica::create(welcome_for(setup, m.size())).value();
    for (std::size_t i = 0; i < first_mirror; ++i) EXPECT_TRUE(r->feed(m[i]).has_value());
    auto st = r->feed(m[first_mirror]);
    EXPECT_EQ(r->world().live_count(), 0u);
    return st ? std::string("ok") : st.error().code;
  };
  EXPECT_EQ(with([](CreateMirror& c) { c.owner = 9; }), "net.mirror.player_unknown");
  EXPECT_EQ(with([](CreateMirror& c) { c.id.owner = 9; }), "net.mirror.id_owner_unknown");
  EXPECT_EQ(with([](CreateMirror& c) { c.id.class_id = 999; }), "net.mirror.class_unknown");
  EXPECT_EQ(with([](CreateMirror& c) { c.prototype = "missing.dat"; }), "net.mirror.prototype_unknown");
  // The whole setup: every mirror created, added, owned as captured; the hash as the source's.
  auto r = Replica::create(welcome_for(setup, messages.size())).value();
  for (const Message& m : messages) ASSERT_TRUE(r->feed(m).has_value());
  EXPECT_EQ(r->world().queue().size(), setup.objects.size());
  EXPECT_EQ(r->world().compute_state_hash(), net::test::small_world()->compute_state_hash());
  EXPECT_TRUE(r->world().height_field() != nullptr);
  EXPECT_FLOAT_EQ(r->world().height_field()->height_at(64.0f, 10.0f).value_or(-1.0f), 1.0f);
}
