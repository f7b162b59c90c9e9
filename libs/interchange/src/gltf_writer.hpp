#pragma once
// The glTF document under construction (internal to libs/interchange): one binary buffer that
// grows as accessors are added, tinygltf objects that index into it, and the prepared resources
// already written (a mesh's vertex streams, a material, a texture) so each is written once.
#include <map>
#include <span>
#include <string>
#include <vector>

#include "sortie/assets/prepared_visual.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/math.hpp"
#include "sortie/interchange/gltf_export.hpp"
#include "tinygltf_config.hpp"

namespace sortie::interchange::detail {

tinygltf::Value to_value(const core::Json& j);
std::vector<double> column_major(const core::Mat4& m);

class GltfWriter {
 public:
  explicit GltfWriter(const GltfExportOptions& options);

  // The root "sortie:z_up" node; children are added with add_root_child.
  int add_node(tinygltf::Node node);
  void add_child(int parent, int child) { model_.nodes[static_cast<std::size_t>(parent)].children.push_back(child); }
  void add_root_child(int child) { add_child(root_, child); }
  tinygltf::Node& node(int index) { return model_.nodes[static_cast<std::size_t>(index)]; }

  // Vertex streams of a prepared mesh (written once per mesh): POSITION, NORMAL, TEXCOORD_0.
  std::map<std::string, int> vertex_attributes(const assets::PreparedMesh& mesh);
  std::map<std::string, int> vertex_attributes(std::span<const core::Vec3> positions,
                                               std::span<const core::Vec3> normals, std::span<const core::Vec2> uvs,
                                               const void* identity);
  int index_accessor(std::span<const std::uint32_t> indices);
  int line_accessor(std::span<const core::Vec3> points);
  core::Result<int> material(const assets::MaterialSlot& slot, const assets::PreparedTexture* lightmap);
  core::Result<int> terrain_material(const assets::PreparedTexture* texture);
  int add_mesh(tinygltf::Mesh mesh);

  void set_scene_extras(const core::Json& extras) { model_.scenes[0].extras = to_value(extras); }
  core::Result<GltfExport> finish();

 private:
  std::size_t append(const void* data, std::size_t size, int target);
  int buffer_view(const void* data, std::size_t size, int target);
  core::Result<int> texture(const assets::PreparedTexture& texture);
  core::Result<int> image(const assets::PreparedTexture& texture);

  GltfExportOptions options_;
  tinygltf::Model model_;
  int root_ = -1;
  std::map<const void*, std::map<std::string, int>> vertex_sets_;
  std::map<std::string, int> materials_;  // by material identity + lightmap identity
  std::map<const void*, int> textures_;
  std::map<const void*, int> images_;
  GltfExportStats stats_;
};

}  // namespace sortie::interchange::detail
