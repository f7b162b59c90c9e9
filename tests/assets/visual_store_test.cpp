// Prepared visuals: meshes, materials and textures decoded from files written by sortie's own
// writers, with values worked out by hand; the store's sharing, provenance and budget.
#include "sortie/assets/visual_store.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <limits>
#include <type_traits>

#include "small_game.hpp"
#include "sortie/assets/game_builder.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/wear.hpp"

using namespace sortie;
using namespace sortie::assets;

namespace {

// MSH -> canonical NRes bytes -> strict reader: the model as a loader sees it.
core::Result<iron3d::MshModel> written_and_read(const iron3d::MshModel& model) {
  SORTIE_TRY(auto bytes, iron3d::write_msh_canonical(model));
  SORTIE_TRY(auto file, iron3d::read_msh(bytes));
  return file.model;
}

// Quaternion component of +-45 degrees half-angle, as an i16 / 32767 word.
constexpr std::int16_t kHalfSqrt2 = 23170;

void expect_near(const core::Vec3& a, const core::Vec3& b, float eps = 1e-4f) {
  EXPECT_NEAR(a.x, b.x, eps);
  EXPECT_NEAR(a.y, b.y, eps);
  EXPECT_NEAR(a.z, b.z, eps);
}

}  // namespace

// ---- meshes -------------------------------------------------------------------------------------

TEST(PreparedMesh, decodes_positions_normals_uvs_and_indices_per_wear_row) {
  iron3d::MshBuildInput in;
  in.positions = {{0, 0, 0}, {2, 0, 0}, {2, 4, 0}, {0, 4, 1}};
  in.uvs = {{0.0f, 0.0f}, {0.5f, 0.0f}, {0.5f, 0.25f}, {-1.5f, 2.0f}};
  in.indices = {0, 1, 2, 0, 2, 3, 2, 1, 0};
  in.batches = {{1, 0, 3}, {0, 3, 3}, {1, 6, 3}};
  auto built = iron3d::build_msh_model(in);
  ASSERT_TRUE(built.has_value()) << built.error().to_string();
  built->batches[2].base_vertex = 1;  // indices 2, 1, 0 -> vertices 3, 2, 1
  built->normals =
      std::vector<std::array<std::int8_t, 4>>{{127, 0, 0, 0}, {0, -127, 0, 0}, {0, 0, 64, 0}, {-128, 0, 0, 9}};
  const auto model = written_and_read(*built);
  ASSERT_TRUE(model.has_value()) << model.error().to_string();

  core::Diagnostics warnings;
  auto mesh = prepare_mesh(*model, "static.rlb", "quad.msh", &warnings);
  ASSERT_TRUE(mesh.has_value()) << mesh.error().to_string();
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(mesh->archive, "static.rlb");
  EXPECT_EQ(mesh->entry, "quad.msh");
  EXPECT_EQ(mesh->positions, (std::vector<core::Vec3>{{0, 0, 0}, {2, 0, 0}, {2, 4, 0}, {0, 4, 1}}));
  // UVs are i16 / 1024 on disk: these values are exact.
  EXPECT_EQ(mesh->uvs, (std::vector<core::Vec2>{{0, 0}, {0.5f, 0}, {0.5f, 0.25f}, {-1.5f, 2.0f}}));
  // Normals are i8 / 127 clamped to [-1, 1] (-128 would be -1.0079).
  ASSERT_EQ(mesh->normals.size(), 4u);
  EXPECT_EQ(mesh->normals[0], (core::Vec3{1, 0, 0}));
  EXPECT_EQ(mesh->normals[1], (core::Vec3{0, -1, 0}));
  EXPECT_EQ(mesh->normals[2], (core::Vec3{0, 0, 64.0f / 127.0f}));
  EXPECT_EQ(mesh->normals[3], (core::Vec3{-1, 0, 0}));

  ASSERT_EQ(mesh->slots.size(), 1u);
  const auto& subs = mesh->slots[0].submeshes;
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[0].material_row, 0);
  EXPECT_EQ(subs[0].indices, (std::vector<std::uint32_t>{0, 2, 3}));
  EXPECT_EQ(subs[1].material_row, 1);
  EXPECT_EQ(subs[1].indices, (std::vector<std::uint32_t>{0, 1, 2, 3, 2, 1}));  // batch order, base_vertex applied
  EXPECT_EQ(mesh->material_rows, 2u);
  ASSERT_EQ(mesh->parts.size(), 1u);
  EXPECT_EQ(mesh->parts[0].node, 0);
  EXPECT_EQ(mesh->parts[0].lod, 0);
  EXPECT_EQ(mesh->parts[0].slot, 0u);
  EXPECT_EQ(mesh->triangle_count(0), 3u);
  EXPECT_EQ(mesh->triangle_count(1), 0u);
  EXPECT_EQ(mesh->bounds, core::Aabb::from_min_max({0, 0, 0}, {2, 4, 1}));
  EXPECT_EQ(mesh->slots[0].bounds, core::Aabb::from_min_max({0, 0, 0}, {2, 4, 1}));  // as the builder stored it
}

