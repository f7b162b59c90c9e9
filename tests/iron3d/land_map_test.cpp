#include "sortie/iron3d/land_map.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "land_fixtures.hpp"
#include "sortie/formats/formats.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/terrain_builder.hpp"

namespace sortie::iron3d {
namespace {

using namespace land_test;

ReadOptions strict() {
  return {core::Profile::strict, "Land.map"};
}
ReadOptions compatible() {
  return {core::Profile::compatible, "Land.map"};
}

core::Bytes hex(std::string_view spaced) {
  std::string compact;
  for (char c : spaced)
    if (c != ' ' && c != '\n') compact.push_back(c);
  return core::from_hex(compact).value();
}

core::Diagnostic read_error(const core::Bytes& file, const ReadOptions& o = strict()) {
  auto r = read_land_map(file, o);
  EXPECT_FALSE(r.has_value());
  return r ? core::Diagnostic{} : r.error();
}

// Spec §31.5: one areal, 2 vertices, 2 empty links, grid 1 x 1 with one hit.
const core::Bytes kVector315 =
    hex("00000000 00000000 00000000 00000000"
        "00000040 00000000 0000803f 00000000"
        "00000000 00000000 07000000 00000000"
        "02000000 00000000"
        "00000000 00000000 00000000"
        "0000803f 00000000 00000000"
        "ffffffff ffffffff ffffffff ffffffff"
        "01000000 01000000 01000000");

TEST(LandMap, decodes_spec_vector_31_5) {
  ASSERT_EQ(kVector315.size(), 108u);
  const auto file = map_file(kVector315);
  EXPECT_EQ(file.size(), 192u);
  core::Diagnostics findings;
  auto m = read_land_map(file, strict(), &findings);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_TRUE(findings.empty());
  EXPECT_EQ(m->entry.type_id, 12u);
  EXPECT_EQ(m->entry.attr1, 1u);
  EXPECT_EQ(m->entry.name.text(), "Res12");
  ASSERT_EQ(m->areals.size(), 1u);
  const Areal& a = m->areals[0];
  EXPECT_EQ(a.anchor, (core::Vec3{0, 0, 0}));
  EXPECT_EQ(a.area_metric, 2.0f);
  EXPECT_EQ(a.normal, (core::Vec3{0, 1, 0}));
  EXPECT_EQ(a.class_id, 7u);
  EXPECT_EQ(a.logic_flag, 0u);
  ASSERT_EQ(a.vertices.size(), 2u);
  EXPECT_EQ(a.vertices[1], (core::Vec3{1, 0, 0}));
  ASSERT_EQ(a.links.size(), 2u);
  EXPECT_TRUE(a.links[0].is_none());
  EXPECT_TRUE(a.polygons.empty());
  EXPECT_EQ(m->grid.cells_x, 1u);
  EXPECT_EQ(m->grid.cells_y, 1u);
  ASSERT_EQ(m->grid.cells.size(), 1u);
  EXPECT_EQ(m->grid.cells[0], 0x00400000u);
  ASSERT_EQ(m->grid.candidates(0).size(), 1u);
  EXPECT_EQ(m->grid.candidates(0)[0], 0);
}

TEST(LandMap, roundtrip_of_spec_vector_is_byte_exact) {
  const auto file = map_file(kVector315);
  auto m = read_land_map(file, strict());
  ASSERT_TRUE(m);
  EXPECT_EQ(encode_land_map_payload(*m).value(), kVector315);
  auto out = write_land_map(*m);
  ASSERT_TRUE(out) << out.error().to_string();
  EXPECT_EQ(*out, file);
  auto rt = land_map_format_info().roundtrip(file, strict());
  ASSERT_TRUE(rt);
  EXPECT_EQ(*rt, file);
}

TEST(LandMap, roundtrip_keeps_unindexed_gap_bytes) {
  const auto file = with_prefix_gap(map_file(kVector315));
  auto rt = land_map_format_info().roundtrip(file, strict());
  ASSERT_TRUE(rt) << rt.error().to_string();
  EXPECT_EQ(*rt, file);
}

TEST(LandMap, decodes_polygon_block_with_five_links) {
  const auto payload = map_payload({{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {0, 4}}, 1, 1, {{0}}, 1);
  const auto file = map_file(payload);
  auto m = read_land_map(file, strict());
  ASSERT_TRUE(m) << m.error().to_string();
  const Areal& a = m->areals[0];
  ASSERT_EQ(a.polygons.size(), 1u);
  EXPECT_EQ(a.polygons[0].n, 1u);
  EXPECT_EQ(a.polygons[0].raw.size(), 16u);
  EXPECT_EQ(core::load_u32(a.polygons[0].raw.data() + 12), 0x44444444u);
  EXPECT_EQ(a.link_count(), 5u);
  EXPECT_EQ(a.links[4], (EdgeLink{0, 4}));
  EXPECT_EQ(write_land_map(*m).value(), file);
}

TEST(LandMap, rejects_link_to_missing_areal) {
  const auto file = map_file(map_payload({{1, 0}, {-1, -1}}));
  const auto d = read_error(file, compatible());
  EXPECT_EQ(d.code, "land_map.areal.link_target");
  EXPECT_EQ(d.field, "areals[0].links[0].area_ref");
  EXPECT_EQ(d.expected, "< 1");
  EXPECT_EQ(d.found, "1");
  ASSERT_TRUE(d.offset);
  EXPECT_EQ(*d.offset, 16u + 56u + 24u);
}

TEST(LandMap, rejects_edge_ref_past_target_link_count) {
  const auto d = read_error(map_file(map_payload({{-1, -1}, {0, 2}})));
  EXPECT_EQ(d.code, "land_map.areal.link_edge");
  EXPECT_EQ(d.field, "areals[0].links[1].edge_ref");
  EXPECT_EQ(*d.offset, 16u + 56u + 24u + 8u + 4u);
  EXPECT_EQ(d.found, "2");
}

TEST(LandMap, edge_ref_is_bounded_by_the_target_areal_not_the_source) {
  // Areal 0 has 2 links; areal 1 has 4. A link from areal 0 to edge 3 of areal 1 is valid,
  // a link from areal 1 to edge 3 of areal 0 is not.
  core::ByteWriter w;
  areal_prefix(w, 2, 0);
  for (int i = 0; i < 6; ++i) w.f32(0);
  for (auto l : std::vector<Link>{{1, 3}, {-1, -1}}) {
    w.i32(l.area);
    w.i32(l.edge);
  }
  areal_prefix(w, 4, 0);
  for (int i = 0; i < 12; ++i) w.f32(0);
  for (auto l : std::vector<Link>{{0, 0}, {-1, -1}, {-1, -1}, {0, 3}}) {
    w.i32(l.area);
    w.i32(l.edge);
  }
  w.u32(1);
  w.u32(1);
  w.u16(0);
  const auto d = read_error(map_file(w.take(), 2));
  EXPECT_EQ(d.code, "land_map.areal.link_edge");
  EXPECT_EQ(d.field, "areals[1].links[3].edge_ref");
  EXPECT_EQ(d.expected, "< 2 (links of areals[0])");
}

TEST(LandMap, rejects_half_negative_link) {
  const auto d = read_error(map_file(map_payload({{-1, 0}, {-1, -1}})));
  EXPECT_EQ(d.code, "land_map.areal.link_pair");
  EXPECT_EQ(d.found, "(-1, 0)");
}

TEST(LandMap, rejects_grid_area_1_with_one_areal) {
  const auto d = read_error(map_file(map_payload({{-1, -1}, {-1, -1}}, 1, 1, {{1}})));
  EXPECT_EQ(d.code, "land_map.grid.area_ref");
  EXPECT_EQ(d.field, "grid.cells[0].ids[0]");
  EXPECT_EQ(*d.offset, 16u + 104u + 2u);
}

TEST(LandMap, reports_bad_link_before_broken_grid) {
  auto payload = map_payload({{5, 0}, {-1, -1}}, 0, 1, {});
  const auto d = read_error(map_file(payload));
  EXPECT_EQ(d.code, "land_map.areal.link_target");
}

TEST(LandMap, rejects_vertex_count_3_without_data) {
  core::ByteWriter w;
  areal_prefix(w, 3, 0);
  const auto d = read_error(map_file(w.take()));
  EXPECT_EQ(d.code, "land_map.eof");
  EXPECT_EQ(d.field, "areals[0].vertices");
}

TEST(LandMap, rejects_polygon_n_of_one_million) {
  core::ByteWriter w;
  areal_prefix(w, 0, 1);
  for (int i = 0; i < 3; ++i) {
    w.i32(-1);
    w.i32(-1);
  }
  w.u32(1'000'000);
  w.zeros(64);
  const auto d = read_error(map_file(w.take()));
  EXPECT_EQ(d.code, "land_map.eof");
  EXPECT_EQ(d.field, "areals[0].polygons[0]");
}

TEST(LandMap, rejects_grid_of_zero_cells) {
  const auto d = read_error(map_file(map_payload({{-1, -1}, {-1, -1}}, 0, 1, {})));
  EXPECT_EQ(d.code, "land_map.grid.size");
  EXPECT_EQ(d.found, "0 x 1");
}

TEST(LandMap, rejects_grid_product_overflow) {
  const auto d = read_error(map_file(map_payload({{-1, -1}, {-1, -1}}, 65536, 65536, {})));
  EXPECT_EQ(d.code, "land_map.grid.overflow");
}

TEST(LandMap, rejects_grid_larger_than_payload_before_allocating) {
  const auto d = read_error(map_file(map_payload({{-1, -1}, {-1, -1}}, 65535, 65535, {})));
  EXPECT_EQ(d.code, "land_map.eof");
  EXPECT_EQ(d.field, "grid.cells");
}

TEST(LandMap, rejects_one_trailing_byte) {
  auto payload = kVector315;
  payload.push_back(0);
  const auto d = read_error(map_file(payload));
  EXPECT_EQ(d.code, "land_map.trailing");
  EXPECT_EQ(*d.offset, 16u + 108u);
}

TEST(LandMap, rejects_hit_count_1024) {
  std::vector<std::uint16_t> ids(1024, 0);
  const auto d = read_error(map_file(map_payload({{-1, -1}, {-1, -1}}, 1, 1, {ids})));
  EXPECT_EQ(d.code, "land_map.grid.hit_count");
  EXPECT_EQ(d.found, "1024");
}

TEST(LandMap, accepts_hit_count_1023) {
  std::vector<std::uint16_t> ids(1023, 0);
  auto m = read_land_map(map_file(map_payload({{-1, -1}, {-1, -1}}, 1, 1, {ids})), strict());
  ASSERT_TRUE(m);
  EXPECT_EQ(m->grid.cells[0], 1023u << 22);
}

TEST(LandMap, rejects_pool_offset_past_22_bits) {
  // 4,101 cells of 1,023 hits put the next cell's start at 4,195,323 > 0x3FFFFF.
  std::vector<std::vector<std::uint16_t>> cells(4102, std::vector<std::uint16_t>(1023, 0));
  const auto d = read_error(map_file(map_payload({{-1, -1}, {-1, -1}}, 4102, 1, cells)));
  EXPECT_EQ(d.code, "land_map.grid.pool_offset");
  EXPECT_EQ(d.field, "grid.cells[4101]");
}

TEST(LandMap, rejects_areal_count_beyond_payload_before_allocating) {
  const auto d = read_error(map_file(kVector315, 1'000'000'000));
  EXPECT_EQ(d.code, "land_map.areal_count");
  EXPECT_EQ(d.field, "entry.attr1");
}

TEST(LandMap, rejects_link_count_overflow) {
  core::ByteWriter w;
  areal_prefix(w, 0, 0x60000000);
  w.zeros(64);
  const auto d = read_error(map_file(w.take()));
  EXPECT_EQ(d.code, "land_map.areal.link_count_overflow");
}

TEST(LandMap, rejects_two_entries) {
  const auto file = NresBuilder().add(12, "Res12", kVector315, 1).add(12, "Res13", kVector315, 1).build().value();
  const auto d = read_error(file, compatible());
  EXPECT_EQ(d.code, "land_map.entry_count");
  EXPECT_EQ(d.found, "2 entries");
}

TEST(LandMap, rejects_entry_of_type_11) {
  const auto d = read_error(map_file(kVector315, 1, 11));
  EXPECT_EQ(d.code, "land_map.entry_type");
  EXPECT_EQ(d.found, "11");
}

TEST(LandMap, keeps_reserved_fields_and_link_order) {
  core::ByteWriter w;
  for (float v : {1.f, 2.f, 3.f, 0.5f, 2.f, 0.f, 0.f, 1.f}) w.f32(v);
  w.u32(9);
  w.u32(0xDEADBEEF);
  w.u32(4);
  w.u32(0x01020304);
  w.u32(3);
  w.u32(0);
  for (int i = 0; i < 9; ++i) w.f32(static_cast<float>(i));
  for (auto l : std::vector<Link>{{0, 2}, {-1, -1}, {0, 0}}) {
    w.i32(l.area);
    w.i32(l.edge);
  }
  w.u32(2);
  w.u32(1);
  w.u16(1);
  w.u16(0);
  w.u16(2);
  w.u16(0);
  w.u16(0);
  const auto file = map_file(w.take());
  core::Diagnostics findings;
  auto m = read_land_map(file, strict(), &findings);
  ASSERT_TRUE(m) << m.error().to_string();
  const Areal& a = m->areals[0];
  EXPECT_EQ(a.reserved_12, 0.5f);
  EXPECT_EQ(a.reserved_36, 0xDEADBEEFu);
  EXPECT_EQ(a.reserved_44, 0x01020304u);
  EXPECT_EQ(a.links[0], (EdgeLink{0, 2}));
  EXPECT_EQ(a.links[2], (EdgeLink{0, 0}));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].code, "land_map.areal.reserved");
  EXPECT_EQ(findings[0].severity, core::Severity::note);
  EXPECT_EQ(m->grid.candidates(1).size(), 2u);
  EXPECT_EQ(write_land_map(*m).value(), file);
}

TEST(LandMap, notes_a_normal_that_is_not_unit_length) {
  core::ByteWriter w;
  areal_prefix(w, 0, 0);
  auto payload = w.take();
  core::store_u32(payload.data() + 24, std::bit_cast<std::uint32_t>(2.0f));
  payload.insert(payload.end(), {1, 0, 0, 0, 1, 0, 0, 0, 0, 0});
  core::Diagnostics findings;
  auto m = read_land_map(map_file(payload), strict(), &findings);
  ASSERT_TRUE(m) << m.error().to_string();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].code, "land_map.areal.normal_length");
  EXPECT_EQ(findings[0].field, "areals[0].normal");
}

TEST(LandMap, writer_rejects_inconsistent_link_count) {
  auto m = read_land_map(map_file(kVector315), strict()).value();
  m.areals[0].links.pop_back();
  auto out = write_land_map(m);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().code, "land_map.write.link_count");
}

