#include "gltf_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "sortie/render/image_io.hpp"

namespace sortie::interchange {

core::Json GltfExportStats::to_json() const {
  return {{"nodes", nodes},       {"meshes", meshes},       {"primitives", primitives}, {"materials", materials},
          {"textures", textures}, {"triangles", triangles}, {"vertices", vertices}};
}

}  // namespace sortie::interchange

namespace sortie::interchange::detail {
namespace {

constexpr int kArrayBuffer = TINYGLTF_TARGET_ARRAY_BUFFER;
constexpr int kElementArrayBuffer = TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER;

// A unit normal from the stored one; a zero normal becomes +Z.
core::Vec3 unit(core::Vec3 n) {
  const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
  if (!(len > 0) || !std::isfinite(len)) return {0, 0, 1};
  return {n.x / len, n.y / len, n.z / len};
}

// OPAQUE, MASK (texels only 0 or 255) or BLEND (a texel in between).
std::string alpha_mode(const assets::PreparedTexture& texture) {
  if (texture.mips.empty()) return "OPAQUE";
  bool cut = false;
  const auto& px = texture.mips.front().pixels;
  for (std::size_t i = 3; i < px.size(); i += 4) {
    if (px[i] == 255) continue;
    if (px[i] != 0) return "BLEND";
    cut = true;
  }
  return cut ? "MASK" : "OPAQUE";
}

}  // namespace

tinygltf::Value to_value(const core::Json& j) {
  switch (j.type()) {
    case core::Json::value_t::object: {
      tinygltf::Value::Object o;
      for (const auto& [k, v] : j.items()) o.emplace(k, to_value(v));
      return tinygltf::Value(std::move(o));
    }
    case core::Json::value_t::array: {
      tinygltf::Value::Array a;
      for (const auto& v : j) a.push_back(to_value(v));
      return tinygltf::Value(std::move(a));
    }
    case core::Json::value_t::string:
      return tinygltf::Value(j.get<std::string>());
    case core::Json::value_t::boolean:
      return tinygltf::Value(j.get<bool>());
    case core::Json::value_t::number_integer:
    case core::Json::value_t::number_unsigned:
      if (j.get<double>() >= -2147483648.0 && j.get<double>() <= 2147483647.0)
        return tinygltf::Value(static_cast<int>(j.get<std::int64_t>()));
      return tinygltf::Value(j.get<double>());
    case core::Json::value_t::number_float:
      return tinygltf::Value(j.get<double>());
    default:
      return tinygltf::Value();
  }
}

std::vector<double> column_major(const core::Mat4& m) {
  std::vector<double> out(16);
  for (std::size_t c = 0; c < 4; ++c)
    for (std::size_t r = 0; r < 4; ++r) out[c * 4 + r] = static_cast<double>(m.m[r][c]);
  return out;
}

GltfWriter::GltfWriter(const GltfExportOptions& options) : options_(options) {
  model_.asset.version = "2.0";
  model_.asset.generator = "sortie (Iron3D interchange)";
  model_.buffers.emplace_back();
  tinygltf::Node root;
  root.name = "sortie:z_up";
  root.rotation = {-std::sqrt(0.5), 0.0, 0.0, std::sqrt(0.5)};  // Z up -> Y up
  model_.nodes.push_back(std::move(root));
  root_ = 0;
  tinygltf::Scene scene;
  scene.name = options.name;
  scene.nodes.push_back(root_);
  model_.scenes.push_back(std::move(scene));
  model_.defaultScene = 0;
  stats_.nodes = 1;
}

int GltfWriter::add_node(tinygltf::Node node) {
  model_.nodes.push_back(std::move(node));
  ++stats_.nodes;
  return static_cast<int>(model_.nodes.size() - 1);
}

int GltfWriter::add_mesh(tinygltf::Mesh mesh) {
  stats_.primitives += mesh.primitives.size();
  model_.meshes.push_back(std::move(mesh));
  ++stats_.meshes;
  return static_cast<int>(model_.meshes.size() - 1);
}

std::size_t GltfWriter::append(const void* data, std::size_t size, int) {
  auto& buf = model_.buffers[0].data;
  buf.resize((buf.size() + 3) & ~std::size_t{3}, 0);
  const std::size_t at = buf.size();
  buf.resize(at + size);
  if (size != 0) std::memcpy(buf.data() + at, data, size);
  return at;
}

int GltfWriter::buffer_view(const void* data, std::size_t size, int target) {
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = append(data, size, target);
  view.byteLength = size;
  if (target != 0) view.target = target;
  model_.bufferViews.push_back(view);
  return static_cast<int>(model_.bufferViews.size() - 1);
}

std::map<std::string, int> GltfWriter::vertex_attributes(const assets::PreparedMesh& mesh) {
  return vertex_attributes(mesh.positions, mesh.normals, mesh.uvs, &mesh);
}

std::map<std::string, int> GltfWriter::vertex_attributes(std::span<const core::Vec3> positions,
                                                         std::span<const core::Vec3> normals,
                                                         std::span<const core::Vec2> uvs, const void* identity) {
  if (auto it = vertex_sets_.find(identity); it != vertex_sets_.end()) return it->second;
  std::map<std::string, int> out;
  const std::size_t n = positions.size();
  const auto add = [&](const std::string& name, const void* data, int type, std::vector<double> mn,
                       std::vector<double> mx) {
    const std::size_t components = type == TINYGLTF_TYPE_VEC3 ? 3 : 2;
    tinygltf::Accessor a;
    a.bufferView = buffer_view(data, n * components * sizeof(float), kArrayBuffer);
    a.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
    a.count = n;
    a.type = type;
    a.minValues = std::move(mn);
    a.maxValues = std::move(mx);
    model_.accessors.push_back(std::move(a));
    out[name] = static_cast<int>(model_.accessors.size() - 1);
  };
  std::vector<double> mn(3, 0.0), mx(3, 0.0);
  if (n > 0) {
    mn = {static_cast<double>(positions[0].x), static_cast<double>(positions[0].y),
          static_cast<double>(positions[0].z)};
    mx = mn;
    for (const auto& p : positions) {
      const double v[3] = {static_cast<double>(p.x), static_cast<double>(p.y), static_cast<double>(p.z)};
      for (std::size_t k = 0; k < 3; ++k) mn[k] = std::min(mn[k], v[k]), mx[k] = std::max(mx[k], v[k]);
    }
  }
  add("POSITION", positions.data(), TINYGLTF_TYPE_VEC3, mn, mx);
  stats_.vertices += n;
  if (normals.size() == n && n > 0) {
    std::vector<core::Vec3> unit_normals(n);
    for (std::size_t i = 0; i < n; ++i) unit_normals[i] = unit(normals[i]);
    add("NORMAL", unit_normals.data(), TINYGLTF_TYPE_VEC3, {}, {});
  }
  if (uvs.size() == n && n > 0) add("TEXCOORD_0", uvs.data(), TINYGLTF_TYPE_VEC2, {}, {});
  vertex_sets_.emplace(identity, out);
  return out;
}

int GltfWriter::index_accessor(std::span<const std::uint32_t> indices) {
  const std::uint32_t top = indices.empty() ? 0 : *std::max_element(indices.begin(), indices.end());
  tinygltf::Accessor a;
  if (top < 65535) {  // 65535 is the primitive-restart value of u16 indices
    std::vector<std::uint16_t> narrow(indices.begin(), indices.end());
    a.bufferView = buffer_view(narrow.data(), narrow.size() * 2, kElementArrayBuffer);
    a.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT;
  } else {
    a.bufferView = buffer_view(indices.data(), indices.size() * 4, kElementArrayBuffer);
    a.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
  }
  a.count = indices.size();
  a.type = TINYGLTF_TYPE_SCALAR;
  model_.accessors.push_back(std::move(a));
  stats_.triangles += indices.size() / 3;
  return static_cast<int>(model_.accessors.size() - 1);
}

int GltfWriter::line_accessor(std::span<const core::Vec3> points) {
  return vertex_attributes(points, {}, {}, points.data()).at("POSITION");
}

core::Result<int> GltfWriter::image(const assets::PreparedTexture& texture) {
  if (auto it = images_.find(&texture); it != images_.end()) return it->second;
  const auto& level = texture.mips.front();
  render::PngOptions png;
  png.alpha = true;
  SORTIE_TRY(auto bytes, render::encode_png(level.width, level.height, level.pixels, png));
  tinygltf::Image img;
  img.name = texture.entry;
  img.mimeType = "image/png";
  img.bufferView = buffer_view(bytes.data(), bytes.size(), 0);
  model_.images.push_back(std::move(img));
  const int index = static_cast<int>(model_.images.size() - 1);
  images_.emplace(&texture, index);
  return index;
}

core::Result<int> GltfWriter::texture(const assets::PreparedTexture& texture) {
  if (auto it = textures_.find(&texture); it != textures_.end()) return it->second;
  if (model_.samplers.empty()) {
    tinygltf::Sampler s;
    s.magFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
    s.minFilter = TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR;
    s.wrapS = s.wrapT = TINYGLTF_TEXTURE_WRAP_REPEAT;
    model_.samplers.push_back(s);
  }
  SORTIE_TRY(const int source, image(texture));
  tinygltf::Texture t;
  t.name = texture.entry;
  t.sampler = 0;
  t.source = source;
  model_.textures.push_back(std::move(t));
  const int index = static_cast<int>(model_.textures.size() - 1);
  textures_.emplace(&texture, index);
  ++stats_.textures;
  return index;
}

core::Result<int> GltfWriter::material(const assets::MaterialSlot& slot, const assets::PreparedTexture* lightmap) {
  const std::string id = fmt::format("{}|{}|{}", static_cast<const void*>(slot.material.get()), slot.requested,
                                     static_cast<const void*>(lightmap));
  if (auto it = materials_.find(id); it != materials_.end()) return it->second;
  tinygltf::Material m;
  m.name = slot.requested;
  m.pbrMetallicRoughness.metallicFactor = 0.0;
  m.pbrMetallicRoughness.roughnessFactor = 1.0;
  m.doubleSided = false;
  core::Json extra = {{"wear_row", slot.requested}, {"fallback", slot.fallback}};
  if (const auto* mat = slot.material.get(); mat != nullptr) {
    core::Json phases = core::Json::array();
    const assets::PreparedTexture* base = nullptr;
    for (const auto& ph : mat->phases) {
      phases.push_back({{"parameters", core::to_hex(ph.parameters)}, {"texture", ph.texture_name}});
      if (base == nullptr && ph.texture) base = ph.texture.get();
    }
    extra["mat0"] = {{"entry", mat->entry},
                     {"flags", mat->flags},
                     {"version", mat->version},
                     {"metadata_a", mat->metadata_a},
                     {"metadata_b", mat->metadata_b},
                     {"metadata_c_raw", mat->metadata_c_raw},
                     {"metadata_d_raw", mat->metadata_d_raw},
                     {"phases", std::move(phases)},
                     {"animation_blocks", mat->animation.size()}};
    if (base != nullptr && options_.textures) {
      SORTIE_TRY(m.pbrMetallicRoughness.baseColorTexture.index, texture(*base));
      m.alphaMode = alpha_mode(*base);
      if (m.alphaMode == "MASK") m.alphaCutoff = 0.5;
      extra["texture"] = {{"entry", base->entry}, {"format", base->source_format}, {"levels", base->source_levels}};
    }
  }
  if (lightmap != nullptr && options_.textures) {
    SORTIE_TRY(const int img, image(*lightmap));
    extra["lightmap"] = {{"entry", lightmap->entry}, {"image", img}};
  }
  m.extras = to_value(core::Json{{"sortie", std::move(extra)}});
  model_.materials.push_back(std::move(m));
  const int index = static_cast<int>(model_.materials.size() - 1);
  materials_.emplace(id, index);
  ++stats_.materials;
  return index;
}

core::Result<int> GltfWriter::terrain_material(const assets::PreparedTexture* texture_ptr) {
  const std::string id = fmt::format("terrain|{}", static_cast<const void*>(texture_ptr));
  if (auto it = materials_.find(id); it != materials_.end()) return it->second;
  tinygltf::Material m;
  m.name = texture_ptr != nullptr ? "terrain " + texture_ptr->entry : "terrain (untextured)";
  m.pbrMetallicRoughness.metallicFactor = 0.0;
  m.pbrMetallicRoughness.roughnessFactor = 1.0;
  if (texture_ptr != nullptr && options_.textures) {
    SORTIE_TRY(m.pbrMetallicRoughness.baseColorTexture.index, texture(*texture_ptr));
  }
  model_.materials.push_back(std::move(m));
  const int index = static_cast<int>(model_.materials.size() - 1);
  materials_.emplace(id, index);
  ++stats_.materials;
  return index;
}

core::Result<GltfExport> GltfWriter::finish() {
  auto& buf = model_.buffers[0].data;
  buf.resize((buf.size() + 3) & ~std::size_t{3}, 0);
  if (buf.empty()) model_.buffers.clear();
  GltfExport out;
  tinygltf::TinyGLTF gltf;
  if (options_.binary) {
    std::ostringstream stream;
    if (!gltf.WriteGltfSceneToStream(&model_, stream, false, true))
      return core::fail(core::Diagnostic::error("gltf.write", "tinygltf could not write the model"));
    const std::string s = stream.str();
    out.files.push_back({options_.name + ".glb", core::Bytes(s.begin(), s.end())});
  } else {
    // tinygltf writes a separate .bin only straight to disk (not atomically); it writes the
    // buffer into the JSON as a data URI instead, which is pointed at NAME.bin here.
    std::ostringstream stream;
    if (!gltf.WriteGltfSceneToStream(&model_, stream, true, false))
      return core::fail(core::Diagnostic::error("gltf.write", "tinygltf could not write the model"));
    core::Json doc = core::Json::parse(stream.str(), nullptr, false);
    if (doc.is_discarded()) return core::fail(core::Diagnostic::error("gltf.write", "tinygltf wrote invalid JSON"));
    const std::string bin_name = options_.name + ".bin";
    if (!model_.buffers.empty()) doc["buffers"][0]["uri"] = bin_name;
    const std::string text = doc.dump(2) + "\n";
    out.files.push_back({options_.name + ".gltf", core::Bytes(text.begin(), text.end())});
    if (!model_.buffers.empty()) out.files.push_back({bin_name, core::Bytes(buf.begin(), buf.end())});
  }
  out.stats = stats_;
  return out;
}

}  // namespace sortie::interchange::detail
