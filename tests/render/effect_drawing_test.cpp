// Effects in the picture (render/effect_drawing.hpp): an effect body is a quad of the FX's size
// with its material's texture and the FX's alpha; an effect light is a point light of the FX's
// radius. Pixel checks in a small framebuffer.
#include "sortie/render/effect_drawing.hpp"

#include <gtest/gtest.h>

#include "sortie/render/framebuffer.hpp"
#include "sortie/render/renderer.hpp"

namespace sortie::render::effect_drawing_test {
namespace {

constexpr std::uint32_t kW = 64, kH = 64;
constexpr Rgba8 kSky{0, 0, 40, 255};

// A 4 x 4 texture of one colour, as the visual store prepares it (full chain).
std::shared_ptr<const assets::PreparedMaterial> solid_material(Rgba8 c) {
  auto tex = std::make_shared<assets::PreparedTexture>();
  tex->archive = "textures.lib";
  tex->entry = "SOLID";
  for (std::uint32_t s = 4; s >= 1; s /= 2) {
    iron3d::Rgba8Image img;
    img.width = img.height = s;
    for (std::uint32_t i = 0; i < s * s; ++i) img.pixels.insert(img.pixels.end(), {c.r, c.g, c.b, c.a});
    tex->mips.push_back(std::move(img));
  }
  auto m = std::make_shared<assets::PreparedMaterial>();
  m->archive = "material.lib";
  m->entry = "solid";
  assets::PreparedPhase p;
  p.texture_name = "SOLID";
  p.texture = tex;
  m->phases.push_back(p);
  return m;
}

// Looking at the origin along +Y from 10 units away: a unit is ~5 pixels at the centre.
Camera camera() {
  return Camera::perspective({0, -10, 0}, {0, 0, 0}, {0, 0, 1}, 1.0f, 1.0f, 0.5f, 100.0f);
}

Framebuffer draw(const EffectDrawing& d) {
  auto fb = Framebuffer::create(kW, kH);
  EXPECT_TRUE(fb.has_value());
  Frame f;
  f.camera = camera();
  f.draws = d.draws();
  f.point_lights = d.point_lights();
  f.clear_color = kSky;
  Renderer r;
  EXPECT_TRUE(r.render(f, *fb).has_value());
  return std::move(*fb);
}

Rgba8 at(const Framebuffer& fb, std::uint32_t x, std::uint32_t y) {
  return unpack(fb.color()[y * fb.width() + x]);
}

env::EffectBody body(float alpha, std::shared_ptr<const assets::PreparedMaterial> m) {
  env::EffectBody b;
  b.center = {0, 0, 0};
  b.size = {2, 2, 4};  // 2 wide, 4 high
  b.alpha = alpha;
  b.material = m ? m->entry : "";
  b.prepared = std::move(m);
  return b;
}

TEST(EffectDrawing, a_body_is_a_quad_of_its_size_with_its_materials_texture) {
  env::EffectFrame frame;
  frame.bodies.push_back(body(1.0f, solid_material({255, 0, 0, 255})));
  EffectDrawing d;
  ASSERT_TRUE(d.update(frame, camera().eye()).has_value());
  ASSERT_EQ(d.draws().size(), 1u);
  const Framebuffer fb = draw(d);
  EXPECT_EQ(at(fb, kW / 2, kH / 2), (Rgba8{255, 0, 0, 255}));
  // Twice as high as wide: a pixel above the centre by more than the half width is still red,
  // one beside it by that much is sky.
  const Camera cam = camera();
  const Viewport vp{0, 0, static_cast<int>(kW), static_cast<int>(kH)};
  const auto top = cam.project({0, 0, 1.6f}, vp);
  const auto side = cam.project({1.6f, 0, 0}, vp);
  ASSERT_TRUE(top && side);
  EXPECT_EQ(at(fb, kW / 2, static_cast<std::uint32_t>(top->y)), (Rgba8{255, 0, 0, 255}));
  EXPECT_EQ(at(fb, static_cast<std::uint32_t>(side->x), kH / 2), kSky);
  std::size_t red = 0;
  for (const auto px : fb.color()) red += unpack(px) == Rgba8{255, 0, 0, 255} ? 1 : 0;
  // 2 x 4 units at 10 units through a 1-rad fov on 64 px: ~5.8 px per unit -> ~270 pixels.
  EXPECT_GT(red, 200u);
  EXPECT_LT(red, 340u);
}

TEST(EffectDrawing, the_fx_alpha_blends_the_body_over_what_is_behind) {
  env::EffectFrame frame;
  frame.bodies.push_back(body(0.5f, solid_material({255, 255, 255, 255})));
  EffectDrawing d;
  ASSERT_TRUE(d.update(frame, camera().eye()).has_value());
  const Rgba8 c = at(draw(d), kW / 2, kH / 2);
  EXPECT_NEAR(c.r, 128, 2);  // white * 0.5 + black * 0.5
  EXPECT_NEAR(c.b, 148, 2);  // white * 0.5 + 40 * 0.5
  // Alpha 0 draws nothing.
  frame.bodies[0].alpha = 0.0f;
  ASSERT_TRUE(d.update(frame, camera().eye()).has_value());
  EXPECT_TRUE(d.draws().empty());
}

TEST(EffectDrawing, a_body_without_a_prepared_material_is_the_plain_sprite) {
  env::EffectFrame frame;
  frame.bodies.push_back(body(1.0f, nullptr));
  EffectDrawing d;
  ASSERT_TRUE(d.update(frame, camera().eye()).has_value());
  const Framebuffer fb = draw(d);
  const Rgba8 centre = at(fb, kW / 2, kH / 2);
  EXPECT_GT(centre.r, 200);  // white in the middle of the column
  const Camera cam = camera();
  const auto edge = cam.project({0.9f, 0, 0}, {0, 0, static_cast<int>(kW), static_cast<int>(kH)});
  ASSERT_TRUE(edge);
  EXPECT_LT(at(fb, static_cast<std::uint32_t>(edge->x), kH / 2).r, centre.r);  // fading to its sides
}

TEST(EffectDrawing, a_body_turns_about_its_vertical_axis_to_face_the_eye) {
  env::EffectFrame frame;
  frame.bodies.push_back(body(1.0f, nullptr));
  EffectDrawing d;
  ASSERT_TRUE(d.update(frame, {10, 0, 0}).has_value());  // eye on +X: the quad spans Y
  const auto& p = d.draws()[0].mesh.positions;
  ASSERT_EQ(p.size(), 4u);
  for (const auto& v : p) EXPECT_NEAR(v.x, 0.0f, 1e-6f);
  EXPECT_NEAR(std::abs(p[0].y - p[1].y), 2.0f, 1e-5f);
  EXPECT_NEAR(std::abs(p[1].z - p[2].z), 4.0f, 1e-5f);
}

TEST(EffectDrawing, an_effect_light_is_a_point_light_of_its_radius) {
  env::EffectFrame frame;
  env::EffectLight l;
  l.position = {1, 2, 3};
  l.color = {2.0f, 1.0f, 0.5f};
  l.radius = 500.0f;
  frame.lights.push_back(l);
  frame.lights.push_back(env::EffectLight{});  // radius 0: nothing
  EffectDrawing d;
  ASSERT_TRUE(d.update(frame, {}).has_value());
  ASSERT_EQ(d.point_lights().size(), 1u);
  const PointLight& p = d.point_lights()[0];
  EXPECT_EQ(p.position, l.position);
  EXPECT_EQ(p.color, l.color);
  EXPECT_EQ(p.radius, 500.0f);
  EXPECT_EQ(p.size, 100.0f);  // the renderer's knee: a fifth of the radius
}

TEST(EffectDrawing, append_over_keeps_the_frames_own_draws_and_lights_first) {
  Frame f;
  DrawCall own;
  std::vector<DrawCall> draws{own};
  std::vector<PointLight> lights{PointLight{}};
  f.draws = draws;
  f.point_lights = lights;
  env::EffectFrame frame;
  frame.bodies.push_back(body(1.0f, nullptr));
  env::EffectLight l;
  l.radius = 10.0f;
  frame.lights.push_back(l);
  EffectDrawing d;
  ASSERT_TRUE(d.update(frame, camera().eye()).has_value());
  FrameOverlay storage;
  append_over(f, d.draws(), d.point_lights(), storage);
  EXPECT_EQ(f.draws.size(), 2u);
  EXPECT_EQ(f.point_lights.size(), 2u);
  EXPECT_EQ(f.point_lights.data(), storage.lights.data());
  EXPECT_EQ(f.point_lights[1].radius, 10.0f);
}

}  // namespace
}  // namespace sortie::render::effect_drawing_test