TEST(PreparedMesh, composes_node_fallback_poses_parent_first) {
  auto built = iron3d::build_msh_model(iron3d::msh_box_input(1, 1, 1));
  ASSERT_TRUE(built.has_value());
  // Root: key 0 = translate (1, 0, 0), rotate 90 degrees about Z. Child: key 1 = (2, 0, 0), identity.
  iron3d::MshNode child = built->nodes[0];
  child.parent = 0;
  child.fallback_key = 1;
  built->nodes.push_back(child);
  built->node_count = 2;
  built->anim_keys =
      std::vector<iron3d::MshAnimKey>{{{1, 0, 0}, 0, {0, 0, kHalfSqrt2, kHalfSqrt2}}, {{2, 0, 0}, 0, {0, 0, 0, 32767}}};
  std::erase_if(built->streams, [](const iron3d::MshStream& s) { return s.type_id == 10; });  // names: one per node
  built->node_names.reset();
  iron3d::MshStream keys;
  keys.type_id = 8;
  keys.attr1 = 2;
  keys.attr3 = 4;
  keys.name = core::FixedString::make("Res8", iron3d::kNresNameSize);
  built->streams.push_back(keys);
  const auto model = written_and_read(*built);
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  ASSERT_EQ(model->nodes.size(), 2u);

  auto mesh = prepare_mesh(*model, "a.rlb", "two.msh");
  ASSERT_TRUE(mesh.has_value());
  ASSERT_EQ(mesh->nodes.size(), 2u);
  expect_near(mesh->nodes[0].to_model.transform_point({0, 0, 0}), {1, 0, 0});
  expect_near(mesh->nodes[0].to_model.transform_direction({1, 0, 0}), {0, 1, 0});
  // Child origin: parent translation + parent rotation applied to (2, 0, 0) = (1, 2, 0).
  expect_near(mesh->nodes[1].to_model.transform_point({0, 0, 0}), {1, 2, 0});
  expect_near(mesh->nodes[1].local.transform_point({0, 0, 0}), {2, 0, 0});
  ASSERT_EQ(mesh->parts.size(), 2u);
  EXPECT_EQ(mesh->parts[1].node, 1);
  // Two unit boxes, rotated a quarter turn, centred on (1, 0, 0) and (1, 2, 0).
  expect_near(mesh->bounds.min, {0, -1, -1});
  expect_near(mesh->bounds.max, {2, 3, 1});
  EXPECT_EQ(mesh->triangle_count(0), 24u);
}

TEST(PreparedMesh, parent_after_its_child_is_placed_as_a_root_with_a_warning) {
  auto model = iron3d::build_msh_model(iron3d::msh_box_input(1, 1, 1));
  ASSERT_TRUE(model.has_value());
  iron3d::MshNode second = model->nodes[0];
  model->nodes[0].parent = 1;
  model->nodes.push_back(second);
  core::Diagnostics warnings;
  auto mesh = prepare_mesh(*model, "a.rlb", "bad.msh", &warnings);
  ASSERT_TRUE(mesh.has_value());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "visual.node_parent");
  EXPECT_EQ(warnings[0].field, "nodes[0].parent");
  EXPECT_EQ(mesh->nodes[0].parent, iron3d::kMshNone);
  EXPECT_EQ(mesh->nodes[0].to_model, core::Mat4::identity());
}

TEST(PreparedMesh, rejects_base_vertex_past_the_positions) {
  auto model = iron3d::build_msh_model(iron3d::msh_box_input(1, 1, 1));
  ASSERT_TRUE(model.has_value());
  model->batches[0].base_vertex = 0xFFFFFFF0u;
  auto mesh = prepare_mesh(*model, "a.rlb", "far.msh");
  ASSERT_FALSE(mesh.has_value());
  EXPECT_EQ(mesh.error().code, "visual.mesh_range");
  EXPECT_EQ(mesh.error().file, "a.rlb:far.msh");
}

TEST(PreparedMesh, normal_stream_of_another_length_is_left_out_with_a_warning) {
  auto model = iron3d::build_msh_model(iron3d::msh_box_input(1, 1, 1));
  ASSERT_TRUE(model.has_value());
  model->normals->pop_back();
  core::Diagnostics warnings;
  auto mesh = prepare_mesh(*model, "a.rlb", "short.msh", &warnings);
  ASSERT_TRUE(mesh.has_value());
  EXPECT_TRUE(mesh->normals.empty());
  EXPECT_EQ(mesh->uvs.size(), 8u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "visual.normal_count");
}

// Review finding: node indices are u16 with 0xFFFF for "none"; a 65,536th node would alias
// another node (or none) in PreparedPart::node.
TEST(PreparedMesh, rejects_a_node_table_a_u16_index_cannot_name) {
  auto model = iron3d::build_msh_model(iron3d::msh_box_input(1, 1, 1));
  ASSERT_TRUE(model.has_value());
  model->nodes.resize(0xFFFE, model->nodes[0]);  // every copy a root drawing slot 0
  auto mesh = prepare_mesh(*model, "a.rlb", "many.msh");
  ASSERT_TRUE(mesh.has_value()) << mesh.error().to_string();
  ASSERT_EQ(mesh->parts.size(), 0xFFFEu);
  EXPECT_EQ(mesh->parts.back().node, 0xFFFD);

  model->nodes.push_back(model->nodes[0]);  // 0xFFFF nodes: the last one's index is "none"
  mesh = prepare_mesh(*model, "a.rlb", "many.msh");
  ASSERT_FALSE(mesh.has_value());
  EXPECT_EQ(mesh.error().code, "visual.mesh_range");
  EXPECT_EQ(mesh.error().field, "nodes");
  EXPECT_EQ(mesh.error().found, "65535");
}

// ---- textures -----------------------------------------------------------------------------------

TEST(PreparedTexture, full_mip_count_goes_down_to_one_pixel) {
  EXPECT_EQ(full_mip_count(1, 1), 1u);
  EXPECT_EQ(full_mip_count(16, 16), 5u);
  EXPECT_EQ(full_mip_count(16, 4), 5u);
  EXPECT_EQ(full_mip_count(3, 2), 2u);
  EXPECT_EQ(full_mip_count(0, 5), 0u);
}

