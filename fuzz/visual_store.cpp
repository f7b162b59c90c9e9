// Fuzzes the prepared-visual converters and the store (layout in seeds/visual_store_codec.hpp):
// hostile MSH, WEAR, MAT0, Texm and Land.msh bytes through their readers into prepare_mesh,
// prepare_material, prepare_texture and prepare_terrain_geometry, the same records built raw
// (no reader in the way), and, when asked, a whole store built from them twice through one cache.
// Checks the answers hold together: indices in range of the positions, parts naming real slots
// and nodes, mip chains halving down to 1x1 with the pixel bytes they claim, a store whose
// placements, visuals, materials and textures point at each other, and a second store from the
// cache that decodes nothing and says the same.
#include "sortie/assets/visual_store.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>

#include "seeds/visual_store_codec.hpp"
#include "sortie/assets/game_builder.hpp"
#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/prepared_visual.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/wear.hpp"

namespace {

using namespace sortie;
using namespace sortie::assets;

// A converter's budget for one texture in this target: far above anything a 64 KiB section can
// hold legitimately, far below what a declared size can claim.
constexpr std::uint64_t kTextureLimit = std::uint64_t{1} << 24;

void require(bool ok) {
  if (!ok) __builtin_trap();
}

void check_texture(const PreparedTexture& t) {
  require(!t.mips.empty());
  const std::uint32_t w = t.width(), h = t.height();
  require(t.mips.size() == full_mip_count(w, h));
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < t.mips.size(); ++i) {
    const auto& m = t.mips[i];
    require(m.width == std::max<std::uint32_t>(1, w >> i) && m.height == std::max<std::uint32_t>(1, h >> i));
    require(m.pixels.size() == std::size_t{m.width} * m.height * 4);
    bytes += m.pixels.size();
  }
  require(t.mips.back().width == 1 && t.mips.back().height == 1);
  require(t.byte_size() == bytes && bytes <= mip_chain_bytes(w, h));
  require(t.source_levels >= 1 && t.source_levels <= t.mips.size());
  require(t.base_level < t.mips.size());
}

void check_mesh(const PreparedMesh& m) {
  const std::size_t n = m.positions.size();
  require(m.normals.empty() || m.normals.size() == n);
  require(m.uvs.empty() || m.uvs.size() == n);
  for (const auto& slot : m.slots) {
    std::optional<std::uint16_t> previous;
    for (const auto& sm : slot.submeshes) {
      require(!previous || *previous < sm.material_row);
      previous = sm.material_row;
      require(sm.material_row < m.material_rows);
      require(sm.indices.size() % 3 == 0);
      for (const std::uint32_t v : sm.indices) require(v < n);
    }
  }
  require(m.nodes.size() < iron3d::kMshNone);
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const auto& node = m.nodes[i];
    require(node.parent == iron3d::kMshNone || node.parent < i);
    for (const std::int32_t s : node.slots) require(s >= -1 && (s < 0 || static_cast<std::size_t>(s) < m.slots.size()));
  }
  for (const auto& part : m.parts) {
    require(part.slot < m.slots.size() && part.lod < 3);
    if (part.node == iron3d::kMshNone) {
      require(m.nodes.empty());
    } else {
      require(part.node < m.nodes.size());
      require(m.nodes[part.node].slots[std::size_t{part.lod} * 5] == static_cast<std::int32_t>(part.slot));
    }
  }
  (void)m.triangle_count(0);
}

void check_terrain(const PreparedTerrain& t) {
  const std::size_t n = t.positions.size();
  require(t.normals.empty() || t.normals.size() == n);
  require(t.uvs.empty() || t.uvs.size() == n);
  for (const auto& f : t.faces) {
    for (const std::uint32_t v : f.vertices) require(v < n);
    require(f.land1_row >= -1 && f.land1_row < 0xFF);
    require(f.texture >= -1 && (f.texture < 0 || static_cast<std::size_t>(f.texture) < t.textures.size()));
  }
}

bool is_ascii_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

void check_material(const PreparedMaterial& m, const iron3d::Mat0& source) {
  require(m.phases.size() == source.phases.size());
  require(m.animation == source.animation_blocks);
  for (const auto& p : m.phases) {
    require((p.word72 == -1) == p.texture_name.empty() || (p.word72 == -1 && p.parameters[17] == 0xFF));
    require(p.texture_name.find('\0') == std::string::npos);
    require(p.texture_name.empty() ||
            (!is_ascii_space(p.texture_name.front()) && !is_ascii_space(p.texture_name.back())));
    require(p.texture == nullptr);
  }
}

// ---- one record through its reader and converter ------------------------------------------------

