#include "sortie/assets/sample_game.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>

#include "sample_art.hpp"
#include "sample_effects.hpp"
#include "sample_lua.hpp"
#include "sample_places.hpp"
#include "sample_scripts.hpp"
#include "sample_sounds.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/iron3d/build_dat.hpp"
#include "sortie/iron3d/land_map.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/iron3d/terrain_builder.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/iron3d/wear.hpp"

namespace sortie::assets {
namespace fs = std::filesystem;
namespace {

struct ScaleParams {
  std::uint32_t missions;
  std::uint32_t map_vertices_per_axis;  // heightfield columns = rows
  std::uint32_t areals_x, areals_y;
  std::uint32_t placed_objects;   // total over all missions
  std::uint32_t unit_references;  // total over all missions
  std::uint32_t unit_dats;
  std::uint32_t components_min, components_max;
  std::uint32_t prototypes;  // registry entries (plain + inheriting + non-geometric)
  std::uint32_t inheriting;  // children with a parent ref + .bas
  std::uint32_t non_geometric;
  std::uint32_t materials;
  std::uint32_t textures;
  std::uint32_t lightmaps;
  std::uint32_t rows_min, rows_max;  // WEAR rows per model
  double two_texture_share;          // materials with two phases
  double lightmap_model_share;       // models whose WEAR has a LIGHTMAPS block
  std::uint32_t texture_size;
};

constexpr ScaleParams kDemo{3, 33, 20, 20, 48, 15, 8, 3, 6, 40, 4, 2, 40, 24, 8, 2, 5, 0.35, 0.1, 16};
constexpr ScaleParams kCorpus{8, 78, 40, 40, 885, 561, 200, 6, 14, 683, 34, 7, 1127, 631, 100, 4, 13, 0.348, 0.037, 32};

const char* const kModelArchives[] = {"static.rlb", "bases.rlb", "units.rlb", "fortif.rlb"};
const char* const kArchivePrefix[] = {"st", "bs", "un", "fr"};

float height_at(const iron3d::Heightfield& f, float x, float y) {
  const float gx = std::clamp((x - f.origin.x) / f.cell_size, 0.0f, static_cast<float>(f.columns - 1) - 1e-3f);
  const float gy = std::clamp((y - f.origin.y) / f.cell_size, 0.0f, static_cast<float>(f.rows - 1) - 1e-3f);
  const auto ix = static_cast<std::uint32_t>(gx);
  const auto iy = static_cast<std::uint32_t>(gy);
  const float tx = gx - static_cast<float>(ix);
  const float ty = gy - static_cast<float>(iy);
  auto h = [&](std::uint32_t cx, std::uint32_t cy) { return f.heights[cy * f.columns + cx]; };
  const float a = h(ix, iy) * (1 - tx) + h(ix + 1, iy) * tx;
  const float b = h(ix, iy + 1) * (1 - tx) + h(ix + 1, iy + 1) * tx;
  return f.origin.z + a * (1 - ty) + b * ty;
}

std::array<std::uint32_t, 4> word(std::uint32_t v) {
  return {v, 0, 0, 0};
}
std::array<std::uint32_t, 4> fword(float v) {
  return {std::bit_cast<std::uint32_t>(v), 0, 0, 0};
}

// The sample game, one kind of file after the other. Every step draws from the one seeded
// stream in a fixed order: reordering the steps or the draws inside one changes every byte after.
class SampleWriter {
 public:
  explicit SampleWriter(const SampleOptions& options)
      : options_(options),
        p_(options.scale == SampleScale::demo ? kDemo : kCorpus),
        rng_(options.seed, 0x53414D50),  // "SAMP"
        g_(options.objects_format) {
    summary_.options = options;
  }

