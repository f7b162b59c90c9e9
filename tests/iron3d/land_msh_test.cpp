#include "sortie/iron3d/land_msh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "land_fixtures.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/formats/formats.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/terrain_builder.hpp"

namespace sortie::iron3d {
namespace {

using namespace land_test;

ReadOptions strict() {
  return {core::Profile::strict, "Land.msh"};
}
ReadOptions compatible() {
  return {core::Profile::compatible, "Land.msh"};
}

core::Diagnostic read_error(const core::Bytes& file, const ReadOptions& o = strict()) {
  auto r = read_land_msh(file, o);
  EXPECT_FALSE(r.has_value());
  return r ? core::Diagnostic{} : r.error();
}

bool has_code(const core::Diagnostics& ds, std::string_view code) {
  return std::any_of(ds.begin(), ds.end(), [&](const auto& d) { return d.code == code; });
}

TEST(LandMsh, decodes_minimal_mesh) {
  const auto file = build(minimal_streams());
  core::Diagnostics findings;
  auto m = read_land_msh(file, strict(), &findings);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_TRUE(findings.empty());
  ASSERT_EQ(m->entries.size(), 9u);
  EXPECT_EQ(m->entries[8].type_id, 21u);
  EXPECT_EQ(m->entries[8].name.text(), "Res21");
  ASSERT_EQ(m->positions.size(), 3u);
  EXPECT_EQ(m->positions[1], (core::Vec3{1, 0, 0}));
  EXPECT_EQ(m->normals.size(), 3u);
  EXPECT_EQ(m->uvs.size(), 3u);
  EXPECT_TRUE(m->slots.empty());
  ASSERT_EQ(m->faces.size(), 1u);
  const auto& f = m->faces[0];
  EXPECT_EQ(f.surface_mask, 0x00008080u);
  EXPECT_EQ(f.material_tag, 0x0102);
  EXPECT_EQ(f.aux_tag, 7);
  EXPECT_EQ(f.vertices, (std::array<std::uint16_t, 3>{0, 1, 2}));
  EXPECT_EQ(f.neighbours, (std::array<std::uint16_t, 3>{0xFFFF, 0xFFFF, 0xFFFF}));
  EXPECT_EQ(std::string(f.tail.begin(), f.tail.end()), "TAILFACE");
}

TEST(LandMsh, roundtrip_is_byte_exact) {
  const auto file = build(minimal_streams(face28(0, 1, 2, 0xFFFF, 0xFFFF, 0xFFFF, "UNKNOWN!")));
  auto m = read_land_msh(file, strict());
  ASSERT_TRUE(m);
  EXPECT_EQ(std::string(m->faces[0].tail.begin(), m->faces[0].tail.end()), "UNKNOWN!");
  auto out = write_land_msh(*m);
  ASSERT_TRUE(out) << out.error().to_string();
  EXPECT_EQ(*out, file);
}

TEST(LandMsh, roundtrip_keeps_unindexed_gap_bytes) {
  const auto file = with_prefix_gap(build(minimal_streams()));
  auto archive = read_nres(file);
  ASSERT_TRUE(archive) << archive.error().to_string();
  auto m = read_land_msh(file, strict());
  ASSERT_TRUE(m) << m.error().to_string();
  auto out = write_land_msh(*m, *archive);
  ASSERT_TRUE(out) << out.error().to_string();
  EXPECT_EQ(*out, file);
  const auto* info = sortie::formats::find_format("land_msh");
  ASSERT_NE(info, nullptr);
  auto rt = info->roundtrip(file, strict());
  ASSERT_TRUE(rt);
  EXPECT_EQ(*rt, file);
}

TEST(LandMsh, rejects_shuffled_stream_order_in_strict) {
  auto streams = minimal_streams();
  std::reverse(streams.begin(), streams.end());
  const auto d = read_error(build(streams));
  EXPECT_EQ(d.code, "land_msh.stream_order");
  EXPECT_EQ(d.expected, "[1,2,3,4,5,18,14,11,21]");
  EXPECT_EQ(d.found, "[21,11,14,18,5,4,3,2,1]");
}

TEST(LandMsh, accepts_shuffled_stream_order_in_compatible_with_warning) {
  auto streams = minimal_streams();
  std::reverse(streams.begin(), streams.end());
  const auto file = build(streams);
  core::Diagnostics findings;
  auto m = read_land_msh(file, compatible(), &findings);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_TRUE(has_code(findings, "land_msh.stream_order"));
  EXPECT_EQ(m->entries.front().type_id, 21u);
  EXPECT_EQ(m->faces.size(), 1u);
  auto out = write_land_msh(*m);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, file);  // physical order is kept
}

TEST(LandMsh, rejects_missing_stream) {
  auto streams = minimal_streams();
  streams.erase(streams.begin() + 5);  // type 18
  const auto d = read_error(build(streams), compatible());
  EXPECT_EQ(d.code, "land_msh.stream.missing");
  EXPECT_EQ(d.expected, "one entry of type 18");
}

TEST(LandMsh, rejects_duplicate_stream) {
  auto streams = minimal_streams();
  streams.push_back(streams[0]);
  const auto d = read_error(build(streams), compatible());
  EXPECT_EQ(d.code, "land_msh.stream.duplicate");
  EXPECT_EQ(d.field, "entries[9].type_id");
}

TEST(LandMsh, rejects_unknown_stream_in_strict) {
  auto streams = minimal_streams();
  streams.push_back({99, 0, 0, {1, 2, 3}});
  const auto d = read_error(build(streams));
  EXPECT_EQ(d.code, "land_msh.stream.unknown");
  EXPECT_EQ(d.found, "99");
}

TEST(LandMsh, keeps_unknown_stream_in_compatible) {
  auto streams = minimal_streams();
  streams.insert(streams.begin() + 3, {99, 5, 6, {1, 2, 3}});
  const auto file = build(streams);
  core::Diagnostics findings;
  auto m = read_land_msh(file, compatible(), &findings);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_TRUE(has_code(findings, "land_msh.stream.unknown"));
  ASSERT_EQ(m->extra_streams.size(), 1u);
  EXPECT_EQ(m->extra_streams[0].entry_index, 3u);
  EXPECT_EQ(m->extra_streams[0].payload, (core::Bytes{1, 2, 3}));
  auto out = write_land_msh(*m);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, file);
}

