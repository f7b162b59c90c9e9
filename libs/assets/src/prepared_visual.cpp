#include "sortie/assets/prepared_visual.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
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

// A per-vertex stream of a mesh or the terrain, and the words its findings use.
struct VertexStream {
  const char* code;      // "visual.normal_count"
  const char* singular;  // "normal"
  const char* plural;    // "normals"
};
constexpr VertexStream kNormalStream{"visual.normal_count", "normal", "normals"};
constexpr VertexStream kUvStream{"visual.uv_count", "UV", "UVs"};

// `in` converted one value per position into `out`; a stream of another length is left out with
// a warning (the positions stay usable, a renderer falls back to flat normals / no texture).
template <class In, class Out, class Convert>
void convert_per_vertex(const std::vector<In>& in, std::size_t vertex_count, std::vector<Out>& out, Convert convert,
                        const VertexStream& stream, const std::string& where, core::Diagnostics* warnings) {
  if (in.size() != vertex_count) {
    warn(warnings,
         core::Diagnostic::warning(stream.code, fmt::format("{} stream length differs from the positions; {} left out",
                                                            stream.singular, stream.plural))
             .of(where)
             .expect(fmt::format("{} {}", vertex_count, stream.plural), fmt::format("{}", in.size())));
    return;
  }
  out.reserve(vertex_count);
  for (const auto& v : in) out.push_back(convert(v));
}

std::array<float, 4> key_quaternion(const iron3d::MshAnimKey& key) {
  return {static_cast<float>(key.rotation[0]) / 32767.0f, static_cast<float>(key.rotation[1]) / 32767.0f,
          static_cast<float>(key.rotation[2]) / 32767.0f, static_cast<float>(key.rotation[3]) / 32767.0f};
}

// Rigid transform: rotation from the quaternion (x, y, z, w), normalised (all zero = identity),
// then translation.
core::Mat4 rigid(const std::array<float, 4>& q, const core::Vec3& t) {
  const float len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  core::Mat4 m = core::Mat4::identity();
  if (!std::isfinite(len)) return m;
  if (len > 0.0f) {
    const float x = q[0] / len, y = q[1] / len, z = q[2] / len, w = q[3] / len;
    m.m[0] = {1.0f - 2.0f * (y * y + z * z), 2.0f * (x * y - z * w), 2.0f * (x * z + y * w), 0.0f};
    m.m[1] = {2.0f * (x * y + z * w), 1.0f - 2.0f * (x * x + z * z), 2.0f * (y * z - x * w), 0.0f};
    m.m[2] = {2.0f * (x * z - y * w), 2.0f * (y * z + x * w), 1.0f - 2.0f * (x * x + y * y), 0.0f};
  }
  m.m[0][3] = t.x;
  m.m[1][3] = t.y;
  m.m[2][3] = t.z;
  return m;
}