TEST(LandMap, validate_checks_links_and_grid_of_edited_map) {
  auto m = read_land_map(map_file(kVector315), strict()).value();
  EXPECT_TRUE(validate_land_map(m, strict()));
  m.grid.pool[0] = 3;
  auto bad_grid = validate_land_map(m, strict());
  ASSERT_FALSE(bad_grid);
  EXPECT_EQ(bad_grid.error().code, "land_map.grid.area_ref");
  m.grid.pool[0] = 0;
  m.areals[0].links[1] = {0, 9};
  auto bad_link = validate_land_map(m, strict());
  ASSERT_FALSE(bad_link);
  EXPECT_EQ(bad_link.error().code, "land_map.areal.link_edge");
}

TEST(LandMap, grid_push_cell_packs_offsets) {
  ArealGrid g;
  const std::vector<std::uint16_t> a = {1, 2}, b = {}, c = {7};
  ASSERT_TRUE(g.push_cell(a));
  ASSERT_TRUE(g.push_cell(b));
  ASSERT_TRUE(g.push_cell(c));
  EXPECT_EQ(g.cells, (std::vector<std::uint32_t>{2u << 22, 2u, (1u << 22) | 2u}));
  EXPECT_EQ(g.candidates(2)[0], 7);
  const std::vector<std::uint16_t> many(1024, 0);
  EXPECT_EQ(g.push_cell(many).error().code, "land_map.grid.hit_count");
}