  // Textures and lightmaps, then materials: one or two phases each (the second share makes
  // ~1.35 textures per slot).
  core::Status add_textures_and_materials() {
    const std::uint32_t formats[] = {565, 565, 4444, 8888, 888};
    for (std::uint32_t i = 0; i < p_.textures; ++i) {
      const std::uint32_t fmt_code = formats[rng_.below(5)];
      const std::uint32_t size = p_.texture_size >> rng_.below(2);
      detail::set_plate_texel_source(rng_.next_u32(), size);
      SORTIE_CHECK(g_.add_texture(fmt::format("TEX_{:04}", i), size, size, fmt_code, 3, &detail::plate_texel));
    }
    for (std::uint32_t i = 0; i < p_.lightmaps; ++i)
      SORTIE_CHECK(g_.add_lightmap(fmt::format("LM_{:03}", i), 16, 16, rng_.next_u32()));
    summary_.textures = p_.textures;
    summary_.lightmaps = p_.lightmaps;

    SORTIE_CHECK(g_.add_material("DEFAULT", {"TEX_0000"}));
    for (std::uint32_t i = 1; i < p_.materials; ++i) {
      std::vector<std::string> tex{fmt::format("TEX_{:04}", rng_.below(p_.textures))};
      const bool two = rng_.unit_f64() < p_.two_texture_share;
      if (two) tex.push_back(fmt::format("TEX_{:04}", rng_.below(p_.textures)));
      SORTIE_CHECK(g_.add_material(fmt::format("MAT_{:04}", i), tex, two));
    }
    // The terrain's own textures and materials (outside the seeded stream).
    for (std::uint32_t k = 0; k < detail::kTerrainKinds; ++k) {
      const auto kind = static_cast<detail::TerrainKind>(k);
      detail::set_terrain_texel_source(kind, 64);
      SORTIE_CHECK(g_.add_texture(detail::terrain_texture_name(kind), 64, 64, 888, 4, &detail::terrain_texel));
      SORTIE_CHECK(g_.add_material(detail::terrain_material_name(kind), {detail::terrain_texture_name(kind)}));
    }
    summary_.textures += detail::kTerrainKinds;
    summary_.materials = p_.materials + detail::kTerrainKinds;
    return {};
  }

  // Models and prototypes: plain prototypes own one model each; inheriting children name a
  // plain parent and add a building base; a few prototypes have no geometry at all.
  core::Status add_models_and_prototypes() {
    const std::uint32_t plain = p_.prototypes - p_.inheriting - p_.non_geometric;
    for (std::uint32_t i = 0; i < plain; ++i) {
      const std::uint32_t a = i % 4;
      const std::string key = fmt::format("{}_{:04}", kArchivePrefix[a], i);
      ModelSpec m;
      m.archive = kModelArchives[a];
      m.name = key + ".msh";
      const std::uint32_t rows = p_.rows_min + rng_.below(p_.rows_max - p_.rows_min + 1);
      for (std::uint32_t r = 0; r < rows; ++r) m.materials.push_back(random_material());
      if (rng_.unit_f64() < p_.lightmap_model_share) m.lightmaps.push_back(random_lightmap());
      m.half_x = 1.0f + static_cast<float>(rng_.below(8));
      m.half_y = 1.0f + static_cast<float>(rng_.below(8));
      m.half_z = 1.0f + static_cast<float>(rng_.below(6));
      if (a == 2) {  // machines (units.rlb): 3 to 8 units long, so a formation 12 apart stands clear
        m.half_x = 1.5f + (m.half_x - 1.0f) * (2.5f / 7.0f);
        m.half_y = 1.5f + (m.half_y - 1.0f) * (2.5f / 7.0f);
      }
      shape_model(m, a, i);
      SORTIE_CHECK(g_.add_model(m));
      footprint_[key] = {m.half_x, m.half_y};
      g_.add_prototype(key, {{m.archive, m.name}, {m.archive, key + ".cpt"}});
      geometric_keys_.push_back(key);
    }
    for (std::uint32_t i = 0; i < p_.inheriting; ++i) {
      const std::string key = fmt::format("ch_{:04}", i);
      const std::string& parent = pick(geometric_keys_);
      g_.add_prototype(key, {{"objects.rlb", parent}, {"bases.rlb", key + ".bas"}});
      geometric_keys_.push_back(key);
    }
    for (std::uint32_t i = 0; i < p_.non_geometric; ++i) {
      const std::string key = fmt::format("sun_{:02}", i);
      g_.add_prototype(key, {{"system.rlb", key + ".bas"}});
      non_geometric_.push_back(key);
    }
    summary_.models = plain;
    summary_.prototypes = p_.prototypes;
    return {};
  }

