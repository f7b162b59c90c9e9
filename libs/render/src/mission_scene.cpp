#include "sortie/render/mission_scene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "mission_scene_impl.hpp"
#include "sortie/render/mesh_builders.hpp"
#include "sortie/render/terrain_surface.hpp"

namespace sortie::render {
namespace {

constexpr Rgba8 kUntextured{170, 170, 165, 255};
constexpr Rgba8 kSea{58, 88, 100, 255};
constexpr Rgba8 kArealColor{80, 230, 255, 200};
constexpr Rgba8 kRouteColor{255, 220, 60, 255};

}  // namespace

core::Result<Texture> texture_from_prepared(const assets::PreparedTexture& t) {
  const std::size_t base = t.base_level < t.mips.size() ? t.base_level : 0;
  if (t.mips.empty() || t.mips[base].width == 0 || t.mips[base].height == 0)
    return core::fail(
        core::Diagnostic::error("render.scene.texture", "prepared texture has no levels").of(t.archive).in(t.entry));
  std::vector<std::vector<std::uint32_t>> words;
  for (std::size_t i = base; i < t.mips.size() && words.size() < kMaxTextureLevels; ++i) {
    const auto& img = t.mips[i];
    if (img.pixels.size() != std::size_t{img.width} * img.height * 4)
      return core::fail(core::Diagnostic::error("render.scene.texture", "level size does not match its pixels")
                            .of(t.archive)
                            .in(fmt::format("{}.mips[{}]", t.entry, i)));
    std::vector<std::uint32_t> level(std::size_t{img.width} * img.height);
    for (std::size_t p = 0; p < level.size(); ++p) {
      const std::uint8_t* px = &img.pixels[p * 4];
      level[p] = pack({px[0], px[1], px[2], px[3]});
    }
    words.push_back(std::move(level));
  }
  std::vector<std::span<const std::uint32_t>> spans(words.begin(), words.end());
  auto tex = Texture::from_levels(t.mips[base].width, t.mips[base].height, spans);
  if (!tex) return core::fail(tex.error().of(t.archive).in(t.entry));
  return tex;
}

const assets::PreparedTexture* material_texture(const assets::PreparedMaterial* m) {
  if (m == nullptr) return nullptr;
  for (const auto& ph : m->phases)
    if (ph.texture) return ph.texture.get();
  return nullptr;
}

namespace {

// A label: the file name of a unit DAT path ("UNITS\\TANKS\\u_009.dat" -> "u_009.dat").
std::string short_name(const std::string& name) {
  const auto cut = name.find_last_of("\\/");
  return cut == std::string::npos ? name : name.substr(cut + 1);
}

}  // namespace

Texture missing_checker_texture() {
  std::vector<std::uint32_t> texels(64);
  for (std::uint32_t y = 0; y < 8; ++y)
    for (std::uint32_t x = 0; x < 8; ++x) texels[y * 8 + x] = pack(((x ^ y) & 1) ? Rgba8{255, 0, 255, 255} : kBlack);
  return *Texture::from_packed(8, 8, texels, MipChain::none);
}

Light MissionScene::default_light() {
  Light l;
  l.direction = core::normalize_or(core::Vec3{0.45f, 0.35f, -0.82f}, {0.0f, 0.0f, -1.0f});
  l.color = {0.75f, 0.74f, 0.70f};
  l.ambient = {0.35f, 0.36f, 0.40f};
  return l;
}

MissionScene::MissionScene(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
MissionScene::MissionScene(MissionScene&&) noexcept = default;
MissionScene& MissionScene::operator=(MissionScene&&) noexcept = default;
MissionScene::~MissionScene() = default;

core::Result<MissionScene> MissionScene::build(std::shared_ptr<const assets::VisualStore> visuals,
                                               const assets::MissionData* data, MissionSceneOptions options) {
  if (!visuals) return core::fail(core::Diagnostic::error("render.scene.store", "no prepared-visual store"));
  auto impl = std::make_unique<Impl>();
  impl->visuals = std::move(visuals);
  impl->options = std::move(options);
  impl->checker = missing_checker_texture();
  std::set<const void*> used_textures;
  SORTIE_CHECK(impl->add_terrain(used_textures));
  if (impl->options.objects) SORTIE_CHECK(impl->add_objects(data, used_textures));
  impl->add_overlays(data);
  impl->stats.textures = used_textures.size();
  impl->rebuild_frame();
  return MissionScene(std::move(impl));
}

core::Result<TextureView> MissionScene::Impl::texture_view(const assets::PreparedTexture* t) {
  if (t == nullptr) return TextureView{};
  auto it = textures.find(t);
  if (it == textures.end()) {
    SORTIE_TRY(auto tex, texture_from_prepared(*t));
    it = textures.emplace(t, std::move(tex)).first;
  }
  return it->second.view();
}

Material MissionScene::Impl::base_material(bool lit) const {
  Material m;
  m.filter = options.filter;
  m.lit = lit;
  m.cull = Cull::none;  // the winding of the retail meshes is not recovered; depth sorts it out
  return m;
}

// Terrain: with textures and UVs, one draw over the baked surface (terrain_surface.hpp: the
// materials blended across face borders, the lightmap applied); else one draw per texture,
// faces in Land.msh order within each. Then the surround: skirts and the sea to the horizon.
core::Status MissionScene::Impl::add_terrain(std::set<const void*>& used) {
  const auto& terrain = visuals->terrain();
  const std::size_t nv = terrain.positions.size();
  const bool terrain_normals = terrain.normals.size() == nv && nv > 0;
  const bool terrain_uvs = terrain.uvs.size() == nv && nv > 0;
  for (const auto& p : terrain.positions) terrain_bounds.expand(p);
  bounds = terrain_bounds;
  if (terrain_uvs && !terrain.textures.empty() && options.blend_terrain) return add_terrain_surface(used);
  terrain_groups.resize(terrain.textures.size() + 1);
  for (const auto& f : terrain.faces) {
    if (f.vertices[0] >= nv || f.vertices[1] >= nv || f.vertices[2] >= nv) continue;
    const std::size_t g = f.texture >= 0 && static_cast<std::size_t>(f.texture) < terrain.textures.size()
                              ? static_cast<std::size_t>(f.texture)
                              : terrain.textures.size();
    terrain_groups[g].insert(terrain_groups[g].end(), f.vertices.begin(), f.vertices.end());
  }
  for (std::size_t g = 0; g < terrain_groups.size(); ++g) {
    if (terrain_groups[g].empty()) continue;
    DrawCall d;
    d.mesh.positions = terrain.positions;
    if (terrain_normals) d.mesh.normals = terrain.normals;
    if (terrain_uvs) d.mesh.uvs = terrain.uvs;
    d.mesh.indices = terrain_groups[g];
    d.material = base_material(terrain_normals);
    if (g < terrain.textures.size() && terrain_uvs) {
      SORTIE_TRY(d.material.texture, texture_view(terrain.textures[g].get()));
      used.insert(terrain.textures[g].get());
    } else {
      d.material.color = to_vec4(kUntextured);
    }
    stats.terrain_triangles += terrain_groups[g].size() / 3;
    terrain_draws.push_back(d);
  }
  add_surround(to_vec4(kUntextured));
  return {};
}

core::Status MissionScene::Impl::add_terrain_surface(std::set<const void*>& used) {
  const auto& terrain = visuals->terrain();
  const std::size_t nv = terrain.positions.size();
  std::vector<const Texture*> converted;
  for (const auto& t : terrain.textures) {
    SORTIE_TRY(auto view, texture_view(t.get()));
    (void)view;
    converted.push_back(&textures.at(t.get()));
    used.insert(t.get());
  }
  const Texture* lightmap = nullptr;
  const auto& lightmaps = terrain.layers[1].lightmaps;
  if (!lightmaps.empty() && lightmaps.front()) {
    SORTIE_TRY(auto view, texture_view(lightmaps.front().get()));
    (void)view;
    lightmap = &textures.at(lightmaps.front().get());
  }
  SORTIE_TRY(terrain_surface, bake_terrain_surface(terrain, converted, lightmap));
  terrain_groups.assign(1, {});
  for (const auto& f : terrain.faces)
    if (f.vertices[0] < nv && f.vertices[1] < nv && f.vertices[2] < nv)
      terrain_groups[0].insert(terrain_groups[0].end(), f.vertices.begin(), f.vertices.end());
  const bool lit = !terrain_surface.lightmapped && terrain.normals.size() == nv;
  DrawCall d;
  d.mesh.positions = terrain.positions;
  if (lit) d.mesh.normals = terrain.normals;
  d.mesh.uvs = terrain_surface.uvs;
  d.mesh.indices = terrain_groups[0];
  d.material = base_material(lit);
  d.material.wrap = Wrap::clamp;
  d.material.texture = terrain_surface.texture.view();
  stats.terrain_triangles += terrain_groups[0].size() / 3;
  terrain_draws.push_back(d);
  add_surround(core::Vec4{0.62f, 0.58f, 0.54f, 1.0f});
  return {};
}

// Beyond the map: a skirt down from every open edge of the terrain to the sea, and the sea, a
// plane a little above the lowest terrain point reaching three map spans out, so a view toward
// the horizon shows water fading into the sky rather than the cut edge of a floating sheet. The
// skirts wear the terrain's surface (darkened) when it has one. Not pickable: pick() reads only
// terrain_draws.
void MissionScene::Impl::add_surround(const core::Vec4& skirt_colour) {
  const auto& terrain = visuals->terrain();
  const std::size_t nv = terrain.positions.size();
  if (!options.surround || terrain_bounds.empty() || terrain_groups.empty()) return;
  const core::Aabb& b = terrain_bounds;
  const float span = std::max({b.max.x - b.min.x, b.max.y - b.min.y, 1.0f});
  const float sea = b.min.z + 0.01f * (b.max.z - b.min.z);
  const float floor_z = sea - 0.02f * span;
  // Open edges: used by one face only (undirected, counted over every face).
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  for (const auto& f : terrain.faces) {
    if (f.vertices[0] >= nv || f.vertices[1] >= nv || f.vertices[2] >= nv) continue;
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = f.vertices[static_cast<std::size_t>(k)],
                          c = f.vertices[static_cast<std::size_t>((k + 1) % 3)];
      ++edges[{std::min(a, c), std::max(a, c)}];
    }
  }
  const bool surfaced = terrain_surface.uvs.size() == nv;
  for (const auto& [e, count] : edges) {
    if (count != 1) continue;
    const auto base = static_cast<std::uint32_t>(surround.positions.size());
    for (const std::uint32_t v : {e.first, e.second}) {
      const core::Vec3 top = terrain.positions[v];
      surround.positions.push_back(top);
      surround.positions.push_back({top.x, top.y, floor_z});
      const core::Vec2 uv = surfaced ? terrain_surface.uvs[v] : core::Vec2{};
      surround.uvs.push_back(uv);
      surround.uvs.push_back(uv);
    }
    for (const std::uint32_t i : {0u, 1u, 2u, 2u, 1u, 3u}) surround.indices.push_back(base + i);
  }
  if (!surround.indices.empty()) {
    DrawCall d;
    d.mesh = surround.view();
    d.material = base_material(false);
    d.material.wrap = Wrap::clamp;
    if (surfaced) d.material.texture = terrain_surface.texture.view();
    d.material.color = skirt_colour;
    surround_draws.push_back(d);
  }
  const float reach = 3.0f * span;
  const core::Vec3 c = b.center();
  sea_plane.positions = {{c.x - reach, c.y - reach, sea},
                         {c.x + reach, c.y - reach, sea},
                         {c.x + reach, c.y + reach, sea},
                         {c.x - reach, c.y + reach, sea}};
  sea_plane.indices = {0, 1, 2, 0, 2, 3};
  DrawCall s;
  s.mesh = sea_plane.view();
  s.material = base_material(false);
  s.material.color = to_vec4(kSea);
  surround_draws.push_back(s);
}

// Objects: per placement, per component, the LOD-0 parts, one draw per submesh; then the
// missing placements as checker boxes.
core::Status MissionScene::Impl::add_objects(const assets::MissionData* data, std::set<const void*>& used) {
  for (const auto& pl : visuals->placements()) {
    SceneObject obj;
    obj.placed_index = pl.placed_index;
    obj.placement = pl.transform.to_matrix();
    obj.first_draw = object_draws.size();
    obj.label = short_name(pl.resource_name);
    obj.key = pl.resource_name;
    if (data != nullptr && pl.placed_index >= 0 &&
        static_cast<std::size_t>(pl.placed_index) < data->tma.objects.size() &&
        !data->tma.objects[static_cast<std::size_t>(pl.placed_index)].instance_name.empty())
      obj.label = short_name(data->tma.objects[static_cast<std::size_t>(pl.placed_index)].instance_name);
    SORTIE_CHECK(add_object_parts(pl, obj, used, clan_tint(data, pl.placed_index)));
    obj.draw_count = object_draws.size() - obj.first_draw;
    if (obj.draw_count == 0) continue;  // a non-geometric prototype
    bounds.merge(obj.local_bounds.transformed(obj.placement));
    ++stats.objects;
    template_of_key.emplace(obj.key, objects.size());
    objects.push_back(std::move(obj));
  }
  add_placeholders(used);
  return {};
}

// A unit's clan colour (its data.tma "ClanID" property): the body parts (WEAR row 0) of a unit
// wear it over their paint, so the sides can be told apart at a glance (the retail clan
// colouring is not recovered; sortie's own choice). White: no clan.
core::Vec4 MissionScene::Impl::clan_tint(const assets::MissionData* data, std::int32_t placed_index) {
  static constexpr std::array<Rgba8, 6> kClanColours{{{70, 120, 235, 255},
                                                      {225, 62, 48, 255},
                                                      {240, 200, 60, 255},
                                                      {80, 200, 90, 255},
                                                      {200, 90, 210, 255},
                                                      {70, 210, 210, 255}}};
  if (data == nullptr || placed_index < 0 || static_cast<std::size_t>(placed_index) >= data->tma.objects.size())
    return {1.0f, 1.0f, 1.0f, 1.0f};
  const auto* clan = data->tma.objects[static_cast<std::size_t>(placed_index)].find_property("ClanID");
  if (clan == nullptr || clan->raw[0] == 0) return {1.0f, 1.0f, 1.0f, 1.0f};
  const core::Vec4 c = to_vec4(kClanColours[(clan->raw[0] - 1) % kClanColours.size()]);
  const float top = std::max({c.x, c.y, c.z});  // the colour at full brightness: a tint only darkens
  constexpr float kStrength = 0.8f;
  const auto channel = [&](float v) { return 1.0f + (v / top - 1.0f) * kStrength; };
  return {channel(c.x), channel(c.y), channel(c.z), 1.0f};
}

Cull closed_surface_cull(std::span<const core::Vec3> positions,
                         std::span<const std::span<const std::uint32_t>> index_lists) {
  std::map<std::array<float, 3>, std::uint32_t> weld;
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  double volume = 0.0;
  for (const auto& indices : index_lists) {
    for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
      std::array<std::uint32_t, 3> w{};
      std::array<core::Vec3, 3> p{};
      for (std::size_t k = 0; k < 3; ++k) {
        const std::uint32_t i = indices[t + k];
        if (i >= positions.size()) return Cull::none;
        p[k] = positions[i];
        w[k] = weld.try_emplace({p[k].x, p[k].y, p[k].z}, static_cast<std::uint32_t>(weld.size())).first->second;
      }
      if (w[0] == w[1] || w[1] == w[2] || w[2] == w[0]) continue;  // no area: no side to hide
      for (std::size_t k = 0; k < 3; ++k)
        if (++edges[{w[k], w[(k + 1) % 3]}] > 1) return Cull::none;
      volume += static_cast<double>(core::dot(p[0], core::cross(p[1], p[2])));
    }
  }
  if (edges.empty()) return Cull::none;
  for (const auto& [e, n] : edges)
    if (edges.find({e.second, e.first}) == edges.end()) return Cull::none;  // an open edge
  if (!(std::abs(volume) > 1e-9)) return Cull::none;
  return volume > 0.0 ? Cull::back : Cull::front;
}