TEST(PreparedTexture, box_filter_averages_and_folds_an_odd_column) {
  iron3d::Rgba8Image a{4, 2, {}};
  // R = 10 * x + 100 * y, G = 7 on even pixels, 8 on odd, B = 0, A = 255 except one 0.
  for (std::uint32_t y = 0; y < 2; ++y)
    for (std::uint32_t x = 0; x < 4; ++x) {
      const std::uint8_t alpha = x == 3 && y == 1 ? 0 : 255;
      a.pixels.insert(a.pixels.end(), {static_cast<std::uint8_t>(10 * x + 100 * y),
                                       static_cast<std::uint8_t>((x + y) % 2 == 0 ? 7 : 8), 0, alpha});
    }
  const auto half = downsample_rgba8(a);
  ASSERT_EQ(half.width, 2u);
  ASSERT_EQ(half.height, 1u);
  // Left: R (0 + 10 + 100 + 110) / 4 = 55, G (7 + 8 + 8 + 7) / 4 = 7.5 -> 8 (half up), A 255.
  // Right: R (20 + 30 + 120 + 130) / 4 = 75, A (255 * 3 + 0) / 4 = 191.25 -> 191.
  EXPECT_EQ(half.pixels, (std::vector<std::uint8_t>{55, 8, 0, 255, 75, 8, 0, 191}));

  iron3d::Rgba8Image odd{3, 1, {0, 0, 0, 0, 30, 0, 0, 0, 61, 0, 0, 0}};
  const auto one = downsample_rgba8(odd);  // 3 x 1 -> 1 x 1: all three columns, (91 + 1) / 3 = 30
  ASSERT_EQ(one.width, 1u);
  EXPECT_EQ(one.pixels, (std::vector<std::uint8_t>{30, 0, 0, 0}));
}

TEST(PreparedTexture, keeps_the_file_levels_and_box_filters_the_rest) {
  // Level 0: R = 0, level 1: R = 100 (the file's own mip, not a filtered level 0); G = x, B = y.
  auto texm = iron3d::build_texm(16, 8, 8888, 2, [](std::uint32_t level, std::uint32_t x, std::uint32_t y) {
    return iron3d::TexmColor{static_cast<std::uint8_t>(level * 100), static_cast<std::uint8_t>(x),
                             static_cast<std::uint8_t>(y), 255};
  });
  ASSERT_TRUE(texm.has_value());
  auto tex = prepare_texture(*texm, "textures.lib", "T_X", false);
  ASSERT_TRUE(tex.has_value()) << tex.error().to_string();
  ASSERT_EQ(tex->mips.size(), 5u);
  const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{16, 8}, {8, 4}, {4, 2}, {2, 1}, {1, 1}};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(tex->mips[i].width, sizes[i].first) << i;
    EXPECT_EQ(tex->mips[i].height, sizes[i].second) << i;
    EXPECT_EQ(tex->mips[i].pixels.size(), std::size_t{sizes[i].first} * sizes[i].second * 4) << i;
  }
  EXPECT_EQ(tex->source_levels, 2u);
  EXPECT_EQ(tex->width(), 16u);
  EXPECT_EQ(tex->height(), 8u);
  EXPECT_EQ(tex->byte_size(), (128u + 32u + 8u + 2u + 1u) * 4u);
  EXPECT_EQ(tex->mips[1].pixels[0], 100);  // from the file
  auto level1 = iron3d::decode_texm_rgba8(*texm, 1);
  ASSERT_TRUE(level1.has_value());
  EXPECT_EQ(tex->mips[1].pixels, level1->pixels);
  // Level 2 pixel (1, 0) averages level-1 pixels x 2..3, y 0..1: G (2+3+2+3 + 2)/4 = 3, B (0+0+1+1 + 2)/4 = 1.
  EXPECT_EQ(tex->mips[2].pixels[4], 100);
  EXPECT_EQ(tex->mips[2].pixels[5], 3);
  EXPECT_EQ(tex->mips[2].pixels[6], 1);
  EXPECT_EQ(tex->mips[2].pixels, downsample_rgba8(tex->mips[1]).pixels);
  EXPECT_EQ(tex->base_level, 0u);
  EXPECT_EQ(tex->source_format, 8888u);

  texm->flags5 = 0x10000000;  // §12.5: the loader skips one level
  EXPECT_EQ(prepare_texture(*texm, "textures.lib", "T_X", false)->base_level, 1u);
}

TEST(PreparedTexture, lightmap_gets_a_full_chain_from_its_one_level) {
  auto texm = iron3d::build_lightmap(8, 8);
  ASSERT_TRUE(texm.has_value());
  auto tex = prepare_texture(*texm, "lightmap.lib", "LM_A", true);
  ASSERT_TRUE(tex.has_value());
  EXPECT_TRUE(tex->lightmap);
  EXPECT_EQ(tex->source_levels, 1u);
  EXPECT_EQ(tex->mips.size(), 4u);
  EXPECT_EQ(tex->mips.back().width, 1u);
}

TEST(PreparedTexture, mip_chain_bytes_counts_every_level_and_saturates) {
  EXPECT_EQ(mip_chain_bytes(16, 8), (128u + 32u + 8u + 2u + 1u) * 4u);
  EXPECT_EQ(mip_chain_bytes(1, 1), 4u);
  EXPECT_EQ(mip_chain_bytes(0, 8), 0u);
  // 2^31 x 1: 32 levels of 2^31, 2^30, ..., 1 pixels = 2^32 - 1 pixels.
  EXPECT_EQ(mip_chain_bytes(0x80000000u, 1), (std::uint64_t{1} << 34) - 4);
  // Level 0 alone is (2^32 - 1)^2 pixels, over 2^64 bytes.
  EXPECT_EQ(mip_chain_bytes(0xFFFFFFFFu, 0xFFFFFFFFu), std::numeric_limits<std::uint64_t>::max());
}