  core::Status add_unit_dats() {
    const char* const kUnitDirs[] = {"UNITS\\TANKS", "UNITS\\WALKERS", "UNITS\\BUILDS"};
    for (std::uint32_t i = 0; i < p_.unit_dats; ++i) {
      const std::uint32_t n = p_.components_min + rng_.below(p_.components_max - p_.components_min + 1);
      std::vector<std::string> keys;
      for (std::uint32_t c = 0; c < n; ++c) keys.push_back(unit_component(pick(geometric_keys_), keys));
      std::string path = fmt::format("{}\\u_{:03}.dat", kUnitDirs[i % 3], i);
      std::string host = path;
      std::replace(host.begin(), host.end(), '\\', '/');
      SORTIE_CHECK(g_.add_unit_dat(host, keys));
      unit_paths_.push_back(std::move(path));
    }
    summary_.unit_dats = p_.unit_dats;
    return {};
  }

  // BuildDat.lst: every category lists a few building unit DATs.
  core::Status add_build_dat() {
    std::vector<iron3d::BuildDatCategory> cats;
    std::uint32_t next = 2;
    for (const auto& info : iron3d::build_categories()) {
      iron3d::BuildDatCategory c;
      c.name = std::string(info.name);
      c.mask = info.mask;
      for (std::uint32_t k = 0; k < 2; ++k) c.units.push_back({unit_paths_[next % unit_paths_.size()], 0});
      next += 3;
      cats.push_back(std::move(c));
    }
    SORTIE_TRY(auto doc, iron3d::make_build_dat(cats));
    g_.add_file("BuildDat.lst", iron3d::write_build_dat(doc));
    return {};
  }

  // Missions, each on its own map; the placed objects and unit references are shared out evenly.
  core::Status add_missions() {
    std::uint32_t placed_left = p_.placed_objects;
    std::uint32_t units_left = p_.unit_references;
    for (std::uint32_t mi = 0; mi < p_.missions; ++mi) {
      const std::uint32_t missions_left = p_.missions - mi;
      SampleMission sm;
      sm.name = fmt::format("m{:02}", mi + 1);
      sm.tma_path = fmt::format("MISSIONS/{}/data.tma", sm.name);
      sm.land_dir = fmt::format("DATA/MAPS/map{:02}", mi + 1);
      sm.placed_objects = placed_left / missions_left;
      sm.unit_references = units_left / missions_left;
      placed_left -= sm.placed_objects;
      units_left -= sm.unit_references;
      // Units go Player, Enemy, Player, ... (random_object: unit i is the Enemy's when i % 3 == 1).
      const std::uint32_t enemies = (sm.unit_references + 1) / 3;
      const detail::SamplePlaces places =
          detail::draw_places(rng_, map_extent_units(), sm.unit_references - enemies, enemies);
      SORTIE_TRY(const auto field, add_mission_terrain(mi, sm.land_dir, places));
      auto objects = lay_out_objects(sm, field, places);
      SORTIE_CHECK(add_mission_land_map(sm.land_dir, field, objects, sm.unit_references, places));
      SORTIE_CHECK(add_mission_tma(mi, sm, field, places, std::move(objects)));
      add_music_and_weather(mi, sm, field);
      summary_.missions.push_back(std::move(sm));
    }
    return {};
  }

  // MISSIONS\SCRIPTS\: the native bundles every clan of every data.tma names (outside the seeded
  // stream: nothing above changes). enemy.trf lists the first geometric prototypes and one
  // without geometry, all keys of objects.rlb.
  core::Status add_scripts() {
    std::vector<std::string> names(
        geometric_keys_.begin(),
        geometric_keys_.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, geometric_keys_.size())));
    if (!non_geometric_.empty()) names.push_back(non_geometric_.front());
    SORTIE_TRY(auto files, detail::sample_script_files(names));
    for (auto& [path, bytes] : files) g_.add_file(path, std::move(bytes));
    return {};
  }