void run_msh(core::ByteView bytes) {
  iron3d::ReadOptions o{core::Profile::compatible, "fz.msh"};
  core::Diagnostics findings;
  auto file = iron3d::read_msh(bytes, o, &findings);
  if (!file) return;
  if (auto mesh = prepare_mesh(file->model, "static.rlb", "fz.msh", &findings)) check_mesh(*mesh);
}

void run_mesh(const iron3d::MshModel& model) {
  core::Diagnostics findings;
  if (auto mesh = prepare_mesh(model, "static.rlb", "raw.msh", &findings)) check_mesh(*mesh);
}

void run_mat0(core::ByteView bytes) {
  if (bytes.empty()) return;
  iron3d::ReadOptions o{core::Profile::compatible, "M_FZ"};
  auto mat = iron3d::read_mat0(bytes.subspan(1), bytes[0] % 8u, o);
  if (!mat) return;
  check_material(prepare_material(*mat, "material.lib", "M_FZ", 0), *mat);
}

void run_texture(const iron3d::Texm& texm) {
  auto tex = prepare_texture(texm, "textures.lib", "T_FZ", false, kTextureLimit);
  if (!tex) return;
  check_texture(*tex);
  require(tex->byte_size() <= kTextureLimit);
  for (std::uint32_t level = 0; level < tex->source_levels && level < 2; ++level) {
    auto direct = iron3d::decode_texm_rgba8(texm, level);
    require(direct.has_value() && direct->pixels == tex->mips[level].pixels);
  }
}

void run_texm(core::ByteView bytes) {
  auto texm = iron3d::read_texm(bytes, {core::Profile::compatible, "T_FZ"});
  if (texm) run_texture(*texm);
}

void run_terrain(const iron3d::LandMsh& msh) {
  core::Diagnostics findings;
  if (auto t = prepare_terrain_geometry(msh, "DATA/MAPS/fz/Land.msh", &findings)) check_terrain(*t);
}

std::optional<iron3d::LandMsh> read_land(core::ByteView bytes) {
  core::Diagnostics findings;
  auto msh = iron3d::read_land_msh(bytes, {core::Profile::compatible, "DATA/MAPS/fz/Land.msh"}, &findings);
  if (!msh) return std::nullopt;
  return std::move(*msh);
}

// ---- a whole store ------------------------------------------------------------------------------

struct StoreParts {
  std::optional<core::Bytes> msh, wear, mat0, texm;
  std::optional<iron3d::LandMsh> land;
};

// Valid stand-ins for the pieces the input does not give: a two-row box, rows M_FZ and GONE (the
// second served by DEFAULT), a lightmap row, a material on T_FZ, an 8x8 texture.
core::Bytes default_msh() {
  static const core::Bytes bytes =
      *iron3d::write_msh_canonical(*iron3d::build_msh_model(iron3d::msh_box_input(1, 1, 1, 2)));
  return bytes;
}
core::Bytes default_wear() {
  return iron3d::write_wear(*iron3d::build_wear({"M_FZ", "GONE"}, {"LM_FZ"}));
}
core::Bytes default_texm() {
  return iron3d::write_texm(*iron3d::build_texm(8, 8, 565, 2));
}

void check_store(const VisualStore& s, const VisualStoreOptions& options) {
  std::uint64_t texture_bytes = 0;
  for (const auto* list : {&s.textures(), &s.lightmaps()})
    for (const auto& t : *list) {
      require(t != nullptr);
      check_texture(*t);
      texture_bytes += t->byte_size();
    }
  require(s.stats().texture_bytes == texture_bytes && texture_bytes <= options.max_texture_bytes);
  for (const auto& m : s.meshes()) check_mesh(*m);
  for (const auto& p : s.placements())
    for (const auto& c : p.components) {
      require(c.prototype != nullptr);
      require(c.prototype >= s.prototypes().data() && c.prototype < s.prototypes().data() + s.prototypes().size());
    }
  for (const auto& proto : s.prototypes()) {
    if (!proto.visual) continue;
    require(proto.visual->mesh != nullptr);
    for (const auto& slot : proto.visual->materials) {
      require(slot.material != nullptr);
      for (const auto& phase : slot.material->phases) require((phase.texture == nullptr) == phase.texture_name.empty());
    }
    for (const auto& lm : proto.visual->lightmaps) require(lm != nullptr && lm->lightmap);
  }
  check_terrain(s.terrain());
  for (const auto& f : s.terrain().faces)
    if (f.texture >= 0) require(f.land2_row < s.terrain().layers[1].materials.size());
}