namespace {

template <typename T>
bool same_span(std::span<const T> a, std::span<const T> b) {
  return a.data() == b.data() && a.size() == b.size();
}

}  // namespace

// True when `d` (model = placement * part_model) would only repeat one of the object's draws so
// far: the same arrays, the same material and the same part transform, opaque with the depth
// test and write on. Its fragments are the earlier draw's, at the same depths, and fail the
// test (depth < stored) wherever that one left them, whatever was drawn between.
bool MissionScene::Impl::coincides(const SceneObject& obj, const DrawCall& d, const core::Mat4& part_model) const {
  const Material& m = d.material;
  if (m.blend != Blend::opaque || !m.depth_test || !m.depth_write) return false;
  for (std::size_t k = obj.first_draw; k < object_draws.size(); ++k) {
    const DrawCall& e = object_draws[k];
    if (same_span(e.mesh.positions, d.mesh.positions) && same_span(e.mesh.indices, d.mesh.indices) &&
        same_span(e.mesh.normals, d.mesh.normals) && same_span(e.mesh.uvs, d.mesh.uvs) &&
        same_span(e.mesh.colors, d.mesh.colors) && e.mesh.primitive == d.mesh.primitive &&
        obj.part_models[k - obj.first_draw] == part_model && e.material == m)
      return true;
  }
  return false;
}

