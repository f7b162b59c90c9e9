// Multihex merge normalization (spec/fomap.md §9.3).
#include "sortie/fomap/multihex_merge.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>

namespace sortie::fomap {
namespace {

MergeItem item(std::int64_t id, Hex origin, int generation = 1, std::uint32_t data_class = 0, std::uint32_t proto = 0,
               std::vector<Hex> mesh = {}) {
  MergeItem m;
  m.id = id;
  m.origin = origin;
  m.generation = generation;
  m.data_class = data_class;
  m.proto = proto;
  m.mesh = std::move(mesh);
  return m;
}

bool hex_less(const Hex& a, const Hex& b) {
  return a.y != b.y ? a.y < b.y : a.x < b.x;
}

// The step rule written the direct way (every step recomputes the survivor's neighbours from all
// its hexes): the reference the fast implementation must agree with.
void reference_merge(std::vector<MergeItem>& items) {
  const std::size_t n = items.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (items[i].generation != 2 || !items[i].alive) continue;
    std::size_t best = i;
    for (std::size_t j = 0; j < n; ++j)
      if (items[j].generation == 2 && items[j].proto == items[i].proto && items[j].data_class == items[i].data_class &&
          items[j].id < items[best].id)
        best = j;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == best || items[j].generation != 2 || !items[j].alive || items[j].proto != items[best].proto ||
          items[j].data_class != items[best].data_class)
        continue;
      items[best].mesh.push_back(items[j].origin);
      items[best].mesh.insert(items[best].mesh.end(), items[j].mesh.begin(), items[j].mesh.end());
      items[j].alive = false;
      items[j].mesh.clear();
      items[best].changed = true;
    }
  }
  auto covered = [&](std::size_t i) {
    std::vector<Hex> out = items[i].mesh;
    out.push_back(items[i].origin);
    return out;
  };
  auto neighbours = [&](std::size_t s) {
    std::vector<std::size_t> out;
    for (const Hex& h : covered(s))
      for (int d = -1; d < 6; ++d) {
        const Hex nb = d < 0 ? h : hex_step(h, d);
        for (std::size_t j = 0; j < n; ++j) {
          if (j == s || !items[j].alive || items[j].generation != 1 || items[j].proto != items[s].proto) continue;
          const auto c = covered(j);
          if (std::find(c.begin(), c.end(), nb) != c.end()) out.push_back(j);
        }
      }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  auto clean = [&](std::size_t i) { return items[i].data_class == 0; };
  auto may_absorb = [&](std::size_t b, std::size_t a) {
    return clean(b) || items[a].data_class == items[b].data_class;
  };
  auto absorb = [&](std::size_t into, std::size_t from) {
    items[into].mesh.push_back(items[from].origin);
    items[into].mesh.insert(items[into].mesh.end(), items[from].mesh.begin(), items[from].mesh.end());
    items[from].alive = false;
    items[from].mesh.clear();
    items[into].changed = true;
  };
  for (int phase = 1; phase <= 2; ++phase)
    for (std::size_t start = 0; start < n; ++start) {
      if (items[start].generation != 1 || !items[start].alive || (phase == 1 && clean(start))) continue;
      std::size_t s = start;
      while (true) {
        std::optional<std::size_t> t, u;
        for (std::size_t nb : neighbours(s)) {
          if (may_absorb(nb, s) && (!t || items[nb].id < items[*t].id)) t = nb;
          if (may_absorb(s, nb) && (!u || items[nb].id > items[*u].id)) u = nb;
        }
        if (t && (!u || items[*t].id < items[s].id)) {
          absorb(*t, s);
          s = *t;
        } else if (u) {
          absorb(s, *u);
        } else {
          break;
        }
      }
    }
  for (auto& m : items) {
    if (!m.alive || !m.changed) continue;
    std::sort(m.mesh.begin(), m.mesh.end(), hex_less);
    m.mesh.erase(std::unique(m.mesh.begin(), m.mesh.end()), m.mesh.end());
    m.mesh.erase(std::remove(m.mesh.begin(), m.mesh.end(), m.origin), m.mesh.end());
  }
}