TEST(LandMsh, rejects_normal_stride_8) {
  auto streams = minimal_streams();
  stream(streams, 4).attr3 = 8;
  const auto d = read_error(build(streams));
  EXPECT_EQ(d.code, "land_msh.stream.stride");
  EXPECT_EQ(d.field, "entries[3].attr3");
  EXPECT_EQ(d.expected, "4");
  EXPECT_EQ(d.found, "8");
}

TEST(LandMsh, rejects_position_count_mismatch) {
  auto streams = minimal_streams();
  stream(streams, 3).attr1 = 4;
  const auto d = read_error(build(streams));
  EXPECT_EQ(d.code, "land_msh.stream.count");
  EXPECT_EQ(d.field, "entries[2].attr1");
  EXPECT_EQ(d.expected, "3");
  EXPECT_EQ(d.found, "4");
}

TEST(LandMsh, rejects_positions_not_a_record_multiple) {
  auto streams = minimal_streams();
  stream(streams, 3).payload.push_back(0);
  const auto d = read_error(build(streams));
  EXPECT_EQ(d.code, "land_msh.stream.size");
  EXPECT_EQ(d.found, "37 bytes");
}

TEST(LandMsh, rejects_face_stream_not_a_record_multiple) {
  auto streams = minimal_streams();
  stream(streams, 21).payload.resize(27);
  stream(streams, 21).attr1 = 0;
  EXPECT_EQ(read_error(build(streams)).code, "land_msh.stream.size");
}

TEST(LandMsh, rejects_node_stride_24) {
  auto streams = minimal_streams();
  stream(streams, 1).attr3 = 24;
  EXPECT_EQ(read_error(build(streams)).code, "land_msh.stream.stride");
}