core::Status MissionScene::Impl::add_object_parts(const assets::PreparedPlacement& pl, SceneObject& obj,
                                                  std::set<const void*>& used, const core::Vec4& tint) {
  for (std::size_t ci = 0; ci < pl.components.size(); ++ci) {
    const auto* proto = pl.components[ci].prototype;
    if (proto == nullptr || !proto->visual || !proto->visual->mesh) continue;
    const auto& visual = *proto->visual;
    const auto& mesh = *visual.mesh;
    const std::size_t mv = mesh.positions.size();
    const bool normals = mesh.normals.size() == mv && mv > 0;
    const bool uvs = mesh.uvs.size() == mv && mv > 0;
    // The component instance's CTLD pose (assets::PreparedComponent::node_frames), else static.
    const auto& frames = pl.components[ci].node_frames;
    const std::vector<core::Mat4> posed =
        frames.empty() ? std::vector<core::Mat4>{} : assets::posed_to_model(mesh, frames);
    for (const auto& part : mesh.parts) {
      if (part.lod != 0 || part.slot >= mesh.slots.size()) continue;
      const core::Mat4& part_model = part.node < posed.size() ? posed[part.node] : mesh.part_transform(part);
      const auto& slot = mesh.slots[part.slot];
      auto cached = part_cull.find(&slot);
      if (cached == part_cull.end()) {
        std::vector<std::span<const std::uint32_t>> lists;
        for (const auto& sub : slot.submeshes) lists.emplace_back(sub.indices);
        cached = part_cull.emplace(&slot, closed_surface_cull(mesh.positions, lists)).first;
      }
      Cull cull = cached->second;
      if (cull != Cull::none && (obj.placement * part_model).determinant() < 0.0f)
        cull = cull == Cull::back ? Cull::front : Cull::back;
      for (const auto& sub : slot.submeshes) {
        DrawCall d;
        d.mesh.positions = mesh.positions;
        if (normals) d.mesh.normals = mesh.normals;
        if (uvs) d.mesh.uvs = mesh.uvs;
        d.mesh.indices = sub.indices;
        if (auto st = validate_mesh(d.mesh); !st)
          return core::fail(st.error()
                                .of(mesh.archive)
                                .in(fmt::format("placements[{}].components[{}] {}", pl.placed_index, ci, mesh.entry)));
        d.material = base_material(normals);
        d.material.cull = cull;
        const assets::PreparedTexture* tex = nullptr;
        if (sub.material_row < visual.materials.size())
          tex = material_texture(visual.materials[sub.material_row].material.get());
        if (tex != nullptr && uvs) {
          SORTIE_TRY(d.material.texture, texture_view(tex));
          used.insert(tex);
        } else {
          d.material.color = to_vec4(kUntextured);
        }
        if (sub.material_row == 0)
          d.material.color = {d.material.color.x * tint.x, d.material.color.y * tint.y, d.material.color.z * tint.z,
                              d.material.color.w};
        d.model = obj.placement * part_model;
        if (coincides(obj, d, part_model)) {
          stats.coincident_triangles += sub.indices.size() / 3;
          continue;
        }
        obj.part_models.push_back(part_model);
        object_draws.push_back(d);
        stats.object_triangles += sub.indices.size() / 3;
        if (cull != Cull::none) stats.one_sided_triangles += sub.indices.size() / 3;
        for (std::uint32_t idx : sub.indices) obj.local_bounds.expand(part_model.transform_point(mesh.positions[idx]));
      }
    }
  }
  return {};
}

