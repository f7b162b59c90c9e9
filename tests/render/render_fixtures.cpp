#include "render_fixtures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string_view>

#include "sortie/render/iso_scene.hpp"
#include "sortie/render/mesh_builders.hpp"

namespace sortie::render::test {
namespace {

using core::Vec2;
using core::Vec3;

std::uint32_t hash2(std::uint32_t x, std::uint32_t y) {
  std::uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  return h ^ (h >> 15);
}

Mesh quad(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3, Rgba8 color, Vec2 uv_scale = {1.0f, 1.0f}) {
  Mesh m;
  m.positions = {p0, p1, p2, p3};
  const Vec3 n = core::normalize_or(core::cross(p1 - p0, p3 - p0), {0.0f, 0.0f, 1.0f});
  m.normals = {n, n, n, n};
  m.uvs = {{0.0f, uv_scale.y}, {uv_scale.x, uv_scale.y}, {uv_scale.x, 0.0f}, {0.0f, 0.0f}};
  m.colors = {color, color, color, color};
  m.indices = {0, 1, 2, 0, 2, 3};
  return m;
}

Camera look(const Vec3& eye, const Vec3& target, float aspect, float vfov_deg = 50.0f, float near_plane = 0.1f,
            float far_plane = 100.0f) {
  return Camera::perspective(eye, target, {0.0f, 0.0f, 1.0f}, core::degrees_to_radians(vfov_deg), aspect, near_plane,
                             far_plane);
}

constexpr float kAspect = 256.0f / 192.0f;
constexpr Rgba8 kBackground{30, 32, 40, 255};

Scene base_scene() {
  Scene s;
  s.frame.clear_color = kBackground;
  s.frame.light.direction = core::normalize_or({-0.4f, 0.5f, -0.75f}, {0.0f, 0.0f, -1.0f});
  return s;
}

Scene scene_triangle() {
  Scene s = base_scene();
  Mesh m;
  m.positions = {{-1.5f, 0.0f, 0.0f}, {1.5f, 0.0f, 0.0f}, {0.0f, 0.0f, 2.0f}};
  m.colors = {{255, 40, 40, 255}, {40, 255, 40, 255}, {40, 40, 255, 255}};
  m.indices = {0, 1, 2};
  s.meshes.push_back(std::move(m));
  s.frame.camera = look({0.0f, -4.0f, 1.5f}, {0.0f, 0.0f, 0.8f}, kAspect);
  s.draws.push_back({s.meshes[0].view(), Material{}, core::Mat4::identity()});
  return s;
}

Scene scene_depth_quads() {
  Scene s = base_scene();
  // Tilted blue quad drawn first, upright red quad second: the blue one must stay in front
  // where it is nearer, and the two meet along a straight line.
  s.meshes.push_back(
      quad({-0.5f, -0.8f, 0.0f}, {1.5f, 0.8f, 0.0f}, {1.5f, 0.8f, 1.4f}, {-0.5f, -0.8f, 1.4f}, {60, 110, 255, 255}));
  s.meshes.push_back(
      quad({-1.5f, 0.0f, 0.2f}, {0.7f, 0.0f, 0.2f}, {0.7f, 0.0f, 1.6f}, {-1.5f, 0.0f, 1.6f}, {255, 70, 50, 255}));
  s.frame.camera = look({0.2f, -5.0f, 2.2f}, {0.0f, 0.0f, 0.8f}, kAspect);
  Material m;
  m.cull = Cull::none;
  for (const Mesh& mesh : s.meshes) s.draws.push_back({mesh.view(), m, core::Mat4::identity()});
  return s;
}

Scene scene_near_clip() {
  Scene s = base_scene();
  s.textures.push_back(checker_texture(64, 8, {230, 230, 230, 255}, {40, 90, 160, 255}));
  // A ground triangle reaching behind the eye: the near plane cuts it.
  Mesh m;
  m.positions = {{-8.0f, -6.0f, 0.0f}, {8.0f, -6.0f, 0.0f}, {0.0f, 24.0f, 0.0f}};
  m.uvs = {{-2.0f, 1.5f}, {2.0f, 1.5f}, {0.0f, -6.0f}};
  m.indices = {0, 1, 2};
  s.meshes.push_back(std::move(m));
  s.frame.camera = look({0.0f, 0.0f, 0.6f}, {0.0f, 6.0f, 0.0f}, kAspect, 60.0f, 0.5f, 60.0f);
  Material mat;
  mat.texture = s.textures[0].view();
  mat.filter = Filter::bilinear;
  s.draws.push_back({s.meshes[0].view(), mat, core::Mat4::identity()});
  return s;
}

Scene scene_textured_cube() {
  Scene s = base_scene();
  s.textures.push_back(checker_texture(64, 8, {250, 250, 250, 255}, {200, 60, 40, 255}));
  s.meshes.push_back(make_box(core::Aabb::from_min_max({-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f})));
  s.frame.camera = look({3.2f, -4.0f, 2.6f}, {0.0f, 0.0f, 0.0f}, kAspect, 45.0f);
  Material mat;
  mat.texture = s.textures[0].view();
  mat.filter = Filter::trilinear;
  mat.lit = true;
  const core::Mat4 model = core::Mat4::rotation_z(0.5f) * core::Mat4::rotation_x(0.25f);
  s.draws.push_back({s.meshes[0].view(), mat, model});
  return s;
}

Scene scene_fill_rule() {
  Scene s = base_scene();
  s.frame.clear_color = kBlack;
  s.frame.camera = Camera::pixels(256, 192);
  // A fan of 13 triangles around a point off the pixel grid, plus a strip of slivers: every
  // covered pixel is written exactly once, so the additive colour is 60 everywhere inside.
  Mesh m;
  const Vec3 c{128.3f, 96.7f, -0.5f};
  m.positions.push_back(c);
  constexpr int kSpokes = 13;
  for (int i = 0; i < kSpokes; ++i) {
    const float a = 2.0f * core::kPi * static_cast<float>(i) / kSpokes + 0.1f;
    m.positions.push_back({c.x + 80.0f * std::cos(a), c.y + 80.0f * std::sin(a), -0.5f});
  }
  for (std::uint32_t i = 0; i < kSpokes; ++i) m.indices.insert(m.indices.end(), {0, 1 + i, 1 + (i + 1) % kSpokes});
  // Slivers along the top: a strip of long thin triangles sharing edges.
  const auto base = static_cast<std::uint32_t>(m.positions.size());
  for (int i = 0; i <= 10; ++i) {
    m.positions.push_back({10.3f + 23.37f * static_cast<float>(i), 3.2f, -0.5f});
    m.positions.push_back({4.1f + 23.37f * static_cast<float>(i) + 7.9f, 11.85f, -0.5f});
  }
  for (std::uint32_t i = 0; i < 10; ++i) {
    const std::uint32_t a = base + 2 * i;
    m.indices.insert(m.indices.end(), {a, a + 2, a + 1, a + 1, a + 2, a + 3});
  }
  s.meshes.push_back(std::move(m));
  Material mat;
  mat.cull = Cull::none;
  mat.blend = Blend::additive;
  mat.depth_test = false;
  mat.depth_write = false;
  mat.color = {60.0f / 255.0f, 60.0f / 255.0f, 60.0f / 255.0f, 1.0f};
  s.draws.push_back({s.meshes[0].view(), mat, core::Mat4::identity()});
  return s;
}

std::vector<float> hills(std::uint32_t columns, std::uint32_t rows, float amplitude) {
  std::vector<float> h(static_cast<std::size_t>(columns) * rows);
  for (std::uint32_t j = 0; j < rows; ++j)
    for (std::uint32_t i = 0; i < columns; ++i) {
      const float x = static_cast<float>(i) / static_cast<float>(columns - 1);
      const float y = static_cast<float>(j) / static_cast<float>(rows - 1);
      h[static_cast<std::size_t>(j) * columns + i] =
          amplitude * (0.55f * std::sin(x * 6.0f + 0.5f) * std::cos(y * 5.0f) + 0.3f * std::sin((x + y) * 11.0f));
    }
  return h;
}

Texture ground_texture(std::uint32_t size) {
  std::vector<std::uint32_t> texels(static_cast<std::size_t>(size) * size);
  for (std::uint32_t y = 0; y < size; ++y)
    for (std::uint32_t x = 0; x < size; ++x) {
      const std::uint32_t h = hash2(x, y);
      const std::uint32_t patch = hash2(x / 16, y / 16);
      const bool rock = (patch & 3u) == 0;
      const int n = static_cast<int>(h & 31u);
      const Rgba8 c = rock ? Rgba8{static_cast<std::uint8_t>(120 + n), static_cast<std::uint8_t>(110 + n),
                                   static_cast<std::uint8_t>(95 + n), 255}
                           : Rgba8{static_cast<std::uint8_t>(70 + n), static_cast<std::uint8_t>(130 + n),
                                   static_cast<std::uint8_t>(50 + n / 2), 255};
      texels[static_cast<std::size_t>(y) * size + x] = pack(c);
    }
  return Texture::from_packed(size, size, texels).value();
}

Scene scene_terrain() {
  Scene s = base_scene();
  s.textures.push_back(ground_texture(64));
  const std::vector<float> h = hills(33, 33, 1.2f);
  s.meshes.push_back(make_height_field({-8.0f, -8.0f, 0.0f}, {0.5f, 0.5f}, 33, 33, h, {0.25f, 0.25f}).value());
  s.frame.camera = look({-9.0f, -11.0f, 7.0f}, {0.5f, 0.5f, 0.0f}, kAspect, 50.0f);
  s.frame.clear_color = Rgba8{120, 160, 210, 255};
  Material mat;
  mat.texture = s.textures[0].view();
  mat.filter = Filter::trilinear;
  mat.lit = true;
  s.draws.push_back({s.meshes[0].view(), mat, core::Mat4::identity()});
  return s;
}

Scene scene_alpha_test() {
  Scene s = base_scene();
  s.textures.push_back(checker_texture(32, 4, {220, 220, 220, 255}, {60, 60, 60, 255}));
  s.textures.push_back(disc_texture(64));
  s.meshes.push_back(quad({-2.5f, 1.0f, -1.8f}, {2.5f, 1.0f, -1.8f}, {2.5f, 1.0f, 1.8f}, {-2.5f, 1.0f, 1.8f}, kWhite));
  s.meshes.push_back(quad({-1.2f, 0.0f, -1.2f}, {1.2f, 0.0f, -1.2f}, {1.2f, 0.0f, 1.2f}, {-1.2f, 0.0f, 1.2f},
                          {255, 200, 60, 255}, {2.0f, 2.0f}));
  s.frame.camera = look({0.0f, -4.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, kAspect, 55.0f);
  Material back;
  back.texture = s.textures[0].view();
  back.filter = Filter::nearest;
  Material front;
  front.texture = s.textures[1].view();
  front.filter = Filter::bilinear;
  front.alpha_ref = 128;
  front.cull = Cull::none;
  s.draws.push_back({s.meshes[0].view(), back, core::Mat4::identity()});
  s.draws.push_back({s.meshes[1].view(), front, core::Mat4::identity()});
  return s;
}

Scene scene_alpha_blend() {
  Scene s = base_scene();
  s.textures.push_back(checker_texture(32, 8, {200, 200, 200, 255}, {90, 90, 90, 255}));
  s.meshes.push_back(
      quad({-4.0f, -2.0f, 0.0f}, {4.0f, -2.0f, 0.0f}, {4.0f, 6.0f, 0.0f}, {-4.0f, 6.0f, 0.0f}, kWhite, {4.0f, 4.0f}));
  // Submitted nearest first; the renderer draws them farthest first.
  const Rgba8 colors[3] = {{255, 40, 40, 128}, {40, 255, 40, 128}, {60, 90, 255, 128}};
  for (int i = 0; i < 3; ++i) {
    const float y = static_cast<float>(i) * 1.2f;
    const float x = -1.4f + static_cast<float>(i) * 0.9f;
    s.meshes.push_back(quad({x, y, 0.2f}, {x + 1.6f, y, 0.2f}, {x + 1.6f, y, 1.8f}, {x, y, 1.8f}, colors[i]));
  }
  s.frame.camera = look({0.5f, -5.5f, 2.5f}, {0.0f, 1.0f, 0.6f}, kAspect);
  Material floor;
  floor.texture = s.textures[0].view();
  floor.filter = Filter::trilinear;
  s.draws.push_back({s.meshes[0].view(), floor, core::Mat4::identity()});
  Material glass;
  glass.blend = Blend::alpha;
  glass.depth_write = false;
  glass.cull = Cull::none;
  for (int i = 1; i <= 3; ++i)
    s.draws.push_back({s.meshes[static_cast<std::size_t>(i)].view(), glass, core::Mat4::identity()});
  return s;
}

Scene scene_overlays() {
  Scene s = base_scene();
  s.meshes.push_back(
      make_box(core::Aabb::from_min_max({-0.6f, -0.6f, 0.0f}, {0.6f, 0.6f, 1.2f}), {180, 150, 110, 255}));
  // Ground grid lines (depth tested: hidden behind the box), axes on top (no depth test).
  Mesh grid;
  grid.primitive = Primitive::lines;
  for (int i = -4; i <= 4; ++i) {
    const float f = static_cast<float>(i) * 0.5f;
    grid.positions.insert(grid.positions.end(), {{f, -2.0f, 0.0f}, {f, 2.0f, 0.0f}, {-2.0f, f, 0.0f}, {2.0f, f, 0.0f}});
  }
  grid.colors.assign(grid.positions.size(), {120, 200, 120, 255});
  s.meshes.push_back(std::move(grid));
  Mesh axes;
  axes.primitive = Primitive::lines;
  axes.positions = {{0, 0, 0}, {1.8f, 0, 0}, {0, 0, 0}, {0, 1.8f, 0}, {0, 0, 0}, {0, 0, 1.8f}};
  axes.colors = {{255, 60, 60, 255}, {255, 60, 60, 255},  {60, 255, 60, 255},
                 {60, 255, 60, 255}, {80, 120, 255, 255}, {80, 120, 255, 255}};
  s.meshes.push_back(std::move(axes));
  Mesh dots;
  dots.primitive = Primitive::points;
  dots.positions = {{-1.5f, -1.5f, 0.0f}, {1.5f, -1.5f, 0.0f}, {1.5f, 1.5f, 0.0f}, {-1.5f, 1.5f, 0.0f}};
  dots.colors = {{255, 255, 0, 255}, {255, 0, 255, 255}, {0, 255, 255, 255}, {255, 255, 255, 255}};
  s.meshes.push_back(std::move(dots));
  s.frame.camera = look({3.0f, -3.6f, 2.8f}, {0.0f, 0.0f, 0.4f}, kAspect, 50.0f);
  Material solid;
  solid.lit = true;
  s.draws.push_back({s.meshes[0].view(), solid, core::Mat4::identity()});
  Material lines;
  lines.depth_bias = -1e-4f;
  s.draws.push_back({s.meshes[1].view(), lines, core::Mat4::identity()});
  Material top;
  top.depth_test = false;
  top.depth_write = false;
  s.draws.push_back({s.meshes[2].view(), top, core::Mat4::identity()});
  Material points;
  points.point_size = 5.0f;
  s.draws.push_back({s.meshes[3].view(), points, core::Mat4::identity()});
  Label world;
  world.text = "box";
  world.position = {0.0f, 0.0f, 1.25f};
  world.color = {255, 240, 120, 255};
  s.labels.push_back(world);
  Label hidden = world;  // behind the box: hidden by the depth test
  hidden.text = "hid";
  hidden.position = {-0.3f, 1.5f, 0.1f};
  hidden.depth_test = true;
  s.labels.push_back(hidden);
  Label screen;
  screen.space = Label::Space::screen;
  screen.text = "sortie 0123 AaGg!?";
  screen.position = {4.0f, 4.0f, 0.0f};
  s.labels.push_back(screen);
  Label big = screen;
  big.text = "x2";
  big.scale = 2;
  big.position = {4.0f, 160.0f, 0.0f};
  big.color = {120, 220, 255, 255};
  s.labels.push_back(big);
  return s;
}

Scene scene_iso_room() {
  Scene s = base_scene();
  const std::string_view rows[] = {
      "##########", "#........#", "#..,,,,..#", "#..,%%,..#", "#..,,,,..#",
      "#.....@@.#", "#........#", "####..####", "   :..:   ",
  };
  const IsoGrid grid = iso_grid_from_rows(rows).value();
  // The scene is kept as meshes; the camera comes from IsoScene::camera.
  IsoScene iso = build_iso_scene(grid).value();
  s.frame.camera = iso.camera(kAspect);
  s.meshes.push_back(std::move(iso.floors));
  s.meshes.push_back(std::move(iso.walls));
  s.draws.push_back({s.meshes[0].view(), iso.floor_material, core::Mat4::identity()});
  s.draws.push_back({s.meshes[1].view(), iso.wall_material, core::Mat4::identity()});
  return s;
}

Scene scene_lod(LodMode lod) {
  Scene s = base_scene();
  s.textures.push_back(level_colored_texture(128));
  s.meshes.push_back(quad({-30.0f, -2.0f, 0.0f}, {30.0f, -2.0f, 0.0f}, {30.0f, 80.0f, 0.0f}, {-30.0f, 80.0f, 0.0f},
                          kWhite, {30.0f, 41.0f}));
  s.frame.camera = look({0.0f, -3.0f, 1.0f}, {0.0f, 10.0f, 0.0f}, kAspect, 60.0f, 0.1f, 200.0f);
  Material mat;
  mat.texture = s.textures[0].view();
  mat.filter = Filter::trilinear;
  mat.lod = lod;
  s.draws.push_back({s.meshes[0].view(), mat, core::Mat4::identity()});
  return s;
}

Scene scene_trilinear_plane() {
  Scene s = base_scene();
  s.textures.push_back(checker_texture(128, 16, {240, 240, 240, 255}, {30, 30, 30, 255}));
  s.meshes.push_back(quad({-30.0f, -2.0f, 0.0f}, {30.0f, -2.0f, 0.0f}, {30.0f, 80.0f, 0.0f}, {-30.0f, 80.0f, 0.0f},
                          kWhite, {15.0f, 20.5f}));
  s.frame.camera = look({0.0f, -3.0f, 1.0f}, {0.0f, 10.0f, 0.0f}, kAspect, 60.0f, 0.1f, 200.0f);
  Material mat;
  mat.texture = s.textures[0].view();
  mat.filter = Filter::trilinear;
  s.draws.push_back({s.meshes[0].view(), mat, core::Mat4::identity()});
  return s;
}

}  // namespace

Texture checker_texture(std::uint32_t size, std::uint32_t cells, Rgba8 a, Rgba8 b) {
  std::vector<std::uint32_t> texels(static_cast<std::size_t>(size) * size);
  const std::uint32_t cell = size / cells;
  for (std::uint32_t y = 0; y < size; ++y)
    for (std::uint32_t x = 0; x < size; ++x)
      texels[static_cast<std::size_t>(y) * size + x] = pack((((x / cell) + (y / cell)) & 1u) ? b : a);
  return Texture::from_packed(size, size, texels).value();
}

Texture level_colored_texture(std::uint32_t size) {
  static constexpr Rgba8 kLevels[] = {{230, 40, 40, 255},   {40, 200, 40, 255},  {40, 80, 230, 255},
                                      {230, 210, 40, 255},  {200, 40, 200, 255}, {40, 210, 210, 255},
                                      {240, 240, 240, 255}, {120, 120, 120, 255}};
  const std::uint32_t count = full_mip_count(size, size);
  std::vector<std::vector<std::uint32_t>> levels;
  for (std::uint32_t l = 0; l < count; ++l) {
    const std::uint32_t s = mip_size(size, l);
    levels.emplace_back(static_cast<std::size_t>(s) * s, pack(kLevels[l % 8]));
  }
  std::vector<std::span<const std::uint32_t>> spans(levels.begin(), levels.end());
  return Texture::from_levels(size, size, spans).value();
}

Texture disc_texture(std::uint32_t size) {
  std::vector<std::uint32_t> texels(static_cast<std::size_t>(size) * size);
  const float c = static_cast<float>(size) * 0.5f;
  for (std::uint32_t y = 0; y < size; ++y)
    for (std::uint32_t x = 0; x < size; ++x) {
      const float dx = static_cast<float>(x) + 0.5f - c, dy = static_cast<float>(y) + 0.5f - c;
      const float d = std::sqrt(dx * dx + dy * dy) / c;  // 0 centre, 1 edge
      const float alpha = std::clamp((0.8f - d) * 8.0f + 0.5f, 0.0f, 1.0f);
      const auto shade = static_cast<std::uint8_t>(255.0f - 120.0f * d);
      texels[static_cast<std::size_t>(y) * size + x] =
          pack({shade, shade, shade, static_cast<std::uint8_t>(alpha * 255.0f + 0.5f)});
    }
  return Texture::from_packed(size, size, texels).value();
}

Framebuffer Scene::render(unsigned threads, FrameStats* stats) {
  Framebuffer fb = Framebuffer::create(width, height).value();
  frame.draws = draws;
  frame.labels = labels;
  Renderer r({threads});
  const auto status = r.render(frame, fb, stats);
  EXPECT_TRUE(status) << (status ? "" : status.error().to_string());
  return fb;
}

const std::vector<GoldenCase>& golden_cases() {
  static const std::vector<GoldenCase> cases = {
      {"triangle", "one triangle, red / green / blue corners blended smoothly", scene_triangle},
      {"depth_quads", "blue tilted quad and red upright quad cutting each other along a straight line",
       scene_depth_quads},
      {"near_clip", "checker ground triangle reaching behind the eye, cut by the near plane, squares in perspective",
       scene_near_clip},
      {"textured_cube", "lit cube with a red/white checker on three visible faces, trilinear", scene_textured_cube},
      {"fill_rule", "additive fan and sliver strip: flat grey 60 inside, no brighter seams, no dark gaps",
       scene_fill_rule},
      {"terrain", "lit height-field hills with a green/rock texture under a blue sky", scene_terrain},
      {"alpha_test", "yellow-tinted disc cut out of its quad (alpha test) over a grey checker wall", scene_alpha_test},
      {"alpha_blend", "red, green, blue translucent panes, farthest drawn first, over a checker floor",
       scene_alpha_blend},
      {"overlays", "lit box, green ground grid hidden behind it, RGB axes on top, 5-px points, labels", scene_overlays},
      {"iso_room", "isometric room from a text grid: walls, two floor colours, a pillar and a doorway", scene_iso_room},
      {"lod_pixel", "mip levels coloured red, green, blue, yellow, ... in bands receding to the horizon",
       [] { return scene_lod(LodMode::per_pixel); }},
      {"lod_quad", "as lod_pixel with per-quad LOD: the same bands", [] { return scene_lod(LodMode::per_quad); }},
      {"trilinear_plane", "black/white checker plane fading to grey toward the horizon without moire",
       scene_trilinear_plane},
  };
  return cases;
}

}  // namespace sortie::render::test
