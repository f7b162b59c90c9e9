// The terrain's baked surface (terrain_surface.hpp): materials blended across face borders by
// per-vertex weights, the Land2.wea lightmap multiplied in over the terrain's XY bounds.
#include "sortie/render/terrain_surface.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace sortie::render::test {
namespace {

Texture solid(Rgba8 c) {
  std::vector<std::uint32_t> texels(16, pack(c));
  return *Texture::from_packed(4, 4, texels, MipChain::none);
}

// A 64 x 64 strip of two squares side by side: x 0..32 red faces, x 32..64 blue faces.
assets::PreparedTerrain two_squares() {
  assets::PreparedTerrain t;
  t.path = "DATA/MAPS/test/Land.msh";
  for (int y = 0; y <= 1; ++y)
    for (int x = 0; x <= 2; ++x) {
      t.positions.push_back({32.0f * static_cast<float>(x), 64.0f * static_cast<float>(y), 0.0f});
      t.uvs.push_back({static_cast<float>(x), static_cast<float>(y)});
    }
  auto face = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c, std::int32_t tex) {
    assets::PreparedTerrainFace f;
    f.vertices = {a, b, c};
    f.texture = tex;
    t.faces.push_back(f);
  };
  face(0, 1, 4, 0);
  face(0, 4, 3, 0);
  face(1, 2, 5, 1);
  face(1, 5, 4, 1);
  return t;
}

Rgba8 texel(const TerrainSurface& s, float x, float y, float extent) {
  const auto level = s.texture.level(0);
  const auto size = s.texture.width();
  const auto tx = static_cast<std::uint32_t>(x / extent * static_cast<float>(size));
  const auto ty = static_cast<std::uint32_t>(y / extent * static_cast<float>(size));
  return unpack(level[std::size_t{ty} * size + tx]);
}

TEST(TerrainSurface, blends_materials_across_the_border_only) {
  const auto terrain = two_squares();
  const Texture red = solid({200, 0, 0, 255}), blue = solid({0, 0, 200, 255});
  auto s = bake_terrain_surface(terrain, {&red, &blue}, nullptr);
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->texture.width(), terrain_surface_size(64.0f));
  EXPECT_EQ(terrain_surface_size(616.0f), 1024u);
  EXPECT_EQ(s->texture.width(), 256u);
  EXPECT_FALSE(s->lightmapped);
  ASSERT_EQ(s->uvs.size(), terrain.positions.size());
  EXPECT_EQ(s->uvs[5].x, 1.0f);  // x 64 of 0..64
  // Far from the border each side keeps its own material.
  const Rgba8 left = texel(*s, 2.0f, 32.0f, 64.0f), right = texel(*s, 62.0f, 32.0f, 64.0f);
  EXPECT_GT(left.r, 190);
  EXPECT_LT(left.b, 10);
  EXPECT_GT(right.b, 190);
  EXPECT_LT(right.r, 10);
  // At the border both show: no hard step between the faces.
  int mixed = 0, rows = 0;
  double red_sum = 0.0;
  for (float y = 1.0f; y < 63.0f; y += 1.0f, ++rows) {
    const Rgba8 c = texel(*s, 32.0f, y, 64.0f);
    mixed += (c.r > 20 && c.b > 20) ? 1 : 0;
    red_sum += c.r;
  }
  EXPECT_GT(mixed, rows / 5);       // a soft band, ragged by the noise
  EXPECT_GT(red_sum / rows, 25.0);  // both materials reach the border
  EXPECT_LT(red_sum / rows, 175.0);
}

TEST(TerrainSurface, the_lightmap_spans_the_terrain_and_multiplies) {
  const auto terrain = two_squares();
  const Texture red = solid({200, 0, 0, 255}), blue = solid({0, 0, 200, 255});
  // A 2 x 2 lightmap: the lower half (y < 32) dark, the upper half full light.
  const std::vector<std::uint32_t> lm{pack({64, 64, 64, 255}), pack({64, 64, 64, 255}), pack({255, 255, 255, 255}),
                                      pack({255, 255, 255, 255})};
  const Texture light = *Texture::from_packed(2, 2, lm, MipChain::none);
  auto s = bake_terrain_surface(terrain, {&red, &blue}, &light);
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_TRUE(s->lightmapped);
  const Rgba8 dark = texel(*s, 2.0f, 2.0f, 64.0f), lit = texel(*s, 2.0f, 62.0f, 64.0f);
  EXPECT_NEAR(dark.r, 200 * 64 / 255, 3);
  EXPECT_NEAR(lit.r, 200, 3);
}

TEST(TerrainSurface, refuses_a_terrain_without_extent) {
  assets::PreparedTerrain t;
  auto s = bake_terrain_surface(t, {}, nullptr);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "render.scene.terrain_surface");
}

}  // namespace
}  // namespace sortie::render::test