TEST(LandMsh, node_remainder_is_strict_error_and_compatible_warning) {
  auto streams = minimal_streams();
  stream(streams, 1).payload = core::Bytes(40, 0x5A);
  stream(streams, 1).attr1 = 1;
  const auto file = build(streams);
  EXPECT_EQ(read_error(file).code, "land_msh.stream.size");
  core::Diagnostics findings;
  auto m = read_land_msh(file, compatible(), &findings);
  ASSERT_TRUE(m);
  EXPECT_TRUE(has_code(findings, "land_msh.stream.size"));
  EXPECT_EQ(m->nodes_raw.size(), 40u);
  auto out = write_land_msh(*m);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, file);
}

TEST(LandMsh, rejects_slot_header_of_0x8b_bytes) {
  auto streams = minimal_streams();
  stream(streams, 2).payload.resize(0x8B);
  const auto d = read_error(build(streams), compatible());
  EXPECT_EQ(d.code, "land_msh.slots.header_size");
  EXPECT_EQ(d.found, "139 bytes");
}

TEST(LandMsh, rejects_slot_table_of_67_bytes) {
  auto streams = minimal_streams();
  stream(streams, 2).payload.resize(0x8C + 67);
  EXPECT_EQ(read_error(build(streams), compatible()).code, "land_msh.stream.size");
}

TEST(LandMsh, rejects_slot_count_mismatch) {
  auto streams = minimal_streams();
  stream(streams, 2).payload.resize(0x8C + 68);
  stream(streams, 2).attr1 = 2;
  const auto d = read_error(build(streams), compatible());
  EXPECT_EQ(d.code, "land_msh.stream.count");
  EXPECT_EQ(d.expected, "1");
}

TEST(LandMsh, rejects_face_vertex_index_3_with_3_positions) {
  auto streams = minimal_streams(face28(0, 1, 3));
  const auto file = build(streams);
  const auto d = read_error(file, compatible());
  EXPECT_EQ(d.code, "land_msh.face.vertex_index");
  EXPECT_EQ(d.field, "faces[0].vertex[2]");
  EXPECT_EQ(d.expected, "< 3");
  EXPECT_EQ(d.found, "3");
  auto archive = read_nres(file);
  ASSERT_TRUE(archive);
  ASSERT_TRUE(d.offset.has_value());
  EXPECT_EQ(*d.offset, archive->entries[8].data_offset + 8u + 4u);
  EXPECT_EQ(core::load_u16(file.data() + *d.offset), 3);
}

TEST(LandMsh, rejects_neighbour_1_with_1_face) {
  const auto d = read_error(build(minimal_streams(face28(0, 1, 2, 1))), compatible());
  EXPECT_EQ(d.code, "land_msh.face.neighbour");
  EXPECT_EQ(d.field, "faces[0].neighbour[0]");
  EXPECT_EQ(d.expected, "0xffff or < 1");
}

TEST(LandMsh, rejects_neighbour_in_second_face_at_its_offset) {
  auto faces = face28(0, 1, 2, 1);
  auto second = face28(2, 1, 0, 0, 0xFFFF, 7);
  faces.insert(faces.end(), second.begin(), second.end());
  const auto file = build(minimal_streams(faces));
  const auto d = read_error(file);
  EXPECT_EQ(d.code, "land_msh.face.neighbour");
  EXPECT_EQ(d.field, "faces[1].neighbour[2]");
  auto archive = read_nres(file);
  EXPECT_EQ(*d.offset, archive->entries[8].data_offset + 28u + 14u + 4u);
}

TEST(LandMsh, self_neighbour_is_strict_error_and_compatible_warning) {
  const auto file = build(minimal_streams(face28(0, 1, 2, 0xFFFF, 0)));
  const auto d = read_error(file);
  EXPECT_EQ(d.code, "land_msh.face.neighbour_self");
  EXPECT_EQ(d.field, "faces[0].neighbour[1]");
  core::Diagnostics findings;
  ASSERT_TRUE(read_land_msh(file, compatible(), &findings));
  EXPECT_TRUE(has_code(findings, "land_msh.face.neighbour_self"));
}