  core::Result<std::pair<std::map<std::string, core::Bytes>, SampleSummary>> finish() {
    SORTIE_CHECK(detail::add_sample_sound_libraries(g_));
    SORTIE_CHECK(detail::add_sample_effects(g_));
    summary_.materials += 2;  // env_lightning, env_beacon (FX_BOLT, FX_GLOW)
    summary_.textures += 2;
    SORTIE_TRY(auto files, g_.build());
    summary_.files = files.size();  // game files; the sortie-sample.json manifest is not counted
    for (const auto& [path, bytes] : files) summary_.bytes += bytes.size();
    return std::make_pair(std::move(files), std::move(summary_));
  }

 private:
  // A shape for the model's archive (sample_art.hpp). Props wear the terrain's bark, leaves and
  // rock instead of their drawn paints; other models keep their first two rows (body, details).
  static void shape_model(ModelSpec& m, std::uint32_t archive, std::uint32_t index) {
    static constexpr detail::ShapeFamily kFamilies[] = {detail::ShapeFamily::prop, detail::ShapeFamily::base,
                                                        detail::ShapeFamily::unit, detail::ShapeFamily::fortification};
    const detail::ShapeFamily family = kFamilies[archive];
    const std::uint32_t variant = index / 4;
    if (family == detail::ShapeFamily::prop) {
      const bool rock = variant % 3 == 2;
      m.materials = rock ? std::vector<std::string>{detail::terrain_material_name(detail::TerrainKind::rock)}
                         : std::vector<std::string>{detail::terrain_material_name(detail::TerrainKind::earth),
                                                    detail::terrain_material_name(detail::TerrainKind::grass)};
    }
    m.shape = detail::sample_shape(family, m.half_x, m.half_y, m.half_z,
                                   static_cast<std::uint16_t>(std::min<std::size_t>(m.materials.size(), 2)), variant);
  }

  // A unit's components: the drawn key is kept as a draw (the seeded stream is unchanged) but
  // replaced, so a unit reads as one machine: every component slot names the same vehicle or
  // walker of units.rlb, the first drawn one. (Retail units list chassis, turret and weapons as
  // separate models placed at hardpoints the sample does not know; a body per slot keeps the
  // catalogue's request counts while the parts coincide.)
  std::string unit_component(const std::string& drawn, const std::vector<std::string>& so_far) const {
    if (!so_far.empty()) return so_far.front();
    const auto at = static_cast<std::size_t>(std::find(geometric_keys_.begin(), geometric_keys_.end(), drawn) -
                                             geometric_keys_.begin());
    std::vector<const std::string*> vehicles;
    for (const auto& k : geometric_keys_)
      if (k.starts_with("un_")) vehicles.push_back(&k);
    return vehicles.empty() ? drawn : *vehicles[at % vehicles.size()];
  }

  // A prop, building or tower for the oi-th object: trees and rocks half the time, then
  // buildings, then towers (the keys of static.rlb, bases.rlb and fortif.rlb; inheriting children
  // stand in for buildings now and then, so the catalogue's requests keep their shape).
  const std::string& pick_place_key(std::uint32_t oi) {
    static constexpr const char* kPattern[] = {"st_", "bs_", "st_", "fr_", "st_", "ch_", "st_", "bs_", "st_", "fr_"};
    const std::string_view prefix = kPattern[(oi * 7 + 3) % 10];
    std::vector<const std::string*> keys;
    for (const auto& k : geometric_keys_)
      if (k.starts_with(prefix)) keys.push_back(&k);
    const std::string& drawn = pick(geometric_keys_);  // the draw keeps its place in the stream
    return keys.empty() ? drawn : *keys[rng_.below(static_cast<std::uint32_t>(keys.size()))];
  }

  std::string random_material() { return fmt::format("MAT_{:04}", 1 + rng_.below(p_.materials - 1)); }
  std::string random_lightmap() { return fmt::format("LM_{:03}", rng_.below(p_.lightmaps)); }
  const std::string& pick(const std::vector<std::string>& keys) {
    return keys[rng_.below(static_cast<std::uint32_t>(keys.size()))];
  }

