#include "sortie/assets/visual_store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

#include "provenance.hpp"
#include "sortie/assets/prototype_resolver.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/ctld.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/texm.hpp"

namespace sortie::assets {
namespace {

using detail::entry_key;
using detail::join_via;

// The chain above a request, spelled out only when a diagnostic needs it (a row step formatted for
// every WEAR row of every mesh cost ~5% of a store build): `base`, or `base -> step(row, name)`.
// Holds references; lives for one call.
class Via {
 public:
  using Step = std::string (*)(std::size_t row, std::string_view name);
  Via(const std::string& base) : base_(base) {}  // implicit: a chain already spelled out
  Via(const std::string& base, Step step, std::size_t row, std::string_view name)
      : base_(base), step_(step), row_(row), name_(name) {}
  [[nodiscard]] std::string str() const { return step_ ? join_via(base_, step_(row_, name_)) : base_; }

 private:
  const std::string& base_;
  Step step_ = nullptr;
  std::size_t row_ = 0;
  std::string_view name_;
};

template <class T>
using Registry = std::unordered_map<std::string, std::shared_ptr<const T>>;  // by identity

// A registry's values sorted by identity (folded archive, then entry).
template <class T>
std::vector<std::shared_ptr<const T>> sorted_values(const Registry<T>& m) {
  std::vector<std::pair<std::string_view, std::shared_ptr<const T>>> items(m.begin(), m.end());
  std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::shared_ptr<const T>> out;
  out.reserve(items.size());
  for (auto& [key, value] : items) out.push_back(std::move(value));
  return out;
}

}  // namespace

core::Json VisualStoreStats::to_json() const {
  return core::Json{{"placements", placements},
                    {"prototypes", prototypes},
                    {"visuals", visuals},
                    {"meshes", meshes},
                    {"materials", materials},
                    {"textures", textures},
                    {"lightmaps", lightmaps},
                    {"vertices", vertices},
                    {"triangles", triangles},
                    {"texture_bytes", texture_bytes},
                    {"material_fallbacks", material_fallbacks},
                    {"effects", effects}};
}

core::Json VisualCacheStats::to_json() const {
  return core::Json{{"meshes_decoded", meshes_decoded},     {"materials_decoded", materials_decoded},
                    {"textures_decoded", textures_decoded}, {"lightmaps_decoded", lightmaps_decoded},
                    {"visuals_built", visuals_built},       {"hits", hits}};
}

struct VisualCache::Impl {
  struct MeshEntry {
    std::shared_ptr<const PreparedMesh> mesh;
    core::Diagnostics warnings;  // visual.* findings of its preparation
  };
  std::unordered_map<std::string, MeshEntry> meshes;                                   // archive|entry
  std::unordered_map<std::string, std::shared_ptr<const PreparedMaterial>> materials;  // lib|entry
  std::unordered_map<std::string, std::shared_ptr<const PreparedTexture>> textures;    // lib|name (both libraries)
  std::unordered_map<std::string, std::shared_ptr<const PreparedVisual>> visuals;      // mesh archive|entry
  VisualCacheStats stats;
  // Use stamps for trim(): kind letter + id -> the pass it was last requested in.
  std::unordered_map<std::string, std::uint64_t> used;
  std::uint64_t pass = 0;
  void touch(char kind, const std::string& id) { used[kind + id] = pass; }
};

namespace {

std::uint64_t texture_bytes_of(const PreparedTexture& t) {
  std::uint64_t n = 0;
  for (const auto& level : t.mips) n += level.pixels.size();
  return n;
}

std::uint64_t mesh_bytes_of(const PreparedMesh& m) {
  std::uint64_t n = (m.positions.size() + m.normals.size()) * sizeof(core::Vec3) + m.uvs.size() * sizeof(core::Vec2);
  for (const auto& slot : m.slots)
    for (const auto& sub : slot.submeshes) n += sub.indices.size() * sizeof(std::uint32_t);
  return n;
}

// Drops the entries of `map` (kind letter `kind`) not requested since the last pass and held by
// the cache alone; adds the bytes before and after.
// `held(value)`: the shared_ptr whose use count tells whether something outside holds the entry.
template <class Map, class Held, class Bytes>
void trim_map(Map& map, char kind, std::unordered_map<std::string, std::uint64_t>& used, std::uint64_t pass,
              CacheTrim& t, Held held, Bytes bytes) {
  for (auto it = map.begin(); it != map.end();) {
    const std::uint64_t b = bytes(it->second);
    t.bytes_before += b;
    const auto stamp = used.find(kind + it->first);
    const bool recent = stamp != used.end() && stamp->second >= pass;
    if (!recent && held(it->second).use_count() == 1) {
      if (stamp != used.end()) used.erase(stamp);
      it = map.erase(it);
      continue;
    }
    t.bytes_after += b;
    ++it;
  }
}

}  // namespace

std::string CacheTrim::to_text() const {
  return fmt::format("{}: {} -> {} entries, {} -> {} bytes", cache, entries_before, entries_after, bytes_before,
                     bytes_after);
}

std::size_t VisualCache::entries() const {
  return impl_->meshes.size() + impl_->materials.size() + impl_->textures.size() + impl_->visuals.size();
}

CacheTrim VisualCache::trim() {
  Impl& c = *impl_;
  CacheTrim t;
  t.cache = "visual";
  t.entries_before = entries();
  const auto self = [](const auto& p) -> const auto& {
    return p;
  };
  trim_map(c.visuals, 'v', c.used, c.pass, t, self, [](const auto&) { return std::uint64_t{sizeof(PreparedVisual)}; });
  trim_map(c.materials, 'm', c.used, c.pass, t, self, [](const auto& m) {
    return std::uint64_t{sizeof(PreparedMaterial) + m->phases.size() * sizeof(PreparedPhase)};
  });
  trim_map(
      c.meshes, 'h', c.used, c.pass, t, [](const auto& e) -> const auto& { return e.mesh; },
      [](const auto& e) { return mesh_bytes_of(*e.mesh); });
  trim_map(c.textures, 't', c.used, c.pass, t, self, [](const auto& tex) { return texture_bytes_of(*tex); });
  t.entries_after = entries();
  ++c.pass;
  return t;
}

VisualCache::VisualCache() : impl_(std::make_unique<Impl>()) {}
VisualCache::~VisualCache() = default;
VisualCache::VisualCache(VisualCache&&) noexcept = default;
VisualCache& VisualCache::operator=(VisualCache&&) noexcept = default;
const VisualCacheStats& VisualCache::stats() const {
  return impl_->stats;
}
void VisualCache::clear() {
  const VisualCacheStats stats = impl_->stats;
  const std::uint64_t pass = impl_->pass;
  *impl_ = Impl{};
  impl_->stats = stats;
  impl_->pass = pass;
}

const PreparedPlacement* VisualStore::placement(std::int32_t placed_index) const {
  if (placed_index < 0 || static_cast<std::size_t>(placed_index) >= placements_.size()) return nullptr;
  const PreparedPlacement& p = placements_[static_cast<std::size_t>(placed_index)];
  return p.placed_index == placed_index ? &p : nullptr;
}

std::shared_ptr<const PreparedEffect> VisualStore::effect(std::string_view name) const {
  const auto it = effect_index_.find(EffectRef::parse(name).key());
  return it == effect_index_.end() ? nullptr : effects_[it->second];
}

const PreparedPrototype* VisualStore::prototype(std::string_view archive, std::string_view key) const {
  const auto it = prototype_index_.find(entry_key(archive, key));
  return it == prototype_index_.end() ? nullptr : &prototypes_[it->second];
}

// Fills one store from a resolved mission, through the session's cache. Every request carries
// its provenance chain ("<mission>: objects[i] 'name' -> ..."), used only when it fails.
class VisualStoreBuilder {
 public:
  VisualStoreBuilder(ArchiveRepository& repo, VisualCache& cache, const VisualStoreOptions& options, VisualStore& store)
      : repo_(repo), cache_(*cache.impl_), options_(options), store_(store) {}

