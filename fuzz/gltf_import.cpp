// Fuzzes the glTF import path (issue #20): tinygltf's parser (compiled into libs/interchange, so
// it is instrumented too), the bounded accessor reads, the scene walk, and the conversion to MSH,
// WEAR, MAT0 and Texm entries. Accepted models must build entries the readers accept.
#include "sortie/interchange/gltf_import.hpp"

#include <cstddef>
#include <cstdint>

#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/texm.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  interchange::GltfImportLimits limits;
  limits.max_file_bytes = 1 << 20;
  limits.max_vertices = 4096;
  limits.max_triangles = 4096;
  limits.max_texture_side = 256;
  limits.max_nodes = 256;
  auto model = interchange::read_gltf_model({core::ByteView(data, size), {}}, limits);
  if (!model) return 0;
  if (model->triangles == 0 || model->indices.size() != model->triangles * 3u) __builtin_trap();
  for (auto i : model->indices)
    if (i >= model->positions.size()) __builtin_trap();
  auto entries = interchange::build_model_entries(*model, "fz");
  if (!entries) return 0;  // e.g. a non-finite position the MSH builder refuses
  if (!iron3d::read_msh(entries->msh)) __builtin_trap();
  for (const auto& t : entries->textures)
    if (!iron3d::read_texm(t.bytes)) __builtin_trap();
  return 0;
}
