// Tile-parallel rendering gives exactly the single-thread picture (colour and depth bits).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "render_fixtures.hpp"
#include "sortie/render/mesh_builders.hpp"

namespace sortie::render {
namespace {

// The geometry counters of two renders of one frame are equal.
void expect_same_geometry(const FrameStats& a, const FrameStats& b) {
  EXPECT_EQ(a.vertices, b.vertices);
  EXPECT_EQ(a.triangles, b.triangles);
  EXPECT_EQ(a.triangles_culled, b.triangles_culled);
  EXPECT_EQ(a.triangles_invalid, b.triangles_invalid);
  EXPECT_EQ(a.triangles_clipped, b.triangles_clipped);
  EXPECT_EQ(a.triangles_setup, b.triangles_setup);
  EXPECT_EQ(a.lines, b.lines);
  EXPECT_EQ(a.points, b.points);
  EXPECT_EQ(a.bin_entries, b.bin_entries);
}

// Uniform floats in [0, 1) from a fixed seed (a linear congruential generator).
struct Uniform {
  std::uint32_t state;
  float operator()() {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f;
  }
};

bool same_bits(const Framebuffer& a, const Framebuffer& b) {
  return a.width() == b.width() && a.height() == b.height() &&
         std::memcmp(a.color().data(), b.color().data(), a.color().size_bytes()) == 0 &&
         std::memcmp(a.depth().data(), b.depth().data(), a.depth().size_bytes()) == 0;
}

// Every golden scene plus all of them drawn together into an odd-sized, offset viewport.
TEST(Parallel, every_thread_count_matches_single_thread) {
  for (const auto& c : test::golden_cases()) {
    test::Scene s = c.make();
    const Framebuffer one = s.render(1);
    for (unsigned threads : {2u, 3u, 4u}) EXPECT_TRUE(same_bits(one, s.render(threads))) << c.name << " " << threads;
  }
}

TEST(Parallel, wide_kernels_match_baseline_kernels) {
  // AVX-512 (four quads per step), AVX2 (two) and SSE2 (one quad per step) compute every lane
  // the same way.
  Renderer rb({1, true, Isa::baseline});
  Renderer r2({2, true, Isa::avx2});
  Renderer r512({2, true, Isa::best});
  ASSERT_NE(rb.isa(), "avx2");
  std::vector<Renderer*> wide;
  if (r2.isa() == "avx2") wide.push_back(&r2);
  if (r512.isa() == "avx512") wide.push_back(&r512);
  if (wide.empty())
    GTEST_SKIP() << "no AVX2 or AVX-512 kernels on this machine or build: every renderer runs " << rb.isa()
                 << ", nothing to compare";
  for (const auto& c : test::golden_cases()) {
    test::Scene s = c.make();
    s.frame.draws = s.draws;
    s.frame.labels = s.labels;
    Framebuffer base = Framebuffer::create(s.width, s.height).value();
    ASSERT_TRUE(rb.render(s.frame, base));
    for (Renderer* rw : wide) {
      Framebuffer best = Framebuffer::create(s.width, s.height).value();
      ASSERT_TRUE(rw->render(s.frame, best));
      EXPECT_TRUE(same_bits(base, best)) << c.name << " (" << rw->isa() << " vs " << rb.isa() << ")";
    }
  }
}

// Triangle setup sixteen triangles at a time (AVX-512: geometry_avx512.cpp) keeps, culls and
// records exactly what the portable loop does, in the same order. A soup in window pixels that
// reaches every decision: triangles between pixel centres, tiny ones of one to four centres,
// slivers whose few on-screen centres lie far from their vertices (tested in 64 bits, portable),
// degenerate, back- and front-facing ones, some partly off-screen, some across the guard band or
// the near and far planes (clipped), some all outside (rejected), a non-finite vertex, vertices
// shared between triangles; indexed and not, counts that are not multiples of sixteen, three
// cull modes and three kinds of record (flat, vertex colours, textured), into a full and into an
// offset viewport, on one thread and on two.
TEST(Parallel, wide_setup_matches_portable_setup) {
  Renderer rb({1, true, Isa::baseline});
  Renderer r1({1, true, Isa::best});
  Renderer r2({2, true, Isa::best});
  if (r1.isa() != "avx512") GTEST_SKIP() << "no AVX-512 on this machine or build: triangles set up one at a time";
  constexpr int kW = 157, kH = 118;
  Uniform next{4242};
  auto soup = [&](int count, bool indexed) {
    Mesh m;
    for (int t = 0; t < count; ++t) {
      const float cx = next() * (kW + 60) - 30, cy = next() * (kH + 60) - 30, z = -1.0f - next() * 40.0f;
      core::Vec3 p[3];
      const int kind = t % 10;
      for (int k = 0; k < 3; ++k) {
        const float r = kind < 4 ? 1.6f : kind < 7 ? 9.0f : 45.0f;  // tiny, small, large
        p[k] = {cx + (next() - 0.5f) * r, cy + (next() - 0.5f) * r, z};
      }
      if (kind == 7) {  // a sliver from far off the left edge: at most a few centres on screen
        p[0] = {-150.0f - next() * 60.0f, cy, z};
        p[1] = {next() * 3.0f, cy + next() * 0.9f, z};
        p[2] = {-120.0f, cy + 0.7f, z};
      }
      if (kind == 8 && t % 3 == 0) p[2] = p[0];                              // degenerate
      if (kind == 8 && t % 3 == 1) p[1].x = cx + 30000.0f;                   // across the guard band
      if (kind == 9 && t % 4 == 0) p[0].z = 5.0f;                            // across the near plane
      if (kind == 9 && t % 4 == 1) p[1].z = -500.0f;                         // across the far plane
      if (kind == 9 && t % 4 == 2) p[0].x = p[1].x = p[2].x = -900.0f;       // all outside: rejected
      if (t == count / 2) p[1].y = std::numeric_limits<float>::quiet_NaN();  // not finite
      for (int k = 0; k < 3; ++k) {
        const bool share = indexed && t > 4 && next() < 0.15f;  // a vertex of an earlier triangle
        m.indices.push_back(share ? m.indices[static_cast<std::size_t>(next() * static_cast<float>(m.indices.size()))]
                                  : static_cast<std::uint32_t>(m.positions.size()));
        if (share) continue;
        m.positions.push_back(p[k]);
        m.normals.push_back({0, 0, 1});
        m.uvs.push_back({next() * 4.0f, next() * 4.0f});
        m.colors.push_back({static_cast<std::uint8_t>(next() * 255), static_cast<std::uint8_t>(next() * 255),
                            static_cast<std::uint8_t>(next() * 255), 255});
      }
    }
    if (!indexed) {  // the same triangles without an index buffer
      Mesh flat;
      for (const std::uint32_t i : m.indices) {
        flat.positions.push_back(m.positions[i]);
        flat.normals.push_back(m.normals[i]);
        flat.uvs.push_back(m.uvs[i]);
        flat.colors.push_back(m.colors[i]);
      }
      return flat;
    }
    return m;
  };
  const std::vector<Mesh> meshes = {soup(1000, true), soup(997, false), soup(37, true), soup(5, false)};
  const Texture tex = test::checker_texture(32, 4, kWhite, {90, 60, 30, 255});
  std::vector<DrawCall> draws;
  for (std::size_t i = 0; i < 9; ++i) {
    Material mat;
    mat.cull = i % 3 == 0 ? Cull::none : i % 3 == 1 ? Cull::back : Cull::front;
    MeshView view = meshes[i % meshes.size()].view();
    if (i % 3 != 1) view.colors = {};  // flat or textured (no colour planes)
    if (i % 3 == 2) mat.texture = tex.view();
    draws.push_back({view, mat, core::Mat4::identity()});
  }
  Frame f;
  f.camera = Camera::pixels(kW, kH, 100.0f);
  f.draws = draws;
  for (const bool offset : {false, true}) {
    if (offset) f.viewport = Viewport{-17, 9, kW + 30, kH - 20};
    FrameStats sb;
    Framebuffer base = Framebuffer::create(kW, kH).value();
    ASSERT_TRUE(rb.render(f, base, &sb));
    EXPECT_GT(sb.triangles_setup, 1000u);
    EXPECT_GT(sb.triangles_clipped, 50u);
    EXPECT_GT(sb.triangles_culled, 1000u);
    EXPECT_GT(sb.triangles_invalid, 0u);
    for (Renderer* r : {&r1, &r2}) {
      FrameStats sw;
      Framebuffer wide = Framebuffer::create(kW, kH).value();
      ASSERT_TRUE(r->render(f, wide, &sw));
      EXPECT_TRUE(same_bits(base, wide)) << "offset " << offset;
      expect_same_geometry(sw, sb);
    }
  }
}

// The vertex stage sixteen vertices at a time (AVX-512: geometry_avx512.cpp) gives the records
// of the four-lane one: lit meshes with vertex colours, texture coordinates, normals of every
// kind (unit, long, zero, not finite), two point lights, a rotated and scaled model, vertex
// counts that leave short last steps, a vertex behind the eye (clipped), under a perspective
// camera; lines and points too.
TEST(Parallel, wide_vertex_stage_matches_baseline) {
  Renderer rb({1, true, Isa::baseline});
  Renderer r1({1, true, Isa::best});
  if (r1.isa() != "avx512") GTEST_SKIP() << "no AVX-512 on this machine or build: vertices transformed four at a time";
  Uniform next{99};
  std::vector<Mesh> meshes;
  for (const int count : {1, 15, 16, 17, 333}) {
    for (const Primitive prim : {Primitive::triangles, Primitive::lines, Primitive::points}) {
      Mesh m;
      m.primitive = prim;
      const int corners = prim == Primitive::triangles ? 3 : prim == Primitive::lines ? 2 : 1;
      for (int t = 0; t < count; ++t) {
        const core::Vec3 c{next() * 10.0f - 5.0f, next() * 8.0f - 4.0f, next() * 2.0f};
        for (int k = 0; k < corners; ++k) {
          m.indices.push_back(static_cast<std::uint32_t>(m.positions.size()));
          m.positions.push_back({c.x + next() - 0.5f, c.y + next() - 0.5f, c.z + next() * 0.5f});
          const int kind = static_cast<int>(m.positions.size()) % 7;
          m.normals.push_back(kind == 0   ? core::Vec3{0, 0, 0}
                              : kind == 1 ? core::Vec3{std::numeric_limits<float>::infinity(), 0, 1}
                              : kind == 2 ? core::Vec3{next() * 40.0f, -3.0f, 9.0f}
                                          : core::normalize_or({next() - 0.5f, next() - 0.5f, 1.0f}, {0, 0, 1}));
          m.uvs.push_back({next() * 3.0f - 1.0f, next() * 3.0f - 1.0f});
          m.colors.push_back({static_cast<std::uint8_t>(next() * 255), static_cast<std::uint8_t>(next() * 255),
                              static_cast<std::uint8_t>(next() * 255), static_cast<std::uint8_t>(next() * 255)});
        }
      }
      if (count == 333 && prim == Primitive::triangles) m.positions[5].z = 40.0f;  // behind the eye
      meshes.push_back(std::move(m));
    }
  }
  const Texture tex = test::checker_texture(32, 4, kWhite, {90, 60, 30, 255});
  std::vector<DrawCall> draws;
  core::Mat4 model = core::Mat4::identity();
  model.m[0][0] = 0.8f, model.m[0][1] = -0.6f, model.m[1][0] = 0.6f, model.m[1][1] = 0.8f, model.m[2][2] = 1.3f;
  model.m[0][3] = 0.4f;
  for (std::size_t i = 0; i < meshes.size(); ++i) {
    Material mat;
    mat.cull = Cull::none;
    mat.lit = i % 2 == 0;
    mat.point_size = 3.0f;
    if (i % 3 != 2) mat.texture = tex.view();
    mat.blend = i % 4 == 1 ? Blend::alpha : Blend::opaque;
    draws.push_back({meshes[i].view(), mat, i % 2 == 0 ? model : core::Mat4::identity()});
  }
  const std::vector<PointLight> lights = {{{1.0f, 1.0f, 3.0f}, {1.0f, 0.6f, 0.2f}, 9.0f, 2.0f},
                                          {{-3.0f, 0.0f, 1.0f}, {0.2f, 0.5f, 1.0f}, 6.0f, 1.0f}};
  Frame f;
  f.camera = Camera::perspective({0, -12, 9}, {0, 0, 0}, {0, 0, 1}, 0.9f, 4.0f / 3.0f, 0.5f, 100.0f);
  f.draws = draws;
  f.point_lights = lights;
  FrameStats sb, sw;
  Framebuffer base = Framebuffer::create(211, 158).value();
  Framebuffer wide = Framebuffer::create(211, 158).value();
  ASSERT_TRUE(rb.render(f, base, &sb));
  ASSERT_TRUE(r1.render(f, wide, &sw));
  EXPECT_GT(sb.triangles_setup, 300u);
  EXPECT_GT(sb.triangles_clipped, 0u);
  EXPECT_GT(sb.lines, 100u);
  EXPECT_GT(sb.points, 100u);
  EXPECT_TRUE(same_bits(base, wide));
  expect_same_geometry(sw, sb);
}

// The fog pass eight pixels at a time (AVX2) gives the four-at-a-time pixels, over every golden
// scene under a sky whose fog starts close enough to reach most of what is drawn.
TEST(Parallel, wide_fog_matches_baseline_fog) {
  Renderer rb({1, true, Isa::baseline});
  Renderer rw({2, true, Isa::best});
  if (rw.isa() == rb.isa()) GTEST_SKIP() << "no AVX2 on this machine or build: nothing to compare";
  std::size_t fogged = 0;
  for (const auto& c : test::golden_cases()) {
    test::Scene s = c.make();
    s.frame.draws = s.draws;
    s.frame.labels = s.labels;
    Atmosphere at;
    at.horizon = {200, 215, 235, 255};
    at.fog_start = 1.0f;
    at.fog_end = 12.0f;
    at.fog_max = 0.9f;
    s.frame.atmosphere = at;
    s.frame.clear_depth = 1.0f;
    Framebuffer base = Framebuffer::create(s.width, s.height).value();
    Framebuffer best = Framebuffer::create(s.width, s.height).value();
    ASSERT_TRUE(rb.render(s.frame, base));
    ASSERT_TRUE(rw.render(s.frame, best));
    EXPECT_TRUE(same_bits(base, best)) << c.name;
    s.frame.atmosphere->fog_max = 0.0f;
    Framebuffer clear = Framebuffer::create(s.width, s.height).value();
    ASSERT_TRUE(rw.render(s.frame, clear));
    fogged += same_bits(best, clear) ? 0 : 1;
  }
  // The fog reached what every scene but one draws (fill_rule's orthographic pixel camera puts
  // all of it within one unit of the eye, short of the fog's start).
  EXPECT_GE(fogged, test::golden_cases().size() - 1);
}

TEST(Parallel, mixed_scene_in_odd_viewport_matches_single_thread) {
  std::vector<test::Scene> scenes;
  std::vector<DrawCall> draws;
  std::vector<Label> labels;
  for (const auto& c : test::golden_cases()) scenes.push_back(c.make());
  for (const auto& s : scenes) {
    draws.insert(draws.end(), s.draws.begin(), s.draws.end());
    labels.insert(labels.end(), s.labels.begin(), s.labels.end());
  }
  Frame f = scenes[5].frame;  // the terrain's camera
  f.draws = draws;
  f.labels = labels;
  f.viewport = Viewport{13, 7, 287, 190};
  FrameStats st1;
  Framebuffer one = Framebuffer::create(301, 203).value();
  Renderer r1({1});
  ASSERT_TRUE(r1.render(f, one, &st1));
  EXPECT_GT(st1.triangles_setup, 1000u);
  for (unsigned threads : {2u, 3u, 4u}) {
    Framebuffer many = Framebuffer::create(301, 203).value();
    Renderer r({threads});
    FrameStats st;
    // Twice with the same renderer: reused buffers give the same picture.
    for (int pass = 0; pass < 2; ++pass) {
      ASSERT_TRUE(r.render(f, many, &st));
      EXPECT_TRUE(same_bits(one, many)) << threads << " threads, pass " << pass;
      EXPECT_EQ(st.triangles_setup, st1.triangles_setup);
      EXPECT_EQ(st.bin_entries, st1.bin_entries);
      EXPECT_EQ(st.threads, threads);
    }
  }
}

TEST(Parallel, dense_mesh_across_many_jobs_matches_single_thread) {
  // Enough triangles for many vertex and primitive jobs, drawn over a framebuffer that is not
  // cleared first (the tiles load what is there).
  std::vector<float> h(301 * 301);
  for (std::size_t i = 0; i < h.size(); ++i)
    h[i] = 0.3f * std::sin(static_cast<float>(i % 301) * 0.1f) * std::cos(static_cast<float>(i / 301) * 0.13f);
  const Mesh m = make_height_field({-15, -15, 0}, {0.1f, 0.1f}, 301, 301, h).value();
  const Texture tex = test::checker_texture(64, 8, kWhite, {90, 60, 30, 255});
  Material mat;
  mat.texture = tex.view();
  mat.filter = Filter::trilinear;
  mat.lit = true;
  const DrawCall d{m.view(), mat, core::Mat4::identity()};
  Frame f;
  f.camera = Camera::perspective({-12, -18, 9}, {0, 0, 0}, {0, 0, 1}, 0.9f, 4.0f / 3.0f, 0.5f, 100.0f);
  f.draws = {&d, 1};
  f.clear_color.reset();
  f.clear_depth.reset();
  auto render = [&](unsigned threads) {
    Framebuffer fb = Framebuffer::create(320, 240).value();
    fb.clear({10, 20, 30, 255}, 1.0f);
    EXPECT_TRUE(Renderer({threads}).render(f, fb));
    return fb;
  };
  const Framebuffer one = render(1);
  for (unsigned threads : {2u, 3u, 4u}) EXPECT_TRUE(same_bits(one, render(threads))) << threads;
}

// The AVX-512 kernels queue the fragments of opaque textured triangles and shade them later,
// sixteen to a vector (pipeline.hpp, FragmentQueue); the pictures stay those of the baseline
// kernels, which draw every triangle at once. A pile of small overlapping triangles ("confetti")
// in draws that switch texture, filter (nearest, bilinear, trilinear per pixel and per quad), wrap
// (repeat, clamp, a non-power-of-two repeat) and shading (flat, luma, rgb, rgba), some without the
// depth test (a later fragment over the same pixel must win, in the same queue vector too), with
// alpha-tested, blended and untextured draws, lines and labels between them, drawn into a
// cleared and into a loaded framebuffer, on one thread and on three.
TEST(Parallel, queued_fragments_keep_the_drawing_order) {
  Uniform next{777};
  const Texture checker = test::checker_texture(32, 4, kWhite, {90, 60, 30, 255});
  const Texture levels = test::level_colored_texture(64);
  std::vector<std::uint32_t> odd_texels(24 * 10);
  for (std::size_t i = 0; i < odd_texels.size(); ++i)
    odd_texels[i] = pack(Rgba8{static_cast<std::uint8_t>(i * 7), static_cast<std::uint8_t>(i * 13), 200, 255});
  const Texture odd = Texture::from_packed(24, 10, odd_texels).value();
  constexpr int kDraws = 40;
  std::vector<Mesh> meshes(kDraws);
  std::vector<DrawCall> draws;
  for (int i = 0; i < kDraws; ++i) {
    Mesh& m = meshes[static_cast<std::size_t>(i)];
    const bool lines = i % 9 == 4;
    m.primitive = lines ? Primitive::lines : Primitive::triangles;
    const int count = i % 5 == 0 ? 400 : 120;  // triangles (or lines)
    for (int t = 0; t < count; ++t) {
      const core::Vec3 c{next() * 12.0f - 6.0f, next() * 9.0f - 4.5f, next() * 2.0f};
      const float size = (i % 3 == 0 ? 0.05f : 0.5f) + next() * 0.6f;  // some well under a pixel apart
      const int corners = lines ? 2 : 3;
      for (int k = 0; k < corners; ++k) {
        m.indices.push_back(static_cast<std::uint32_t>(m.positions.size()));
        m.positions.push_back({c.x + (next() - 0.5f) * size, c.y + (next() - 0.5f) * size, c.z + next() * 0.3f});
        m.normals.push_back(core::normalize_or({next() - 0.5f, next() - 0.5f, 1.0f}, {0, 0, 1}));
        m.uvs.push_back({next() * 3.0f - 1.0f, next() * 3.0f - 1.0f});
        if (i % 3 == 1)
          m.colors.push_back({static_cast<std::uint8_t>(next() * 255), static_cast<std::uint8_t>(next() * 255),
                              static_cast<std::uint8_t>(next() * 255),
                              static_cast<std::uint8_t>(i % 6 == 1 ? next() * 255 : 255)});
      }
    }
    Material mat;
    mat.cull = Cull::none;
    mat.lit = i % 2 == 0;
    if (i % 7 != 6) {
      const Texture& tex = i % 3 == 0 ? checker : i % 3 == 1 ? levels : odd;
      mat.texture = tex.view();
      mat.filter = i % 4 == 0   ? Filter::bilinear
                   : i % 4 == 1 ? Filter::trilinear
                   : i % 4 == 2 ? Filter::nearest
                                : Filter::trilinear;
      if (i % 8 == 3) mat.lod = LodMode::per_quad;
      if (i % 5 == 2) mat.wrap = Wrap::clamp;
    }
    if (i % 10 == 8) mat.color = {0.9f, 0.5f, 0.2f, 1.0f};
    if (i % 5 == 1 || i % 4 == 1) mat.depth_test = false;
    if (i % 11 == 5) mat.depth_write = false;
    if (i % 13 == 7) mat.alpha_ref = 128;
    if (i % 12 == 10) {
      mat.blend = Blend::alpha;
      mat.color = {1.0f, 1.0f, 1.0f, 0.6f};
    }
    draws.push_back({m.view(), mat, core::Mat4::identity()});
  }
  std::vector<Label> labels(3);
  for (std::size_t k = 0; k < labels.size(); ++k) {
    labels[k].text = "queued";
    labels[k].position = {static_cast<float>(k) * 2.0f - 2.0f, 0.0f, 1.0f};
    labels[k].color = {250, 250, 120, 255};
  }
  Frame f;
  f.camera = Camera::perspective({0, -14, 10}, {0, 0, 0}, {0, 0, 1}, 0.9f, 4.0f / 3.0f, 0.5f, 100.0f);
  f.draws = draws;
  f.labels = labels;
  Renderer rb({1, true, Isa::baseline});
  Renderer r1({1, true, Isa::best});
  Renderer r3({3, true, Isa::best});
  if (r1.isa() != "avx512") GTEST_SKIP() << "no AVX-512 kernels on this machine or build: nothing queues";
  for (const bool loaded : {false, true}) {
    if (loaded) {
      f.clear_color.reset();
      f.clear_depth.reset();
    }
    auto render = [&](Renderer& r) {
      Framebuffer fb = Framebuffer::create(243, 181).value();
      fb.clear({10, 20, 30, 255}, 0.97f);
      EXPECT_TRUE(r.render(f, fb));
      return fb;
    };
    const Framebuffer base = render(rb);
    EXPECT_TRUE(same_bits(base, render(r1))) << "one thread, loaded " << loaded;
    EXPECT_TRUE(same_bits(base, render(r3))) << "three threads, loaded " << loaded;
  }
}

// Small triangles queued without stepping (AVX-512: a tiny one from its covered centres, one in a
// few 4 x 4 boxes, a step per box) keep the coarse depth bounds true: a near square sets its
// blocks' bound low, a far mesh of small triangles drawn without the depth test lifts the depths
// there, and a square between the two must then still be drawn over the mesh, as the baseline
// kernels draw it. Once with a mesh of triangles of about a pixel (tiny), once with one triangle
// of about three (a box). The middle square is alpha tested (every texel passes): it is not
// queued, so it steps and consults the coarse bounds (small queued triangles never do).
TEST(Parallel, small_triangles_written_without_the_depth_test_lift_the_coarse_bound) {
  const Texture tex = test::checker_texture(32, 4, kWhite, {90, 60, 30, 255});
  auto square = [](float z, float half) {
    return make_height_field({-half, -half, z}, {2 * half, 2 * half}, 2, 2, std::vector<float>(4, 0.0f)).value();
  };
  // In pixels of the 96 x 96 picture: the near square 45 from the centre, behind it 18, the middle
  // one 14 and the mesh 30 (the bounds measured through the square behind cover the middle one's).
  const Mesh near_square = square(5.0f, 2.3f), behind = square(-1.0f, 2.0f), middle = square(3.0f, 1.0f);
  Mesh one;  // a triangle of about three pixels on a side at the centre
  one.positions = {{-0.12f, -0.1f, 0.0f}, {0.18f, -0.1f, 0.0f}, {-0.12f, 0.2f, 0.0f}};
  one.normals.assign(3, {0, 0, 1});
  one.uvs = {{0, 0}, {1, 0}, {0, 1}};
  one.indices = {0, 1, 2};
  const Mesh fine = make_height_field({-3, -3, 0}, {0.08f, 0.08f}, 76, 76, std::vector<float>(76 * 76, 0.0f)).value();
  for (const Mesh* lifting : {&fine, static_cast<const Mesh*>(&one)}) {
    Material tested;
    tested.texture = tex.view();
    tested.cull = Cull::none;
    Material untested = tested;
    untested.depth_test = false;
    Material alpha_tested = tested;
    alpha_tested.alpha_ref = 1;
    const DrawCall draws[] = {{near_square.view(), tested, core::Mat4::identity()},
                              {behind.view(), tested, core::Mat4::identity()},  // measures the bounds
                              {lifting->view(), untested, core::Mat4::identity()},
                              {middle.view(), alpha_tested, core::Mat4::identity()}};
    Frame f;
    f.camera = Camera::perspective({0, 0, 10}, {0, 0, 0}, {0, 1, 0}, 0.9f, 1.0f, 0.5f, 100.0f);
    f.draws = draws;
    Renderer rb({1, true, Isa::baseline});
    Renderer rw({1, true, Isa::best});
    if (rw.isa() != "avx512") GTEST_SKIP() << "no AVX-512 kernels on this machine or build";
    Framebuffer base = Framebuffer::create(96, 96).value();
    Framebuffer best = Framebuffer::create(96, 96).value();
    FrameStats st;
    ASSERT_TRUE(rb.render(f, base));
    ASSERT_TRUE(rw.render(f, best, &st));
    const std::size_t drawn = lifting == &one ? 5 : 3000;  // the lifting triangles reach the setup
    EXPECT_GT(st.triangles_setup, drawn);
    EXPECT_TRUE(same_bits(base, best)) << lifting->indices.size();
    // The middle square is what the centre shows.
    const Framebuffer only_middle = [&] {
      Frame g = f;
      g.draws = std::span<const DrawCall>(draws + 3, 1);
      Framebuffer fb = Framebuffer::create(96, 96).value();
      EXPECT_TRUE(rb.render(g, fb));
      return fb;
    }();
    EXPECT_EQ(best.pixel(48, 48), only_middle.pixel(48, 48)) << lifting->indices.size();
  }
}

// Coarse depth (RendererOptions::coarse_depth) skips only what the depth test would refuse: the
// same bits with it off, on every golden scene and on a pile of overlapping boxes mixing depth
// modes (tested and written, tested only, written without the test, blended, lines), drawn into a
// cleared and into a loaded framebuffer, on one thread and three.
TEST(Parallel, coarse_depth_changes_no_pixel) {
  for (const auto& c : test::golden_cases()) {
    test::Scene s = c.make();
    s.frame.draws = s.draws;
    s.frame.labels = s.labels;
    Framebuffer on = Framebuffer::create(s.width, s.height).value();
    Framebuffer off = Framebuffer::create(s.width, s.height).value();
    RendererOptions no;
    no.coarse_depth = false;
    ASSERT_TRUE(Renderer(RendererOptions{}).render(s.frame, on));
    ASSERT_TRUE(Renderer(no).render(s.frame, off));
    EXPECT_TRUE(same_bits(on, off)) << c.name;
  }

  std::vector<Mesh> meshes;
  std::vector<DrawCall> draws;
  Uniform next{12345};
  for (int i = 0; i < 240; ++i) {
    const core::Vec3 c{next() * 16.0f - 8.0f, next() * 16.0f - 8.0f, next() * 4.0f};
    const core::Vec3 h{0.3f + next() * 2.5f, 0.3f + next() * 2.5f, 0.3f + next() * 2.0f};
    meshes.push_back(make_box({c - h, c + h}, {static_cast<std::uint8_t>(next() * 255), 120, 90, 255}));
  }
  std::vector<float> hf(41 * 41);
  for (std::size_t i = 0; i < hf.size(); ++i)
    hf[i] = 2.0f * std::sin(static_cast<float>(i % 41) * 0.3f) * std::cos(static_cast<float>(i / 41) * 0.2f);
  meshes.push_back(make_height_field({-10, -10, 0}, {0.5f, 0.5f}, 41, 41, hf).value());
  const Texture tex = test::checker_texture(32, 4, kWhite, {90, 60, 30, 255});
  for (std::size_t i = 0; i < meshes.size(); ++i) {
    Material m;
    m.lit = true;
    if (i % 3 == 0) m.texture = tex.view();
    if (i % 17 == 5) m.depth_test = false;  // written over whatever is there, depth included
    if (i % 13 == 7) m.depth_write = false;
    if (i % 11 == 3) {
      m.blend = Blend::alpha;
      m.color = {1.0f, 1.0f, 1.0f, 0.5f};
    }
    if (i % 29 == 9) m.depth_bias = -0.001f;
    draws.push_back({meshes[i].view(), m, core::Mat4::identity()});
  }
  Frame f;
  f.camera = Camera::perspective({-14, -20, 12}, {0, 0, 1}, {0, 0, 1}, 0.9f, 4.0f / 3.0f, 0.5f, 100.0f);
  f.draws = draws;
  for (const bool cleared : {true, false}) {
    if (!cleared) {
      f.clear_color.reset();
      f.clear_depth.reset();
    }
    auto render = [&](unsigned threads, bool coarse, FrameStats* st) {
      Framebuffer fb = Framebuffer::create(333, 251).value();
      fb.clear({10, 20, 30, 255}, 0.999f);
      RendererOptions o;
      o.threads = threads;
      o.coarse_depth = coarse;
      EXPECT_TRUE(Renderer(o).render(f, fb, st));
      return fb;
    };
    FrameStats with, without;
    const Framebuffer reference = render(1, false, &without);
    EXPECT_EQ(without.depth_skips, 0u);
    EXPECT_TRUE(same_bits(reference, render(1, true, &with))) << "cleared " << cleared;
    EXPECT_GT(with.depth_skips, 100u) << "the pile hides most of its boxes: coarse depth must skip some";
    EXPECT_TRUE(same_bits(reference, render(3, true, nullptr))) << "cleared " << cleared;
  }
}

}  // namespace
}  // namespace sortie::render