// Fuzz finding (fuzz_visual_store, seed raw_huge): a 2^31 x 2^31 8888 Texm with one empty level
// made the decoder's byte count wrap to 0 (2^62 pixels x 4) and write past its buffer. The size
// is now checked before anything is decoded or reserved.
TEST(PreparedTexture, rejects_a_declared_size_past_the_limit_before_decoding) {
  iron3d::Texm huge;
  huge.width = huge.height = 0x80000000u;
  huge.format = 8888;
  huge.mips = {core::Bytes{}};
  for (const std::uint64_t limit : {kMaxPreparedTextureBytes, std::numeric_limits<std::uint64_t>::max()}) {
    auto tex = prepare_texture(huge, "textures.lib", "T_HUGE", false, limit);
    ASSERT_FALSE(tex.has_value());
    EXPECT_EQ(tex.error().code, "visual.texture_size");
    EXPECT_EQ(tex.error().file, "textures.lib:T_HUGE");
    EXPECT_EQ(tex.error().found, "2147483648 x 2147483648 (18446744073709551615 bytes)");
  }
  // A real texture against a limit: 16 x 16 is 341 RGBA8 pixels with its chain.
  auto texm = iron3d::build_texm(16, 16, 565, 1);
  ASSERT_TRUE(texm.has_value());
  auto over = prepare_texture(*texm, "textures.lib", "T_X", false, 341 * 4 - 1);
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "visual.texture_size");
  EXPECT_EQ(over.error().expected, "<= 1363 RGBA8 bytes");
  auto fits = prepare_texture(*texm, "textures.lib", "T_X", false, 341 * 4);
  ASSERT_TRUE(fits.has_value());
  EXPECT_EQ(fits->byte_size(), 341u * 4u);
}

// Fuzz finding: a Texm without levels (or with a zero side) came out as a texture with an empty
// chain, width() 0, though every texture promises levels down to 1 x 1.
TEST(PreparedTexture, rejects_a_texture_without_levels) {
  iron3d::Texm none;
  none.width = none.height = 4;
  none.mips.clear();
  auto tex = prepare_texture(none, "textures.lib", "T_NONE", false);
  ASSERT_FALSE(tex.has_value());
  EXPECT_EQ(tex.error().code, "texm.level");
}

TEST(PreparedTexture, rejects_a_zero_width) {
  auto texm = iron3d::build_texm(4, 4, 565, 1);
  ASSERT_TRUE(texm.has_value());
  texm->width = 0;
  auto tex = prepare_texture(*texm, "textures.lib", "T_FLAT", false);
  ASSERT_FALSE(tex.has_value());
  EXPECT_EQ(tex.error().code, "visual.texture_size");
  EXPECT_EQ(tex.error().message, "texture has no pixels");
  EXPECT_EQ(tex.error().found, "0 x 4 (0 bytes)");
}

// ---- materials ----------------------------------------------------------------------------------

TEST(PreparedMaterial, maps_phase_bytes_to_the_runtime_record) {
  auto mat = iron3d::build_mat0({"T_A", ""}, true);
  ASSERT_TRUE(mat.has_value());
  mat->phases[0].parameters = {255, 51, 0, 150, 255, 255, 255, 128, 51, 0, 0, 0, 0, 0, 0, 255, 7, 9};
  mat->phases[1].parameters[17] = 9;
  auto m = prepare_material(*mat, "material.lib", "M_X", 0x41);
  EXPECT_EQ(m.entry, "M_X");
  EXPECT_EQ(m.flags, 0x41u);
  EXPECT_EQ(m.version, mat->version);
  ASSERT_EQ(m.phases.size(), 2u);
  const auto& p = m.phases[0];
  EXPECT_EQ(p.factors[0], (core::Vec4{1, 1, 1, 128.0f / 255.0f}));  // p[4..7] / 255
  EXPECT_EQ(p.factors[1], (core::Vec4{1, 0.2f, 0, 150 * 0.01f}));   // p[0..2] / 255, p[3] * 0.01
  EXPECT_EQ(p.factors[2], (core::Vec4{0.2f, 0, 0, 0}));             // p[8..11] / 255
  EXPECT_EQ(p.factors[3], (core::Vec4{0, 0, 0, 1}));                // p[12..15] / 255
  EXPECT_EQ(p.word64, 7u);
  EXPECT_EQ(p.word72, 9);
  EXPECT_EQ(p.texture_name, "T_A");
  EXPECT_EQ(p.texture, nullptr);  // bound by the store
  EXPECT_EQ(m.phases[1].texture_name, "");
  EXPECT_EQ(m.phases[1].word72, -1);  // an untextured phase: -1 whatever p[17] holds
  ASSERT_EQ(m.animation.size(), 1u);
  EXPECT_EQ(m.animation[0].keys.size(), 2u);
}

// ---- terrain ------------------------------------------------------------------------------------

