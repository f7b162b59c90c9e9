#include <gtest/gtest.h>

#include "sortie/world/world.hpp"

using namespace sortie::world;

TEST(ObjectIdTest, packs_owner_class_and_index) {
  const ObjectId id{3, 0x1234, 0xdeadbeef};
  EXPECT_EQ(id.raw(), 0x0003'1234'dead'beefULL);
  EXPECT_EQ(ObjectId::from_raw(id.raw()), id);
  EXPECT_EQ(id.to_string(), "p3:c4660:#3735928559");
}

TEST(WorldIdentity, create_and_add_are_two_steps) {
  World world;
  sortie::core::Transform t;
  t.position = sortie::core::Vec3{1.0f, 2.0f, 3.0f};
  auto h = world.create_local_object(7, "tank.dat", t);
  ASSERT_TRUE(h);
  WorldObject* o = world.find(*h);
  ASSERT_NE(o, nullptr);
  EXPECT_FALSE(o->registered());
  EXPECT_TRUE(world.queue().empty());
  EXPECT_TRUE(world.snapshot()->objects.empty());
  o->properties.set("hp", std::int64_t{50});
  ASSERT_TRUE(world.add_to_game(*h));
  EXPECT_TRUE(o->registered());
  EXPECT_EQ(o->registration_sequence(), 1u);
  ASSERT_EQ(world.queue().size(), 1u);
  EXPECT_EQ(world.queue()[0], *h);
  auto snap = world.snapshot();
  ASSERT_EQ(snap->objects.size(), 1u);
  EXPECT_EQ(snap->objects[0].prototype_key, "tank.dat");
  EXPECT_EQ(snap->objects[0].transform.position, (sortie::core::Vec3{1.0f, 2.0f, 3.0f}));
  EXPECT_EQ(snap->objects[0].id, (ObjectId{1, 7, 1}));
}

TEST(WorldIdentity, rejects_adding_twice) {
  World world;
  auto h = world.add_new_object(1, "a");
  ASSERT_TRUE(h);
  auto again = world.add_to_game(*h);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, "world.object.already_added");
}

TEST(WorldIdentity, local_and_mirror_objects) {
  World world(WorldConfig{.local_player = 2});
  auto local = world.create_local_object(5, "a");
  auto mirror = world.create_object(ObjectId{4, 5, 9}, "a");
  ASSERT_TRUE(local && mirror);
  EXPECT_TRUE(world.find(*local)->is_local());
  EXPECT_EQ(world.find(*local)->id().owner, 2);
  EXPECT_TRUE(world.find(*mirror)->is_mirror());
  EXPECT_EQ(world.find(*mirror)->ownership().owner, 4);
  EXPECT_EQ(world.lookup(ObjectId{4, 5, 9}), *mirror);
}

TEST(WorldIdentity, mirror_creation_needs_a_remote_owner_and_a_fresh_id) {
  World world;
  auto bad = world.create_mirror_object(ObjectId{1, 2, 3}, "a");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "world.id.not_remote");
  auto mirror = world.create_mirror_object(ObjectId{2, 2, 3}, "a");
  ASSERT_TRUE(mirror);
  ASSERT_TRUE(world.add_to_game(*mirror));
  EXPECT_TRUE(world.snapshot()->objects[0].ownership.mirror);
  // a duplicate create-mirror message never makes a second instance
  EXPECT_EQ(world.create_mirror_object(ObjectId{2, 2, 3}, "a").error().code, "world.id.duplicate");
  EXPECT_EQ(world.live_count(), 1u);
}

TEST(WorldIdentity, rejects_duplicate_object_id) {
  World world;
  ASSERT_TRUE(world.create_object(ObjectId{1, 2, 3}, "a"));
  auto dup = world.create_object(ObjectId{1, 2, 3}, "b");
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, "world.id.duplicate");
  // allocate_id skips an index that is already taken
  EXPECT_EQ(world.allocate_id(2), (ObjectId{1, 2, 1}));
  EXPECT_EQ(world.allocate_id(2), (ObjectId{1, 2, 2}));
  EXPECT_EQ(world.allocate_id(2), (ObjectId{1, 2, 4}));
}

TEST(WorldIdentity, ownership_change_keeps_identity) {
  World world;
  auto h = world.create_object(ObjectId{3, 1, 1}, "a");
  ASSERT_TRUE(h);
  EXPECT_TRUE(world.find(*h)->is_mirror());
  ASSERT_TRUE(world.change_owner(*h, 1));
  EXPECT_TRUE(world.find(*h)->is_local());
  EXPECT_EQ(world.find(*h)->id(), (ObjectId{3, 1, 1}));
  EXPECT_EQ(world.live_count(), 1u);
}

TEST(WorldIdentity, stale_handle_after_delete_is_an_error) {
  World world;
  auto a = world.add_new_object(1, "a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->generation, 1u);
  ASSERT_TRUE(world.request_delete(*a));
  EXPECT_EQ(world.find(*a), nullptr);
  auto looked = world.object(*a);
  ASSERT_FALSE(looked);
  EXPECT_EQ(looked.error().code, "world.handle.stale");
  EXPECT_EQ(world.request_delete(*a).error().code, "world.handle.stale");
  // the slot is reused with the next generation; the old handle stays stale
  auto b = world.add_new_object(1, "b");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->slot, a->slot);
  EXPECT_EQ(b->generation, 2u);
  EXPECT_EQ(world.find(*a), nullptr);
  EXPECT_NE(world.find(*b), nullptr);
  EXPECT_FALSE(world.lookup(ObjectId{1, 1, 1}).has_value());
}

TEST(WorldIdentity, queue_keeps_registration_order_across_slot_reuse) {
  World world;
  auto a = world.add_new_object(1, "a");
  auto b = world.add_new_object(1, "b");
  ASSERT_TRUE(world.request_delete(*a));
  auto c = world.create_local_object(1, "c");  // reuses slot 0
  auto d = world.add_new_object(1, "d");
  ASSERT_TRUE(world.add_to_game(*c));  // registered after d
  ASSERT_EQ(world.queue().size(), 3u);
  EXPECT_EQ(world.queue()[0], *b);
  EXPECT_EQ(world.queue()[1], *d);
  EXPECT_EQ(world.queue()[2], *c);
  EXPECT_EQ(c->slot, 0u);
  EXPECT_EQ(world.find(*c)->registration_sequence(), 4u);
}

TEST(WorldIdentity, shutdown_releases_queue_then_unregistered_and_refuses_new_work) {
  World world;
  auto a = world.add_new_object(1, "a");
  auto loose = world.create_local_object(1, "loose");
  auto b = world.add_new_object(1, "b");
  auto released = world.shutdown();
  ASSERT_EQ(released.size(), 3u);
  EXPECT_EQ(released[0], *a);
  EXPECT_EQ(released[1], *b);
  EXPECT_EQ(released[2], *loose);
  EXPECT_EQ(world.live_count(), 0u);
  EXPECT_EQ(world.add_new_object(1, "c").error().code, "world.shut_down");
  EXPECT_EQ(world.tick().error().code, "world.shut_down");
  EXPECT_EQ(world.post(Event{}), 0u);
}