TEST(LandMap, json_lists_areals_and_grid) {
  auto j = land_map_format_info().inspect(map_file(kVector315), strict());
  ASSERT_TRUE(j) << j.error().to_string();
  EXPECT_EQ((*j)["format"], "land_map");
  EXPECT_EQ((*j)["areal_count"], 1);
  EXPECT_EQ((*j)["areals"][0]["class_id"], 7);
  EXPECT_EQ((*j)["areals"][0]["area_metric"], 2.0);
  EXPECT_EQ((*j)["areals"][0]["vertex_count"], 2);
  EXPECT_EQ((*j)["areals"][0]["links"][0][0], -1);
  EXPECT_EQ((*j)["grid"]["cells_x"], 1);
  EXPECT_EQ((*j)["grid"]["max_candidates"], 1);
}

TEST(LandMap, detects_by_name_and_by_signature) {
  const auto file = map_file(kVector315);
  EXPECT_EQ(land_map_format_info().detect(file, "DATA/MAPS/Tut_1/land.map"), kDetectContent);
  EXPECT_EQ(land_map_format_info().detect(file, "x.bin"), kDetectContent);
  EXPECT_EQ(land_map_format_info().detect(map_file(kVector315, 1, 11), "x.bin"), kDetectNone);
  EXPECT_EQ(land_map_format_info().detect(map_file(kVector315, 1, 11), "Land.map"), kDetectName);
  EXPECT_EQ(sortie::formats::detect_format(file, "Land.map")->name, "land_map");
}

