// The mission scene over the demo sample game (in memory): objects drawn where data.tma places
// them, live transforms from a world snapshot, picking, thread invariance, the missing-asset
// fallback, view-spec parsing, and a golden image of a small mission.
#include "sortie/render/mission_scene.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "render_fixtures.hpp"
#include "sortie/assets/visual_fallback.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/render/image_io.hpp"
#include "sortie/render/mesh_builders.hpp"
#include "sortie/render/renderer.hpp"
#include "sortie/render/scene_camera.hpp"
#include "sortie/render/view_spec.hpp"
#include "sortie_test/demo_game.hpp"

namespace sortie::render::test {
namespace {

namespace fs = std::filesystem;
using sortie::test::demo_files;
using sortie::test::game_over;

struct Loaded {
  mission::GameContext game;
  const mission::LoadedMission* mission = nullptr;
};

Loaded load_m01() {
  Loaded l{game_over(demo_files())};
  auto report = l.game.load("m01");
  EXPECT_TRUE(report && report->ok);
  l.mission = l.game.current();
  return l;
}

MissionScene scene_of(const mission::LoadedMission& m, MissionSceneOptions o = {}) {
  auto s = MissionScene::build(m.visuals, m.data.get(), std::move(o));
  EXPECT_TRUE(s.has_value()) << s.error().to_string();
  return std::move(*s);
}

Framebuffer draw(const MissionScene& scene, const Camera& camera, std::uint32_t w, std::uint32_t h,
                 unsigned threads = 1) {
  auto fb = Framebuffer::create(w, h);
  Renderer r({threads});
  auto st = r.render(scene.frame(camera), *fb);
  EXPECT_TRUE(st.has_value()) << st.error().to_string();
  return std::move(*fb);
}

// The pixels of a frame drawn at 320 x 240 with two threads.
std::vector<std::uint32_t> pixels_of(const Frame& frame) {
  auto fb = Framebuffer::create(320, 240);
  EXPECT_TRUE(fb.has_value());
  EXPECT_TRUE(Renderer({2}).render(frame, *fb).has_value());
  return {fb->color().begin(), fb->color().end()};
}

TEST(MissionScene, draws_terrain_and_every_geometric_placement) {
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  const auto scene = scene_of(*l.mission);
  const auto& store = *l.mission->visuals;
  EXPECT_EQ(scene.stats().terrain_triangles, store.terrain().faces.size());
  // 16 placements, all geometric in the demo m01 (the scene skips non-geometric ones).
  EXPECT_EQ(scene.stats().objects, 16u);
  EXPECT_EQ(scene.stats().placeholders, 0u);
  std::uint64_t triangles = 0;
  for (const auto& p : store.placements())
    for (const auto& c : p.components)
      if (c.prototype->visual) triangles += c.prototype->visual->mesh->triangle_count(0);
  EXPECT_EQ(scene.stats().object_triangles + scene.stats().coincident_triangles, triangles);
  EXPECT_TRUE(scene.bounds().contains(scene.terrain_bounds().center()));
}

// A closed part hides its own back faces: they are culled, on the side its winding says; an open
// or inconsistently wound part stays two-sided.
TEST(MissionScene, closed_parts_are_drawn_one_sided) {
  const Mesh box = make_box(core::Aabb::from_min_max({0, 0, 0}, {1, 2, 3}));
  std::vector<std::uint32_t> idx(box.indices.begin(), box.indices.end());
  const auto cull_of = [&](const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    const std::vector<std::span<const std::uint32_t>> lists{a, b};
    return closed_surface_cull(box.positions, lists);
  };
  // Split over two submeshes (two materials) and with the box's per-face vertices: still closed.
  const std::vector<std::uint32_t> first(idx.begin(), idx.begin() + 12), rest(idx.begin() + 12, idx.end());
  EXPECT_EQ(cull_of(first, rest), Cull::back);
  std::vector<std::uint32_t> reversed = idx;
  for (std::size_t t = 0; t + 2 < reversed.size(); t += 3) std::swap(reversed[t + 1], reversed[t + 2]);
  EXPECT_EQ(cull_of(reversed, {}), Cull::front);
  EXPECT_EQ(cull_of(std::vector<std::uint32_t>(idx.begin(), idx.end() - 6), {}), Cull::none);  // a face missing
  std::vector<std::uint32_t> flipped_face = idx;
  std::swap(flipped_face[1], flipped_face[2]);  // one triangle wound the other way
  EXPECT_EQ(cull_of(flipped_face, {}), Cull::none);
  EXPECT_EQ(cull_of(idx, idx), Cull::none);  // every edge twice: not a simple surface
  EXPECT_EQ(cull_of({}, {}), Cull::none);

  // The demo sample's machines and buildings are closed boxes: most of its triangles are one-sided.
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  const auto scene = scene_of(*l.mission);
  EXPECT_GT(scene.stats().one_sided_triangles, scene.stats().object_triangles / 2);
  EXPECT_LE(scene.stats().one_sided_triangles, scene.stats().object_triangles);
}

// The demo's units name one machine in every component slot, all at the unit's origin: the
// copies are drawn once. Drawing every object draw a second time changes no pixel, which is
// why leaving the copies out cannot either.
TEST(MissionScene, coincident_component_copies_are_drawn_once) {
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  const auto scene = scene_of(*l.mission);
  EXPECT_GT(scene.stats().coincident_triangles, 0u);
  const auto pose = default_pose(scene.terrain_bounds(), 4.0f / 3.0f);
  const Camera camera = pose_camera(pose, 4.0f / 3.0f, scene.bounds());
  Frame once = scene.frame(camera);
  std::vector<DrawCall> twice(once.draws.begin(), once.draws.end());
  std::size_t copies = 0;
  for (const DrawCall& d : once.draws)
    if (d.material.blend == Blend::opaque && d.material.depth_test && d.material.depth_write) {
      twice.push_back(d);
      ++copies;
    }
  ASSERT_GT(copies, 10u);
  Frame doubled = once;
  doubled.draws = twice;
  EXPECT_TRUE(pixels_of(once) == pixels_of(doubled));
}

// A view of part of the map leaves out the still objects' regions outside it, and draws the
// same picture as every draw of the scene would.
TEST(MissionScene, a_view_leaves_out_the_regions_outside_it) {
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  const auto scene = scene_of(*l.mission);
  const core::Aabb& t = scene.terrain_bounds();
  const core::Vec3 c = t.center();
  // Low over one corner, looking across it: most of the map is behind or beside the camera.
  const core::Vec3 eye{t.min.x + 0.1f * (t.max.x - t.min.x), t.min.y + 0.1f * (t.max.y - t.min.y), t.max.z + 20.0f};
  const Camera camera =
      Camera::perspective(eye, {t.min.x, t.min.y, c.z}, {0, 0, 1}, 0.9f, 4.0f / 3.0f, 0.5f, 4.0f * (t.max.x - t.min.x));
  const Frame view = scene.frame(camera);
  EXPECT_LT(view.draws.size(), scene.draws().size());
  Frame all = view;
  all.draws = scene.draws();
  const auto pixels = pixels_of(view);
  EXPECT_TRUE(pixels == pixels_of(all));
  EXPECT_GT(std::set<std::uint32_t>(pixels.begin(), pixels.end()).size(),
            100u);  // ground and objects, not an empty view
  // From the default framing (the whole map in view) nothing is left out.
  const auto pose = default_pose(t, 4.0f / 3.0f);
  EXPECT_EQ(scene.frame(pose_camera(pose, 4.0f / 3.0f, scene.bounds())).draws.size(), scene.draws().size());
}

TEST(MissionScene, objects_are_drawn_where_the_mission_places_them) {
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  const auto with = scene_of(*l.mission);
  MissionSceneOptions bare;
  bare.objects = false;
  const auto without = scene_of(*l.mission, bare);
  constexpr std::uint32_t kW = 640, kH = 480;
  const Camera camera = top_camera(with.terrain_bounds(), float{kW} / float{kH});
  const auto a = draw(with, camera, kW, kH);
  const auto b = draw(without, camera, kW, kH);
  const Viewport vp{0, 0, int{kW}, int{kH}};
  std::size_t checked = 0;
  for (const auto& p : l.mission->visuals->placements()) {
    const auto s = camera.project(p.transform.position, vp);
    ASSERT_TRUE(s.has_value());
    const auto x = static_cast<std::uint32_t>(s->x), y = static_cast<std::uint32_t>(s->y);
    ASSERT_LT(x, kW);
    ASSERT_LT(y, kH);
    EXPECT_NE(a.pixel(x, y), b.pixel(x, y)) << "objects[" << p.placed_index << "] at " << x << "," << y;
    ++checked;
  }
  EXPECT_EQ(checked, 16u);
}

TEST(MissionScene, output_is_the_same_for_any_thread_count) {
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  MissionSceneOptions o;
  o.overlays = {true, true, true};
  const auto scene = scene_of(*l.mission, o);
  const auto pose = default_pose(scene.terrain_bounds(), 4.0f / 3.0f);
  const Camera camera = pose_camera(pose, 4.0f / 3.0f, scene.bounds());
  const auto one = draw(scene, camera, 320, 240, 1);
  const auto three = draw(scene, camera, 320, 240, 3);
  EXPECT_TRUE(std::equal(one.color().begin(), one.color().end(), three.color().begin()));
}

TEST(MissionScene, snapshot_moves_and_hides_objects) {
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  auto scene = scene_of(*l.mission);
  const std::vector<world::ObjectId> ids = l.mission->ids_by_placement();
  auto snap = *l.mission->world->snapshot();
  ASSERT_EQ(snap.objects.size(), 16u);
  scene.apply_snapshot(snap, ids);
  const auto& p0 = l.mission->visuals->placements()[0];
  EXPECT_EQ(scene.object_position(p0.placed_index), p0.transform.position);

  // Move object 0 by +10 east; drop object 1 from the snapshot.
  const world::ObjectId id0 = ids[static_cast<std::size_t>(p0.placed_index)];
  const world::ObjectId id1 = ids[static_cast<std::size_t>(l.mission->visuals->placements()[1].placed_index)];
  std::erase_if(snap.objects, [&](const world::ObjectView& v) { return v.id == id1; });
  for (auto& v : snap.objects)
    if (v.id == id0) v.transform.position.x += 10.0f;
  scene.apply_snapshot(snap, ids);
  const auto moved = scene.object_position(p0.placed_index);
  ASSERT_TRUE(moved.has_value());
  EXPECT_FLOAT_EQ(moved->x, p0.transform.position.x + 10.0f);
  EXPECT_FALSE(scene.object_position(l.mission->visuals->placements()[1].placed_index).has_value());
  EXPECT_EQ(scene.stats().objects, 16u);  // built objects; one is hidden now
}

// Objects no placement stands for (a script's spawn, a network player's unit) are drawn like
// the first placed object of their prototype key; an unknown key draws nothing.
TEST(MissionScene, spawned_objects_are_drawn_like_a_placed_object_of_their_prototype) {
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  auto scene = scene_of(*l.mission);
  const std::vector<world::ObjectId> ids = l.mission->ids_by_placement();
  auto snap = *l.mission->world->snapshot();
  scene.apply_snapshot(snap, ids);
  const std::size_t draws_before = scene.draws().size();
  const auto& p0 = l.mission->visuals->placements()[0];
  const world::ObjectId id0 = ids[static_cast<std::size_t>(p0.placed_index)];
  const auto it = std::find_if(snap.objects.begin(), snap.objects.end(), [&](const auto& v) { return v.id == id0; });
  ASSERT_NE(it, snap.objects.end());
  world::ObjectView spawned = *it;
  spawned.id = world::ObjectId{0, 43, 900};
  spawned.transform.position.x += 20.0f;
  world::ObjectView stranger = spawned;
  stranger.id = world::ObjectId{0, 43, 901};
  stranger.prototype_key = "no such prototype";
  snap.objects.push_back(spawned);
  snap.objects.push_back(stranger);
  const Camera camera = pose_camera(default_pose(scene.bounds(), 4.0f / 3.0f), 4.0f / 3.0f, scene.bounds());
  const auto before = draw(scene, camera, 320, 240, 1);
  scene.apply_snapshot(snap, ids);
  EXPECT_EQ(scene.stats().objects, 17u);  // the spawned one; the stranger has nothing to look like
  EXPECT_GE(scene.draws().size(), draws_before);
  const auto after = draw(scene, camera, 320, 240, 1);
  EXPECT_FALSE(std::equal(before.color().begin(), before.color().end(), after.color().begin()));
  // Gone from the snapshot: hidden again, the picture as before.
  std::erase_if(snap.objects, [&](const world::ObjectView& v) { return v.id == spawned.id; });
  scene.apply_snapshot(snap, ids);
  const auto gone = draw(scene, camera, 320, 240, 1);
  EXPECT_TRUE(std::equal(before.color().begin(), before.color().end(), gone.color().begin()));
}

TEST(MissionScene, pick_finds_the_object_under_a_ray_and_the_terrain_elsewhere) {
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  const auto scene = scene_of(*l.mission);
  std::size_t hits = 0;
  for (const auto& p : l.mission->visuals->placements()) {
    const core::Vec3 above = p.transform.position + core::Vec3{0.0f, 0.0f, 500.0f};
    const auto hit = scene.pick(above, {0.0f, 0.0f, -1.0f});
    ASSERT_TRUE(hit.has_value());
    EXPECT_FALSE(hit->terrain);
    // The topmost object at that point: this one unless a taller neighbour covers it.
    hits += hit->placed_index == p.placed_index ? 1 : 0;
  }
  EXPECT_GE(hits, 14u);
  // A corner of the map has no object: the ray meets the terrain at its height there.
  const auto& tb = scene.terrain_bounds();
  const auto hit = scene.pick(core::Vec3{tb.min.x + 0.25f, tb.min.y + 0.25f, tb.max.z + 50.0f}, {0.0f, 0.0f, -1.0f});
  ASSERT_TRUE(hit.has_value());
  EXPECT_TRUE(hit->terrain);
  EXPECT_EQ(hit->placed_index, -1);
  EXPECT_GE(hit->point.z, tb.min.z);
  EXPECT_LE(hit->point.z, tb.max.z);
  // Looking up into the sky: nothing.
  EXPECT_FALSE(scene.pick(core::Vec3{tb.center().x, tb.center().y, tb.max.z + 50.0f}, {0.0f, 0.0f, 1.0f}).has_value());
}

TEST(MissionScene, missing_texture_objects_become_placeholders) {
  // Remove a texture that a placed object reaches; the load fails, the fallback keeps the rest.
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  std::string victim;
  for (const auto& p : l.mission->visuals->placements()) {
    for (const auto& c : p.components)
      if (c.prototype->visual && !c.prototype->visual->materials.empty() &&
          c.prototype->visual->materials[0].material && !c.prototype->visual->materials[0].material->phases.empty())
        victim = c.prototype->visual->materials[0].material->phases[0].texture_name;
    if (!victim.empty()) break;
  }
  ASSERT_FALSE(victim.empty());
  auto files = demo_files();
  auto lib = iron3d::read_nres(core::ByteView(files.at("textures.lib")));
  ASSERT_TRUE(lib.has_value());
  iron3d::NresEditor editor(*lib);
  ASSERT_TRUE(editor.remove(*editor.find(victim)).has_value());
  files["textures.lib"] = *editor.encode_canonical();
  auto broken = game_over(files);
  auto report = broken.load("m01");
  ASSERT_TRUE(report.has_value());
  ASSERT_FALSE(report->ok);
  ASSERT_FALSE(report->failures.empty());
  EXPECT_EQ(report->failures.front().code, "load.texture_missing") << report->failures.front().to_string();
  auto data = broken.prepare("m01");
  ASSERT_TRUE(data.has_value());
  assets::VisualCache cache;
  auto fb = assets::prepare_visuals_allowing_missing(broken.repository(), cache, *data);
  ASSERT_TRUE(fb.has_value()) << fb.error().to_string();
  ASSERT_FALSE(fb->missing.empty());
  for (const auto& m : fb->missing) {
    EXPECT_NE(m.reason.find(victim), std::string::npos) << m.reason;
    EXPECT_EQ(m.transform.position, data->tma.objects[static_cast<std::size_t>(m.placed_index)].position);
  }
  EXPECT_EQ(fb->store->placements().size() + fb->missing.size(), 16u);
  MissionSceneOptions o;
  o.missing = fb->missing;
  auto scene = MissionScene::build(fb->store, &*data, o);
  ASSERT_TRUE(scene.has_value());
  EXPECT_EQ(scene->stats().placeholders, fb->missing.size());
  EXPECT_EQ(scene->stats().objects + scene->stats().placeholders, 16u);
  // A placeholder is magenta/black checker seen from above (units stand close together in the
  // base's yard, so one may be under another's model: at least one shows).
  const Camera camera = top_camera(scene->terrain_bounds(), 1.0f);
  const auto img = draw(*scene, camera, 512, 512);
  bool magenta = false;
  for (const auto& m : fb->missing) {
    const auto s = camera.project(m.transform.position, {0, 0, 512, 512});
    ASSERT_TRUE(s.has_value());
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) {
        const auto c = img.pixel(static_cast<std::uint32_t>(static_cast<int>(s->x) + dx),
                                 static_cast<std::uint32_t>(static_cast<int>(s->y) + dy));
        magenta = magenta || (c.r > 120 && c.b > 120 && c.g < 40);
      }
  }
  EXPECT_TRUE(magenta);
}

TEST(ViewSpec, parses_sizes_poses_and_overlays) {
  EXPECT_EQ(*parse_image_size("1280x720"), (ImageSize{1280, 720}));
  for (const char* bad : {"0x10", "10x0", "10", "10x", "x10", "10x10x10", "-5x10", "9000x10", "1.5x2", " 10x10"}) {
    auto r = parse_image_size(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code, "usage.size");
    EXPECT_EQ(r.error().field, "--size");
  }
  const auto p = parse_camera_pose("10,-20.5,30,90,-45");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->eye, (core::Vec3{10.0f, -20.5f, 30.0f}));
  EXPECT_FLOAT_EQ(p->yaw, core::kPi / 2.0f);
  EXPECT_FLOAT_EQ(p->pitch, -core::kPi / 4.0f);
  for (const char* bad : {"1,2,3,4", "1,2,3,4,5,6", "1,2,3,4,91", "a,2,3,4,5", "1,2,nan,4,5", "1,2,3,4,"})
    EXPECT_EQ(parse_camera_pose(bad).error().code, "usage.camera") << bad;
  const auto o = parse_overlays("routes,labels");
  ASSERT_TRUE(o.has_value());
  EXPECT_FALSE(o->areals);
  EXPECT_TRUE(o->routes);
  EXPECT_TRUE(o->labels);
  EXPECT_EQ(parse_overlays("routes,trees").error().code, "usage.overlay");
}