TEST(LandMsh, face_65535_without_neighbours_is_not_its_own_neighbour) {
  // u16 neighbour indices: on a map of more than 65,535 faces, face 65535's "none" (0xFFFF)
  // equals its own index. It used to be read as a self link (strict error at faces[65535]).
  LandMsh m;
  auto built = make_land_msh_from_heightfield(make_sample_heightfield(9, 9, 3), {2});
  ASSERT_TRUE(built);
  m = *built;
  const std::vector<TerrainFace28> base = m.faces;
  m.faces.clear();
  for (std::size_t i = 0; m.faces.size() < 70'000; ++i) {
    TerrainFace28 f = base[i % base.size()];
    f.neighbours = {kNoNeighbour, kNoNeighbour, kNoNeighbour};
    f.aux_tag = static_cast<std::uint16_t>(i);
    m.faces.push_back(f);
  }
  auto bytes = write_land_msh(m);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  core::Diagnostics findings;
  auto back = read_land_msh(*bytes, strict(), &findings);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_TRUE(findings.empty());
  ASSERT_EQ(back->faces.size(), 70'000u);
  EXPECT_EQ(back->faces[65535].aux_tag, std::uint16_t{65535});
  EXPECT_EQ(back->faces[69'999].aux_tag, static_cast<std::uint16_t>(69'999));
  EXPECT_EQ(back->faces, m.faces);
  EXPECT_EQ(back->positions, m.positions);
  EXPECT_EQ(write_land_msh(*back).value(), *bytes);
}

core::Bytes slot_payload(std::uint16_t pair_index, std::uint16_t pair_count) {
  core::ByteWriter w;
  w.zeros(0x8C);
  w.u16(pair_index);
  w.u16(pair_count);
  w.zeros(64);
  return w.take();
}

TEST(LandMsh, slot_dispatches_material_pairs) {
  auto streams = minimal_streams();
  stream(streams, 2).payload = slot_payload(1, 2);
  stream(streams, 2).attr1 = 1;
  stream(streams, 11).payload = {0, 0, 0, 0, 0x02, 0x01, 0, 0, 0x03, 0x02, 0x10, 0};
  stream(streams, 11).attr1 = 3;
  auto m = read_land_msh(build(streams), strict());
  ASSERT_TRUE(m) << m.error().to_string();
  ASSERT_EQ(m->slots.size(), 1u);
  EXPECT_EQ(m->slots[0].pair_table_index, 1);
  EXPECT_EQ(m->slots[0].pair_count, 2);
  const auto pairs = m->slot_pairs(0);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].material_lookup, 0x0102);
  EXPECT_EQ(pairs[0].flags, 0);
  EXPECT_EQ(pairs[1].material_lookup, 0x0203);
  EXPECT_EQ(pairs[1].flags, kPairBatchBoundary);
}

TEST(LandMsh, slot_pair_range_past_type_11_is_strict_error_and_compatible_warning) {
  auto streams = minimal_streams();
  stream(streams, 2).payload = slot_payload(2, 2);
  stream(streams, 2).attr1 = 1;
  stream(streams, 11).payload = core::Bytes(12, 0);
  stream(streams, 11).attr1 = 3;
  const auto file = build(streams);
  const auto d = read_error(file);
  EXPECT_EQ(d.code, "land_msh.slot.pair_range");
  EXPECT_EQ(d.field, "slots[0].pair_count");
  EXPECT_EQ(d.found, "2 + 2 = 4");
  core::Diagnostics findings;
  auto m = read_land_msh(file, compatible(), &findings);
  ASSERT_TRUE(m);
  EXPECT_TRUE(has_code(findings, "land_msh.slot.pair_range"));
  EXPECT_TRUE(m->slot_pairs(0).empty());
}

TEST(LandMsh, material_tag_rows) {
  TerrainFace28 f;
  f.material_tag = 0x0102;
  EXPECT_TRUE(f.has_land1_row());
  EXPECT_EQ(f.land1_row(), 1);
  EXPECT_EQ(f.land2_row(), 2);
  f.material_tag = 0xFF03;
  EXPECT_FALSE(f.has_land1_row());
  EXPECT_EQ(f.land2_row(), 3);
}