void run_store(const StoreParts& parts) {
  GameBuilder g(ArchiveFormat::nres);
  const core::Bytes wear = parts.wear.value_or(default_wear());
  g.add_nres_entry("static.rlb", {0, 0, 0, 0, "fz.msh", parts.msh.value_or(default_msh())});
  g.add_nres_entry("static.rlb", {iron3d::nres_type_tag("WEAR"), 0, 0, 1, "fz.wea", wear});
  const core::ByteView mat0 = parts.mat0 ? core::ByteView(*parts.mat0) : core::ByteView();
  if (!mat0.empty()) {
    g.add_nres_entry("material.lib", {iron3d::nres_type_tag("MAT0"), 0, mat0[0] % 8u, 0, "M_FZ",
                                      core::Bytes(mat0.begin() + 1, mat0.end())});
  } else {
    require(g.add_material("M_FZ", {"T_FZ"}).has_value());
  }
  require(g.add_material("DEFAULT", {"T_FZ"}).has_value());
  const core::Bytes texm = parts.texm.value_or(default_texm());
  g.add_nres_entry("textures.lib", {iron3d::nres_type_tag("Texm"), 0, 0, 0, "T_FZ", texm});
  g.add_nres_entry("lightmap.lib", {iron3d::nres_type_tag("Texm"), 0, 0, 0, "LM_FZ", texm});
  g.add_prototype("fz", {{"static.rlb", "fz.msh"}});
  g.add_prototype("sun", {{"system.rlb", "sun.bas"}});
  MemoryVfs vfs;
  if (!g.fill(vfs)) return;  // a name the NRes writer refuses

  ArchiveRepository repo(vfs);
  PrototypeResolver resolver(repo);
  MissionData md;
  md.tma_path = *normalize_path("MISSIONS/fz/data.tma");
  const std::uint32_t mission = md.graph.node(NodeKind::mission, md.tma_path.path);
  std::vector<PlacedObjectRequest> requests{{0, "fz", ""}, {1, "sun", ""}, {2, "FZ", ""}};
  md.tma.objects.resize(requests.size());
  md.objects = resolver.resolve(md.tma_path.path, mission, requests, md.graph);
  if (parts.land) {
    md.land_dir = *normalize_path("DATA/MAPS/fz");
    md.land_msh = *parts.land;
    EnvironmentWear env;
    env.layer = 2;
    env.path = "DATA/MAPS/fz/Land2.wea";
    env.resolved = resolver.resolve_environment_wear(env.path, wear, md.graph, mission);
    md.environment.push_back(std::move(env));
  }

  VisualStoreOptions options;
  options.max_texture_bytes = std::uint64_t{1} << 22;
  VisualCache cache;
  auto first = build_visual_store(repo, cache, md, options);
  if (!md.ok()) {
    require(!first && first.error().code == "visual.graph_failed");
    return;
  }
  if (!first) return;
  check_store(**first, options);
  const VisualCacheStats decoded = cache.stats();
  auto second = build_visual_store(repo, cache, md, options);
  require(second.has_value());
  check_store(**second, options);
  const VisualCacheStats& again = cache.stats();
  require(again.meshes_decoded == decoded.meshes_decoded && again.materials_decoded == decoded.materials_decoded &&
          again.textures_decoded == decoded.textures_decoded && again.lightmaps_decoded == decoded.lightmaps_decoded &&
          again.visuals_built == decoded.visuals_built);
  require((*first)->stats().to_json() == (*second)->stats().to_json());
  require((*first)->warnings().size() == (*second)->warnings().size());
  require((*first)->textures() == (*second)->textures() && (*first)->meshes() == (*second)->meshes());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = fuzz::decode_visual_fuzz_input(core::ByteView(data, size));
  StoreParts parts;
  for (const auto& [kind, bytes] : in.sections) {
    const core::ByteView view(bytes);
    switch (kind) {
      case fuzz::VisualSection::msh:
        run_msh(view);
        if (!parts.msh) parts.msh = bytes;
        break;
      case fuzz::VisualSection::wear:
        if (!parts.wear) parts.wear = bytes;
        break;
      case fuzz::VisualSection::mat0:
        run_mat0(view);
        if (!parts.mat0) parts.mat0 = bytes;
        break;
      case fuzz::VisualSection::texm:
        run_texm(view);
        if (!parts.texm) parts.texm = bytes;
        break;
      case fuzz::VisualSection::land:
        if (auto land = read_land(view)) {
          run_terrain(*land);
          if (!parts.land) parts.land = std::move(land);
        }
        break;
      case fuzz::VisualSection::mesh:
        run_mesh(fuzz::decode_raw_mesh(view));
        break;
      case fuzz::VisualSection::terrain:
        run_terrain(fuzz::decode_raw_terrain(view));
        break;
      case fuzz::VisualSection::texture:
        run_texture(fuzz::decode_raw_texture(view));
        break;
    }
  }
  if (in.flags & fuzz::kVisualBuildStore) run_store(parts);
  return 0;
}