  static std::shared_ptr<VisualStore> make_store() { return std::shared_ptr<VisualStore>(new VisualStore()); }

  core::Status build(const MissionData& md) {
    store_.mission_ = md.tma_path.path;
    SORTIE_CHECK(build_placements(md));
    SORTIE_CHECK(build_terrain(md));
    SORTIE_CHECK(build_effects(md));
    store_.meshes_ = sorted_values(meshes_);
    store_.materials_ = sorted_values(materials_);
    store_.textures_ = sorted_values(textures_);
    store_.lightmaps_ = sorted_values(lightmaps_);
    VisualStoreStats& st = store_.stats_;
    st.placements = store_.placements_.size();
    st.prototypes = store_.prototypes_.size();
    st.visuals = visuals_.size();
    st.meshes = meshes_.size();
    st.materials = materials_.size();
    st.textures = textures_.size();
    st.lightmaps = lightmaps_.size();
    st.effects = store_.effects_.size();
    st.texture_bytes = texture_bytes_;
    for (const auto& [id, mesh] : meshes_) {
      st.vertices += mesh->positions.size();
      st.triangles += mesh->triangle_count(0);
    }
    st.vertices += store_.terrain_.positions.size();
    st.triangles += store_.terrain_.faces.size();
    for (const auto& [id, visual] : visuals_)
      for (const auto& slot : visual->materials) st.material_fallbacks += slot.fallback ? 1 : 0;
    for (const auto& layer : store_.terrain_.layers)
      for (const auto& slot : layer.materials) st.material_fallbacks += slot.fallback ? 1 : 0;
    return {};
  }