TEST(PreparedTerrain, decodes_positions_uvs_and_face_rows) {
  iron3d::LandMsh msh;
  msh.positions = {{0, 0, 10}, {8, 0, 12}, {0, 8, 14}};
  msh.normals = {{0, 0, 127, 0}, {0, 127, 0, 0}, {-127, 0, 0, 0}};
  msh.uvs = {{0, 0}, {512, 0}, {0, -2048}};
  iron3d::TerrainFace28 a;
  a.material_tag = 0x0102;
  a.vertices = {0, 1, 2};
  iron3d::TerrainFace28 b = a;
  b.material_tag = 0xFF03;
  b.vertices = {2, 1, 0};
  msh.faces = {a, b};
  core::Diagnostics warnings;
  auto t = prepare_terrain_geometry(msh, "DATA/MAPS/x/Land.msh", &warnings);
  ASSERT_TRUE(t.has_value()) << t.error().to_string();
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(t->path, "DATA/MAPS/x/Land.msh");
  EXPECT_EQ(t->positions, (std::vector<core::Vec3>{{0, 0, 10}, {8, 0, 12}, {0, 8, 14}}));
  EXPECT_EQ(t->normals, (std::vector<core::Vec3>{{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}));
  EXPECT_EQ(t->uvs, (std::vector<core::Vec2>{{0, 0}, {0.5f, 0}, {0, -2}}));
  EXPECT_EQ(t->bounds, core::Aabb::from_min_max({0, 0, 10}, {8, 8, 14}));
  ASSERT_EQ(t->faces.size(), 2u);
  EXPECT_EQ(t->faces[0].vertices, (std::array<std::uint32_t, 3>{0, 1, 2}));
  EXPECT_EQ(t->faces[0].land1_row, 1);   // high byte
  EXPECT_EQ(t->faces[0].land2_row, 2);   // low byte
  EXPECT_EQ(t->faces[1].land1_row, -1);  // 0xFF: none
  EXPECT_EQ(t->faces[1].land2_row, 3);
  EXPECT_EQ(t->faces[1].texture, -1);  // bound by the store
}

// Fuzz finding: a face naming a vertex past the positions went through unchanged, so a renderer
// indexing PreparedTerrain::positions with it would read past the end.
TEST(PreparedTerrain, rejects_a_face_vertex_past_the_positions) {
  iron3d::LandMsh msh;
  msh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  iron3d::TerrainFace28 f;
  f.vertices = {0, 1, 3};
  msh.faces = {f};
  auto t = prepare_terrain_geometry(msh, "DATA/MAPS/x/Land.msh");
  ASSERT_FALSE(t.has_value());
  EXPECT_EQ(t.error().code, "visual.terrain_range");
  EXPECT_EQ(t.error().file, "DATA/MAPS/x/Land.msh");
  EXPECT_EQ(t.error().field, "faces[0].vertices[2]");
  EXPECT_EQ(t.error().expected, "< 3");
  EXPECT_EQ(t.error().found, "3");
}

// ---- the store ----------------------------------------------------------------------------------

namespace {

// The shared small game, plus a texture nobody uses and hut.msh whose row 1 names a material
// material.lib lacks (served by DEFAULT).
GameBuilder small_game() {
  GameBuilder g = test::small_game();
  EXPECT_TRUE(g.add_texture("T_UNUSED", 8, 8, 565, 1, 3).has_value());
  EXPECT_TRUE(g.add_model({"static.rlb", "hut.msh", {"M_ONE", "GONE"}, {}}).has_value());
  g.add_prototype("hut", {{"static.rlb", "hut.msh"}});
  return g;
}

std::unique_ptr<MemoryVfs> vfs_of(const GameBuilder& g) {
  auto vfs = std::make_unique<MemoryVfs>();
  EXPECT_TRUE(g.fill(*vfs).has_value());
  return vfs;
}

// `g`'s files with `archive` taken from `other`: a resource gone between resolution and preparation.
std::unique_ptr<MemoryVfs> vfs_with_archive_of(const GameBuilder& g, const GameBuilder& other,
                                               const std::string& archive) {
  auto vfs = vfs_of(g);
  auto files = other.build();
  EXPECT_TRUE(files.has_value());
  if (files && files->count(archive)) {
    EXPECT_TRUE(vfs->add(archive, files->at(archive)).has_value());
  } else {
    ADD_FAILURE() << archive << " not built";
  }
  return vfs;
}

// A resolved mission "m1" without a map: placed objects i at (i, 2i, 3), yaw 0.5, scale z 2.
struct Resolved {
  std::unique_ptr<MemoryVfs> vfs;
  std::unique_ptr<ArchiveRepository> repo;
  std::unique_ptr<PrototypeResolver> resolver;
  MissionData md;
};

Resolved resolve(const GameBuilder& g, const std::vector<std::string>& names) {
  Resolved r;
  r.vfs = vfs_of(g);
  r.repo = std::make_unique<ArchiveRepository>(*r.vfs);
  r.resolver = std::make_unique<PrototypeResolver>(*r.repo);
  r.md.tma_path = *normalize_path("m1", PathPolicy::host_compatible);
  std::vector<PlacedObjectRequest> requests;
  for (std::size_t i = 0; i < names.size(); ++i) {
    iron3d::TmaObject o;
    o.resource_name = names[i];
    const auto f = static_cast<float>(i);
    o.position = {f, 2 * f, 3};
    o.orientation = {0, 0, 0.5f};
    o.scale = {1, 1, 2};
    r.md.tma.objects.push_back(o);
    requests.push_back({static_cast<std::int32_t>(i), names[i], ""});
  }
  const auto node = r.md.graph.node(NodeKind::mission, "m1");
  r.md.objects = r.resolver->resolve("m1", node, requests, r.md.graph);
  return r;
}

static_assert(
    std::is_same_v<decltype(build_visual_store(std::declval<ArchiveRepository&>(), std::declval<VisualCache&>(),
                                               std::declval<const MissionData&>())),
                   core::Result<std::shared_ptr<const VisualStore>>>,
    "a store is handed out immutable");
static_assert(!std::is_default_constructible_v<VisualStore>, "only the builder makes stores");
static_assert(std::is_same_v<decltype(PreparedVisual::mesh), std::shared_ptr<const PreparedMesh>>);
static_assert(std::is_same_v<decltype(PreparedPhase::texture), std::shared_ptr<const PreparedTexture>>);

}  // namespace

TEST(VisualStore, a_texture_shared_by_two_prototypes_is_decoded_once) {
  auto r = resolve(small_game(), {"s_tree", "b_base", "UNITS/u1.dat", "sun", "hut"});
  ASSERT_TRUE(r.md.ok()) << r.md.graph.failures().front().to_string();
  VisualCache cache;
  auto store = build_visual_store(*r.repo, cache, r.md);
  ASSERT_TRUE(store.has_value()) << store.error().to_string();
  const VisualStore& s = **store;

  const auto* tree = s.prototype("objects.rlb", "S_TREE");  // case-insensitive
  const auto* base = s.prototype("objects.rlb", "b_base");
  const auto* child = s.prototype("objects.rlb", "b_child");
  const auto* sun = s.prototype("objects.rlb", "sun");
  const auto* hut = s.prototype("objects.rlb", "hut");
  ASSERT_TRUE(tree && base && child && sun && hut);
  EXPECT_EQ(s.prototype("objects.rlb", "nothing"), nullptr);
  EXPECT_EQ(sun->visual, nullptr);  // non-geometric
  ASSERT_NE(tree->visual, nullptr);
  ASSERT_NE(base->visual, nullptr);
  EXPECT_EQ(child->visual.get(), base->visual.get());  // same effective mesh: one visual

  // tree row 0 = M_ONE (T_A); bunker row 0 = M_TWO (T_A, T_B): two prototypes, two materials, one T_A.
  const auto& tree_one = *tree->visual->materials[0].material;
  const auto& base_two = *base->visual->materials[0].material;
  EXPECT_EQ(tree_one.entry, "M_ONE");
  EXPECT_EQ(base_two.entry, "M_TWO");
  ASSERT_NE(tree_one.phases[0].texture, nullptr);
  EXPECT_EQ(tree_one.phases[0].texture.get(), base_two.phases[0].texture.get());
  EXPECT_EQ(tree_one.phases[0].texture->entry, "T_A");
  EXPECT_EQ(tree->visual->materials[1].material.get(), &base_two);  // tree row 1 is M_TWO too

  const VisualCacheStats cs = cache.stats();  // a copy: the cache keeps counting
  EXPECT_EQ(cs.textures_decoded, 2u);         // T_A, T_B (T_UNUSED is never touched)
  EXPECT_EQ(cs.lightmaps_decoded, 1u);        // LM_A
  EXPECT_EQ(cs.materials_decoded, 3u);        // M_ONE, M_TWO, DEFAULT (for GONE)
  EXPECT_EQ(cs.meshes_decoded, 3u);
  EXPECT_EQ(cs.visuals_built, 3u);
  EXPECT_EQ(s.textures().size(), 2u);
  EXPECT_EQ(s.lightmaps().size(), 1u);
  EXPECT_EQ(s.materials().size(), 3u);
  ASSERT_EQ(s.meshes().size(), 3u);
  EXPECT_EQ(s.meshes()[0]->entry, "bunker.msh");  // sorted by folded archive, then entry
  EXPECT_EQ(s.meshes()[1]->entry, "hut.msh");
  EXPECT_EQ(s.meshes()[2]->entry, "tree.msh");
  EXPECT_EQ(s.stats().prototypes, 5u);
  EXPECT_EQ(s.stats().visuals, 3u);
  EXPECT_EQ(s.stats().vertices, 24u);   // three boxes of 8
  EXPECT_EQ(s.stats().triangles, 36u);  // of 12
  // T_A 16x16 + 8x8 + 4x4 + 2x2 + 1x1, T_B 8x8 ... 1x1, LM_A the same: RGBA8 bytes.
  EXPECT_EQ(s.stats().texture_bytes, (341u + 85u + 85u) * 4u);
  EXPECT_EQ(s.stats().material_fallbacks, 1u);  // hut row 1 'GONE'
  const auto& gone = hut->visual->materials[1];
  EXPECT_EQ(gone.requested, "GONE");
  EXPECT_TRUE(gone.fallback);
  EXPECT_EQ(gone.material->entry, "DEFAULT");
  EXPECT_FALSE(hut->visual->materials[0].fallback);
  ASSERT_EQ(base->visual->lightmaps.size(), 1u);
  EXPECT_EQ(base->visual->lightmaps[0]->entry, "LM_A");
  EXPECT_TRUE(base->visual->lightmaps[0]->lightmap);

  // A second store through the same cache (the next load of the session) decodes nothing and
  // shares every resource.
  auto again = build_visual_store(*r.repo, cache, r.md);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(cache.stats().textures_decoded, 2u);
  EXPECT_EQ(cache.stats().materials_decoded, 3u);
  EXPECT_EQ(cache.stats().meshes_decoded, 3u);
  EXPECT_GT(cache.stats().hits, cs.hits);
  EXPECT_EQ((*again)->textures(), s.textures());  // the same shared_ptrs
  EXPECT_EQ((*again)->prototype("objects.rlb", "s_tree")->visual.get(), tree->visual.get());
  EXPECT_EQ((*again)->stats().texture_bytes, s.stats().texture_bytes);
}

TEST(VisualStore, placements_carry_the_authored_transform_and_their_prototypes) {
  auto r = resolve(small_game(), {"s_tree", "UNITS/u1.dat", "sun"});
  VisualCache cache;
  auto store = build_visual_store(*r.repo, cache, r.md);
  ASSERT_TRUE(store.has_value()) << store.error().to_string();
  const auto& s = **store;
  EXPECT_EQ(s.mission(), "m1");
  ASSERT_EQ(s.placements().size(), 3u);
  const auto* unit = s.placement(1);
  ASSERT_NE(unit, nullptr);
  EXPECT_EQ(s.placement(3), nullptr);
  EXPECT_EQ(s.placement(-1), nullptr);
  EXPECT_TRUE(unit->via_unit_dat);
  EXPECT_EQ(unit->resource_name, "UNITS/u1.dat");
  EXPECT_EQ(unit->transform.position, (core::Vec3{1, 2, 3}));
  EXPECT_EQ(unit->transform.orientation, (core::Vec3{0, 0, 0.5f}));
  EXPECT_EQ(unit->transform.scale, (core::Vec3{1, 1, 2}));
  ASSERT_EQ(unit->components.size(), 2u);
  EXPECT_EQ(unit->components[0].unit_component_index, 0);
  EXPECT_EQ(unit->components[0].prototype->key, "s_tree");
  EXPECT_EQ(unit->components[1].prototype->key, "b_child");
  EXPECT_EQ(unit->components[0].prototype, s.placement(0)->components[0].prototype);  // one prototype, two uses
  EXPECT_EQ(s.placement(2)->components[0].prototype->visual, nullptr);
  // No map in this mission: an empty terrain.
  EXPECT_TRUE(s.terrain().positions.empty());
  EXPECT_TRUE(s.terrain().faces.empty());
}

TEST(VisualStore, missing_texture_names_the_whole_chain) {
  auto r = resolve(small_game(), {"s_tree"});
  ASSERT_TRUE(r.md.ok());
  // The texture disappears between resolution and preparation (another repository).
  GameBuilder only_a;
  ASSERT_TRUE(only_a.add_texture("T_A", 16, 16, 565, 2, 1).has_value());
  auto vfs = vfs_with_archive_of(small_game(), only_a, "textures.lib");
  ArchiveRepository repo(*vfs);
  VisualCache cache;
  auto store = build_visual_store(repo, cache, r.md);
  ASSERT_FALSE(store.has_value());
  const auto& d = store.error();
  EXPECT_EQ(d.code, "visual.texture_missing");
  EXPECT_EQ(d.message,
            "m1: objects[0] 's_tree' -> static.rlb:tree.msh -> tree.wea -> row 1 'M_TWO' -> textures.lib: "
            "texture 'T_B' not found");
  EXPECT_EQ(d.file, "textures.lib");
  EXPECT_EQ(d.field, "objects[0]");
  EXPECT_EQ(cache.stats().textures_decoded, 1u);  // T_A was prepared before the failure
}

TEST(VisualStore, missing_lightmap_names_its_wear_row) {
  auto r = resolve(small_game(), {"b_base"});
  ASSERT_TRUE(r.md.ok());
  // lightmap.lib is replaced after resolution by one without LM_A.
  GameBuilder other;
  ASSERT_TRUE(other.add_lightmap("LM_OTHER", 8, 8, 1).has_value());
  auto vfs = vfs_with_archive_of(small_game(), other, "lightmap.lib");
  ArchiveRepository repo(*vfs);
  VisualCache cache;
  auto store = build_visual_store(repo, cache, r.md);
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error().code, "visual.lightmap_missing");
  EXPECT_EQ(store.error().message,
            "m1: objects[0] 'b_base' -> bases.rlb:bunker.msh -> bunker.wea -> LIGHTMAPS row 0 'LM_A' -> "
            "lightmap.lib: lightmap 'LM_A' not found");
  EXPECT_EQ(store.error().file, "lightmap.lib");
}