// Missing placements: a checker box each.
void MissionScene::Impl::add_placeholders(std::set<const void*>& used) {
  const float h = options.placeholder_half_size;
  placeholder_box = make_box(core::Aabb::from_min_max({-h, -h, -h}, {h, h, h}));
  for (const auto& m : options.missing) {
    SceneObject obj;
    obj.placed_index = m.placed_index;
    obj.placement = m.transform.to_matrix();
    obj.first_draw = object_draws.size();
    obj.draw_count = 1;
    obj.part_models.push_back(core::Mat4::identity());
    obj.local_bounds = placeholder_box.bounds();
    obj.placeholder = true;
    obj.label = short_name(m.name);
    DrawCall d;
    d.mesh = placeholder_box.view();
    d.material = base_material(true);
    d.material.filter = Filter::nearest;
    d.material.texture = checker.view();
    d.model = obj.placement;
    object_draws.push_back(d);
    stats.object_triangles += placeholder_box.triangle_count();
    bounds.merge(obj.local_bounds.transformed(obj.placement));
    ++stats.placeholders;
    objects.push_back(std::move(obj));
  }
  if (!options.missing.empty()) used.insert(&checker);
}

// Overlays: areal outlines, route lines and their points, drawn on top of the world.
void MissionScene::Impl::add_overlays(const assets::MissionData* data) {
  if (data != nullptr && options.overlays.areals) {
    for (const auto& a : data->land_map.areals) {
      const auto base = static_cast<std::uint32_t>(areal_lines.positions.size());
      const auto n = static_cast<std::uint32_t>(a.vertices.size());
      if (n < 2) continue;
      for (const auto& v : a.vertices) {
        areal_lines.positions.push_back(v);
        areal_lines.colors.push_back(kArealColor);
      }
      for (std::uint32_t k = 0; k < n; ++k) {
        areal_lines.indices.push_back(base + k);
        areal_lines.indices.push_back(base + (k + 1) % n);
      }
    }
    areal_lines.primitive = Primitive::lines;
  }
  if (data != nullptr && options.overlays.routes) {
    for (const auto& path : data->tma.paths) {
      const auto base = static_cast<std::uint32_t>(route_lines.positions.size());
      for (std::size_t k = 0; k < path.points.size(); ++k) {
        route_lines.positions.push_back(path.points[k]);
        route_lines.colors.push_back(kRouteColor);
        route_points.positions.push_back(path.points[k]);
        route_points.colors.push_back(kRouteColor);
        if (k > 0) {
          route_lines.indices.push_back(base + static_cast<std::uint32_t>(k) - 1);
          route_lines.indices.push_back(base + static_cast<std::uint32_t>(k));
        }
      }
    }
    route_lines.primitive = Primitive::lines;
    route_points.primitive = Primitive::points;
  }
  auto overlay = [this](const Mesh& mesh, float point_size) {
    if (mesh.positions.empty()) return;
    DrawCall d;
    d.mesh = mesh.view();
    d.material.cull = Cull::none;
    d.material.depth_test = false;  // always on top: a map overlay, not part of the world
    d.material.depth_write = false;
    d.material.blend = Blend::alpha;
    d.material.point_size = point_size;
    overlay_draws.push_back(d);
  };
  overlay(areal_lines, 1.0f);
  overlay(route_lines, 1.0f);
  overlay(route_points, 5.0f);
}