 private:
  // ---- failures ---------------------------------------------------------------------------

  tl::unexpected<core::Diagnostic> fail(std::string code, const Via& via, std::string what, std::string file,
                                        std::string expected, std::string found) const {
    core::Diagnostic d = core::Diagnostic::error(std::move(code), head_ + join_via(via.str(), what));
    d.file = std::move(file);
    d.field = field_;
    d.expected = std::move(expected);
    d.found = std::move(found);
    return core::fail(std::move(d));
  }
  tl::unexpected<core::Diagnostic> fail_with(std::string code, const Via& via, std::string what,
                                             const core::Diagnostic& cause, std::string file) const {
    return fail(std::move(code), via, fmt::format("{}: {}", what, cause.to_string()), std::move(file), cause.expected,
                cause.found);
  }

  iron3d::ReadOptions read_options(std::string file) const {
    return iron3d::ReadOptions{options_.profile, std::move(file)};
  }

  core::Result<std::shared_ptr<const MountedArchive>> open(const std::string& name, const Via& via,
                                                           std::string_view missing_code) {
    auto path = normalize_path(clean_legacy_name(name), PathPolicy::host_compatible);
    if (!path)
      return fail_with(std::string(missing_code), via, fmt::format("bad archive name '{}'", name), path.error(), name);
    auto archive = repo_.open(*path);
    if (!archive)
      return fail_with(std::string(missing_code), via, fmt::format("{}: archive does not open", path->path),
                       archive.error(), path->path);
    return archive;
  }

  // ---- textures ---------------------------------------------------------------------------

