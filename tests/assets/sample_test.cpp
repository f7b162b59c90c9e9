#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "sortie/assets/inventory.hpp"
#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/sample_game.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/texm.hpp"

using namespace sortie::assets;

namespace {
MemoryVfs sample_vfs(const SampleOptions& o) {
  auto files = generate_sample_files(o);
  EXPECT_TRUE(files.has_value()) << files.error().to_string();
  MemoryVfs vfs;
  for (auto& [path, bytes] : files->first) EXPECT_TRUE(vfs.add(path, bytes).has_value());
  return vfs;
}
}  // namespace

TEST(SampleGame, is_deterministic_for_a_seed) {
  auto a = generate_sample_files({SampleScale::demo, 5, ArchiveFormat::rsli});
  auto b = generate_sample_files({SampleScale::demo, 5, ArchiveFormat::rsli});
  auto c = generate_sample_files({SampleScale::demo, 6, ArchiveFormat::rsli});
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->first, b->first);
  EXPECT_NE(a->first, c->first);
  // The sound content does not depend on the seed; the maps (and so the lightning bounds) do.
  for (const char* path : {"sounds.lib", "music.lib", "MISSIONS/m01/mission.cfg", "MISSIONS/m02/mission.cfg",
                           "MISSIONS/m03/mission.cfg", "MISSIONS/m01/sky.weather", "MISSIONS/m03/sky.weather",
                           "MISSIONS/m01/mission.lua", "MISSIONS/m03/mission.lua"}) {
    ASSERT_TRUE(a->first.contains(path)) << path;
    EXPECT_EQ(a->first.at(path), c->first.at(path)) << path;
  }
  // m02's rain schedule carries the map's lightning bounds (the ground height comes from the
  // seeded terrain): between two seeds it differs in that line and only there.
  const auto lines = [](const sortie::core::Bytes& bytes) {
    std::vector<std::string> out(1);
    for (const std::uint8_t byte : bytes) {
      if (byte == '\n')
        out.emplace_back();
      else
        out.back() += static_cast<char>(byte);
    }
    return out;
  };
  const auto seed5 = lines(a->first.at("MISSIONS/m02/sky.weather"));
  const auto seed6 = lines(c->first.at("MISSIONS/m02/sky.weather"));
  ASSERT_EQ(seed5.size(), seed6.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < seed5.size(); ++i) {
    if (seed5[i] == seed6[i]) continue;
    ++differing;
    EXPECT_TRUE(seed5[i].starts_with("lightning_bounds ")) << seed5[i] << " / " << seed6[i];
  }
  EXPECT_EQ(differing, 1u);
}

TEST(SampleGame, sound_files_are_the_libraries_and_two_texts_per_mission) {
  auto files = generate_sample_files({SampleScale::demo, 1, ArchiveFormat::rsli});
  ASSERT_TRUE(files.has_value());
  std::size_t cfg = 0, weather = 0;
  for (const auto& [path, bytes] : files->first) {
    cfg += path.ends_with("/mission.cfg");
    weather += path.ends_with("/sky.weather");
  }
  EXPECT_EQ(cfg, 3u);
  EXPECT_EQ(weather, 3u);
  // Both libraries are NRes with SWAV entries (the retail sounds.lib entry type).
  for (const char* lib : {"sounds.lib", "music.lib"}) {
    auto archive = sortie::iron3d::read_nres(sortie::core::ByteView(files->first.at(lib)));
    ASSERT_TRUE(archive.has_value()) << lib;
    for (const auto& e : archive->entries) EXPECT_EQ(e.type_id, sortie::iron3d::nres_type_tag("SWAV")) << lib;
  }
  // m01, the clear mission, as a user reads it.
  const auto& text = files->first.at("MISSIONS/m01/mission.cfg");
  EXPECT_EQ(std::string(text.begin(), text.end()),
            "// sortie sample mission music (clear sky: the DEFAULT pool)\n"
            "object ambient_music_loop\n"
            "  desc ambient_music_loop\n"
            "  library sounds.lib\n"
            "  libtype 0\n"
            "  type 1\n"
            "  THEME THEME.WAV\n"
            "end\n"
            "object ambient_music_variation\n"
            "  desc ambient_music_variation\n"
            "  library sounds.lib\n"
            "  libtype 0\n"
            "  type 2\n"
            "  DEFAULT_VARIATION1 DEFAULT1.WAV\n"
            "  DEFAULT_VARIATION2 DEFAULT2.WAV\n"
            "end\n");
}

// Every file of the sample through the format table (check, roundtrip): tests/formats
// sample_files_test, over the files `sortie sample` writes at both scales.

