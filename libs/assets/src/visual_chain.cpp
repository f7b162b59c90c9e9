// The visual chain of the prototype resolver (spec §14): MSH -> WEAR (same archive) -> every
// row's MAT0 in material.lib (exact name, DEFAULT, first entry) -> its Texm in textures.lib, and
// the LIGHTMAPS rows -> Texm in lightmap.lib. Each resource is checked once and cached; the
// walk of each placed object adds its own edges and failures.
#include <fmt/format.h>

#include "resolver_internal.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/texm.hpp"
#include "sortie/iron3d/wear.hpp"

namespace sortie::assets::detail {

std::shared_ptr<const MeshVisual> VisualChain::mesh_visual(const std::string& archive, const std::string& entry) {
  const std::string cache_key = entry_key(archive, entry);
  if (auto it = meshes_.find(cache_key); it != meshes_.end()) return it->second;
  auto v = std::make_shared<MeshVisual>();
  auto a = open_named_archive(repo_, archive, PathPolicy::strict_legacy);
  if (a) {
    const auto index = (*a)->find(entry);
    auto payload = index ? (*a)->payload(*index) : core::Result<core::ByteView>(core::ByteView{});
    if (!payload) {
      v->mesh_failure = failure_from(payload.error(), "load.mesh_invalid",
                                     fmt::format("{}:{}: does not decode", archive, entry), archive, entry);
    } else {
      auto msh = iron3d::read_msh(*payload, iron3d::ReadOptions{options_.profile, archive + ":" + entry});
      if (!msh)
        v->mesh_failure = failure_from(msh.error(), "load.mesh_invalid",
                                       fmt::format("{}:{}: invalid MSH", archive, entry), archive, entry);
    }
    v->wear_entry = iron3d::wear_name_for_msh(entry);
    const auto wi = (*a)->find(v->wear_entry);
    if (!wi || !(*a)->may_be_type(*wi, iron3d::kWearTypeId)) {
      v->wear_failure = Failure{"load.wear_missing",
                                fmt::format("{}: WEAR entry '{}' not found", archive, v->wear_entry),
                                archive,
                                v->wear_entry,
                                "an entry of type WEAR",
                                wi ? "an entry of another type" : "none"};
    } else if (auto bytes = (*a)->payload(*wi); !bytes) {
      v->wear_failure =
          failure_from(bytes.error(), "load.wear_invalid",
                       fmt::format("{}:{}: does not decode", archive, v->wear_entry), archive, v->wear_entry);
    } else if (auto wear =
                   iron3d::read_wear(*bytes, iron3d::ReadOptions{options_.profile, archive + ":" + v->wear_entry});
               !wear) {
      v->wear_failure =
          failure_from(wear.error(), "load.wear_invalid",
                       fmt::format("{}:{}: invalid WEAR table", archive, v->wear_entry), archive, v->wear_entry);
    } else {
      v->materials = iron3d::wear_material_names(*wear);
      v->lightmaps = iron3d::wear_lightmap_names(*wear);
    }
  } else {
    v->mesh_failure =
        failure_from(a.error(), "load.mesh_missing", fmt::format("{}: archive does not open", archive), archive, entry);
  }
  meshes_.emplace(cache_key, v);
  return v;
}

std::shared_ptr<const VisualChain::MaterialInfo> VisualChain::material(const std::string& name) {
  const std::string cache_key = core::ascii_upper(name);
  if (auto it = materials_.find(cache_key); it != materials_.end()) return it->second;
  auto m = std::make_shared<MaterialInfo>();
  auto lib = open_named_archive(repo_, options_.material_lib, PathPolicy::host_compatible);
  if (!lib) {
    m->failure =
        failure_from(lib.error(), "load.material_missing",
                     fmt::format("{}: archive does not open", options_.material_lib), options_.material_lib, name);
  } else {
    const MountedArchive& a = **lib;
    auto is_mat0 = [&](std::size_t i) { return a.may_be_type(i, iron3d::kMat0TypeId); };
    std::optional<std::size_t> index;
    if (auto i = a.find(clean_legacy_name(name)); i && is_mat0(*i)) index = i;
    m->fallback = !index.has_value();
    if (!index)
      if (auto i = a.find("DEFAULT"); i && is_mat0(*i)) index = i;
    if (!index && a.size() > 0 && is_mat0(0)) index = 0;
    if (!index) {
      m->failure =
          Failure{"load.material_missing",
                  fmt::format("{}: material '{}' not found (nor DEFAULT, nor a MAT0 first entry)", a.path().path, name),
                  a.path().path,
                  name,
                  "a MAT0 entry",
                  "none"};
    } else {
      m->entry = a.name(*index);
      auto payload = a.payload(*index);
      const std::uint32_t version = a.nres_entry(*index) ? a.nres_entry(*index)->attr2 : iron3d::kMat0MaxKnownVersion;
      if (!payload) {
        m->failure =
            failure_from(payload.error(), "load.material_invalid",
                         fmt::format("{}:{}: does not decode", a.path().path, m->entry), a.path().path, m->entry);
      } else if (auto mat = iron3d::read_mat0(*payload, version,
                                              iron3d::ReadOptions{options_.profile, a.path().path + ":" + m->entry});
                 !mat) {
        m->failure = failure_from(mat.error(), "load.material_invalid",
                                  fmt::format("{}:{}: invalid MAT0", a.path().path, m->entry), a.path().path, m->entry);
      } else {
        m->textures = iron3d::mat0_texture_names(*mat);
      }
    }
  }
  materials_.emplace(cache_key, m);
  return m;
}

std::shared_ptr<const VisualChain::ResourceCheck> VisualChain::texture(const std::string& lib_name,
                                                                       const std::string& name, bool lightmap) {
  const std::string cache_key = entry_key(lib_name, name);
  if (auto it = textures_.find(cache_key); it != textures_.end()) return it->second;
  auto t = std::make_shared<ResourceCheck>();
  const std::string missing_code = lightmap ? "load.lightmap_missing" : "load.texture_missing";
  const std::string invalid_code = lightmap ? "load.lightmap_invalid" : "load.texture_invalid";
  auto lib = open_named_archive(repo_, lib_name, PathPolicy::host_compatible);
  if (!lib) {
    t->failure =
        failure_from(lib.error(), missing_code, fmt::format("{}: archive does not open", lib_name), lib_name, name);
  } else {
    const MountedArchive& a = **lib;
    const auto i = a.find(clean_legacy_name(name));
    if (!i || !a.may_be_type(*i, iron3d::kTexmMagic)) {
      t->failure = Failure{missing_code,   fmt::format("{}: texture '{}' not found", a.path().path, name),
                           a.path().path,  name,
                           "a Texm entry", i ? "an entry of another type" : "none"};
    } else {
      t->entry = a.name(*i);
      auto payload = a.payload(*i);
      if (!payload) {
        t->failure =
            failure_from(payload.error(), invalid_code, fmt::format("{}:{}: does not decode", a.path().path, t->entry),
                         a.path().path, t->entry);
      } else if (auto tex =
                     iron3d::read_texm(*payload, iron3d::ReadOptions{options_.profile, a.path().path + ":" + t->entry});
                 !tex) {
        t->failure = failure_from(tex.error(), invalid_code,
                                  fmt::format("{}:{}: invalid Texm", a.path().path, t->entry), a.path().path, t->entry);
      }
    }
  }
  textures_.emplace(cache_key, t);
  return t;
}

std::optional<std::string> VisualChain::material_row(std::uint32_t from_node, EdgeKind kind, std::size_t row,
                                                     const std::string& name, const std::string& via,
                                                     std::int32_t component, Walk& w, GraphStatistics& st,
                                                     std::vector<std::string>* textures) {
  ++st.material_slots;
  const auto r = static_cast<std::int32_t>(row);
  const auto mat = material(name);
  if (mat->failure) {
    w.fail(from_node, NodeKind::material, kind, *mat->failure, via, component, r);
    return std::nullopt;
  }
  if (mat->fallback) {
    ++st.material_fallbacks;
    const Node& from = w.graph.nodes()[from_node];
    core::Diagnostic d = core::Diagnostic::warning(
        "load.material_fallback", w.chain(join_via(via, fmt::format("{}: Material {} not found; using '{}'",
                                                                    options_.material_lib, name, mat->entry))));
    d.file = options_.material_lib;
    d.field = w.placed_index >= 0 ? fmt::format("objects[{}]", w.placed_index) : std::string();
    d.expected = fmt::format("a MAT0 entry named '{}'", name);
    d.found = fmt::format("none; '{}' serves the row", mat->entry);
    w.graph.warn_once(fmt::format("{}|{}|{}", core::ascii_upper(from.archive), core::ascii_upper(from.entry), row),
                      std::move(d));
  }
  const std::uint32_t mat_node = w.graph.node(NodeKind::material, options_.material_lib, mat->entry);
  w.edge(from_node, mat_node, kind, component, r);
  for (std::size_t phase = 0; phase < mat->textures.size(); ++phase) {
    ++st.texture_requests;
    const auto tex = texture(options_.textures_lib, mat->textures[phase], false);
    if (tex->failure) {
      w.fail(mat_node, NodeKind::texture, EdgeKind::material_to_texture, *tex->failure, via, component,
             static_cast<std::int32_t>(phase));
      continue;
    }
    if (textures != nullptr) textures->push_back(tex->entry);
    w.edge(mat_node, w.graph.node(NodeKind::texture, options_.textures_lib, tex->entry), EdgeKind::material_to_texture,
           component, static_cast<std::int32_t>(phase));
  }
  return mat->entry;
}

void VisualChain::wear_rows(const MeshVisual& v, std::uint32_t wear_node, const std::string& via,
                            std::int32_t component, Walk& w, ResolvedComponent& rc, GraphStatistics& st) {
  for (std::size_t row = 0; row < v.materials.size(); ++row) {
    rc.requested_materials.push_back(v.materials[row]);
    const std::string mat_via = join_via(via, wear_row_step(row, v.materials[row]));
    if (auto entry = material_row(wear_node, EdgeKind::wear_to_material, row, v.materials[row], mat_via, component, w,
                                  st, &rc.textures))
      rc.materials.push_back(std::move(*entry));
  }
  for (std::size_t row = 0; row < v.lightmaps.size(); ++row) {
    ++st.lightmap_requests;
    const auto r = static_cast<std::int32_t>(row);
    const auto lm = texture(options_.lightmap_lib, v.lightmaps[row], true);
    if (lm->failure) {
      w.fail(wear_node, NodeKind::lightmap, EdgeKind::wear_to_lightmap, *lm->failure,
             join_via(via, lightmap_row_step(row, v.lightmaps[row])), component, r);
      continue;
    }
    rc.lightmaps.push_back(lm->entry);
    w.edge(wear_node, w.graph.node(NodeKind::lightmap, options_.lightmap_lib, lm->entry), EdgeKind::wear_to_lightmap,
           component, r);
  }
}
}  // namespace sortie::assets::detail