void MissionScene::Impl::merge(bool moving, Batches& out) const {
  // Group the visible objects' draws by material (texture, lighting, attributes present).
  // A draw's material colour (a clan's tint, the untextured grey) goes into vertex colours.
  struct Key {
    const std::uint32_t* texels = nullptr;
    bool lit = false;
    bool uvs = false;
    bool colours = false;
    Cull cull = Cull::none;
    int region = 0;  // still objects: region_of; moving ones: all in 0
    bool operator<(const Key& o) const {
      return std::tie(texels, lit, uvs, colours, cull, region) <
             std::tie(o.texels, o.lit, o.uvs, o.colours, o.cull, o.region);
    }
  };
  const core::Vec4 white{1.0f, 1.0f, 1.0f, 1.0f};
  std::map<Key, std::size_t> groups;
  out.meshes.clear();
  out.draws.clear();
  out.bounds.clear();
  std::vector<std::uint32_t> remap;
  for (const auto& o : objects) {
    if (!o.visible || o.moving != moving) continue;
    const int region = moving ? 0 : region_of(o.placement);
    for (std::size_t k = 0; k < o.draw_count; ++k) {
      const DrawCall& d = object_draws[o.first_draw + k];
      const bool tinted = !d.material.texture.empty() && !(d.material.color == white);
      const Key key{d.material.texture.empty() ? nullptr : d.material.texture.levels[0].texels,
                    d.material.lit,
                    !d.mesh.uvs.empty(),
                    tinted,
                    d.material.cull,
                    region};
      auto [it, added] = groups.try_emplace(key, out.meshes.size());
      if (added) {
        out.meshes.emplace_back();
        DrawCall b;
        b.material = d.material;
        if (tinted) b.material.color = white;
        out.draws.push_back(b);
      }
      const Rgba8 colour = tinted ? to_rgba8(d.material.color) : kWhite;
      Mesh& m = out.meshes[it->second];
      const core::Mat4 normal_matrix = d.material.lit ? d.model.inverse().transposed() : core::Mat4::identity();
      remap.assign(d.mesh.positions.size(), 0xFFFFFFFFu);
      for (std::size_t i = 0; i < d.mesh.index_count(); ++i) {
        const std::uint32_t src = d.mesh.indices.empty() ? static_cast<std::uint32_t>(i) : d.mesh.indices[i];
        if (remap[src] == 0xFFFFFFFFu) {
          remap[src] = static_cast<std::uint32_t>(m.positions.size());
          m.positions.push_back(d.model.transform_point(d.mesh.positions[src]));
          if (key.lit)
            m.normals.push_back(
                core::normalize_or(normal_matrix.transform_direction(d.mesh.normals[src]), {0.0f, 0.0f, 1.0f}));
          if (key.uvs) m.uvs.push_back(d.mesh.uvs[src]);
          if (key.colours) m.colors.push_back(colour);
        }
        m.indices.push_back(remap[src]);
      }
    }
  }
  for (std::size_t i = 0; i < out.meshes.size(); ++i) {
    out.draws[i].mesh = out.meshes[i].view();
    core::Aabb b;
    for (const auto& p : out.meshes[i].positions) b.expand(p);
    out.bounds.push_back(b);
  }
}