// ---- builder ----

TEST(LandMapBuilder, partition_passes_strict_reader) {
  auto msh = make_land_msh_from_heightfield(make_sample_heightfield(64, 48, 9));
  ASSERT_TRUE(msh);
  auto map = make_land_map_for(*msh, {12, 10});
  ASSERT_TRUE(map) << map.error().to_string();
  EXPECT_EQ(map->areals.size(), 120u);
  EXPECT_EQ(map->grid.cells_x, 128u);
  EXPECT_EQ(map->grid.cells_y, 128u);
  ASSERT_TRUE(validate_land_map(*map, strict()));
  auto bytes = write_land_map(*map);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  core::Diagnostics findings;
  auto back = read_land_map(*bytes, strict(), &findings);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_TRUE(findings.empty()) << findings[0].to_string();
  EXPECT_EQ(*back, *map);
}

TEST(LandMapBuilder, links_are_reciprocal_and_share_the_edge) {
  auto msh = make_land_msh_from_heightfield(make_sample_heightfield(40, 40, 2)).value();
  auto map = make_land_map_for(msh, {5, 4}).value();
  std::size_t linked = 0;
  for (std::size_t a = 0; a < map.areals.size(); ++a) {
    const auto& ar = map.areals[a];
    for (std::size_t k = 0; k < ar.links.size(); ++k) {
      const EdgeLink l = ar.links[k];
      if (l.is_none()) continue;
      ++linked;
      const auto& other = map.areals[static_cast<std::size_t>(l.area_ref)];
      const auto e = static_cast<std::size_t>(l.edge_ref);
      EXPECT_EQ(other.links[e], (EdgeLink{static_cast<std::int32_t>(a), static_cast<std::int32_t>(k)}));
      // Same edge, walked the other way.
      EXPECT_EQ(ar.vertices[k], other.vertices[(e + 1) % other.vertices.size()]);
      EXPECT_EQ(ar.vertices[(k + 1) % ar.vertices.size()], other.vertices[e]);
    }
  }
  EXPECT_EQ(linked, 2u * (4 * 4 + 5 * 3));  // interior edges of a 5 x 4 tiling, both directions
}