TEST(SampleGame, demo_missions_resolve_without_failures) {
  for (auto fmt : {ArchiveFormat::rsli, ArchiveFormat::nres}) {
    auto vfs = sample_vfs({SampleScale::demo, 1, fmt});
    auto missions = list_missions(vfs);
    ASSERT_TRUE(missions.has_value());
    ASSERT_EQ(missions->size(), 3u);
    ArchiveRepository repo(vfs);
    PrototypeResolver resolver(repo);
    for (const auto& m : *missions) {
      auto md = prepare_mission(repo, resolver, m);
      ASSERT_TRUE(md.has_value()) << md.error().to_string();
      ASSERT_TRUE(md->ok()) << md->graph.failures().front().to_string();
      EXPECT_EQ(md->object_chain.placed_objects, 16u);
      EXPECT_EQ(md->object_chain.unit_references, 5u);
      EXPECT_EQ(md->object_chain.prototype_requests,
                md->object_chain.direct_references + md->object_chain.unit_components);
      EXPECT_GT(md->object_chain.material_slots, md->object_chain.mesh_requests);
      EXPECT_GT(md->graph.stats.material_slots, md->object_chain.material_slots);  // + environment WEAR rows
      EXPECT_FALSE(md->land_msh.positions.empty());
      EXPECT_FALSE(md->land_map.areals.empty());
    }
  }
}

TEST(SampleGame, corpus_scale_matches_the_retail_catalogue_size) {
  auto vfs = sample_vfs({SampleScale::corpus, 1, ArchiveFormat::rsli});
  ArchiveRepository repo(vfs);
  PrototypeResolver resolver(repo);
  GraphStatistics total;
  auto missions = list_missions(vfs);
  ASSERT_TRUE(missions.has_value());
  for (const auto& m : *missions) {
    auto md = prepare_mission(repo, resolver, m);
    ASSERT_TRUE(md.has_value());
    ASSERT_TRUE(md->ok());
    total += md->object_chain;
    EXPECT_LE(md->land_msh.positions.size(), 65535u);
    EXPECT_GE(md->land_msh.positions.size(), 5500u);
    EXPECT_GE(md->land_map.areals.size(), 550u);
  }
  EXPECT_EQ(total.placed_objects, 885u);
  EXPECT_EQ(total.unit_references, 561u);
  EXPECT_NEAR(static_cast<double>(total.unit_components), 5521.0, 600.0);
  EXPECT_NEAR(static_cast<double>(total.prototype_requests), 5845.0, 600.0);
  EXPECT_NEAR(static_cast<double>(total.material_slots), 50888.0, 6000.0);
  EXPECT_NEAR(static_cast<double>(total.texture_requests), 68603.0, 8000.0);
  EXPECT_EQ(total.failures, 0u);
}

TEST(MissionData, resolves_mission_names_and_land_paths) {
  EXPECT_EQ(mission_tma_path("m01")->path, "MISSIONS/m01/data.tma");
  EXPECT_EQ(mission_tma_path("MISSIONS\\x\\data.tma")->path, "MISSIONS/x/data.tma");
  EXPECT_EQ(land_directory("DATA\\MAPS\\Tut_1\\land")->path, "DATA/MAPS/Tut_1");
  EXPECT_EQ(land_directory("land").error().code, "load.land_path");
}

TEST(MissionData, missing_land_map_is_a_foundation_edge_failure) {
  auto vfs = sample_vfs({SampleScale::demo, 1, ArchiveFormat::rsli});
  MemoryVfs broken;
  const auto all = vfs.list();
  ASSERT_TRUE(all.has_value());
  for (const auto& p : *all) {
    if (p.key != "DATA/MAPS/MAP01/LAND.MAP") {
      ASSERT_TRUE(broken.add(p.path, *vfs.read(p)).has_value());
    }
  }
  ArchiveRepository repo(broken);
  PrototypeResolver resolver(repo);
  auto md = prepare_mission(repo, resolver, "m01");
  ASSERT_TRUE(md.has_value());
  ASSERT_FALSE(md->ok());
  EXPECT_EQ(md->graph.failures()[0].code, "load.land_map_missing");
  auto missing = prepare_mission(repo, resolver, "nope");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, "load.mission_missing");
}

