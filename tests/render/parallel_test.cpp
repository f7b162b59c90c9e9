// Tile-parallel rendering gives exactly the single-thread picture (colour and depth bits).
#include <gtest/gtest.h>

#include <cstring>

#include "render_fixtures.hpp"
#include "sortie/render/mesh_builders.hpp"

namespace sortie::render {
namespace {

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
  // AVX2 (two quads per step) and SSE2 (one quad per step) compute every lane the same way.
  Renderer rb({1, true, Isa::baseline});
  Renderer rw({2, true, Isa::best});
  if (rw.isa() == rb.isa())
    GTEST_SKIP() << "no AVX2 kernels on this machine or build: both renderers run " << rb.isa()
                 << ", nothing to compare";
  ASSERT_EQ(rw.isa(), "avx2");
  ASSERT_NE(rb.isa(), "avx2");
  for (const auto& c : test::golden_cases()) {
    test::Scene s = c.make();
    s.frame.draws = s.draws;
    s.frame.labels = s.labels;
    Framebuffer base = Framebuffer::create(s.width, s.height).value();
    Framebuffer best = Framebuffer::create(s.width, s.height).value();
    ASSERT_TRUE(rb.render(s.frame, base));
    ASSERT_TRUE(rw.render(s.frame, best));
    EXPECT_TRUE(same_bits(base, best)) << c.name << " (" << rw.isa() << " vs " << rb.isa() << ")";
  }
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

}  // namespace
}  // namespace sortie::render