TEST(LandMsh, surface_mask_table_maps_each_bit) {
  const std::map<std::uint32_t, std::uint16_t> compact = {
      {0x00000001, 0x0001}, {0x00000008, 0x0002}, {0x00000010, 0x0004}, {0x00000020, 0x0008}, {0x00001000, 0x0010},
      {0x00004000, 0x0020}, {0x00000002, 0x0040}, {0x00000400, 0x0080}, {0x00000800, 0x0100}, {0x00020000, 0x0200},
      {0x00002000, 0x0400}, {0x00000200, 0x0800}, {0x00000004, 0x1000}, {0x00000040, 0x2000}, {0x00200000, 0x8000}};
  for (auto [full, c] : compact) {
    EXPECT_EQ(full_to_compact(full), c) << std::hex << full;
    EXPECT_EQ(compact_to_full(c), full) << std::hex << c;
    EXPECT_EQ(full_to_material_class(full), 0);
  }
  const std::map<std::uint32_t, std::uint8_t> cls = {{0x00000100, 0x01}, {0x00008000, 0x02}, {0x00010000, 0x04},
                                                     {0x00040000, 0x08}, {0x00080000, 0x10}, {0x00000080, 0x20}};
  for (auto [full, c] : cls) {
    EXPECT_EQ(full_to_material_class(full), c);
    EXPECT_EQ(material_class_to_full(c), full);
    EXPECT_EQ(full_to_compact(full), 0);
  }
  EXPECT_EQ(full_to_material_class(0x8000 | 0x80), 0x22);
  EXPECT_EQ(compact_to_full(kCompactUnmappedBits), 0u);
}

TEST(LandMsh, surface_mask_split_keeps_unknown_bits) {
  const auto s = split_surface_mask(0x80000001u | 0x100u | 0x00400000u);
  EXPECT_EQ(s.compact, 0x0001);
  EXPECT_EQ(s.material_class, 0x01);
  EXPECT_EQ(s.unknown_full, 0x80400000u);
  core::Rng rng(7);
  for (int i = 0; i < 10000; ++i) {
    const std::uint32_t full = rng.next_u32();
    EXPECT_EQ(join_surface_mask(split_surface_mask(full)), full);
  }
  for (std::uint32_t c = 0; c <= 0xFFFF; ++c)
    if (!(c & kCompactUnmappedBits)) {
      ASSERT_EQ(full_to_compact(compact_to_full(static_cast<std::uint16_t>(c))), c);
    }
}

TEST(LandMsh, json_lists_streams_and_faces) {
  const auto file = build(minimal_streams());
  const auto* info = sortie::formats::find_format("land_msh");
  ASSERT_NE(info, nullptr);
  auto j = info->inspect(file, strict());
  ASSERT_TRUE(j) << j.error().to_string();
  EXPECT_EQ((*j)["format"], "land_msh");
  ASSERT_EQ((*j)["streams"].size(), 9u);
  EXPECT_EQ((*j)["streams"][2]["type_id"], 3);
  EXPECT_EQ((*j)["streams"][2]["count"], 3);
  EXPECT_EQ((*j)["streams"][2]["stride"], 12);
  EXPECT_EQ((*j)["faces"]["count"], 1);
  EXPECT_EQ((*j)["faces"]["boundary_edges"], 3);
  EXPECT_EQ((*j)["faces"]["material_tags"]["0x0102"], 1);
  EXPECT_EQ((*j)["faces"]["material_class_bits"]["0x02"], 1);
  EXPECT_EQ((*j)["positions"]["max"][0], 1.0);
}