TEST(Inventory, unreached_broken_entry_is_a_warning_not_a_failure) {
  auto generated = generate_sample_files({SampleScale::demo, 1, ArchiveFormat::rsli});
  ASSERT_TRUE(generated.has_value());
  auto files = generated->first;
  // Which textures does m01 reach?
  std::string victim;
  {
    MemoryVfs vfs;
    for (auto& [p, b] : files) ASSERT_TRUE(vfs.add(p, b).has_value());
    ArchiveRepository repo(vfs);
    PrototypeResolver resolver(repo);
    auto md = prepare_mission(repo, resolver, "m01");
    ASSERT_TRUE(md && md->ok());
    auto tex = repo.open(*normalize_path("textures.lib"));
    ASSERT_TRUE(tex.has_value());
    for (std::size_t i = 0; i < (*tex)->size() && victim.empty(); ++i) {
      bool used = false;
      for (const auto& n : md->graph.nodes()) used |= n.kind == NodeKind::texture && n.entry == (*tex)->name(i);
      if (!used) victim = (*tex)->name(i);
    }
  }
  ASSERT_FALSE(victim.empty());
  auto archive = sortie::iron3d::read_nres(sortie::core::ByteView(files.at("textures.lib")));
  ASSERT_TRUE(archive.has_value());
  sortie::iron3d::NresEditor editor(*archive);
  ASSERT_TRUE(editor.replace(*editor.find(victim), sortie::core::Bytes{'T', 'e', 'x', 'm', 0, 0}).has_value());
  files["textures.lib"] = *editor.encode_canonical();

  MemoryVfs vfs;
  for (auto& [p, b] : files) ASSERT_TRUE(vfs.add(p, b).has_value());
  ArchiveRepository repo(vfs);
  PrototypeResolver resolver(repo);
  auto md = prepare_mission(repo, resolver, "m01");
  ASSERT_TRUE(md.has_value());
  EXPECT_TRUE(md->ok());  // unreachable: the load is not affected
  const auto inv = inventory_archives(repo, md->graph);
  ASSERT_EQ(inv.warnings.size(), 1u);
  EXPECT_EQ(inv.warnings[0].code, "asset.inventory.broken_entry");
  EXPECT_EQ(inv.warnings[0].field, victim);
  EXPECT_EQ(inv.warnings[0].severity, sortie::core::Severity::warning);
  EXPECT_GT(inv.checked, 0u);
  EXPECT_GT(inv.reached, 0u);
}

// Generator version 7 (docs/decisions/0004): the terrain textures read as land, not as a
// checker of two colours: neighbouring texels differ a little, the picture varies over its
// width, and each kind has its own colour (grass green, sand light, snow white).
TEST(SampleGame, terrain_textures_are_smooth_natural_colours) {
  auto files = generate_sample_files({SampleScale::demo, 3, ArchiveFormat::rsli});
  ASSERT_TRUE(files.has_value());
  auto lib = sortie::iron3d::read_nres(sortie::core::ByteView(files->first.at("textures.lib")));
  ASSERT_TRUE(lib.has_value()) << lib.error().to_string();
  const auto mean_colour = [&](const char* name, double* step) {
    const auto at = lib->find(name);
    EXPECT_TRUE(at.has_value()) << name;
    auto tex = sortie::iron3d::read_texm(lib->payload(*at));
    EXPECT_TRUE(tex.has_value()) << name;
    auto img = sortie::iron3d::decode_texm_rgba8(*tex);
    EXPECT_TRUE(img.has_value()) << name;
    std::array<double, 3> sum{};
    double diff = 0;
    const std::size_t w = img->width, n = std::size_t{img->width} * img->height;
    for (std::size_t i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) sum[static_cast<std::size_t>(c)] += img->pixels[i * 4 + static_cast<std::size_t>(c)];
      if (i % w + 1 < w) diff += std::abs(int{img->pixels[i * 4 + 1]} - int{img->pixels[(i + 1) * 4 + 1]});
    }
    *step = diff / static_cast<double>(n);
    return std::array<double, 3>{sum[0] / n, sum[1] / n, sum[2] / n};
  };
  double step = 0;
  const auto grass = mean_colour("TERR_GRASS", &step);
  EXPECT_GT(step, 1.0);   // textured
  EXPECT_LT(step, 20.0);  // not a checker (the old pattern stepped by ~90 every few texels)
  EXPECT_GT(grass[1], grass[0] + 20);
  EXPECT_GT(grass[1], grass[2] + 20);
  const auto sand = mean_colour("TERR_SAND", &step);
  EXPECT_GT(sand[0], 160);
  const auto snow = mean_colour("TERR_SNOW", &step);
  EXPECT_GT(snow[0] + snow[1] + snow[2], 3 * 210.0);
}

// Every map's terrain names at least three of the five kinds, by height: the lowest faces are
// sand and the highest snow.
TEST(SampleGame, terrain_kinds_follow_height) {
  for (std::uint64_t seed : {1u, 7u}) {
    auto files = generate_sample_files({SampleScale::demo, seed, ArchiveFormat::rsli});
    ASSERT_TRUE(files.has_value());
    auto msh = sortie::iron3d::read_land_msh(sortie::core::ByteView(files->first.at("DATA/MAPS/map01/Land.msh")), {});
    ASSERT_TRUE(msh.has_value()) << msh.error().to_string();
    std::set<std::uint16_t> kinds;
    float lowest = 1e30f, highest = -1e30f;
    std::uint16_t low_kind = 0, high_kind = 0;
    for (const auto& f : msh->faces) {
      kinds.insert(f.material_tag);
      EXPECT_EQ(f.material_tag >> 8, 0xFF);  // no Land1 row
      float z = 0;
      for (auto v : f.vertices) z += msh->positions[v].z / 3.0f;
      if (z < lowest) lowest = z, low_kind = f.material_tag & 0xFF;
      if (z > highest) highest = z, high_kind = f.material_tag & 0xFF;
    }
    EXPECT_GE(kinds.size(), 3u) << seed;
    EXPECT_EQ(low_kind, 0) << seed;   // sand
    EXPECT_EQ(high_kind, 4) << seed;  // snow
  }
}