TEST(SceneCamera, pose_looks_along_yaw_and_pitch) {
  const CameraPose east{{0.0f, 0.0f, 0.0f}, 0.0f, 0.0f};
  const core::Vec3 f = pose_forward(east);
  EXPECT_FLOAT_EQ(f.x, 1.0f);
  EXPECT_NEAR(f.y, 0.0f, 1e-6f);
  const CameraPose down_north{{0.0f, 0.0f, 10.0f}, core::kPi / 2.0f, -core::kPi / 4.0f};
  const auto cam = pose_camera(down_north, 1.0f, core::Aabb::from_min_max({-50, -50, -5}, {50, 50, 5}));
  // A point 10 north and 10 down from the eye is straight ahead: the centre of the picture.
  const auto s = cam.project({0.0f, 10.0f, 0.0f}, {0, 0, 100, 100});
  ASSERT_TRUE(s.has_value());
  EXPECT_NEAR(s->x, 50.0f, 1e-3f);
  EXPECT_NEAR(s->y, 50.0f, 1e-3f);
  // East is to the right when looking north.
  const auto e = cam.project({1.0f, 10.0f, 0.0f}, {0, 0, 100, 100});
  EXPECT_GT(e->x, 50.0f);
}

TEST(SceneCamera, default_and_top_views_frame_the_bounds) {
  const auto b = core::Aabb::from_min_max({0, 0, 0}, {200, 100, 20});
  const Viewport vp{0, 0, 160, 90};
  for (std::uint32_t i = 0; i < 4; ++i) {
    const auto cam = pose_camera(orbit_pose(b, 16.0f / 9.0f, i, 4), 16.0f / 9.0f, b);
    for (int k = 0; k < 8; ++k) {
      const core::Vec3 c{(k & 1) ? b.max.x : b.min.x, (k & 2) ? b.max.y : b.min.y, (k & 4) ? b.max.z : b.min.z};
      const auto s = cam.project(c, vp);
      ASSERT_TRUE(s.has_value());
      EXPECT_GE(s->x, 0.0f);
      EXPECT_LE(s->x, 160.0f);
      EXPECT_GE(s->y, 0.0f);
      EXPECT_LE(s->y, 90.0f);
    }
  }
  const auto top = top_camera(b, 16.0f / 9.0f);
  const auto sw = top.project({0, 0, 10}, vp), ne = top.project({200, 100, 10}, vp);
  ASSERT_TRUE(sw && ne);
  EXPECT_LT(sw->x, ne->x);  // east right
  EXPECT_GT(sw->y, ne->y);  // north up
}

// Golden: the demo m01 from above at 192 x 144 with routes and areals (written once by our
// renderer with SORTIE_UPDATE_GOLDEN=1 and reviewed by eye).
TEST(MissionScene, golden_small_mission) {
  auto l = load_m01();
  ASSERT_NE(l.mission, nullptr);
  MissionSceneOptions o;
  o.overlays.routes = true;
  o.overlays.areals = true;
  const auto scene = scene_of(*l.mission, o);
  const Camera camera = pose_camera(default_pose(scene.terrain_bounds(), 4.0f / 3.0f), 4.0f / 3.0f, scene.bounds());
  const auto fb = draw(scene, camera, 192, 144);
  SORTIE_EXPECT_GOLDEN_IMAGE(fb, fs::path(SORTIE_TEST_DATA_DIR) / "golden" / "mission_m01" / "expected.png",
                             "the demo m01 from above with routes and areals");
}

}  // namespace
}  // namespace sortie::render::test