  // Land.msh, Land.map and the two Land<n>.wea material tables of one mission's map.
  core::Result<iron3d::Heightfield> add_mission_terrain(std::uint32_t mi, const std::string& land_dir,
                                                        const detail::SamplePlaces& places) {
    auto field = iron3d::make_sample_heightfield(p_.map_vertices_per_axis, p_.map_vertices_per_axis,
                                                 options_.seed * 131 + mi, 8.0f);
    detail::shape_island(field);
    detail::tag_terrain_by_height_and_slope(field);
    detail::paint_road(field, places);
    // The map's lightmap, baked from the final heights (outside the seeded stream).
    const std::string lightmap = fmt::format("LM_MAP{:02}", mi + 1);
    const std::uint32_t lightmap_size = p_.map_vertices_per_axis > 40 ? 256 : 128;
    detail::set_terrain_lightmap_source(&field, lightmap_size);
    SORTIE_CHECK(g_.add_lightmap(lightmap, lightmap_size, lightmap_size, &detail::terrain_lightmap_texel));
    ++summary_.lightmaps;
    SORTIE_TRY(land_msh_, iron3d::make_land_msh_from_heightfield(field));
    SORTIE_TRY(auto msh_bytes, iron3d::write_land_msh(land_msh_));
    g_.add_file(land_dir + "/Land.msh", std::move(msh_bytes));
    for (int layer = 1; layer <= 2; ++layer) {
      std::vector<std::string> mats;
      for (int r = 0; r < 3; ++r) mats.push_back(random_material());
      if (layer == 2) {  // the rows the face tags name: the terrain kinds (the draws above are kept)
        mats.clear();
        for (std::uint32_t k = 0; k < detail::kTerrainKinds; ++k)
          mats.push_back(detail::terrain_material_name(static_cast<detail::TerrainKind>(k)));
        (void)random_lightmap();  // drawn as before; the row names the map's baked lightmap
        SORTIE_TRY(auto wear, iron3d::build_wear(mats, {lightmap}));
        g_.add_file(fmt::format("{}/Land{}.wea", land_dir, layer), iron3d::write_wear(wear));
        continue;
      }
      // The terrain's face tags name Land2 rows up to 3 (0xFF03, as on the retail maps): a fourth
      // row, chosen outside the seeded stream so every other file stays as generator version 1 made it.
      mats.push_back(fmt::format("MAT_{:04}", 1 + (mi * 2 + static_cast<std::uint32_t>(layer)) % (p_.materials - 1)));
      SORTIE_TRY(auto wear, iron3d::build_wear(mats, {random_lightmap()}));
      g_.add_file(fmt::format("{}/Land{}.wea", land_dir, layer), iron3d::write_wear(wear));
    }
    return field;
  }

  // Land.map: triangles over the land, holes where water, cliffs, buildings, towers and rocks are
  // (detail::areal_blocked), so routes bend around them; the first `units` objects are the
  // machines, whose ground stays open.
  core::Status add_mission_land_map(const std::string& land_dir, const iron3d::Heightfield& field,
                                    const std::vector<iron3d::TmaObject>& objects, std::size_t units,
                                    const detail::SamplePlaces& places) {
    std::vector<detail::Footprint> holes;
    std::vector<core::Vec2> starts;
    for (std::size_t i = 0; i < std::min(units, objects.size()); ++i)
      starts.push_back({objects[i].position.x, objects[i].position.y});
    for (const auto& o : objects) {
      const auto f = footprint_.find(o.resource_name);
      if (f == footprint_.end() || !detail::blocks_ground(o.resource_name)) continue;
      holes.push_back({{o.position.x, o.position.y},
                       std::max(f->second[0], f->second[1]) + 1.5f,
                       detail::role_of(o.resource_name) != detail::PlaceRole::rock});
    }
    iron3d::TriangulatedLandMapOptions opts;
    opts.cells_x = p_.areals_x;
    opts.cells_y = p_.areals_y;
    opts.seed = static_cast<std::uint32_t>(options_.seed * 7 + land_dir.size());
    const float sea = detail::sea_level(field);
    opts.blocked = [&](const std::array<core::Vec3, 3>& t) {
      return detail::areal_blocked(t, sea, holes, starts, places);
    };
    opts.height = [&](float x, float y) { return height_at(field, x, y); };
    SORTIE_TRY(auto land_map, iron3d::make_triangulated_land_map(land_msh_, opts));
    SORTIE_TRY(auto map_bytes, iron3d::write_land_map(land_map));
    g_.add_file(land_dir + "/Land.map", std::move(map_bytes));
    return {};
  }