// The cell of the kRegions x kRegions grid over the terrain (else the scene's bounds) holding the
// placement's origin; outside the grid: the nearest cell.
int MissionScene::Impl::region_of(const core::Mat4& placement) const {
  const core::Aabb& area = terrain_bounds.empty() ? bounds : terrain_bounds;
  if (area.empty()) return 0;
  const core::Vec3 at = placement.transform_point({0.0f, 0.0f, 0.0f});
  const auto cell = [](float v, float lo, float hi) {
    const float t = hi > lo ? (v - lo) / (hi - lo) : 0.0f;
    const float c = std::floor(t * static_cast<float>(kRegions));
    return c >= 0.0f ? (c < static_cast<float>(kRegions) ? static_cast<int>(c) : kRegions - 1) : 0;  // NaN: 0
  };
  return cell(at.y, area.min.y, area.max.y) * kRegions + cell(at.x, area.min.x, area.max.x);
}

void MissionScene::Impl::rebuild_frame(bool still) {
  if (still) merge(false, still_batches);
  merge(true, moving_batches);

  // Nearest first, as far as the kinds of draw tell: units and buildings stand on the terrain
  // and hide some of it, the terrain hides most of the sea. What is drawn later behind them fails
  // the depth test before it is shaded (and whole triangles go at once, by the coarse depth).
  frame_draws.clear();
  frame_draws.insert(frame_draws.end(), moving_batches.draws.begin(), moving_batches.draws.end());
  still_first = frame_draws.size();
  frame_draws.insert(frame_draws.end(), still_batches.draws.begin(), still_batches.draws.end());
  frame_draws.insert(frame_draws.end(), terrain_draws.begin(), terrain_draws.end());
  frame_draws.insert(frame_draws.end(), surround_draws.begin(), surround_draws.end());
  labels.clear();
  for (const auto& o : objects) {
    if (!o.visible || !options.overlays.labels) continue;
    Label l;
    l.text = o.label;
    const core::Vec3 c = o.local_bounds.center();
    l.position = o.placement.transform_point({c.x, c.y, o.local_bounds.max.z});
    l.offset = {0.0f, -4.0f};
    l.color = o.placeholder ? Rgba8{255, 80, 255, 255} : kWhite;
    labels.push_back(std::move(l));
  }
  frame_draws.insert(frame_draws.end(), overlay_draws.begin(), overlay_draws.end());
  stats.draws = frame_draws.size();
}

