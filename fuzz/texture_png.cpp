// Fuzzes PNG -> Texm (issue #20 part 3): libpng's decoder behind render::decode_png with its
// size limits, the "sortie:texm" metadata chunk, and the Texm encoder; an accepted texture must
// read back and decode.
#include "sortie/interchange/texture_png.hpp"

#include <cstddef>
#include <cstdint>

#include "sortie/iron3d/texm.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  interchange::TextureImportOptions options;
  options.max_side = 512;
  auto texm = interchange::import_texture_png(std::span(&in, 1), options);
  if (!texm) return 0;
  const core::Bytes bytes = iron3d::write_texm(*texm);
  auto back = iron3d::read_texm(bytes);
  if (!back || !iron3d::decode_texm_rgba8(*back, 0)) __builtin_trap();
  return 0;
}