  // The placed objects at their places (detail::place_object): units first (the Player's in the
  // base's yard, the Enemy's at the outpost), then buildings and towers around the base's yard
  // and the outpost, rocks along the pass, trees in groups. Every choice draws from the stream.
  std::vector<iron3d::TmaObject> lay_out_objects(const SampleMission& sm, const iron3d::Heightfield& field,
                                                 const detail::SamplePlaces& places) {
    detail::PlaceCounters counters;
    std::vector<iron3d::TmaObject> out;
    for (std::uint32_t oi = 0; oi < sm.placed_objects; ++oi) {
      iron3d::TmaObject o = random_object(oi, oi < sm.unit_references, field);
      const auto role = oi < sm.unit_references ? (o.identity_or_clan_raw == 1 ? detail::PlaceRole::player_unit
                                                                               : detail::PlaceRole::enemy_unit)
                                                : detail::role_of(o.resource_name);
      const core::Vec2 at = detail::place_object(rng_, places, role, counters, map_extent_units());
      o.position = {at.x, at.y, height_at(field, at.x, at.y)};
      const core::Vec2 face = role == detail::PlaceRole::player_unit ? places.gate : places.base - at;
      o.orientation = {0.0f, 0.0f, std::atan2(face.y, face.x)};
      out.push_back(std::move(o));
    }
    return out;
  }

  float map_extent_units() const { return static_cast<float>(p_.map_vertices_per_axis - 1) * 8.0f; }

  // A random point on the map at least `margin` from its edges, on the ground.
  core::Vec3 random_point(const iron3d::Heightfield& field, float margin) {
    const float extent = map_extent(field);
    const float x = field.origin.x + margin + rng_.unit_f32() * (extent - 2 * margin);
    const float y = field.origin.y + margin + rng_.unit_f32() * (extent - 2 * margin);
    return core::Vec3{x, y, height_at(field, x, y)};
  }
  float map_extent(const iron3d::Heightfield& field) const {
    return static_cast<float>(p_.map_vertices_per_axis - 1) * field.cell_size;
  }

  // data.tma: two paths, the Spatial/Player/Enemy clans, the placed objects and two extras.
  core::Status add_mission_tma(std::uint32_t mi, const SampleMission& sm, const iron3d::Heightfield& field,
                               const detail::SamplePlaces& places, std::vector<iron3d::TmaObject> objects) {
    iron3d::Tma tma;
    for (int pi = 0; pi < 2; ++pi) {
      std::vector<core::Vec3> pts;
      const std::uint32_t n = 4 + rng_.below(3);
      for (std::uint32_t k = 0; k < n; ++k) pts.push_back(random_point(field, 16.0f));
      tma.add_path(static_cast<std::int32_t>(10 * (mi + 1) + static_cast<std::uint32_t>(pi)), std::move(pts));
    }
    add_clans(tma, field, places);
    for (auto& o : objects) tma.add_object(std::move(o));
    tma.land_path = fmt::format("DATA\\MAPS\\map{:02}\\land", mi + 1);
    tma.description_raw =
        fmt::format("sortie sample mission {} ({} scale, seed {})", mi + 1, to_string(options_.scale), options_.seed);
    for (int e = 0; e < 2; ++e) tma.add_extra({random_point(field, 8.0f), {static_cast<std::uint32_t>(e), 0, 0, 0}});
    SORTIE_TRY(auto tma_bytes, iron3d::write_tma(tma));
    g_.add_file(sm.tma_path, std::move(tma_bytes));
    return {};
  }