  core::Result<std::shared_ptr<const PreparedTexture>> texture(const std::string& lib, const std::string& raw_name,
                                                               bool lightmap, const Via& via) {
    const std::string name = clean_legacy_name(raw_name);
    const std::string id = entry_key(lib, name);
    auto& registered = lightmap ? lightmaps_ : textures_;
    std::shared_ptr<const PreparedTexture> tex;
    cache_.touch('t', id);
    if (auto it = cache_.textures.find(id); it != cache_.textures.end()) {
      ++cache_.stats.hits;
      tex = it->second;
    } else {
      const std::string missing = lightmap ? "visual.lightmap_missing" : "visual.texture_missing";
      const std::string invalid = lightmap ? "visual.lightmap_invalid" : "visual.texture_invalid";
      SORTIE_TRY(auto archive, open(lib, via, missing));
      const MountedArchive& a = *archive;
      const auto index = a.find(name);
      if (!index || !a.may_be_type(*index, iron3d::kTexmMagic))
        return fail(missing, via,
                    fmt::format("{}: {} '{}' not found", a.path().path, lightmap ? "lightmap" : "texture", name),
                    a.path().path, "a Texm entry", index ? "an entry of another type" : "none");
      const std::string entry = a.name(*index);
      const std::string where = a.path().path + ":" + entry;
      auto payload = a.payload(*index);
      if (!payload) return fail_with(invalid, via, where + ": does not decode", payload.error(), a.path().path);
      auto texm = iron3d::read_texm(*payload, read_options(where));
      if (!texm) return fail_with(invalid, via, where + ": invalid Texm", texm.error(), a.path().path);
      // The budget is checked on the declared size, before any pixel is decoded.
      const std::uint64_t left = options_.max_texture_bytes - texture_bytes_;
      if (const std::uint64_t chain = mip_chain_bytes(texm->width, texm->height); chain > left)
        return over_budget(a.path().path, entry, via,
                           chain > std::numeric_limits<std::uint64_t>::max() - texture_bytes_
                               ? std::numeric_limits<std::uint64_t>::max()
                               : texture_bytes_ + chain);
      auto prepared = prepare_texture(*texm, a.path().path, entry, lightmap, left);
      if (!prepared)
        return fail_with(invalid, via, where + ": does not decode to RGBA8", prepared.error(), a.path().path);
      tex = std::make_shared<const PreparedTexture>(std::move(*prepared));
      ++(lightmap ? cache_.stats.lightmaps_decoded : cache_.stats.textures_decoded);
      cache_.textures.emplace(id, tex);
    }
    SORTIE_CHECK(register_texture(registered, entry_key(tex->archive, tex->entry), tex, via));
    return tex;
  }

  core::Status register_texture(Registry<PreparedTexture>& registered, const std::string& id,
                                const std::shared_ptr<const PreparedTexture>& tex, const Via& via) {
    if (!registered.emplace(id, tex).second) return {};
    if (tex->byte_size() > options_.max_texture_bytes - texture_bytes_)
      return over_budget(tex->archive, tex->entry, via, texture_bytes_ + tex->byte_size());
    texture_bytes_ += tex->byte_size();
    return {};
  }

  // `total`: the store's texture bytes with the one that does not fit.
  tl::unexpected<core::Diagnostic> over_budget(const std::string& archive, const std::string& entry, const Via& via,
                                               std::uint64_t total) const {
    return fail("visual.texture_budget", via,
                fmt::format("{}:{}: the mission's decoded textures exceed the budget", archive, entry), archive,
                fmt::format("<= {} RGBA8 bytes", options_.max_texture_bytes), fmt::format("{} bytes", total));
  }

  // ---- materials --------------------------------------------------------------------------

  // The material serving a WEAR row (`entry` as the resolver found it), phases bound to textures.
  core::Result<std::shared_ptr<const PreparedMaterial>> material(const std::string& entry, const Via& via) {
    const std::string& lib = options_.material_lib;
    const std::string id = entry_key(lib, entry);
    std::shared_ptr<const PreparedMaterial> mat;
    cache_.touch('m', id);
    if (auto it = cache_.materials.find(id); it != cache_.materials.end()) {
      ++cache_.stats.hits;
      mat = it->second;
      // Its textures belong to this store too (and count against its budget).
      for (const auto& phase : mat->phases)
        if (phase.texture)
          SORTIE_CHECK(
              register_texture(textures_, entry_key(phase.texture->archive, phase.texture->entry), phase.texture, via));
    } else {
      SORTIE_TRY(auto archive, open(lib, via, "visual.material_missing"));
      const MountedArchive& a = *archive;
      const auto index = a.find(entry);
      if (!index || !a.may_be_type(*index, iron3d::kMat0TypeId))
        return fail("visual.material_missing", via, fmt::format("{}: material '{}' not found", a.path().path, entry),
                    a.path().path, "a MAT0 entry", index ? "an entry of another type" : "none");
      const std::string name = a.name(*index);
      const std::string where = a.path().path + ":" + name;
      const iron3d::NresEntry* nres = a.nres_entry(*index);
      auto payload = a.payload(*index);
      if (!payload)
        return fail_with("visual.material_invalid", via, where + ": does not decode", payload.error(), a.path().path);
      auto mat0 = iron3d::read_mat0(*payload, nres ? nres->attr2 : iron3d::kMat0MaxKnownVersion, read_options(where));
      if (!mat0)
        return fail_with("visual.material_invalid", via, where + ": invalid MAT0", mat0.error(), a.path().path);
      auto prepared =
          std::make_shared<PreparedMaterial>(prepare_material(*mat0, a.path().path, name, nres ? nres->attr1 : 0));
      // The chain names the WEAR row, as the resolver's does; the texture name identifies the phase.
      for (PreparedPhase& phase : prepared->phases) {
        if (phase.texture_name.empty()) continue;
        SORTIE_TRY(phase.texture, texture(options_.textures_lib, phase.texture_name, false, via));
      }
      mat = std::move(prepared);
      ++cache_.stats.materials_decoded;
      cache_.materials.emplace(id, mat);
    }
    materials_.emplace(id, mat);
    return mat;
  }