TEST(LandMapBuilder, areals_tile_the_mesh_and_sit_on_it) {
  auto msh = make_land_msh_from_heightfield(make_sample_heightfield(30, 30, 4)).value();
  auto map = make_land_map_for(msh, {6, 6}).value();
  double area = 0;
  for (const auto& a : map.areals) {
    area += static_cast<double>(a.area_metric);
    const auto nx = static_cast<double>(a.normal.x), ny = static_cast<double>(a.normal.y),
               nz = static_cast<double>(a.normal.z);
    const double len = std::sqrt(nx * nx + ny * ny + nz * nz);
    EXPECT_NEAR(len, 1.0, 1e-6);
    EXPECT_GT(a.normal.z, 0.0f);
    for (const auto& v : a.vertices) {
      auto z = land_msh_height_at(msh, v.x, v.y);
      ASSERT_TRUE(z);
      EXPECT_FLOAT_EQ(v.z, *z);
    }
  }
  const double side = 29.0 * 8.0;
  EXPECT_NEAR(area, side * side, 1e-2);
}

TEST(LandMapBuilder, grid_cells_list_the_areal_under_their_centre) {
  auto msh = make_land_msh_from_heightfield(make_sample_heightfield(50, 50, 6)).value();
  auto map = make_land_map_for(msh, {7, 9}).value();
  float lo_x = 1e30f, hi_x = -1e30f, lo_y = 1e30f, hi_y = -1e30f;
  for (const auto& a : map.areals)
    for (const auto& v : a.vertices) {
      lo_x = std::min(lo_x, v.x);
      hi_x = std::max(hi_x, v.x);
      lo_y = std::min(lo_y, v.y);
      hi_y = std::max(hi_y, v.y);
    }
  const auto& g = map.grid;
  for (std::uint32_t cy = 0; cy < g.cells_y; ++cy)
    for (std::uint32_t cx = 0; cx < g.cells_x; ++cx) {
      const auto x0 = static_cast<double>(lo_x), x1 = static_cast<double>(hi_x), y0 = static_cast<double>(lo_y),
                 y1 = static_cast<double>(hi_y);
      const double x = x0 + (x1 - x0) * (cx + 0.5) / g.cells_x;
      const double y = y0 + (y1 - y0) * (cy + 0.5) / g.cells_y;
      const auto c = g.candidates(std::size_t{cy} * g.cells_x + cx);
      ASSERT_FALSE(c.empty());
      const bool inside = std::any_of(c.begin(), c.end(), [&](std::uint16_t id) {
        const auto& v = map.areals[id].vertices;
        return x >= static_cast<double>(v[0].x) && x <= static_cast<double>(v[2].x) &&
               y >= static_cast<double>(v[0].y) && y <= static_cast<double>(v[2].y);
      });
      EXPECT_TRUE(inside) << cx << "," << cy;
    }
}

TEST(LandMapBuilder, corpus_sized_map_round_trips) {
  auto msh = make_land_msh_from_heightfield(make_sample_heightfield(78, 78, 1)).value();
  auto map = make_land_map_for(msh).value();
  EXPECT_GT(map.areals.size(), 500u);
  const auto bytes = write_land_map(map).value();
  auto back = read_land_map(bytes, strict());
  ASSERT_TRUE(back);
  EXPECT_EQ(write_land_map(*back).value(), bytes);
}

TEST(LandMapBuilder, rejects_empty_mesh) {
  auto r = make_land_map_for(LandMsh{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "land_map.build.empty");
}

TEST(LandMapBuilder, rejects_more_areals_than_u16_ids) {
  auto msh = make_land_msh_from_heightfield(make_sample_heightfield(4, 4, 1)).value();
  auto r = make_land_map_for(msh, {300, 300});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "land_map.build.areal_limit");
}

}  // namespace
}  // namespace sortie::iron3d
