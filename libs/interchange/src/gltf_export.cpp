#include "sortie/interchange/gltf_export.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gltf_writer.hpp"

namespace sortie::interchange {
namespace {

using detail::GltfWriter;

bool finite(const core::Mat4& m) {
  for (const auto& row : m.m)
    for (float v : row)
      if (!std::isfinite(v)) return false;
  return true;
}

void set_matrix(tinygltf::Node& node, const core::Mat4& m) {
  const core::Mat4 id = core::Mat4::identity();
  if (m.m == id.m || !finite(m)) return;
  node.matrix = detail::column_major(m);
}

// One MSH node's LOD-0 slot (group 0) as a mesh: a primitive per submesh.
core::Result<int> slot_mesh(GltfWriter& w, const assets::PreparedVisual& visual, const assets::PreparedSlot& slot,
                            const std::string& name) {
  const auto& mesh = *visual.mesh;
  tinygltf::Mesh out;
  out.name = name;
  const auto attributes = w.vertex_attributes(mesh);
  for (const auto& sub : slot.submeshes) {
    if (sub.indices.empty()) continue;
    tinygltf::Primitive p;
    p.attributes = attributes;
    p.indices = w.index_accessor(sub.indices);
    p.mode = TINYGLTF_MODE_TRIANGLES;
    if (sub.material_row < visual.materials.size()) {
      const assets::PreparedTexture* lightmap =
          sub.material_row < visual.lightmaps.size() ? visual.lightmaps[sub.material_row].get() : nullptr;
      SORTIE_TRY(p.material, w.material(visual.materials[sub.material_row], lightmap));
    }
    out.primitives.push_back(std::move(p));
  }
  if (out.primitives.empty()) return -1;
  return w.add_mesh(std::move(out));
}

// A component: its MSH nodes as a hierarchy under one node, each with its LOD-0 mesh.
core::Mat4 node_local(const assets::PreparedMesh& mesh, std::size_t i, const GltfExportOptions& o) {
  if (o.rest_pose) return core::Mat4::identity();
  if (auto it = o.node_frames.find(static_cast<std::int32_t>(i)); it != o.node_frames.end())
    return assets::node_pose_at(mesh, i, it->second);
  if (o.frame) return assets::node_pose_at(mesh, i, *o.frame);
  return mesh.nodes[i].local;
}

core::Result<int> component_node(GltfWriter& w, const assets::PreparedComponent& component, std::size_t index,
                                 const GltfExportOptions& options) {
  tinygltf::Node top;
  const auto* proto = component.prototype;
  top.name = fmt::format("component[{}] {}", index, proto != nullptr ? proto->key : std::string("?"));
  const int top_index = w.add_node(std::move(top));
  if (proto == nullptr || !proto->visual || !proto->visual->mesh) return top_index;
  const auto& visual = *proto->visual;
  const auto& mesh = *visual.mesh;
  std::vector<int> node_index(mesh.nodes.size(), -1);
  for (std::size_t i = 0; i < mesh.nodes.size(); ++i) {
    const auto& pn = mesh.nodes[i];
    tinygltf::Node n;
    n.name = pn.name.empty() ? fmt::format("node[{}]", i) : pn.name;
    set_matrix(n, node_local(mesh, i, options));
    n.extras = detail::to_value(core::Json{{"sortie", {{"msh", mesh.entry}, {"node", i}}}});
    const std::int32_t slot = pn.slots[0];
    if (slot >= 0 && static_cast<std::size_t>(slot) < mesh.slots.size()) {
      SORTIE_TRY(const int m, slot_mesh(w, visual, mesh.slots[static_cast<std::size_t>(slot)], n.name));
      if (m >= 0) n.mesh = m;
    }
    node_index[i] = w.add_node(std::move(n));
    const bool child = pn.parent != iron3d::kMshNone && pn.parent < i && node_index[pn.parent] >= 0;
    w.add_child(child ? node_index[pn.parent] : top_index, node_index[i]);
  }
  if (mesh.nodes.empty()) {  // the 24-byte node variant: the parts at identity
    for (const auto& part : mesh.parts) {
      if (part.lod != 0 || part.slot >= mesh.slots.size()) continue;
      SORTIE_TRY(const int m, slot_mesh(w, visual, mesh.slots[part.slot], mesh.entry));
      if (m < 0) continue;
      tinygltf::Node n;
      n.name = mesh.entry;
      n.mesh = m;
      w.add_child(top_index, w.add_node(std::move(n)));
    }
  }
  return top_index;
}

core::Result<int> placement_node(GltfWriter& w, const assets::PreparedPlacement& pl, const std::string& name,
                                 const GltfExportOptions& options) {
  tinygltf::Node node;
  node.name = name;
  const int index = w.add_node(std::move(node));
  for (std::size_t c = 0; c < pl.components.size(); ++c) {
    SORTIE_TRY(const int child, component_node(w, pl.components[c], c, options));
    w.add_child(index, child);
  }
  return index;
}

std::string short_key(const std::string& resource) {
  const auto cut = resource.find_last_of("\\/");
  return cut == std::string::npos ? resource : resource.substr(cut + 1);
}

core::Status add_terrain(GltfWriter& w, const assets::PreparedTerrain& terrain) {
  const std::size_t nv = terrain.positions.size();
  if (nv == 0 || terrain.faces.empty()) return {};
  std::vector<std::vector<std::uint32_t>> groups(terrain.textures.size() + 1);
  for (const auto& f : terrain.faces) {
    if (f.vertices[0] >= nv || f.vertices[1] >= nv || f.vertices[2] >= nv) continue;
    const std::size_t g = f.texture >= 0 && static_cast<std::size_t>(f.texture) < terrain.textures.size()
                              ? static_cast<std::size_t>(f.texture)
                              : terrain.textures.size();
    groups[g].insert(groups[g].end(), f.vertices.begin(), f.vertices.end());
  }
  const auto attributes = w.vertex_attributes(terrain.positions, terrain.normals, terrain.uvs, &terrain);
  tinygltf::Mesh mesh;
  mesh.name = "terrain";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].empty()) continue;
    tinygltf::Primitive p;
    p.attributes = attributes;
    p.indices = w.index_accessor(groups[g]);
    p.mode = TINYGLTF_MODE_TRIANGLES;
    SORTIE_TRY(p.material, w.terrain_material(g < terrain.textures.size() ? terrain.textures[g].get() : nullptr));
    mesh.primitives.push_back(std::move(p));
  }
  tinygltf::Node node;
  node.name = "terrain";
  node.mesh = w.add_mesh(std::move(mesh));
  node.extras = detail::to_value(core::Json{{"sortie", {{"land_msh", terrain.path}}}});
  w.add_root_child(w.add_node(std::move(node)));
  return {};
}