TEST(LandMsh, detects_by_name_and_by_signature) {
  const auto file = build(minimal_streams());
  EXPECT_EQ(land_msh_format_info().detect(file, "maps/x/LAND.MSH"), kDetectContent);
  EXPECT_EQ(land_msh_format_info().detect(file, "whatever.bin"), kDetectContent);
  const auto other = NresBuilder().add(1, "a", {1}).build().value();
  EXPECT_EQ(land_msh_format_info().detect(other, "thing.rlb"), kDetectNone);
  EXPECT_EQ(land_msh_format_info().detect(other, "Land.msh"), kDetectName);  // name + NRes magic
  const core::Bytes not_nres = {'X', 'R', 'e', 's'};
  EXPECT_EQ(land_msh_format_info().detect(not_nres, "Land.msh"), kDetectNone);
  EXPECT_EQ(sortie::formats::detect_format(file, "Land.msh")->name, "land_msh");
}

TEST(LandMsh, check_reports_compatible_warnings) {
  auto streams = minimal_streams();
  std::swap(streams[0], streams[1]);
  const auto file = build(streams);
  auto report = land_msh_format_info().check(file, compatible());
  ASSERT_TRUE(report);
  EXPECT_TRUE(has_code(report->findings, "land_msh.stream_order"));
  EXPECT_FALSE(land_msh_format_info().check(file, strict()));
}

// ---- builder ----

TEST(LandMshBuilder, heightfield_mesh_passes_strict_reader) {
  const auto hf = make_sample_heightfield(33, 25, 11);
  auto m = make_land_msh_from_heightfield(hf);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->positions.size(), 33u * 25u);
  EXPECT_EQ(m->faces.size(), 2u * 32u * 24u);
  EXPECT_EQ(m->normals.size(), m->positions.size());
  EXPECT_EQ(m->material_pairs.size(), m->faces.size());
  EXPECT_EQ(m->slots.size(), 64u);
  ASSERT_TRUE(validate_land_msh(*m, strict()));
  auto bytes = write_land_msh(*m);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  core::Diagnostics findings;
  auto back = read_land_msh(*bytes, strict(), &findings);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_TRUE(findings.empty());
  EXPECT_EQ(*back, *m);
  auto again = write_land_msh(*back);
  EXPECT_EQ(*again, *bytes);
}

TEST(LandMshBuilder, neighbours_are_reciprocal_and_share_an_edge) {
  auto m = make_land_msh_from_heightfield(make_sample_heightfield(9, 7, 3), {3});
  ASSERT_TRUE(m);
  std::size_t boundary = 0;
  for (std::size_t i = 0; i < m->faces.size(); ++i) {
    const auto& f = m->faces[i];
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint16_t a = f.vertices[k], b = f.vertices[(k + 1) % 3];
      if (f.neighbours[k] == kNoNeighbour) {
        ++boundary;
        continue;
      }
      const auto& g = m->faces[f.neighbours[k]];
      bool found = false;
      for (std::size_t e = 0; e < 3; ++e)
        if (g.vertices[e] == b && g.vertices[(e + 1) % 3] == a) {
          EXPECT_EQ(g.neighbours[e], i) << "face " << i << " edge " << k;
          found = true;
        }
      EXPECT_TRUE(found) << "face " << i << " edge " << k;
    }
  }
  EXPECT_EQ(boundary, 2u * (8 + 6));  // the border of an 8 x 6 cell grid
}

TEST(LandMshBuilder, slots_cover_every_face_once_in_order) {
  auto m = make_land_msh_from_heightfield(make_sample_heightfield(20, 20, 5), {4});
  ASSERT_TRUE(m);
  std::size_t next = 0;
  for (std::size_t s = 0; s < m->slots.size(); ++s) {
    EXPECT_EQ(m->slots[s].pair_table_index, next);
    const auto pairs = m->slot_pairs(s);
    ASSERT_FALSE(pairs.empty());
    EXPECT_EQ(pairs[0].flags & kPairBatchBoundary, kPairBatchBoundary);
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      EXPECT_EQ(pairs[k].material_lookup, next + k);
      for (auto v : m->faces[next + k].vertices) {
        const auto& p = m->positions[v];
        EXPECT_GE(p.x, m->slots[s].aabb_min.x);
        EXPECT_LE(p.x, m->slots[s].aabb_max.x);
        EXPECT_GE(p.z, m->slots[s].aabb_min.z);
        EXPECT_LE(p.z, m->slots[s].aabb_max.z);
      }
    }
    next += pairs.size();
  }
  EXPECT_EQ(next, m->faces.size());
}