  // WEAR rows -> material slots. `requested` and `entries` come from the resolver, row order.
  core::Result<std::vector<MaterialSlot>> material_slots(const std::vector<std::string>& requested,
                                                         const std::vector<std::string>& entries,
                                                         const std::string& via) {
    if (requested.size() != entries.size())
      return fail("visual.graph_failed", via, "WEAR rows were not all resolved", options_.material_lib,
                  fmt::format("{} resolved rows", requested.size()), fmt::format("{}", entries.size()));
    std::vector<MaterialSlot> slots;
    slots.reserve(requested.size());
    for (std::size_t row = 0; row < requested.size(); ++row) {
      MaterialSlot slot;
      slot.requested = requested[row];
      // The resolver tries the exact name first, so any other entry is DEFAULT or the first one.
      slot.fallback = !core::iequals_ascii(clean_legacy_name(requested[row]), entries[row]);
      SORTIE_TRY(slot.material, material(entries[row], Via(via, detail::wear_row_step, row, requested[row])));
      slots.push_back(std::move(slot));
    }
    return slots;
  }

  core::Result<std::vector<std::shared_ptr<const PreparedTexture>>> lightmap_rows(
      const std::vector<std::string>& entries, const std::string& via) {
    std::vector<std::shared_ptr<const PreparedTexture>> out;
    out.reserve(entries.size());
    for (std::size_t row = 0; row < entries.size(); ++row) {
      SORTIE_TRY(auto lm, texture(options_.lightmap_lib, entries[row], true,
                                  Via(via, detail::lightmap_row_step, row, entries[row])));
      out.push_back(std::move(lm));
    }
    return out;
  }

  // ---- meshes and visuals -----------------------------------------------------------------

  core::Result<std::shared_ptr<const PreparedMesh>> mesh(const std::string& archive_name, const std::string& entry,
                                                         const std::string& via) {
    const std::string id = entry_key(archive_name, entry);
    cache_.touch('h', id);
    auto it = cache_.meshes.find(id);
    if (it != cache_.meshes.end()) {
      ++cache_.stats.hits;
    } else {
      SORTIE_TRY(auto archive, open(archive_name, via, "visual.mesh_missing"));
      const MountedArchive& a = *archive;
      const auto index = a.find(entry);
      if (!index)
        return fail("visual.mesh_missing", via, fmt::format("{}: entry '{}' not found", a.path().path, entry),
                    a.path().path, "an MSH entry", "none");
      const std::string where = a.path().path + ":" + a.name(*index);
      auto payload = a.payload(*index);
      if (!payload)
        return fail_with("visual.mesh_invalid", via, where + ": does not decode", payload.error(), a.path().path);
      auto msh = iron3d::read_msh(*payload, read_options(where));
      if (!msh) return fail_with("visual.mesh_invalid", via, where + ": invalid MSH", msh.error(), a.path().path);
      VisualCache::Impl::MeshEntry e;
      auto prepared = prepare_mesh(msh->model, a.path().path, a.name(*index), &e.warnings);
      if (!prepared) return fail_with("visual.mesh_range", via, where, prepared.error(), a.path().path);
      e.mesh = std::make_shared<const PreparedMesh>(std::move(*prepared));
      ++cache_.stats.meshes_decoded;
      it = cache_.meshes.emplace(id, std::move(e)).first;
    }
    if (meshes_.emplace(id, it->second.mesh).second)
      store_.warnings_.insert(store_.warnings_.end(), it->second.warnings.begin(), it->second.warnings.end());
    return it->second.mesh;
  }

