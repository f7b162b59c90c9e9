// The source file's raw property records beside the keyed bag (properties.hpp, ADR 0020): file
// order, repeated names, all four words, and their place in the state hash.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "sortie/world/properties.hpp"
#include "sortie/world/world.hpp"

using namespace sortie::world;

TEST(RawPropertiesTest, keeps_every_record_in_order_with_repeated_names) {
  RawProperties p;
  p.add({"Life state", "", {0x3f800000u, 1, 2, 3}});
  p.add({"Type", "", {4, 0, 0, 0}});
  p.add({"Life state", "", {0, 0xffffffffu, 0, 7}});
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p.items()[0].words, (RawWords{0x3f800000u, 1, 2, 3}));
  EXPECT_EQ(p.items()[1].name, "Type");
  EXPECT_EQ(p.items()[2].words, (RawWords{0, 0xffffffffu, 0, 7}));
  ASSERT_NE(p.first("Life state"), nullptr);
  EXPECT_EQ(p.first("Life state"), &p.items()[0]);
  EXPECT_EQ(p.count("Life state"), 2u);
  EXPECT_EQ(p.count("Type"), 1u);
  EXPECT_EQ(p.first("life state"), nullptr);  // names are exact
  EXPECT_EQ(p.count("nothing"), 0u);
}

TEST(RawPropertiesTest, keyed_bag_and_raw_records_do_not_share_names) {
  WorldObject o;
  o.raw_properties.add({"clan", "", {9, 9, 9, 9}});
  o.properties.set("clan", std::int64_t{2});  // sortie's key never touches the file's record
  EXPECT_EQ(o.properties.get_int("clan"), 2);
  ASSERT_NE(o.raw_properties.first("clan"), nullptr);
  EXPECT_EQ(o.raw_properties.first("clan")->words, (RawWords{9, 9, 9, 9}));
}

TEST(RawPropertiesTest, world_hash_sees_every_word_and_is_unchanged_without_records) {
  World world;
  auto a = world.add_new_object(1, "a");
  auto b = world.add_new_object(1, "b");
  ASSERT_TRUE(a && b);
  const auto plain = world.compute_state_hash();
  const auto plain_bytes = world.canonical_state();
  RawProperties& raw = world.find(*b)->raw_properties;
  raw.add({"A", "", {1, 2, 3, 4}});
  raw.add({"A", "\x98", {5, 0, 0, 0}});
  const auto with = world.compute_state_hash();
  EXPECT_NE(with, plain);
  // The section is appended after the old layout: slot 1, two records.
  const auto bytes = world.canonical_state();
  ASSERT_GT(bytes.size(), plain_bytes.size());
  EXPECT_TRUE(std::equal(plain_bytes.begin(), plain_bytes.end(), bytes.begin()));
  const std::string tail(bytes.begin() + static_cast<std::ptrdiff_t>(plain_bytes.size()), bytes.end());
  const std::string record1 = std::string("\1\0\0\0A\0\0\0\0", 9) + std::string("\1\0\0\0\2\0\0\0\3\0\0\0\4\0\0\0", 16);
  const std::string record2 =
      std::string("\1\0\0\0A\1\0\0\0\x98", 10) + std::string("\5\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
  EXPECT_EQ(tail, std::string("raw-properties-v1\0", 18) + std::string("\1\0\0\0", 4) + std::string("\1\0\0\0", 4) +
                      std::string("\2\0\0\0", 4) + record1 + record2);

  // Each word, the order, the raw name bytes and the object all count.
  const auto changed = [&](auto edit) {
    World copy;
    auto x = copy.add_new_object(1, "a");
    auto y = copy.add_new_object(1, "b");
    EXPECT_TRUE(x && y);
    RawProperties& r = copy.find(*y)->raw_properties;
    r.add({"A", "", {1, 2, 3, 4}});
    r.add({"A", "\x98", {5, 0, 0, 0}});
    edit(copy, *x, *y);
    return copy.compute_state_hash();
  };
  EXPECT_EQ(changed([](World&, Handle, Handle) {}), with);
  for (std::size_t word = 0; word < 4; ++word) {
    EXPECT_NE(changed([word](World& w, Handle, Handle y) {
                RawProperties fresh;
                RawWords first{1, 2, 3, 4};
                first[word] ^= 0x100u;
                fresh.add({"A", "", first});
                fresh.add({"A", "\x98", {5, 0, 0, 0}});
                w.find(y)->raw_properties = fresh;
              }),
              with)
        << word;
  }
  EXPECT_NE(changed([](World& w, Handle, Handle y) {
              RawProperties swapped;
              swapped.add({"A", "\x98", {5, 0, 0, 0}});
              swapped.add({"A", "", {1, 2, 3, 4}});
              w.find(y)->raw_properties = swapped;
            }),
            with);
  EXPECT_NE(changed([](World& w, Handle, Handle y) {
              RawProperties no_bytes;
              no_bytes.add({"A", "", {1, 2, 3, 4}});
              no_bytes.add({"A", "", {5, 0, 0, 0}});
              w.find(y)->raw_properties = no_bytes;
            }),
            with);
  EXPECT_NE(changed([](World& w, Handle x, Handle y) {
              w.find(x)->raw_properties = w.find(y)->raw_properties;
              w.find(y)->raw_properties = RawProperties{};
            }),
            with);
  world.find(*b)->raw_properties = RawProperties{};
  EXPECT_EQ(world.compute_state_hash(), plain);  // no records: the old encoding exactly
}