  void add_clans(iron3d::Tma& tma, const iron3d::Heightfield& field, const detail::SamplePlaces& places) {
    const auto a = random_point(field, 48.0f);
    std::vector<iron3d::TmaSpatialGroup> groups(2);
    for (auto& grp : groups) grp.records.push_back({a.x, a.y, a.z, 25.0f, static_cast<float>(rng_.below(4))});
    tma.add_clan(
        iron3d::TmaClan::spatial("Spatial", {a.x, a.y}, "MISSIONS\\SCRIPTS\\spatial", std::move(groups), "", 0));
    const core::Vec2 b = places.base;  // the Player's base, the Enemy's outpost
    auto& player =
        tma.add_clan(iron3d::TmaClan::standard("Player", 1, {b.x, b.y}, "MISSIONS\\SCRIPTS\\player", 3, "", 0));
    player.add_relation("Enemy", -1);
    player.add_relation("Spatial", 0);
    const core::Vec2 c = places.outpost;
    auto& enemy = tma.add_clan(iron3d::TmaClan::standard("Enemy", 2, {c.x, c.y}, "MISSIONS\\SCRIPTS\\enemy", 7,
                                                         "MISSIONS\\SCRIPTS\\enemy.trf", 1));
    enemy.add_relation("Player", -1);
  }

  // One placed object: a unit DAT (the first `unit_references` of a mission), now and then a
  // non-geometric prototype, else a geometric one.
  iron3d::TmaObject random_object(std::uint32_t oi, bool is_unit, const iron3d::Heightfield& field) {
    iron3d::TmaObject o;
    if (is_unit) {
      o.resource_name = pick(unit_paths_);
      o.identity_or_clan_raw = 1 + (oi % 3 == 1 ? 1u : 0u);  // Player, Enemy, Player, ...
      (void)rng_.below(2);
    } else if (!non_geometric_.empty() && oi % 97 == 96) {
      o.resource_name = pick(non_geometric_);
    } else {
      o.resource_name = pick_place_key(oi);
    }
    o.position = random_point(field, 8.0f);
    o.orientation = {0.0f, 0.0f, static_cast<float>(rng_.below(16)) * 0.39269908f};
    o.instance_name = is_unit ? std::string() : o.resource_name;
    o.add_property("Invulnerability", word(0));
    o.add_property("Life state", fword(1.0f));
    if (is_unit) {
      o.add_property("LogicalID", word(oi + 1));
      o.add_property("ClanID", word(o.identity_or_clan_raw));
      o.add_property("Type", word(rng_.below(6)));
      o.add_property("MaxSpeedPercent", word(100));
      o.add_property("NOT USED", word(0));
    }
    return o;
  }

  // Music and weather (outside the seeded stream: every file above stays as version 2 made it).
  void add_music_and_weather(std::uint32_t mi, const SampleMission& sm, const iron3d::Heightfield& field) {
    const auto sky = detail::sample_sky(mi);
    const float ground = field.origin.z + *std::min_element(field.heights.begin(), field.heights.end());
    const float x0 = field.origin.x, y0 = field.origin.y, extent = map_extent(field);
    const std::string cfg = detail::sample_mission_cfg(sky);
    const std::string weather = detail::sample_sky_weather(sky, {x0, y0}, {x0 + extent, y0 + extent}, ground);
    g_.add_file(fmt::format("MISSIONS/{}/mission.cfg", sm.name), core::Bytes(cfg.begin(), cfg.end()));
    g_.add_file(fmt::format("MISSIONS/{}/sky.weather", sm.name), core::Bytes(weather.begin(), weather.end()));
    const std::string lua = detail::sample_mission_lua(mi);  // outside the seeded stream too
    g_.add_file(fmt::format("MISSIONS/{}/mission.lua", sm.name), core::Bytes(lua.begin(), lua.end()));
  }

