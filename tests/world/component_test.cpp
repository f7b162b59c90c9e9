// Typed per-object state (component.hpp) and its place in the state hash.
#include "sortie/world/component.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sortie/world/world.hpp"

using namespace sortie::world;

namespace {

struct Health {
  static constexpr std::string_view kComponentName = "b.health";
  std::int32_t hp = 100;
  void encode(StateWriter& out) const { out.u32(static_cast<std::uint32_t>(hp)); }
};

struct Ammo {
  static constexpr std::string_view kComponentName = "a.ammo";
  std::uint16_t rounds = 0;
  void encode(StateWriter& out) const { out.u16(rounds); }
};

struct FakeHealth {  // another type with Health's name
  static constexpr std::string_view kComponentName = "b.health";
  void encode(StateWriter&) const {}
};

std::int32_t hp_of(const ComponentStore& store) {
  const Health* h = store.get<Health>();
  return h == nullptr ? -1000 : h->hp;
}

}  // namespace

TEST(ComponentStoreTest, attaches_finds_replaces_and_removes_by_type) {
  ComponentStore store;
  EXPECT_TRUE(store.empty());
  EXPECT_EQ(store.get<Health>(), nullptr);
  Health& health = store.emplace(Health{40});
  store.emplace(Ammo{12});
  EXPECT_EQ(store.get<Health>(), &health);
  EXPECT_EQ(hp_of(store), 40);
  health.hp -= 15;
  EXPECT_EQ(hp_of(store), 25);
  store.emplace(Health{7});  // replaces
  EXPECT_EQ(store.size(), 2u);
  EXPECT_EQ(hp_of(store), 7);
  EXPECT_EQ(store.names(), (std::vector<std::string_view>{"a.ammo", "b.health"}));  // name order
  EXPECT_TRUE(store.remove<Ammo>());
  EXPECT_FALSE(store.remove<Ammo>());
  EXPECT_FALSE(store.has<Ammo>());
  EXPECT_TRUE(store.has<Health>());
}

TEST(ComponentStoreTest, copies_are_deep) {
  ComponentStore a;
  a.emplace(Health{10});
  ComponentStore b = a;
  b.emplace(Health{99});
  EXPECT_EQ(hp_of(a), 10);
  EXPECT_EQ(hp_of(b), 99);
  a = b;
  EXPECT_EQ(hp_of(a), 99);
  EXPECT_NE(a.get<Health>(), b.get<Health>());
}

TEST(ComponentStoreTest, rejects_two_types_with_one_name) {
  ComponentStore store;
  store.emplace(Health{});
  EXPECT_THROW(store.emplace(FakeHealth{}), std::logic_error);
  EXPECT_EQ(store.size(), 1u);
}

TEST(ComponentStoreTest, encodes_in_name_order_whatever_the_insertion_order) {
  ComponentStore ab;
  ab.emplace(Health{-1});
  ab.emplace(Ammo{0x0102});
  ComponentStore ba;
  ba.emplace(Ammo{0x0102});
  ba.emplace(Health{-1});
  StateWriter w1;
  StateWriter w2;
  ab.encode(w1);
  ba.encode(w2);
  const std::vector<std::uint8_t> expected = {
      2, 0, 0, 0,                                                                // two components
      6, 0, 0, 0, 'a',  '.',  'a',  'm',  'm', 'o', 2,   0,   0, 0, 0x02, 0x01,  // a.ammo, 2 bytes
      8, 0, 0, 0, 'b',  '.',  'h',  'e',  'a', 'l', 't', 'h',                    // b.health
      4, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,                                        // 4 bytes: -1
  };
  EXPECT_EQ(std::vector<std::uint8_t>(w1.view().begin(), w1.view().end()), expected);
  EXPECT_EQ(std::vector<std::uint8_t>(w2.view().begin(), w2.view().end()), expected);
}

TEST(ComponentStoreTest, world_hash_sees_components_and_is_unchanged_without_them) {
  World world;
  auto a = world.add_new_object(1, "a");
  auto b = world.add_new_object(1, "b");
  ASSERT_TRUE(a && b);
  const auto plain = world.compute_state_hash();
  const auto plain_bytes = world.canonical_state();
  world.find(*b)->components.emplace(Health{5});
  const auto with = world.compute_state_hash();
  EXPECT_NE(with, plain);
  // The components section is appended after the old layout: slot 1, then the store.
  const auto bytes = world.canonical_state();
  ASSERT_GT(bytes.size(), plain_bytes.size());
  EXPECT_TRUE(std::equal(plain_bytes.begin(), plain_bytes.end(), bytes.begin()));
  const std::string tail(bytes.begin() + static_cast<std::ptrdiff_t>(plain_bytes.size()), bytes.end());
  EXPECT_EQ(tail, std::string("components\0", 11) + std::string("\1\0\0\0", 4) + std::string("\1\0\0\0", 4) +
                      std::string("\1\0\0\0", 4) + std::string("\x08\0\0\0b.health", 12) +
                      std::string("\x04\0\0\0\x05\0\0\0", 8));
  world.find(*b)->components.get<Health>()->hp = 6;
  EXPECT_NE(world.compute_state_hash(), with);
  world.find(*b)->components.remove<Health>();
  EXPECT_EQ(world.compute_state_hash(), plain);  // no components: the old encoding exactly
  // Moving the same component to another object is a different state.
  world.find(*a)->components.emplace(Health{5});
  EXPECT_NE(world.compute_state_hash(), with);
}
