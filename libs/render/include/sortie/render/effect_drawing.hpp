#pragma once
// Effects in the picture (docs/effects.md): an env::EffectFrame turned into draw calls and point
// lights. The drawing applies the effect's numbers, never its own width or fade:
//
//   bodies  (opcode 3) one quad per body, centred at the body's centre, `size.x` wide and `size.z`
//           high, turned about its vertical axis to face the eye (a body is a standing column: the
//           lightning's [40, 40, 600] descriptor); textured with the first textured phase of its
//           prepared material (the level the engine draws from, as the mission scene does), or
//           with a plain white sprite whose alpha falls off across the width when the mission did
//           not prepare the material; drawn alpha-blended, unlit, depth-tested without depth write,
//           with the material colour (1, 1, 1, alpha): the body's alpha from the FX fields.
//   lights  (opcode 1) one render::PointLight per light: position, colour (may exceed 1) and
//           radius from the effect; `size`, the distance at which the renderer's inverse-square
//           factor is 1/2, is a fifth of the radius (kEffectLightKnee): the shape of the
//           renderer's falloff, not a number the FXID gives.
//
// The drawing owns its meshes and textures: the draw calls stay valid until the next update().
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "sortie/assets/prepared_visual.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/env/effect.hpp"
#include "sortie/render/draw.hpp"
#include "sortie/render/mesh.hpp"
#include "sortie/render/texture.hpp"

namespace sortie::render {

inline constexpr float kEffectLightKnee = 0.2f;  // PointLight::size = radius * this

class EffectDrawing {
 public:
  EffectDrawing();
  // Rebuilds the draw calls and lights of `frame` seen from `eye`. A body's texture is converted
  // once and kept while the drawing lives. Errors: render.scene.texture (a prepared texture the
  // renderer cannot take); the body is then drawn with the plain sprite and the error returned
  // once per texture.
  core::Status update(const env::EffectFrame& frame, const core::Vec3& eye);
  [[nodiscard]] std::span<const DrawCall> draws() const { return draws_; }
  [[nodiscard]] std::span<const PointLight> point_lights() const { return lights_; }
  [[nodiscard]] std::size_t bodies() const { return draws_.size(); }

 private:
  Texture sprite_;  // the plain body: white, alpha falling off across the width
  std::map<const assets::PreparedTexture*, Texture> textures_;
  std::vector<Mesh> meshes_;  // one quad per body
  std::vector<DrawCall> draws_;
  std::vector<PointLight> lights_;
};

// Copies of what is drawn over a scene's frame; they must outlive the frame.
struct FrameOverlay {
  std::vector<DrawCall> draws;
  std::vector<PointLight> lights;
};
// Appends `draws` and `lights` to the frame's own (both copied into `storage`).
void append_over(Frame& frame, std::span<const DrawCall> draws, std::span<const PointLight> lights,
                 FrameOverlay& storage);

}  // namespace sortie::render