TEST(VisualStore, refuses_a_mission_with_failed_edges) {
  auto r = resolve(small_game(), {"s_tree", "no_such_key"});
  ASSERT_FALSE(r.md.ok());
  VisualCache cache;
  auto store = build_visual_store(*r.repo, cache, r.md);
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error().code, "visual.graph_failed");
  EXPECT_NE(store.error().message.find("no_such_key"), std::string::npos) << store.error().message;
}

TEST(VisualStore, rejects_textures_over_the_budget) {
  auto r = resolve(small_game(), {"s_tree"});
  VisualCache cache;
  VisualStoreOptions o;
  o.max_texture_bytes = 341 * 4;  // T_A alone fits, T_B does not
  auto store = build_visual_store(*r.repo, cache, r.md, o);
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error().code, "visual.texture_budget");
  EXPECT_EQ(store.error().found, fmt::format("{} bytes", (341 + 85) * 4));
  o.max_texture_bytes = (341 + 85) * 4;
  EXPECT_TRUE(build_visual_store(*r.repo, cache, r.md, o).has_value());
}

TEST(VisualStore, batches_past_the_wear_table_are_a_warning) {
  GameBuilder g = test::small_game();
  auto model = iron3d::build_msh_model(iron3d::msh_box_input(1, 1, 1, 2));  // batches use rows 0 and 1
  ASSERT_TRUE(model.has_value());
  auto msh = iron3d::write_msh_canonical(*model);
  ASSERT_TRUE(msh.has_value());
  auto wear = iron3d::build_wear({"M_ONE"});  // one row
  ASSERT_TRUE(wear.has_value());
  g.add_nres_entry("static.rlb", {0, 0, 0, 0, "two.msh", *msh});
  g.add_nres_entry("static.rlb", {iron3d::nres_type_tag("WEAR"), 0, 0, 1, "two.wea", iron3d::write_wear(*wear)});
  g.add_prototype("two", {{"static.rlb", "two.msh"}});
  auto r = resolve(g, {"two", "two"});
  ASSERT_TRUE(r.md.ok()) << r.md.graph.failures().front().to_string();
  VisualCache cache;
  for (int load = 0; load < 2; ++load) {  // the second store comes from the cache and says it again
    auto store = build_visual_store(*r.repo, cache, r.md);
    ASSERT_TRUE(store.has_value()) << store.error().to_string();
    ASSERT_EQ((*store)->warnings().size(), 1u);
    const auto& w = (*store)->warnings()[0];
    EXPECT_EQ(w.code, "visual.wear_rows");
    EXPECT_EQ(w.file, "static.rlb:two.wea");
    EXPECT_EQ(w.expected, ">= 2 rows");
    EXPECT_EQ(w.found, "1");
    EXPECT_EQ((*store)->prototype("objects.rlb", "two")->visual->mesh->material_rows, 2u);
  }
}