  const SampleOptions& options_;
  const ScaleParams& p_;
  core::Rng rng_;
  GameBuilder g_;
  SampleSummary summary_;
  std::vector<std::string> geometric_keys_;
  std::vector<std::string> non_geometric_;
  std::vector<std::string> unit_paths_;
  std::map<std::string, std::array<float, 2>> footprint_;  // model key -> half_x, half_y
  iron3d::LandMsh land_msh_;                               // the current mission's terrain
};

}  // namespace

std::string_view to_string(SampleScale scale) {
  return scale == SampleScale::demo ? "demo" : "corpus";
}

core::Json SampleSummary::to_json() const {
  core::Json missions_json = core::Json::array();
  for (const auto& m : missions)
    missions_json.push_back({{"name", m.name},
                             {"tma", m.tma_path},
                             {"land_dir", m.land_dir},
                             {"placed_objects", m.placed_objects},
                             {"unit_references", m.unit_references}});
  return core::Json{{"generator_version", kSampleGeneratorVersion},
                    {"scale", std::string(to_string(options.scale))},
                    {"seed", options.seed},
                    {"objects_format", options.objects_format == ArchiveFormat::rsli ? "rsli" : "nres"},
                    {"missions", missions_json},
                    {"prototypes", prototypes},
                    {"unit_dats", unit_dats},
                    {"models", models},
                    {"materials", materials},
                    {"textures", textures},
                    {"lightmaps", lightmaps},
                    {"files", files},
                    {"bytes", bytes}};
}

core::Result<std::pair<std::map<std::string, core::Bytes>, SampleSummary>> generate_sample_files(
    const SampleOptions& options) {
  SampleWriter w(options);
  SORTIE_CHECK(w.add_textures_and_materials());
  SORTIE_CHECK(w.add_models_and_prototypes());
  SORTIE_CHECK(w.add_unit_dats());
  SORTIE_CHECK(w.add_build_dat());
  SORTIE_CHECK(w.add_missions());
  SORTIE_CHECK(w.add_scripts());
  return w.finish();
}

core::Result<SampleSummary> write_sample(const SampleOptions& options, const fs::path& dir) {
  SORTIE_TRY(auto generated, generate_sample_files(options));
  auto& [files, summary] = generated;
  SORTIE_CHECK(write_game_files(dir, files));
  SORTIE_CHECK(core::write_file_atomic(dir / "sortie-sample.json", core::dump_json(summary.to_json())));
  return summary;
}

fs::path default_cache_root() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "sortie";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "sortie";
  return fs::temp_directory_path() / "sortie-cache";
}

core::Result<fs::path> ensure_cached_sample(const SampleOptions& options, const fs::path& cache_root, bool* generated) {
  const fs::path dir = cache_root / fmt::format("sample-{}-{}-{}-v{}", to_string(options.scale), options.seed,
                                                options.objects_format == ArchiveFormat::rsli ? "rsli" : "nres",
                                                kSampleGeneratorVersion);
  if (generated) *generated = false;
  if (auto manifest = core::read_text_file(dir / "sortie-sample.json")) {
    auto j = core::Json::parse(*manifest, nullptr, false);
    if (!j.is_discarded() && j.value("generator_version", 0) == kSampleGeneratorVersion) return dir;
  }
  std::error_code ec;
  fs::create_directories(cache_root, ec);
  if (ec)
    return core::fail(
        core::Diagnostic::error("io.write", fmt::format("cannot create cache directory: {}", ec.message()))
            .of(cache_root.string()));
  const fs::path tmp = cache_root / fmt::format(".{}.tmp.{}", dir.filename().string(), ::getpid());
  fs::remove_all(tmp, ec);
  auto written = write_sample(options, tmp);
  if (!written) {
    fs::remove_all(tmp, ec);
    return core::fail(std::move(written.error()));
  }
  fs::remove_all(dir, ec);
  fs::rename(tmp, dir, ec);
  if (ec) {
    fs::remove_all(tmp, ec);
    return core::fail(
        core::Diagnostic::error("io.write", "cannot move the generated sample into place").of(dir.string()));
  }
  if (generated) *generated = true;
  return dir;
}

}  // namespace sortie::assets