TEST(FomapMergeItems, a_carpet_of_clean_siblings_collapses_into_the_lowest_id) {
  std::vector<MergeItem> items;
  std::int64_t id = 10;
  for (std::int32_t y = 5; y < 8; ++y)
    for (std::int32_t x = 5; x < 8; ++x) items.push_back(item(id--, {x, y}));
  merge_multihex(items);
  // Ids run 10..2, so the last item (7 7, id 2) survives; its mesh is every other hex by (y, x).
  for (std::size_t i = 0; i + 1 < items.size(); ++i) EXPECT_FALSE(items[i].alive) << i;
  const MergeItem& s = items.back();
  EXPECT_TRUE(s.alive);
  EXPECT_TRUE(s.changed);
  EXPECT_EQ(s.origin, (Hex{7, 7}));
  const std::vector<Hex> want{{5, 5}, {6, 5}, {7, 5}, {5, 6}, {6, 6}, {7, 6}, {5, 7}, {6, 7}};
  EXPECT_EQ(s.mesh, want);
}

TEST(FomapMergeItems, differently_modified_siblings_never_merge) {
  std::vector<MergeItem> items{item(1, {3, 3}, 1, 1), item(2, {4, 3}, 1, 2)};
  merge_multihex(items);
  EXPECT_TRUE(items[0].alive && items[1].alive);
  EXPECT_FALSE(items[0].changed || items[1].changed);
}

TEST(FomapMergeItems, a_clean_sibling_swallows_a_modified_one_and_keeps_its_own_data) {
  // Modified id 1 next to clean id 2: T = 2 may absorb 1, U (1 may absorb 2) does not exist.
  std::vector<MergeItem> items{item(1, {3, 3}, 1, 7), item(2, {4, 3}, 1, 0)};
  merge_multihex(items);
  EXPECT_FALSE(items[0].alive);
  ASSERT_TRUE(items[1].alive);
  EXPECT_EQ(items[1].data_class, 0u);
  EXPECT_EQ(items[1].mesh, (std::vector<Hex>{{3, 3}}));
}

TEST(FomapMergeItems, other_protos_and_far_items_stay_apart) {
  std::vector<MergeItem> items{item(1, {3, 3}), item(2, {4, 3}, 1, 0, 1), item(3, {9, 9})};
  merge_multihex(items);
  for (const auto& m : items) EXPECT_TRUE(m.alive && !m.changed);
}

TEST(FomapMergeItems, any_unique_groups_by_proto_and_data_regardless_of_position) {
  std::vector<MergeItem> items{item(5, {50, 50}, 2), item(3, {1, 1}, 2), item(4, {9, 2}, 2, 1),
                               item(6, {7, 0}, 2, 0, 0, {{8, 0}})};
  merge_multihex(items);
  EXPECT_FALSE(items[0].alive);
  EXPECT_FALSE(items[3].alive);
  EXPECT_TRUE(items[2].alive && !items[2].changed);
  ASSERT_TRUE(items[1].alive);
  EXPECT_EQ(items[1].mesh, (std::vector<Hex>{{7, 0}, {8, 0}, {50, 50}}));
}

TEST(FomapMergeItems, agrees_with_the_direct_step_rule_on_random_layouts) {
  std::mt19937 rng(20240611);
  std::size_t absorbed = 0;
  for (int round = 0; round < 400; ++round) {
    const int n = 2 + static_cast<int>(rng() % 40);
    const int side = 3 + static_cast<int>(rng() % 8);
    std::vector<std::int64_t> ids(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ids[static_cast<std::size_t>(i)] = i + 1;
    std::shuffle(ids.begin(), ids.end(), rng);
    std::vector<MergeItem> items;
    for (int i = 0; i < n; ++i) {
      const Hex origin{static_cast<std::int32_t>(rng() % static_cast<unsigned>(side)),
                       static_cast<std::int32_t>(rng() % static_cast<unsigned>(side))};
      std::vector<Hex> mesh;
      for (unsigned k = rng() % 3; k > 0; --k)
        mesh.push_back({static_cast<std::int32_t>(rng() % static_cast<unsigned>(side)),
                        static_cast<std::int32_t>(rng() % static_cast<unsigned>(side))});
      items.push_back(
          item(ids[static_cast<std::size_t>(i)], origin, rng() % 5 == 0 ? 2 : 1, rng() % 3, rng() % 2, mesh));
    }
    std::vector<MergeItem> want = items;
    reference_merge(want);
    merge_multihex(items);
    for (std::size_t i = 0; i < items.size(); ++i) {
      ASSERT_EQ(items[i].alive, want[i].alive) << "round " << round << " item " << i;
      ASSERT_EQ(items[i].changed, want[i].changed) << "round " << round << " item " << i;
      if (items[i].alive && items[i].changed) {
        ASSERT_EQ(items[i].mesh, want[i].mesh) << "round " << round << " item " << i;
      }
      absorbed += items[i].alive ? 0 : 1;
    }
  }
  EXPECT_GT(absorbed, 2000u);  // the layouts are dense enough to merge a lot
}

}  // namespace
}  // namespace sortie::fomap