// A texture that does not fit the budget is refused on its declared size: it is never decoded.
TEST(VisualStore, texture_over_the_budget_is_refused_before_it_is_decoded) {
  auto r = resolve(small_game(), {"s_tree"});
  VisualCache cache;
  VisualStoreOptions o;
  o.max_texture_bytes = 341 * 4 + 84 * 4;  // T_A fits, T_B (85 x 4 bytes) does not
  auto store = build_visual_store(*r.repo, cache, r.md, o);
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error().code, "visual.texture_budget");
  EXPECT_EQ(store.error().found, fmt::format("{} bytes", (341 + 85) * 4));
  EXPECT_EQ(cache.stats().textures_decoded, 1u);  // T_A only
}

TEST(VisualStore, terrain_face_past_the_positions_names_the_mission) {
  auto r = resolve(small_game(), {"s_tree"});
  r.md.land_dir = *normalize_path("DATA/MAPS/x", PathPolicy::host_compatible);
  r.md.land_msh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  iron3d::TerrainFace28 f;
  f.vertices = {0, 7, 1};
  r.md.land_msh.faces = {f};
  VisualCache cache;
  auto store = build_visual_store(*r.repo, cache, r.md);
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error().code, "visual.terrain_range");
  EXPECT_EQ(store.error().file, "DATA/MAPS/x/Land.msh");
  EXPECT_EQ(store.error().message,
            "m1: terrain: DATA/MAPS/x/Land.msh: faces[0].vertices[1]: face vertex is not below the position count "
            "(expected < 3, found 7) [visual.terrain_range]");
}

