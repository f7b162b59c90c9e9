#pragma once
// Shared fixtures of the render tests: procedural textures and the scenes of the golden cases
// (PNG decoding and the golden comparison are sortie_test/golden_image.hpp's).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/render/draw.hpp"
#include "sortie/render/framebuffer.hpp"
#include "sortie/render/renderer.hpp"
#include "sortie/render/texture.hpp"
#include "sortie_test/golden_image.hpp"

namespace sortie::render::test {

// size x size checkerboard of `cells` x `cells` squares, with a full mip chain.
Texture checker_texture(std::uint32_t size, std::uint32_t cells, Rgba8 a, Rgba8 b);
// Each mip level a different solid colour (level 0 red, 1 green, 2 blue, 3 yellow, ...).
Texture level_colored_texture(std::uint32_t size);
// Opaque disc on transparent texels (alpha 255 inside radius, 0 outside), with a soft rim.
Texture disc_texture(std::uint32_t size);

using sortie::test::decode_png;
using sortie::test::Image;
using sortie::test::to_image;

// A scene that owns its meshes and textures and renders into a framebuffer.
struct Scene {
  std::vector<Mesh> meshes;
  std::vector<Texture> textures;
  std::vector<DrawCall> draws;
  std::vector<Label> labels;
  Frame frame;
  std::uint32_t width = 256;
  std::uint32_t height = 192;

  // Renders with `threads` workers; fails the test on a render error.
  Framebuffer render(unsigned threads = 1, FrameStats* stats = nullptr);
};

struct GoldenCase {
  std::string name;
  std::string what;  // what a reviewer should see
  std::function<Scene()> make;
};
const std::vector<GoldenCase>& golden_cases();

}  // namespace sortie::render::test