bool MissionScene::Impl::add_spawned(const world::WorldSnapshot& snapshot,
                                     std::span<const world::ObjectId> object_ids) {
  std::unordered_set<std::uint64_t> known;
  for (const auto& id : object_ids) known.insert(id.raw());
  for (const auto& o : objects)
    if (o.spawned_id != 0) known.insert(o.spawned_id);
  bool added = false;
  for (const auto& v : snapshot.objects) {
    if (known.count(v.id.raw()) != 0) continue;
    const auto t = template_of_key.find(v.prototype_key);
    if (t == template_of_key.end()) continue;  // no placed object shows what it looks like
    SceneObject obj = objects[t->second];      // copy: its parts, bounds and label
    obj.placed_index = -1;
    obj.spawned_id = v.id.raw();
    obj.visible = false;  // apply_snapshot places and shows it
    obj.placement = core::Mat4{};
    obj.first_draw = object_draws.size();
    for (std::size_t k = 0; k < obj.draw_count; ++k)
      object_draws.push_back(object_draws[objects[t->second].first_draw + k]);
    objects.push_back(std::move(obj));
    ++stats.objects;
    added = true;
  }
  return added;
}

void MissionScene::apply_snapshot(const world::WorldSnapshot& snapshot, std::span<const world::ObjectId> object_ids) {
  std::unordered_map<std::uint64_t, const world::ObjectView*> live;
  for (const auto& v : snapshot.objects) live.emplace(v.id.raw(), &v);
  bool changed = impl_->add_spawned(snapshot, object_ids);
  bool still_changed = changed;  // the still objects' batches must be merged again
  for (auto& o : impl_->objects) {
    const world::ObjectView* view = nullptr;
    if (o.placed_index >= 0 && static_cast<std::size_t>(o.placed_index) < object_ids.size()) {
      auto it = live.find(object_ids[static_cast<std::size_t>(o.placed_index)].raw());
      if (it != live.end()) view = it->second;
    } else if (o.spawned_id != 0) {
      auto it = live.find(o.spawned_id);
      if (it != live.end()) view = it->second;
    }
    const bool visible = view != nullptr && view->active;
    if (visible != o.visible) {
      changed = true;
      still_changed = still_changed || !o.moving;
    }
    o.visible = visible;
    if (!visible) continue;
    const core::Mat4 placement = view->transform.to_matrix();
    if (placement == o.placement) continue;
    changed = true;
    if (!o.moving) {
      o.moving = true;  // from now on in the moving set
      still_changed = true;
    }
    o.placement = placement;
    for (std::size_t k = 0; k < o.draw_count; ++k)
      impl_->object_draws[o.first_draw + k].model = o.placement * o.part_models[k];
  }
  if (changed) impl_->rebuild_frame(still_changed);  // the merged meshes only change when an object did
}