// The maintenance pass (VisualCache::trim, mission/bootstrap.hpp's 20 s task): what a store holds
// stays; what nobody holds and nobody requested for a whole pass goes, and comes back identically.
TEST(VisualCacheTrim, keeps_what_a_store_holds_and_drops_what_was_unused_for_a_pass) {
  auto r = resolve(small_game(), {"s_tree", "b_base", "UNITS/u1.dat", "sun", "hut"});
  ASSERT_TRUE(r.md.ok());
  VisualCache cache;
  auto built = build_visual_store(*r.repo, cache, r.md);
  ASSERT_TRUE(built.has_value()) << built.error().to_string();
  std::shared_ptr<const VisualStore> store = std::move(*built);  // the only holder
  // 3 visuals, 3 materials, 3 meshes, 3 textures (T_A, T_B and the lightmap LM_A).
  const std::size_t all = cache.entries();
  ASSERT_EQ(all, 12u);
  for (int pass = 0; pass < 3; ++pass) {  // held by the store: kept, pass after pass
    const CacheTrim t = cache.trim();
    EXPECT_EQ(t.cache, "visual");
    EXPECT_EQ(t.entries_before, all);
    EXPECT_EQ(t.entries_after, all);
    EXPECT_EQ(t.bytes_after, t.bytes_before);
    EXPECT_GE(t.bytes_before, (341u + 85u + 85u) * 4u);  // the three textures' RGBA8 levels at least
  }
  const auto tree_mesh = store->prototype("objects.rlb", "s_tree")->visual->mesh;  // a scene keeps this one
  const std::vector<std::uint8_t> t_a = store->textures()[0]->mips[0].pixels;
  const std::string t_a_entry = store->textures()[0]->entry;
  const VisualStoreStats stats = store->stats();
  store.reset();
  // Unused since the last pass and held by nobody: gone, the held mesh stays.
  const CacheTrim dropped = cache.trim();
  EXPECT_EQ(dropped.entries_before, all);
  EXPECT_EQ(dropped.entries_after, 1u);
  EXPECT_EQ(dropped.dropped(), all - 1);
  EXPECT_LT(dropped.bytes_after, dropped.bytes_before);
  EXPECT_GT(dropped.bytes_after, 0u);
  EXPECT_EQ(cache.entries(), 1u);
  // On demand again: decoded again (not the held mesh), the same values.
  const VisualCacheStats before = cache.stats();
  auto again = build_visual_store(*r.repo, cache, r.md);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(cache.stats().textures_decoded, before.textures_decoded + 2);
  EXPECT_EQ(cache.stats().meshes_decoded, before.meshes_decoded + 2);  // tree.msh was kept
  EXPECT_EQ((*again)->prototype("objects.rlb", "s_tree")->visual->mesh.get(), tree_mesh.get());
  EXPECT_EQ((*again)->textures()[0]->entry, t_a_entry);
  EXPECT_EQ((*again)->textures()[0]->mips[0].pixels, t_a);
  EXPECT_EQ((*again)->stats().texture_bytes, stats.texture_bytes);
  EXPECT_EQ((*again)->stats().vertices, stats.vertices);
  EXPECT_EQ(cache.entries(), all);
  // Requested in this pass: kept by the next trim even with no store; gone by the one after.
  again->reset();
  EXPECT_EQ(cache.trim().entries_after, all);
  EXPECT_EQ(cache.trim().entries_after, 1u);
}