  // A prototype's CTLD, read once per store. Errors: visual.control_missing, visual.control_invalid.
  core::Result<std::shared_ptr<const iron3d::Ctld>> control(const std::string& archive_name, const std::string& entry,
                                                            const std::string& via) {
    const std::string id = entry_key(archive_name, entry);
    if (auto it = controls_.find(id); it != controls_.end()) return it->second;
    SORTIE_TRY(auto archive, open(archive_name, via, "visual.control_missing"));
    const MountedArchive& a = *archive;
    const auto index = a.find(entry);
    if (!index)
      return fail("visual.control_missing", via, fmt::format("{}: entry '{}' not found", a.path().path, entry),
                  a.path().path, "a CTLD entry", "none");
    const std::string where = a.path().path + ":" + a.name(*index);
    auto payload = a.payload(*index);
    if (!payload)
      return fail_with("visual.control_invalid", via, where + ": does not decode", payload.error(), a.path().path);
    auto ctld = iron3d::read_ctld(*payload, read_options(where));
    if (!ctld) return fail_with("visual.control_invalid", via, where + ": invalid CTLD", ctld.error(), a.path().path);
    auto shared = std::make_shared<const iron3d::Ctld>(std::move(*ctld));
    controls_.emplace(id, shared);
    return shared;
  }

  core::Result<std::shared_ptr<const PreparedVisual>> visual(const ResolvedComponent& rc, const std::string& via) {
    const std::string id = entry_key(rc.mesh_archive, rc.mesh_entry);
    if (auto it = visuals_.find(id); it != visuals_.end()) return it->second;
    std::shared_ptr<const PreparedVisual> v;
    cache_.touch('v', id);
    if (auto it = cache_.visuals.find(id); it != cache_.visuals.end()) {
      ++cache_.stats.hits;
      v = it->second;
      // Register its resources with this store (no decoding: every one is in the cache).
      SORTIE_CHECK(mesh(rc.mesh_archive, rc.mesh_entry, via));
      for (const auto& slot : v->materials) SORTIE_CHECK(material(slot.material->entry, via));
      for (const auto& lm : v->lightmaps)
        SORTIE_CHECK(register_texture(lightmaps_, entry_key(lm->archive, lm->entry), lm, via));
    } else {
      auto built = std::make_shared<PreparedVisual>();
      const std::string mesh_via = join_via(via, fmt::format("{}:{}", rc.mesh_archive, rc.mesh_entry));
      SORTIE_TRY(built->mesh, mesh(rc.mesh_archive, rc.mesh_entry, via));
      built->wear_entry = rc.wear_entry;
      const std::string wear_via = join_via(mesh_via, rc.wear_entry);
      SORTIE_TRY(built->materials, material_slots(rc.requested_materials, rc.materials, wear_via));
      SORTIE_TRY(built->lightmaps, lightmap_rows(rc.lightmaps, wear_via));
      v = std::move(built);
      ++cache_.stats.visuals_built;
      cache_.visuals.emplace(id, v);
    }
    if (visuals_.emplace(id, v).second && v->mesh->material_rows > v->materials.size())
      store_.warnings_.push_back(
          core::Diagnostic::warning("visual.wear_rows",
                                    "the model's batches use more WEAR rows than the table has; those batches have "
                                    "no material")
              .of(rc.mesh_archive + ":" + rc.wear_entry)
              .expect(fmt::format(">= {} rows", v->mesh->material_rows), fmt::format("{}", v->materials.size())));
    return v;
  }

  // ---- placements ---------------------------------------------------------------------------