// A clear day: the near part of the view is sharp, haze gathers toward the far side of the map
// (fog from the eye's distance to the terrain centre), and the sky shows above the horizon.
Atmosphere MissionScene::Impl::atmosphere_for(const Camera& camera) const {
  Atmosphere at;
  const core::Aabb& b = terrain_bounds;
  if (!(b.max.x >= b.min.x)) return at;
  const core::Vec3 centre{(b.min.x + b.max.x) * 0.5f, (b.min.y + b.max.y) * 0.5f, (b.min.z + b.max.z) * 0.5f};
  const core::Vec3 d = camera.eye() - centre;
  const float eye_distance = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  const float span = std::max(b.max.x - b.min.x, b.max.y - b.min.y);
  // The sea reaches three spans out: there the fog is whole, so the water meets the sky's
  // horizon colour without a line.
  at.fog_start = std::max(0.0f, eye_distance - 0.25f * span);
  at.fog_end = eye_distance + 2.0f * span;
  at.fog_max = 1.0f;
  at.ground = at.horizon;  // below the horizon, beyond the sea's edge: the same haze
  return at;
}

namespace {

// True when the box lies wholly outside one plane of the view volume (every corner beyond it in
// clip space): nothing of what it bounds can reach the picture. Conservative: a box that crosses
// no single plane stays, even when it misses the view.
bool outside_view(const core::Mat4& view_projection, const core::Aabb& b) {
  if (b.empty()) return true;
  int beyond[6] = {0, 0, 0, 0, 0, 0};
  for (int k = 0; k < 8; ++k) {
    const core::Vec4 c = view_projection * core::Vec4{(k & 1) ? b.max.x : b.min.x, (k & 2) ? b.max.y : b.min.y,
                                                      (k & 4) ? b.max.z : b.min.z, 1.0f};
    beyond[0] += c.x < -c.w;
    beyond[1] += c.x > c.w;
    beyond[2] += c.y < -c.w;
    beyond[3] += c.y > c.w;
    beyond[4] += c.z < -c.w;
    beyond[5] += c.z > c.w;
  }
  for (const int n : beyond)
    if (n == 8) return true;
  return false;
}

}  // namespace

Frame MissionScene::frame(const Camera& camera) const {
  Frame f;
  f.camera = camera;
  f.light = default_light();
  // The still objects' regions outside the view are left out: they would only be transformed,
  // clipped and dropped.
  auto& view = impl_->view_draws;
  const auto& all = impl_->frame_draws;
  const std::size_t first = impl_->still_first, count = impl_->still_batches.draws.size();
  const core::Mat4 vp = camera.view_projection();
  view.clear();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (i < first || i >= first + count || !outside_view(vp, impl_->still_batches.bounds[i - first]))
      view.push_back(all[i]);
  f.draws = view;
  f.labels = impl_->labels;
  f.clear_color = Rgba8{96, 118, 140, 255};
  f.atmosphere = impl_->atmosphere_for(camera);
  return f;
}

std::span<const DrawCall> MissionScene::draws() const {
  return impl_->frame_draws;
}
std::span<const Label> MissionScene::labels() const {
  return impl_->labels;
}
const core::Aabb& MissionScene::terrain_bounds() const {
  return impl_->terrain_bounds;
}
const core::Aabb& MissionScene::bounds() const {
  return impl_->bounds;
}
const MissionSceneStats& MissionScene::stats() const {
  return impl_->stats;
}
const assets::VisualStore& MissionScene::visuals() const {
  return *impl_->visuals;
}

std::optional<core::Vec3> MissionScene::object_position(std::int32_t placed_index) const {
  for (const auto& o : impl_->objects)
    if (o.placed_index == placed_index && o.visible) return o.placement.transform_point({0.0f, 0.0f, 0.0f});
  return std::nullopt;
}

}  // namespace sortie::render