core::Json property_json(const iron3d::TmaProperty& p) {
  return {{"name", core::legacy_text_json(p.name)}, {"raw", p.raw}};
}

core::Json object_extras(const assets::PreparedPlacement& pl, const assets::MissionData& mission) {
  core::Json j = {{"placed_index", pl.placed_index}, {"resource", core::legacy_text_json(pl.resource_name)}};
  if (pl.placed_index >= 0 && static_cast<std::size_t>(pl.placed_index) < mission.tma.objects.size()) {
    const auto& o = mission.tma.objects[static_cast<std::size_t>(pl.placed_index)];
    j["instance"] = core::legacy_text_json(o.instance_name);
    j["clan"] = o.identity_or_clan_raw;
    j["kind"] = o.raw_kind;
    core::Json props = core::Json::array();
    for (const auto& p : o.properties) props.push_back(property_json(p));
    j["properties"] = std::move(props);
  }
  return {{"sortie", std::move(j)}};
}

void add_lines(GltfWriter& w, const assets::MissionData& mission, const GltfExportOptions& options) {
  tinygltf::Mesh mesh;
  mesh.name = "overlays";
  const auto add = [&](const std::vector<core::Vec3>& points, int mode) {
    if (points.size() < 2) return;
    tinygltf::Primitive p;
    p.attributes["POSITION"] = w.line_accessor(points);
    p.mode = mode;
    mesh.primitives.push_back(std::move(p));
  };
  if (options.areals)
    for (const auto& a : mission.land_map.areals) add(a.vertices, TINYGLTF_MODE_LINE_LOOP);
  if (options.routes)
    for (const auto& path : mission.tma.paths) add(path.points, TINYGLTF_MODE_LINE_STRIP);
  if (mesh.primitives.empty()) return;
  tinygltf::Node node;
  node.name = "overlays";
  node.mesh = w.add_mesh(std::move(mesh));
  w.add_root_child(w.add_node(std::move(node)));
}

}  // namespace

core::Result<GltfExport> export_model_gltf(const assets::VisualStore& store, const GltfExportOptions& options) {
  GltfWriter w(options);
  for (const auto& pl : store.placements()) {
    SORTIE_TRY(const int node, placement_node(w, pl, short_key(pl.resource_name), options));
    w.add_root_child(node);
  }
  return w.finish();
}

core::Result<GltfExport> export_mission_gltf(const assets::VisualStore& store, const assets::MissionData& mission,
                                             const GltfExportOptions& options) {
  GltfWriter w(options);
  SORTIE_CHECK(add_terrain(w, store.terrain()));
  for (const auto& pl : store.placements()) {
    SORTIE_TRY(const int node,
               placement_node(w, pl, fmt::format("{} {}", pl.placed_index, short_key(pl.resource_name)), options));
    w.add_root_child(node);
    tinygltf::Node& n = w.node(node);
    n.extras = detail::to_value(object_extras(pl, mission));
    const core::Mat4 m = pl.transform.to_matrix();
    if (finite(m)) n.matrix = detail::column_major(m);
  }
  add_lines(w, mission, options);
  core::Json clans = core::Json::array();
  for (const auto& c : mission.tma.clans) clans.push_back(core::legacy_text_json(c.name));
  w.set_scene_extras({{"sortie", {{"mission", mission.tma_path.path}, {"clans", std::move(clans)}}}});
  return w.finish();
}

}  // namespace sortie::interchange
