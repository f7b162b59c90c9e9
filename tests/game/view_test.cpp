// The squad picture: it reads a const snapshot and never the simulation, the same picture for
// any thread count, the horror layer's memory, and a golden image of a small map at a fixed time.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <type_traits>

#include "sortie/game/squad_picture.hpp"
#include "sortie/game/squad_snapshot.hpp"
#include "sortie/game/squad_view.hpp"
#include "sortie/squad/script.hpp"
#include "sortie_test/golden_image.hpp"

namespace sortie::game {
namespace {

namespace fs = std::filesystem;

// The picture is made from a const snapshot (the signature is the contract).
static_assert(
    std::is_same_v<decltype(&SquadView::render),
                   core::Status (SquadView::*)(const SquadSnapshot&, render::Framebuffer&, SquadFrameStats*)>);
static_assert(std::is_same_v<decltype(&take_snapshot), SquadSnapshot (*)(const squad::SquadSim&, bool)>);

squad::SquadMap small_map() {
  auto map = squad::parse_squad_map(
      "squad-map 1\n"
      "name Golden cellar\n"
      "squad 5\n"
      "formation wedge\n"
      "heading east\n"
      "grid 16 9\n"
      "################\n"
      "#......#.......#\n"
      "#..............#\n"
      "#......#....h..#\n"
      "#.@....#.......#\n"
      "#......###..#..#\n"
      "#...........#h.#\n"
      "#......#.......#\n"
      "################\n",
      "golden.txt");
  EXPECT_TRUE(map) << map.error().to_string();
  return *map;
}

// Distinct colours of a picture: a frame with the map drawn has many (walls, floor, agents, the
// overlay), an empty or cleared one has at most one.
std::size_t colour_count(const render::Framebuffer& fb) {
  std::set<std::uint32_t> colours;
  for (std::uint32_t y = 0; y < fb.height(); ++y)
    for (std::uint32_t x = 0; x < fb.width(); ++x) {
      const render::Rgba8 c = fb.pixel(x, y);
      colours.insert(std::uint32_t{c.r} << 16 | std::uint32_t{c.g} << 8 | c.b);
    }
  return colours.size();
}

// Plays `seconds` of the scripted run, observing every tick.
SquadSnapshot play(const squad::SquadMap& map, double seconds, SquadView& view, squad::SquadSim& sim) {
  squad::ScriptedPlayer player(sim.seed());
  const auto ticks = static_cast<int>(seconds * squad::kTickRate);
  for (int k = 0; k < ticks; ++k) {
    sim.step(player.next(sim));
    view.observe(take_snapshot(sim, k + 1 == ticks));
  }
  (void)map;
  return take_snapshot(sim, true);
}

TEST(SquadView, reads_a_snapshot_and_leaves_the_simulation_alone) {
  const auto map = small_map();
  auto sim = squad::SquadSim::create(map, {.seed = 4});
  ASSERT_TRUE(sim);
  SquadView view({.width = 320, .height = 180, .overlay = true});
  const SquadSnapshot snap = play(map, 4.0, view, *sim);
  const std::uint64_t before = sim->state_hash();
  const SquadSnapshot copy = snap;
  render::Framebuffer a;
  render::Framebuffer b;
  ASSERT_TRUE(view.render(snap, a));
  ASSERT_TRUE(view.render(snap, b));
  EXPECT_EQ(sim->state_hash(), before);
  // The snapshot is what it was (the view keeps its own memory).
  ASSERT_EQ(copy.agents.size(), snap.agents.size());
  for (std::size_t i = 0; i < snap.agents.size(); ++i) {
    EXPECT_EQ(copy.agents[i].pos.x, snap.agents[i].pos.x);
    EXPECT_EQ(copy.agents[i].pos.y, snap.agents[i].pos.y);
  }
  EXPECT_EQ(copy.tick, snap.tick);
  // The same snapshot twice: the same picture, with the map drawn in it.
  ASSERT_EQ(a.width(), 320u);
  ASSERT_EQ(a.height(), 180u);
  EXPECT_GT(colour_count(a), 20u);
  EXPECT_TRUE(std::equal(a.color().begin(), a.color().end(), b.color().begin(), b.color().end()));
  // A step after rendering matches a simulation that was never drawn.
  auto twin = squad::SquadSim::create(map, {.seed = 4});
  ASSERT_TRUE(twin);
  squad::ScriptedPlayer p(4);
  for (std::uint64_t k = 0; k < sim->tick(); ++k) twin->step(p.next(*twin));
  EXPECT_EQ(twin->state_hash(), sim->state_hash());
}

TEST(SquadView, the_picture_is_the_same_on_one_and_two_threads) {
  const auto map = small_map();
  render::Framebuffer out[2];
  for (unsigned threads = 1; threads <= 2; ++threads) {
    auto sim = squad::SquadSim::create(map, {.seed = 2});
    ASSERT_TRUE(sim);
    SquadView view({.width = 256, .height = 160, .overlay = true, .threads = threads});
    const SquadSnapshot snap = play(map, 3.0, view, *sim);
    ASSERT_TRUE(view.render(snap, out[threads - 1]));
    ASSERT_EQ(out[threads - 1].width(), 256u);
    ASSERT_EQ(out[threads - 1].height(), 160u);
    EXPECT_GT(colour_count(out[threads - 1]), 20u) << threads << " thread(s): nothing drawn";
  }
  EXPECT_TRUE(std::equal(out[0].color().begin(), out[0].color().end(), out[1].color().begin(), out[1].color().end()));
}

TEST(SquadView, remembers_the_seen_map_and_keeps_blood) {
  const auto map = small_map();
  auto sim = squad::SquadSim::create(map, {.seed = 3});
  ASSERT_TRUE(sim);
  SquadView view({.width = 320, .height = 180});
  const SquadSnapshot start = take_snapshot(*sim);
  view.observe(start);
  const std::size_t seen_first = view.remembered_cells();
  EXPECT_GT(seen_first, 20u);
  EXPECT_LT(seen_first, 16u * 9u);  // the east room is behind walls
  const SquadSnapshot later = play(map, 12.0, view, *sim);
  EXPECT_GT(view.remembered_cells(), seen_first);
  EXPECT_GT(sim->stats().bullet_target_hits + sim->stats().kills, 0u);
  EXPECT_GT(view.blood_count(), 0u);
  EXPECT_GE(view.tension(), 0.0f);
  EXPECT_LE(view.tension(), 1.0f);
  // Restarting forgets.
  view.reset();
  EXPECT_EQ(view.blood_count(), 0u);
  EXPECT_EQ(view.remembered_cells(), 0u);
  (void)later;
}

TEST(SquadView, unseen_places_are_dark_and_the_squad_is_lit) {
  const auto map = small_map();
  auto sim = squad::SquadSim::create(map, {.seed = 1});
  ASSERT_TRUE(sim);
  SquadView view({.width = 320, .height = 180, .hud = false});
  const SquadSnapshot snap = take_snapshot(*sim);
  view.observe(snap);
  render::Framebuffer fb;
  ASSERT_TRUE(view.render(snap, fb));
  // The picture centres on the disc: the middle is lit, the corners (vignette, no sight) dark.
  double centre = 0.0;
  for (std::uint32_t y = 80; y < 100; ++y) {
    for (std::uint32_t x = 150; x < 170; ++x) {
      const render::Rgba8 p = fb.pixel(x, y);
      centre += p.r + p.g + p.b;
    }
  }
  centre /= 400.0 * 3.0;
  const render::Rgba8 corner = fb.pixel(2, 2);
  EXPECT_GT(centre, 25.0);
  EXPECT_LT(corner.r + corner.g + corner.b, 3 * 24);
  // Without the horror layer the same place is plainly lit.
  SquadView plain({.width = 320, .height = 180, .horror = false, .hud = false});
  render::Framebuffer pf;
  ASSERT_TRUE(plain.render(snap, pf));
  EXPECT_NE(pf.pixel(2, 2), corner);
}

// Golden image: tests/game/golden/squad_cellar/expected.png, made by this renderer and looked at
// (the rule and SORTIE_UPDATE_GOLDEN=1: sortie_test/golden_image.hpp).
TEST(SquadView, golden_image_of_a_small_map_at_three_seconds) {
  SquadPictureOptions o;
  o.at_seconds = 3.0;
  o.seed = 5;
  o.view.width = 384;
  o.view.height = 216;
  o.view.view_width = 14.0f;
  auto pic = render_squad_picture(small_map(), o);
  ASSERT_TRUE(pic) << pic.error().to_string();
  EXPECT_EQ(pic->tick, 180u);
  SORTIE_EXPECT_GOLDEN_IMAGE(pic->image, fs::path(SORTIE_TEST_DATA_DIR) / "golden" / "squad_cellar" / "expected.png",
                             "the cellar map from above at 3 s: walls, the squad in a wedge, two hostiles");
}

}  // namespace
}  // namespace sortie::game