  core::Status build_placements(const MissionData& md) {
    std::map<std::string, PreparedPrototype> prototypes;  // folded archive|key
    std::vector<std::vector<std::string>> component_ids(md.objects.size());
    store_.placements_.reserve(md.objects.size());
    for (std::size_t i = 0; i < md.objects.size(); ++i) {
      const ResolvedObject& ro = md.objects[i];
      head_ = fmt::format("{}: objects[{}] '{}' -> ", md.tma_path.path, ro.placed_index, ro.resource_name);
      field_ = fmt::format("objects[{}]", ro.placed_index);
      PreparedPlacement p;
      p.placed_index = ro.placed_index;
      p.resource_name = ro.resource_name;
      p.via_unit_dat = ro.via_unit_dat;
      if (i < md.tma.objects.size()) {
        const auto& o = md.tma.objects[i];
        p.transform.position = {o.position.x, o.position.y, o.position.z};
        p.transform.orientation = {o.orientation.x, o.orientation.y, o.orientation.z};
        p.transform.scale = {o.scale.x, o.scale.y, o.scale.z};
      }
      for (const ResolvedComponent& rc : ro.components) {
        const std::string via =
            rc.unit_component_index >= 0 ? fmt::format("component[{}] '{}'", rc.unit_component_index, rc.key) : "";
        const std::string id = entry_key(rc.archive, rc.key);
        auto [it, added] = prototypes.try_emplace(id);
        if (added) {
          it->second.archive = rc.archive;
          it->second.key = rc.key;
          if (rc.geometric) {
            SORTIE_TRY(it->second.visual, visual(rc, via));
          }
        }
        p.components.push_back({rc.unit_component_index, nullptr, {}});
        if (!rc.control_entry.empty()) {
          SORTIE_TRY(const auto ctld, control(rc.control_archive, rc.control_entry, via));
          for (const auto& n : iron3d::evaluate_ctld_pose(*ctld).nodes)
            p.components.back().node_frames[n.node_id] = n.frame;
        }
        component_ids[i].push_back(id);
      }
      store_.placements_.push_back(std::move(p));
    }
    head_.clear();
    field_.clear();
    store_.prototypes_.reserve(prototypes.size());
    for (auto& [id, proto] : prototypes) {
      store_.prototype_index_.emplace(id, store_.prototypes_.size());
      store_.prototypes_.push_back(std::move(proto));
    }
    for (std::size_t i = 0; i < component_ids.size(); ++i)
      for (std::size_t c = 0; c < component_ids[i].size(); ++c)
        store_.placements_[i].components[c].prototype =
            &store_.prototypes_[store_.prototype_index_.at(component_ids[i][c])];
    return {};
  }

  // ---- terrain ------------------------------------------------------------------------------

  core::Status build_terrain(const MissionData& md) {
    const std::string path = md.land_dir.path.empty() ? std::string() : md.land_dir.path + "/Land.msh";
    head_ = md.tma_path.path + ": ";
    field_.clear();
    auto terrain = prepare_terrain_geometry(md.land_msh, path, &store_.warnings_);
    if (!terrain) return fail_with("visual.terrain_range", std::string(), "terrain", terrain.error(), path);
    store_.terrain_ = std::move(*terrain);
    PreparedTerrain& t = store_.terrain_;
    for (const EnvironmentWear& env : md.environment) {
      if (env.layer < 1 || env.layer > 2) continue;
      PreparedTerrainLayer& layer = t.layers[static_cast<std::size_t>(env.layer - 1)];
      layer.wear_path = env.path;
      SORTIE_TRY(layer.materials, material_slots(env.resolved.requested_materials, env.resolved.materials, env.path));
      SORTIE_TRY(layer.lightmaps, lightmap_rows(env.resolved.lightmaps, env.path));
    }
    head_.clear();
    // Face textures: the Land2 (table 1) row's material, first textured phase (spec §15.5).
    const auto& land2 = t.layers[1].materials;
    std::map<const PreparedTexture*, std::int32_t> texture_index;
    std::map<std::uint8_t, std::size_t> rows_past_table;
    for (PreparedTerrainFace& face : t.faces) {
      if (face.land2_row >= land2.size()) {
        ++rows_past_table[face.land2_row];
        continue;
      }
      for (const auto& phase : land2[face.land2_row].material->phases) {
        if (!phase.texture) continue;
        auto [it, added] = texture_index.try_emplace(phase.texture.get(), static_cast<std::int32_t>(t.textures.size()));
        if (added) t.textures.push_back(phase.texture);
        face.texture = it->second;
        break;
      }
    }
    for (const auto& [row, faces] : rows_past_table)
      store_.warnings_.push_back(
          core::Diagnostic::warning(
              "visual.terrain_row",
              fmt::format("{} faces name Land2.wea row {}, past the table; drawn untextured", faces, row))
              .of(t.path)
              .expect(fmt::format("rows < {}", land2.size()), fmt::format("{}", row)));
    return {};
  }

