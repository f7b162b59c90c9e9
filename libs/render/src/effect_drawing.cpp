#include "sortie/render/effect_drawing.hpp"

#include <algorithm>
#include <cmath>

#include "sortie/render/mission_scene.hpp"

namespace sortie::render {
namespace {

// 16 x 16 white; alpha 1 on the middle column falling to 0 at the left and right edges
// (smoothstep), the same down every row: a soft column of light.
Texture plain_sprite() {
  constexpr std::uint32_t kSide = 16;
  std::vector<std::uint32_t> texels(std::size_t{kSide} * kSide);
  for (std::uint32_t x = 0; x < kSide; ++x) {
    // 0 at the centre column, 1 at the edges
    const float d = std::abs((static_cast<float>(x) + 0.5f) / static_cast<float>(kSide) * 2.0f - 1.0f);
    const float t = 1.0f - d;
    const float a = t * t * (3.0f - 2.0f * t);
    const auto alpha = static_cast<std::uint8_t>(std::lround(a * 255.0f));
    for (std::uint32_t y = 0; y < kSide; ++y) texels[std::size_t{y} * kSide + x] = pack({255, 255, 255, alpha});
  }
  return *Texture::from_packed(kSide, kSide, texels, MipChain::generate);
}

// A quad centred at `c`, `w` wide along `right` and `h` high along +Z; UV (0, 0) top left.
Mesh body_quad(const core::Vec3& c, const core::Vec3& right, float w, float h) {
  Mesh m;
  const core::Vec3 r = right * (w * 0.5f);
  const core::Vec3 u{0.0f, 0.0f, h * 0.5f};
  m.positions = {c - r + u, c + r + u, c + r - u, c - r - u};
  m.uvs = {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}};
  m.colors.assign(4, kWhite);
  m.indices = {0, 3, 2, 0, 2, 1};
  return m;
}

}  // namespace

EffectDrawing::EffectDrawing() : sprite_(plain_sprite()) {}

core::Status EffectDrawing::update(const env::EffectFrame& frame, const core::Vec3& eye) {
  draws_.clear();
  lights_.clear();
  meshes_.clear();
  core::Status status;
  for (const env::EffectLight& l : frame.lights) {
    if (!(l.radius > 0.0f)) continue;
    PointLight p;
    p.position = l.position;
    p.color = l.color;
    p.radius = l.radius;
    p.size = l.radius * kEffectLightKnee;
    lights_.push_back(p);
  }
  meshes_.reserve(frame.bodies.size());
  for (const env::EffectBody& b : frame.bodies) {
    if (!(b.alpha > 0.0f) || !(b.size.x > 0.0f) || !(b.size.z > 0.0f)) continue;
    // Turned about +Z toward the eye; seen from straight above, along +X.
    const core::Vec3 to_eye{eye.x - b.center.x, eye.y - b.center.y, 0.0f};
    const core::Vec3 facing = core::normalize_or(to_eye, {0.0f, -1.0f, 0.0f});
    const core::Vec3 right{-facing.y, facing.x, 0.0f};
    meshes_.push_back(body_quad(b.center, right, b.size.x, b.size.z));
    Material m;
    m.blend = Blend::alpha;
    m.cull = Cull::none;
    m.depth_test = true;
    m.depth_write = false;
    m.lit = false;
    m.wrap = Wrap::clamp;
    m.color = {1.0f, 1.0f, 1.0f, b.alpha};
    m.texture = sprite_.view();
    if (const assets::PreparedTexture* t = material_texture(b.prepared.get())) {
      auto it = textures_.find(t);
      if (it == textures_.end()) {
        auto tex = texture_from_prepared(*t);
        if (!tex && status) status = core::fail(std::move(tex.error()));
        if (tex) it = textures_.emplace(t, std::move(*tex)).first;
      }
      if (it != textures_.end()) m.texture = it->second.view();
    }
    draws_.push_back({meshes_.back().view(), m});
  }
  return status;
}

void append_over(Frame& frame, std::span<const DrawCall> draws, std::span<const PointLight> lights,
                 FrameOverlay& storage) {
  if (!draws.empty()) {
    std::vector<DrawCall> all(frame.draws.begin(), frame.draws.end());
    all.insert(all.end(), draws.begin(), draws.end());
    storage.draws = std::move(all);
    frame.draws = storage.draws;
  }
  if (!lights.empty()) {
    std::vector<PointLight> all(frame.point_lights.begin(), frame.point_lights.end());
    all.insert(all.end(), lights.begin(), lights.end());
    storage.lights = std::move(all);
    frame.point_lights = storage.lights;
  }
}

}  // namespace sortie::render
