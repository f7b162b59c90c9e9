#include "sortie/assets/prepared_visual.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "sortie/assets/prototype_resolver.hpp"

namespace sortie::assets {
namespace {

float unit_byte(std::uint8_t v) {
  return static_cast<float>(v) / 255.0f;
}

// §8.4: i8 / 127 clamped to [-1, 1].
float snorm8(std::int8_t v) {
  return std::clamp(static_cast<float>(v) / 127.0f, -1.0f, 1.0f);
}

// §8.4: i16 / 1024.
float uv16(std::int16_t v) {
  return static_cast<float>(v) / 1024.0f;
}

core::Vec3 vec3(const auto& p) {
  return core::Vec3{p.x, p.y, p.z};
}

void warn(core::Diagnostics* warnings, core::Diagnostic d) {
  if (warnings) warnings->push_back(std::move(d));
}

// Rigid transform of a type-8 key: rotation from the quaternion (x, y, z, w) / 32767,
// normalised (all zero = identity), then translation.
core::Result<core::Mat4> key_pose(const iron3d::MshAnimKey& key) {
  float q[4] = {static_cast<float>(key.rotation[0]) / 32767.0f, static_cast<float>(key.rotation[1]) / 32767.0f,
                static_cast<float>(key.rotation[2]) / 32767.0f, static_cast<float>(key.rotation[3]) / 32767.0f};
  const float len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  core::Mat4 m = core::Mat4::identity();
  if (len > 0.0f) {
    const float x = q[0] / len, y = q[1] / len, z = q[2] / len, w = q[3] / len;
    m.m[0] = {1.0f - 2.0f * (y * y + z * z), 2.0f * (x * y - z * w), 2.0f * (x * z + y * w), 0.0f};
    m.m[1] = {2.0f * (x * y + z * w), 1.0f - 2.0f * (x * x + z * z), 2.0f * (y * z - x * w), 0.0f};
    m.m[2] = {2.0f * (x * z - y * w), 2.0f * (y * z + x * w), 1.0f - 2.0f * (x * x + y * y), 0.0f};
  }
  const core::Vec3 t = vec3(key.translation);
  if (!core::is_finite(t))
    return core::fail(core::Diagnostic::warning("visual.node_pose", "fallback key translation is not finite"));
  m.m[0][3] = t.x;
  m.m[1][3] = t.y;
  m.m[2][3] = t.z;
  return m;
}

}  // namespace

// ---- textures ---------------------------------------------------------------------------------

std::uint64_t PreparedTexture::byte_size() const {
  std::uint64_t n = 0;
  for (const auto& m : mips) n += m.pixels.size();
  return n;
}

std::uint32_t full_mip_count(std::uint32_t width, std::uint32_t height) {
  std::uint32_t m = std::max(width, height);
  std::uint32_t n = 0;
  while (m != 0) {
    ++n;
    m >>= 1;
  }
  return width == 0 || height == 0 ? 0 : n;
}

iron3d::Rgba8Image downsample_rgba8(const iron3d::Rgba8Image& src) {
  const std::uint32_t w = src.width, h = src.height;
  if (w == 0 || h == 0 || src.pixels.size() != static_cast<std::size_t>(w) * h * 4) return {};
  iron3d::Rgba8Image out;
  out.width = std::max<std::uint32_t>(1, w / 2);
  out.height = std::max<std::uint32_t>(1, h / 2);
  out.pixels.resize(static_cast<std::size_t>(out.width) * out.height * 4);
  for (std::uint32_t y = 0; y < out.height; ++y) {
    const auto y0 = static_cast<std::uint32_t>(std::uint64_t{y} * h / out.height);
    const auto y1 = static_cast<std::uint32_t>(std::uint64_t{y + 1} * h / out.height);
    for (std::uint32_t x = 0; x < out.width; ++x) {
      const auto x0 = static_cast<std::uint32_t>(std::uint64_t{x} * w / out.width);
      const auto x1 = static_cast<std::uint32_t>(std::uint64_t{x + 1} * w / out.width);
      std::uint32_t sum[4] = {0, 0, 0, 0};
      for (std::uint32_t sy = y0; sy < y1; ++sy)
        for (std::uint32_t sx = x0; sx < x1; ++sx) {
          const std::size_t s = (static_cast<std::size_t>(sy) * w + sx) * 4;
          for (std::size_t c = 0; c < 4; ++c) sum[c] += src.pixels[s + c];
        }
      const std::uint32_t n = (x1 - x0) * (y1 - y0);
      const std::size_t d = (static_cast<std::size_t>(y) * out.width + x) * 4;
      for (std::size_t c = 0; c < 4; ++c) out.pixels[d + c] = static_cast<std::uint8_t>((sum[c] + n / 2) / n);
    }
  }
  return out;
}

core::Result<PreparedTexture> prepare_texture(const iron3d::Texm& texm, std::string archive, std::string entry,
                                              bool lightmap) {
  PreparedTexture t;
  t.archive = std::move(archive);
  t.entry = std::move(entry);
  t.lightmap = lightmap;
  t.source_format = texm.format;
  t.page = texm.page;
  const std::uint32_t full = full_mip_count(texm.width, texm.height);
  const auto from_file = std::min<std::uint32_t>(full, static_cast<std::uint32_t>(texm.mips.size()));
  t.mips.reserve(full);
  for (std::uint32_t level = 0; level < from_file; ++level) {
    SORTIE_TRY(auto image, iron3d::decode_texm_rgba8(texm, level));
    t.mips.push_back(std::move(image));
  }
  t.source_levels = from_file;
  while (!t.mips.empty() && t.mips.size() < full) t.mips.push_back(downsample_rgba8(t.mips.back()));
  t.base_level = full == 0 ? 0 : std::min(iron3d::texm_mip_skip(texm), full - 1);
  return t;
}

// ---- materials --------------------------------------------------------------------------------

PreparedMaterial prepare_material(const iron3d::Mat0& mat, std::string archive, std::string entry,
                                  std::uint32_t flags) {
  PreparedMaterial m;
  m.archive = std::move(archive);
  m.entry = std::move(entry);
  m.version = mat.version;
  m.flags = flags;
  m.metadata_a = mat.metadata_a;
  m.metadata_b = mat.metadata_b;
  m.metadata_c_raw = mat.metadata_c_raw;
  m.metadata_d_raw = mat.metadata_d_raw;
  m.animation = mat.animation_blocks;
  m.phases.reserve(mat.phases.size());
  for (const auto& phase : mat.phases) {
    PreparedPhase p;
    const auto& b = phase.parameters;
    p.parameters = b;
    p.factors[0] = {unit_byte(b[4]), unit_byte(b[5]), unit_byte(b[6]), unit_byte(b[7])};
    p.factors[1] = {unit_byte(b[0]), unit_byte(b[1]), unit_byte(b[2]), static_cast<float>(b[3]) * 0.01f};
    p.factors[2] = {unit_byte(b[8]), unit_byte(b[9]), unit_byte(b[10]), unit_byte(b[11])};
    p.factors[3] = {unit_byte(b[12]), unit_byte(b[13]), unit_byte(b[14]), unit_byte(b[15])};
    p.word64 = b[16];
    p.texture_name = clean_legacy_name(phase.texture_name.raw);
    p.word72 = p.texture_name.empty() ? -1 : static_cast<std::int32_t>(b[17]);
    m.phases.push_back(std::move(p));
  }
  return m;
}

// ---- meshes -----------------------------------------------------------------------------------

const core::Mat4& PreparedMesh::part_transform(const PreparedPart& part) const {
  static const core::Mat4 kIdentity = core::Mat4::identity();
  return part.node < nodes.size() ? nodes[part.node].to_model : kIdentity;
}

std::uint64_t PreparedMesh::triangle_count(std::uint8_t lod) const {
  std::uint64_t n = 0;
  for (const auto& part : parts)
    if (part.lod == lod)
      for (const auto& sm : slots[part.slot].submeshes) n += sm.indices.size() / 3;
  return n;
}

core::Result<PreparedMesh> prepare_mesh(const iron3d::MshModel& model, std::string archive, std::string entry,
                                        core::Diagnostics* warnings) {
  PreparedMesh pm;
  pm.archive = std::move(archive);
  pm.entry = std::move(entry);
  const std::string where = fmt::format("{}:{}", pm.archive, pm.entry);
  auto range_error = [&](std::string field, std::string expected, std::string found) {
    return core::fail(core::Diagnostic::error("visual.mesh_range", "batch reaches outside the model's streams")
                          .of(where)
                          .in(std::move(field))
                          .expect(std::move(expected), std::move(found)));
  };

  const std::size_t vertex_count = model.positions.size();
  pm.positions.reserve(vertex_count);
  for (const auto& p : model.positions) pm.positions.push_back(vec3(p));
  if (model.normals) {
    if (model.normals->size() == vertex_count) {
      pm.normals.reserve(vertex_count);
      for (const auto& n : *model.normals) pm.normals.push_back({snorm8(n[0]), snorm8(n[1]), snorm8(n[2])});
    } else {
      warn(warnings, core::Diagnostic::warning("visual.normal_count",
                                               "normal stream length differs from the positions; "
                                               "normals left out")
                         .of(where)
                         .expect(fmt::format("{} normals", vertex_count), fmt::format("{}", model.normals->size())));
    }
  }
  if (model.uv0) {
    if (model.uv0->size() == vertex_count) {
      pm.uvs.reserve(vertex_count);
      for (const auto& t : *model.uv0) pm.uvs.push_back({uv16(t[0]), uv16(t[1])});
    } else {
      warn(warnings,
           core::Diagnostic::warning("visual.uv_count", "UV stream length differs from the positions; UVs left out")
               .of(where)
               .expect(fmt::format("{} UVs", vertex_count), fmt::format("{}", model.uv0->size())));
    }
  }

  // Slots: each slot's batches grouped by WEAR row (rows ascending, batch order kept).
  pm.slots.reserve(model.slots.size());
  for (std::size_t si = 0; si < model.slots.size(); ++si) {
    const auto& s = model.slots[si];
    PreparedSlot ps;
    ps.bounds = core::Aabb::from_min_max(vec3(s.aabb_min), vec3(s.aabb_max));
    ps.sphere_center = vec3(s.sphere_center);
    ps.sphere_radius = s.sphere_radius;
    if (std::size_t{s.batch_start} + s.batch_count > model.batches.size())
      return range_error(fmt::format("slots[{}]", si), fmt::format("batches within {}", model.batches.size()),
                         fmt::format("{}+{}", s.batch_start, s.batch_count));
    std::map<std::uint16_t, std::vector<std::uint32_t>> by_row;
    for (std::size_t bi = s.batch_start; bi < std::size_t{s.batch_start} + s.batch_count; ++bi) {
      const auto& b = model.batches[bi];
      if (std::uint64_t{b.index_start} + b.index_count > model.indices.size())
        return range_error(fmt::format("batches[{}]", bi), fmt::format("indices within {}", model.indices.size()),
                           fmt::format("{}+{}", b.index_start, b.index_count));
      const std::uint32_t whole = b.index_count - b.index_count % 3u;
      if (whole != b.index_count)
        warn(warnings, core::Diagnostic::warning("visual.partial_triangle",
                                                 "batch index count is not a multiple of 3; "
                                                 "the partial triangle is left out")
                           .of(where)
                           .in(fmt::format("batches[{}]", bi))
                           .expect("3n indices", fmt::format("{}", b.index_count)));
      auto& out = by_row[b.material_index];
      for (std::uint32_t k = 0; k < whole; ++k) {
        const std::uint64_t v = std::uint64_t{b.base_vertex} + model.indices[b.index_start + k];
        if (v >= vertex_count)
          return range_error(fmt::format("batches[{}]", bi), fmt::format("vertices below {}", vertex_count),
                             fmt::format("{}", v));
        out.push_back(static_cast<std::uint32_t>(v));
      }
      pm.material_rows = std::max<std::uint32_t>(pm.material_rows, std::uint32_t{b.material_index} + 1);
    }
    for (auto& [row, indices] : by_row) ps.submeshes.push_back({row, std::move(indices)});
    pm.slots.push_back(std::move(ps));
  }

  // Nodes: slot map and static pose, composed parent first (§9.3).
  pm.nodes.reserve(model.nodes.size());
  for (std::size_t ni = 0; ni < model.nodes.size(); ++ni) {
    const auto& n = model.nodes[ni];
    PreparedNode node;
    node.parent = n.parent;
    if (model.node_names && ni < model.node_names->size()) node.name = (*model.node_names)[ni];
    for (std::size_t k = 0; k < n.slots.size(); ++k)
      node.slots[k] =
          n.slots[k] != iron3d::kMshNone && n.slots[k] < pm.slots.size() ? static_cast<std::int32_t>(n.slots[k]) : -1;
    if (model.anim_keys && n.fallback_key < model.anim_keys->size()) {
      auto pose = key_pose((*model.anim_keys)[n.fallback_key]);
      if (pose) {
        node.local = *pose;
      } else {
        warn(warnings, std::move(pose.error()).of(where).in(fmt::format("nodes[{}]", ni)));
      }
    }
    if (n.parent == iron3d::kMshNone) {
      node.to_model = node.local;
    } else if (n.parent < ni) {
      node.to_model = pm.nodes[n.parent].to_model * node.local;
    } else {
      warn(warnings, core::Diagnostic::warning("visual.node_parent", "parent is not before its child; placed as a root")
                         .of(where)
                         .in(fmt::format("nodes[{}].parent", ni))
                         .expect(fmt::format("< {} or 0xFFFF", ni), fmt::format("{}", n.parent)));
      node.parent = iron3d::kMshNone;
      node.to_model = node.local;
    }
    pm.nodes.push_back(node);
  }

  // Parts: group 0 of every LOD per node; a model without a node table draws its slots as they are.
  if (!pm.nodes.empty()) {
    for (std::size_t ni = 0; ni < pm.nodes.size(); ++ni)
      for (std::uint8_t lod = 0; lod < 3; ++lod)
        if (const std::int32_t s = pm.nodes[ni].slots[std::size_t{lod} * 5]; s >= 0)
          pm.parts.push_back({static_cast<std::uint16_t>(ni), lod, static_cast<std::uint32_t>(s)});
  } else {
    for (std::size_t si = 0; si < pm.slots.size(); ++si)
      pm.parts.push_back({iron3d::kMshNone, 0, static_cast<std::uint32_t>(si)});
  }

  for (const auto& part : pm.parts) {
    if (part.lod != 0) continue;
    const core::Mat4& m = pm.part_transform(part);
    for (const auto& sm : pm.slots[part.slot].submeshes)
      for (const std::uint32_t v : sm.indices) pm.bounds.expand(m.transform_point(pm.positions[v]));
  }
  return pm;
}

// ---- terrain ----------------------------------------------------------------------------------

PreparedTerrain prepare_terrain_geometry(const iron3d::LandMsh& msh, std::string path, core::Diagnostics* warnings) {
  PreparedTerrain t;
  t.path = std::move(path);
  const std::size_t vertex_count = msh.positions.size();
  t.positions.reserve(vertex_count);
  for (const auto& p : msh.positions) {
    t.positions.push_back(vec3(p));
    t.bounds.expand(t.positions.back());
  }
  if (msh.normals.size() == vertex_count) {
    t.normals.reserve(vertex_count);
    for (const auto& n : msh.normals) t.normals.push_back({snorm8(n.x), snorm8(n.y), snorm8(n.z)});
  } else {
    warn(warnings, core::Diagnostic::warning("visual.normal_count",
                                             "normal stream length differs from the positions; normals left out")
                       .of(t.path)
                       .expect(fmt::format("{} normals", vertex_count), fmt::format("{}", msh.normals.size())));
  }
  if (msh.uvs.size() == vertex_count) {
    t.uvs.reserve(vertex_count);
    for (const auto& uv : msh.uvs) t.uvs.push_back({uv16(uv.u), uv16(uv.v)});
  } else {
    warn(warnings,
         core::Diagnostic::warning("visual.uv_count", "UV stream length differs from the positions; UVs left out")
             .of(t.path)
             .expect(fmt::format("{} UVs", vertex_count), fmt::format("{}", msh.uvs.size())));
  }
  t.faces.reserve(msh.faces.size());
  for (const auto& f : msh.faces) {
    PreparedTerrainFace face;
    face.vertices = {f.vertices[0], f.vertices[1], f.vertices[2]};
    face.land1_row = f.has_land1_row() ? static_cast<std::int16_t>(f.land1_row()) : std::int16_t{-1};
    face.land2_row = f.land2_row();
    t.faces.push_back(face);
  }
  return t;
}

}  // namespace sortie::assets