  // ---- effects -----------------------------------------------------------------------------

  // Each effect once (by its name's key), its executed bodies' materials bound.
  core::Status build_effects(const MissionData& md) {
    head_ = md.tma_path.path + ": ";
    field_.clear();
    std::map<std::string, std::shared_ptr<const PreparedEffect>> effects;
    for (const ResolvedEffect& re : md.effects) {
      if (!re.effect) continue;
      const std::string key = re.ref.key();
      if (effects.contains(key)) continue;
      auto e = std::make_shared<PreparedEffect>(*re.effect);
      std::size_t body = 0;
      for (PreparedEffectCommand& c : e->commands) {
        if (!c.executed() || c.opcode != 3 || c.reference_name.empty()) continue;
        if (body >= re.materials.size() || re.materials[body].empty())
          return fail("visual.graph_failed", e->label(), "an effect body's material was not resolved",
                      options_.material_lib, "a resolved material", "none");
        SORTIE_TRY(c.material,
                   material(re.materials[body],
                            join_via(e->label(), fmt::format("commands[{}] '{}'", c.index, c.reference_name))));
        ++body;
      }
      effects.emplace(key, std::move(e));
    }
    for (auto& [key, e] : effects) {
      store_.effect_index_.emplace(key, store_.effects_.size());
      store_.effects_.push_back(std::move(e));
    }
    head_.clear();
    return {};
  }

  ArchiveRepository& repo_;
  VisualCache::Impl& cache_;
  const VisualStoreOptions& options_;
  VisualStore& store_;
  std::string head_;   // "<mission>: objects[i] 'name' -> " of the placement being prepared, or "<mission>: "
  std::string field_;  // "objects[i]"
  // What this store uses, by identity.
  Registry<PreparedMesh> meshes_;
  Registry<PreparedMaterial> materials_;
  Registry<PreparedTexture> textures_;
  Registry<PreparedTexture> lightmaps_;
  Registry<PreparedVisual> visuals_;
  std::map<std::string, std::shared_ptr<const iron3d::Ctld>> controls_;  // CTLDs by folded archive|entry
  std::uint64_t texture_bytes_ = 0;
};

core::Result<std::shared_ptr<const VisualStore>> build_visual_store(ArchiveRepository& repo, VisualCache& cache,
                                                                    const MissionData& mission,
                                                                    const VisualStoreOptions& options) {
  if (!mission.ok())
    return core::fail(core::Diagnostic::error("visual.graph_failed",
                                              fmt::format("{}: the dependency graph has {} failed edge(s); first: {}",
                                                          mission.tma_path.path, mission.graph.failures().size(),
                                                          mission.graph.failures().front().message))
                          .of(mission.tma_path.path));
  std::shared_ptr<VisualStore> store = VisualStoreBuilder::make_store();
  VisualStoreBuilder builder(repo, cache, options, *store);
  SORTIE_CHECK(builder.build(mission));
  return std::shared_ptr<const VisualStore>(std::move(store));
}

core::Result<std::shared_ptr<const VisualStore>> prepare_model(ArchiveRepository& repo, VisualCache& cache,
                                                               std::string_view resource_name,
                                                               const VisualStoreOptions& options) {
  ResolverOptions ro;
  ro.profile = options.profile;
  ro.material_lib = options.material_lib;
  ro.textures_lib = options.textures_lib;
  ro.lightmap_lib = options.lightmap_lib;
  PrototypeResolver resolver(repo, ro);
  MissionData md;
  md.tma_path.path = std::string(resource_name);
  const std::uint32_t node = md.graph.node(NodeKind::mission, md.tma_path.path);
  const std::vector<PlacedObjectRequest> requests{{0, std::string(resource_name), std::string(resource_name)}};
  md.objects = resolver.resolve(md.tma_path.path, node, requests, md.graph);
  return build_visual_store(repo, cache, md, options);
}

}  // namespace sortie::assets
