// The session setup: captured from a loaded mission it rebuilds the very same world state, the
// resources round-trip and refuse hostile bytes, and the mirror path validates player, id and
// prototype before it creates anything.
#include <gtest/gtest.h>

#include "sortie/mission/game_context.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/net/replica.hpp"
#include "sortie/world/movement.hpp"
#include "sortie_test/demo_game.hpp"
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

}  // namespace

TEST(SetupTest, mission_world_is_rebuilt_exactly_from_its_setup) {
  auto context = sortie::test::game_over(sortie::test::demo_files());
  mission::MissionLoadOptions lo;
  lo.world.seed = 5;
  auto report = context.load(context.first_mission().value(), lo);
  ASSERT_TRUE(report.has_value() && report->ok);
  const mission::LoadedMission& m = *context.current();
  auto setup = capture_setup(*m.world, 5, report->mission, nav::triangle_soup_from(m.data->land_msh));
  ASSERT_TRUE(setup.has_value()) << setup.error().to_string();
  EXPECT_EQ(setup->objects.size(), m.world->live_count());
  EXPECT_TRUE(std::is_sorted(setup->prototypes.begin(), setup->prototypes.end()));
  ASSERT_TRUE(setup->terrain.has_value());
  // The server builds its world from the setup messages: the same state as the mission's.
  world::ManualPlatformClock clock;
  MemoryNetwork network(clock);
  auto t = network.listen("s").value();
  auto server = Server::host(*t, *setup, {}, clock).value();
  EXPECT_EQ(server->world().canonical_state(), m.world->canonical_state());
  // ...and moves on its ground like the mission's world does.
  const world::ObjectId unit = m.objects.at(0).id;
  const core::Vec2 goal{m.world->find(m.objects[0].handle)->transform.position.x + 5.0f,
                        m.world->find(m.objects[0].handle)->transform.position.y};
  ASSERT_TRUE(server->submit(world::make_command(0, world::MoveCommand{unit, goal, 6.0f})).has_value());
  ASSERT_TRUE(m.world->submit(world::make_command(0, world::MoveCommand{unit, goal, 6.0f})).has_value());
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(server->run_tick().has_value());
    ASSERT_TRUE(m.world->tick().has_value());
  }
  const world::WorldObject& a = *server->world().find(*server->world().lookup(unit));
  const world::WorldObject& b = *m.world->find(m.objects[0].handle);
  EXPECT_TRUE(core::same_bits(a.transform, b.transform));
}

TEST(SetupTest, refuses_worlds_it_cannot_carry) {
  {
    auto w = net::test::small_world();
    ASSERT_TRUE(w->tick().has_value());
    EXPECT_EQ(capture_setup(*w, 7, "m", std::nullopt).error().code, "net.setup.unsupported");
  }
  {
    auto w = net::test::small_world();
    w->find(*w->lookup(world::ObjectId{1, world::class_ids::kTmaUnit, 1}))->controller =
        std::make_unique<world::MoveController>(core::Vec2{1, 1}, 1.0f);
    EXPECT_EQ(capture_setup(*w, 7, "m", std::nullopt).error().code, "net.setup.unsupported");
  }
  {
    auto w = net::test::small_world();  // an id counter the objects alone do not reproduce
    ASSERT_TRUE(w->add_new_object(world::class_ids::kDemoUnit, "x").has_value());
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
    w->find(*w->lookup(world::ObjectId{1, world::class_ids::kTmaUnit, 1}))->properties.set(std::string(65, 'k'), 1);
    EXPECT_EQ(capture_setup(*w, 7, "m", std::nullopt).error().code, "net.setup.limit");
  }
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