TEST(LandMshBuilder, heights_follow_the_heightfield) {
  Heightfield hf;
  hf.columns = 3;
  hf.rows = 2;
  hf.cell_size = 2;
  hf.origin = {10, 20, 1};
  hf.heights = {0, 2, 4, 0, 2, 4};
  auto m = make_land_msh_from_heightfield(hf);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->positions[5], (core::Vec3{14, 22, 5}));
  auto z = land_msh_height_at(*m, 11, 21);
  ASSERT_TRUE(z);
  EXPECT_FLOAT_EQ(*z, 2.0f);
  EXPECT_FALSE(land_msh_height_at(*m, 9, 21));
}

TEST(LandMshBuilder, rejects_more_vertices_than_u16_addresses) {
  auto r = make_land_msh_from_heightfield(make_sample_heightfield(256, 256, 1));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "land_msh.build.vertex_limit");
}

TEST(LandMshBuilder, rejects_more_faces_than_u16_addresses) {
  auto r = make_land_msh_from_heightfield(make_sample_heightfield(200, 200, 1));  // 40,000 vertices, 78,802 faces
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "land_msh.build.face_limit");
}

TEST(LandMshBuilder, largest_square_map_fits) {
  auto r = make_land_msh_from_heightfield(make_sample_heightfield(182, 182, 1));  // 33,124 vertices, 65,522 faces
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->faces.size(), 65522u);
  EXPECT_TRUE(read_land_msh(write_land_msh(*r).value(), strict()));
}

TEST(LandMshBuilder, rejects_heights_of_wrong_size) {
  Heightfield hf;
  hf.columns = 3;
  hf.rows = 3;
  hf.heights.resize(8);
  auto r = make_land_msh_from_heightfield(hf);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "land_msh.build.size");
}

}  // namespace
}  // namespace sortie::iron3d

namespace sortie::iron3d {
namespace {

TEST(LandMsh, keeps_slot_header_slot_tail_and_nodes_raw) {
  auto streams = land_test::minimal_streams();
  core::ByteWriter w;
  for (int i = 0; i < 0x8C; ++i) w.u8(static_cast<std::uint8_t>(i + 1));
  w.u16(0);
  w.u16(0);
  w.u16(0xABCD);
  w.u16(0x1234);
  for (int i = 0; i < 10; ++i) w.f32(static_cast<float>(i));
  for (std::uint32_t t : {0xDEADBEEFu, 1u, 2u, 3u, 0xFFFFFFFFu}) w.u32(t);
  land_test::stream(streams, 2).payload = w.take();
  land_test::stream(streams, 2).attr1 = 1;
  land_test::stream(streams, 2).attr3 = 68;
  land_test::stream(streams, 1).payload = core::Bytes(76, 0xA5);
  land_test::stream(streams, 1).attr1 = 2;
  const auto file = land_test::build(streams);
  auto m = read_land_msh(file, {core::Profile::strict, "Land.msh"});
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->slot_header[0], 1);
  EXPECT_EQ(m->slot_header[0x8B], 0x8C);
  ASSERT_EQ(m->slots.size(), 1u);
  EXPECT_EQ(m->slots[0].word4, 0xABCD);
  EXPECT_EQ(m->slots[0].word6, 0x1234);
  EXPECT_EQ(m->slots[0].aabb_max, (core::Vec3{3, 4, 5}));
  EXPECT_EQ(m->slots[0].sphere_radius, 9.0f);
  EXPECT_EQ(m->slots[0].tail[0], 0xDEADBEEFu);
  EXPECT_EQ(m->slots[0].tail[4], 0xFFFFFFFFu);
  EXPECT_EQ(m->entries[1].attr3, 68u);
  EXPECT_EQ(m->nodes_raw.size(), 76u);
  EXPECT_EQ(write_land_msh(*m).value(), file);
}

}  // namespace
}  // namespace sortie::iron3d