// Rigid transform of a type-8 key.
core::Result<core::Mat4> key_pose(const iron3d::MshAnimKey& key) {
  const core::Vec3 t = vec3(key.translation);
  if (!core::is_finite(t))
    return core::fail(core::Diagnostic::warning("visual.node_pose", "fallback key translation is not finite"));
  return rigid(key_quaternion(key), t);
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

std::uint64_t mip_chain_bytes(std::uint32_t width, std::uint32_t height) {
  constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t total = 0;
  for (std::uint32_t level = 0; level < full_mip_count(width, height); ++level) {
    // Each level is below 2^64 pixels (two u32 factors); times 4 it may not be.
    const std::uint64_t pixels =
        std::uint64_t{std::max<std::uint32_t>(1, width >> level)} * std::max<std::uint32_t>(1, height >> level);
    if (pixels > (kSaturated - total) / 4) return kSaturated;
    total += pixels * 4;
  }
  return total;
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
                                              bool lightmap, std::uint64_t max_bytes) {
  const std::uint32_t full = full_mip_count(texm.width, texm.height);
  // The chain's size from the declared one, before any level is decoded or reserved. A chain
  // that saturates is refused whatever the limit: its byte counts would not fit the decoder.
  const std::uint64_t chain = mip_chain_bytes(texm.width, texm.height);
  if (full == 0 || chain > max_bytes || chain == std::numeric_limits<std::uint64_t>::max())
    return core::fail(
        core::Diagnostic::error("visual.texture_size",
                                full == 0 ? "texture has no pixels" : "texture's full mip chain is too large")
            .of(fmt::format("{}:{}", archive, entry))
            .in("width, height")
            .expect(full == 0 ? std::string("width and height > 0") : fmt::format("<= {} RGBA8 bytes", max_bytes),
                    fmt::format("{} x {} ({} bytes)", texm.width, texm.height, chain)));
  PreparedTexture t;
  t.archive = std::move(archive);
  t.entry = std::move(entry);
  t.lightmap = lightmap;
  t.source_format = texm.format;
  t.page = texm.page;
  // Level 0 always comes from the file (a Texm without levels is an error of the decoder).
  const auto from_file = static_cast<std::uint32_t>(std::clamp<std::size_t>(texm.mips.size(), 1, full));
  t.mips.reserve(full);
  for (std::uint32_t level = 0; level < from_file; ++level) {
    SORTIE_TRY(auto image, iron3d::decode_texm_rgba8(texm, level));
    t.mips.push_back(std::move(image));
  }
  t.source_levels = from_file;
  while (t.mips.size() < full) t.mips.push_back(downsample_rgba8(t.mips.back()));
  t.base_level = std::min(iron3d::texm_mip_skip(texm), full - 1);
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
  auto range_error = [&](std::string field, std::string expected, std::string found,
                         std::string_view message = "batch reaches outside the model's streams") {
    return core::fail(core::Diagnostic::error("visual.mesh_range", std::string(message))
                          .of(where)
                          .in(std::move(field))
                          .expect(std::move(expected), std::move(found)));
  };

  const std::size_t vertex_count = model.positions.size();
  pm.positions.reserve(vertex_count);
  for (const auto& p : model.positions) pm.positions.push_back(vec3(p));
  if (model.normals)
    convert_per_vertex(
        *model.normals, vertex_count, pm.normals,
        [](const auto& n) {
          return core::Vec3{snorm8(n[0]), snorm8(n[1]), snorm8(n[2])};
        },
        kNormalStream, where, warnings);
  if (model.uv0)
    convert_per_vertex(
        *model.uv0, vertex_count, pm.uvs,
        [](const auto& t) {
          return core::Vec2{uv16(t[0]), uv16(t[1])};
        },
        kUvStream, where, warnings);

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

  // Nodes: slot map and static pose, composed parent first (§9.3). A node index is a u16 with
  // 0xFFFF for "none" (PreparedPart::node, PreparedNode::parent), as in the file.
  if (model.nodes.size() >= iron3d::kMshNone)
    return range_error("nodes", fmt::format("fewer than {} nodes", iron3d::kMshNone),
                       fmt::format("{}", model.nodes.size()), "more nodes than a u16 node index can name");
  if (model.anim_keys) pm.anim_keys = *model.anim_keys;
  if (model.frame_map) pm.frame_map = *model.frame_map;
  pm.frame_count = model.frame_count;
  pm.nodes.reserve(model.nodes.size());
  for (std::size_t ni = 0; ni < model.nodes.size(); ++ni) {
    const auto& n = model.nodes[ni];
    PreparedNode node;
    node.parent = n.parent;
    node.anim_map_start = n.anim_map_start;
    node.fallback_key = n.fallback_key;
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

core::Result<PreparedTerrain> prepare_terrain_geometry(const iron3d::LandMsh& msh, std::string path,
                                                       core::Diagnostics* warnings) {
  PreparedTerrain t;
  t.path = std::move(path);
  const std::size_t vertex_count = msh.positions.size();
  for (std::size_t i = 0; i < msh.faces.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k)
      if (msh.faces[i].vertices[k] >= vertex_count)
        return core::fail(core::Diagnostic::error("visual.terrain_range", "face vertex is not below the position count")
                              .of(t.path)
                              .in(fmt::format("faces[{}].vertices[{}]", i, k))
                              .expect(fmt::format("< {}", vertex_count), fmt::format("{}", msh.faces[i].vertices[k])));
  t.positions.reserve(vertex_count);
  for (const auto& p : msh.positions) {
    t.positions.push_back(vec3(p));
    t.bounds.expand(t.positions.back());
  }
  convert_per_vertex(
      msh.normals, vertex_count, t.normals,
      [](const iron3d::PackedNormal& n) {
        return core::Vec3{snorm8(n.x), snorm8(n.y), snorm8(n.z)};
      },
      kNormalStream, t.path, warnings);
  convert_per_vertex(
      msh.uvs, vertex_count, t.uvs,
      [](const iron3d::PackedUv& uv) {
        return core::Vec2{uv16(uv.u), uv16(uv.v)};
      },
      kUvStream, t.path, warnings);
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

std::vector<core::Mat4> posed_to_model(const PreparedMesh& mesh, const std::map<std::int32_t, float>& node_frames) {
  std::vector<core::Mat4> out;
  out.reserve(mesh.nodes.size());
  for (std::size_t i = 0; i < mesh.nodes.size(); ++i) {
    const PreparedNode& n = mesh.nodes[i];
    const auto frame = node_frames.find(static_cast<std::int32_t>(i));
    const core::Mat4 local = frame != node_frames.end() ? node_pose_at(mesh, i, frame->second) : n.local;
    out.push_back(n.parent != iron3d::kMshNone && n.parent < i ? out[n.parent] * local : local);
  }
  return out;
}

core::Mat4 node_pose_at(const PreparedMesh& mesh, std::size_t node, float t) {
  if (node >= mesh.nodes.size()) return core::Mat4::identity();
  const PreparedNode& n = mesh.nodes[node];
  if (!std::isfinite(t) || n.anim_map_start == iron3d::kMshNone) return n.local;
  const float frame = std::nearbyint(t - 0.5f);  // the default rounding mode: nearest, ties to even
  if (frame < 0.0f || frame >= static_cast<float>(mesh.frame_count)) return n.local;
  const auto at = static_cast<std::size_t>(n.anim_map_start) + static_cast<std::size_t>(frame);
  if (at >= mesh.frame_map.size()) return n.local;
  const std::size_t m = mesh.frame_map[at];
  if (m >= n.fallback_key || m >= mesh.anim_keys.size()) return n.local;
  const iron3d::MshAnimKey& k0 = mesh.anim_keys[m];
  const auto pose_of = [&](const iron3d::MshAnimKey& k) {
    auto p = key_pose(k);
    return p ? *p : n.local;
  };
  if (m + 1 >= mesh.anim_keys.size() || t == k0.time || !(mesh.anim_keys[m + 1].time > k0.time)) return pose_of(k0);
  const iron3d::MshAnimKey& k1 = mesh.anim_keys[m + 1];
  if (t == k1.time) return pose_of(k1);
  const float a = std::clamp((t - k0.time) / (k1.time - k0.time), 0.0f, 1.0f);
  const core::Vec3 t0 = vec3(k0.translation), t1 = vec3(k1.translation);
  const core::Vec3 tr{t0.x + (t1.x - t0.x) * a, t0.y + (t1.y - t0.y) * a, t0.z + (t1.z - t0.z) * a};
  if (!core::is_finite(tr)) return n.local;
  std::array<float, 4> q0 = key_quaternion(k0), q1 = key_quaternion(k1);
  if (q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3] < 0.0f)
    for (float& c : q1) c = -c;
  std::array<float, 4> q{};
  for (std::size_t i = 0; i < 4; ++i) q[i] = q0[i] + (q1[i] - q0[i]) * a;
  return rigid(q, tr);
}

}  // namespace sortie::assets
