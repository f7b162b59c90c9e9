#include "sortie/iron3d/msh.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace sortie;
using namespace sortie::iron3d;

namespace {

MshStream stream(std::uint32_t type, std::uint32_t attr3, core::Bytes payload, std::uint32_t attr2 = 0) {
  MshStream s;
  s.type_id = type;
  s.attr2 = attr2;
  s.attr3 = attr3;
  s.name = core::FixedString::make("Res" + std::to_string(type), 36);
  s.payload = std::move(payload);
  return s;
}

std::vector<MshStream> minimal() {
  return {stream(1, 38, {}), stream(2, 68, core::Bytes(0x8C, 0)), stream(3, 12, {}), stream(6, 2, {}),
          stream(13, 20, {})};
}

MshModel box() {
  auto m = build_msh_model(msh_box_input(1, 2, 3, 2));
  EXPECT_TRUE(m) << (m ? "" : m.error().to_string());
  return *m;
}

std::vector<MshStream> box_streams() {
  return encode_msh_streams(box());
}

MshStream& of_type(std::vector<MshStream>& s, std::uint32_t type) {
  for (auto& st : s)
    if (st.type_id == type) return st;
  throw std::logic_error("no stream");
}

std::string code_of(std::vector<MshStream> s) {
  auto m = read_msh_streams(std::move(s));
  return m ? "ok" : m.error().code;
}

}  // namespace

TEST(Msh, minimal_model_has_no_nodes_or_slots) {
  auto m = read_msh_streams(minimal());
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->node_count, 0u);
  EXPECT_TRUE(m->slots.empty());
  EXPECT_EQ(encode_msh_streams(*m), minimal());
}

TEST(Msh, stream_order_does_not_matter) {
  auto s = minimal();
  std::reverse(s.begin(), s.end());
  EXPECT_EQ(code_of(s), "ok");
}

TEST(Msh, node38_slot_mapping) {
  auto s = box_streams();
  auto m = read_msh_streams(s);
  ASSERT_TRUE(m);
  m->nodes[0].slots[7] = 0;
  EXPECT_EQ(msh_slot_for(*m, 0, 0, 0), 0u);
  EXPECT_EQ(msh_slot_for(*m, 0, 1, 2), 0u);
  EXPECT_EQ(msh_slot_for(*m, 0, 2, 4), std::nullopt);
  EXPECT_EQ(msh_slot_for(*m, 0, 3, 0), std::nullopt);
  EXPECT_EQ(msh_slot_for(*m, 1, 0, 0), std::nullopt);
}

TEST(Msh, batch20_unaligned_fields) {
  auto s = minimal();
  core::ByteWriter w;
  w.u16(0x1100), w.u16(0x2200), w.u16(0x3300), w.u16(0x4400), w.u16(0), w.u32(0), w.u16(0x5500), w.u32(0);
  of_type(s, 13).payload = w.take();
  auto m = read_msh_streams(s);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->batches[0].material_index, 0x2200);
  EXPECT_EQ(m->batches[0].opaque14, 0x5500);
  EXPECT_EQ(encode_msh_streams(*m), s);
}

TEST(Msh, builder_box_passes_strict_reader_and_exposes_materials) {
  const auto m = box();
  EXPECT_EQ(m.positions.size(), 8u);
  EXPECT_EQ(m.indices.size(), 36u);
  EXPECT_EQ(m.batches.size(), 6u);
  EXPECT_EQ(msh_material_rows(m), (std::vector<std::uint16_t>{0, 1}));
  ASSERT_TRUE(m.tri_descs);
  EXPECT_EQ(m.tri_descs->size(), 12u);
  ASSERT_TRUE(m.node_names);
  EXPECT_EQ((*m.node_names)[0], "root");
  EXPECT_FLOAT_EQ(m.slots[0].aabb_max.z, 3.0f);
  EXPECT_FLOAT_EQ(m.slots[0].sphere_radius, std::sqrt(14.0f));
  auto bytes = write_msh_canonical(m);
  ASSERT_TRUE(bytes);
  auto file = read_msh(*bytes);
  ASSERT_TRUE(file) << file.error().to_string();
  EXPECT_EQ(file->model, m);
  auto again = write_msh(*file);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *bytes);
  EXPECT_EQ(msh_format_info().detect(*bytes, "x.msh"), kDetectContent);
  EXPECT_EQ(msh_format_info().detect(*bytes, "x.bin"), kDetectContent);
}

TEST(Msh, edited_model_is_rewritten_through_the_nres_layer) {
  auto bytes = write_msh_canonical(box());
  auto file = read_msh(*bytes);
  ASSERT_TRUE(file);
  file->model.batches[0].material_index = 5;
  file->model.positions.push_back({9, 9, 9});
  auto out = write_msh(*file);
  ASSERT_TRUE(out) << out.error().to_string();
  auto back = read_msh(*out);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->model.batches[0].material_index, 5);
  EXPECT_EQ(back->model.positions.size(), 9u);
}

TEST(Msh, keeps_unknown_and_duplicate_optional_streams) {
  auto s = box_streams();
  s.push_back(stream(99, 0, {1, 2, 3}));
  s.push_back(stream(18, 4, {4, 5, 6, 7}));
  s.push_back(stream(4, 4, {9, 9, 9, 9}));  // second normals stream: kept raw
  auto m = read_msh_streams(s);
  ASSERT_TRUE(m);
  EXPECT_EQ(encode_msh_streams(*m), s);
}

TEST(Msh, anim_keys_and_frame_map_kept_raw) {
  auto s = minimal();
  core::ByteWriter k;
  k.f32(4), k.f32(0), k.f32(0), k.f32(0), k.i16(0), k.i16(-23170), k.i16(0), k.i16(23170);
  s.push_back(stream(8, 4, k.take()));
  s.push_back(stream(19, 2, {0, 0, 0, 0, 0, 0}, 3));
  auto m = read_msh_streams(s);
  ASSERT_TRUE(m) << m.error().to_string();
  ASSERT_TRUE(m->anim_keys);
  EXPECT_EQ((*m->anim_keys)[0].rotation[1], -23170);
  EXPECT_EQ(m->frame_count, 3u);
  EXPECT_EQ(m->frame_map->size(), 3u);
  EXPECT_EQ(encode_msh_streams(*m), s);
}

TEST(Msh, rejects_missing_type_3) {
  auto s = minimal();
  s.erase(s.begin() + 2);
  auto m = read_msh_streams(s);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "msh.stream_missing");
  EXPECT_EQ(m.error().field, "streams[type 3]");
}

TEST(Msh, rejects_duplicate_type_1) {
  auto s = minimal();
  s.push_back(stream(1, 38, {}));
  EXPECT_EQ(code_of(s), "msh.stream_duplicate");
}

TEST(Msh, rejects_node_stride_40) {
  auto s = minimal();
  s[0].attr3 = 40;
  EXPECT_EQ(code_of(s), "msh.node_stride");
}

TEST(Msh, rejects_node_table_of_37_bytes) {
  auto s = minimal();
  s[0].payload.resize(37);
  EXPECT_EQ(code_of(s), "msh.stream_size");
}

TEST(Msh, rejects_type2_of_0x8b_and_0x8c_plus_67) {
  auto s = minimal();
  s[1].payload.resize(0x8B);
  EXPECT_EQ(code_of(s), "msh.header_size");
  s[1].payload.resize(0x8C + 67);
  EXPECT_EQ(code_of(s), "msh.header_size");
}

TEST(Msh, rejects_stride_violations_for_types_3_4_5_6) {
  for (std::uint32_t t : {3u, 6u}) {
    auto s = minimal();
    of_type(s, t).payload.resize(1);
    EXPECT_EQ(code_of(s), "msh.stream_size") << t;
  }
  for (std::uint32_t t : {4u, 5u}) {
    auto s = minimal();
    s.push_back(stream(t, 4, {1, 2, 3}));
    EXPECT_EQ(code_of(s), "msh.stream_size") << t;
  }
}

TEST(Msh, rejects_slot_batch_range_without_batches) {
  auto s = box_streams();
  auto& t2 = of_type(s, 2);
  t2.payload[0x8C + 4] = 1;  // batch_start 1
  of_type(s, 13).payload.clear();
  EXPECT_EQ(code_of(s), "msh.slot_batch_range");
}

TEST(Msh, rejects_batch_index_range_past_index_buffer) {
  auto s = box_streams();
  of_type(s, 6).payload.resize(10);
  EXPECT_EQ(code_of(s), "msh.batch_index_range");
}

TEST(Msh, rejects_index_with_zero_positions) {
  auto s = box_streams();
  of_type(s, 3).payload.clear();
  EXPECT_EQ(code_of(s), "msh.vertex_index");
}

TEST(Msh, rejects_aabb_min_above_max) {
  auto m = box();
  m.slots[0].aabb_min.x = 2;
  m.slots[0].aabb_max.x = 1;
  EXPECT_EQ(code_of(encode_msh_streams(m)), "msh.bounds");
  m = box();
  m.slots[0].sphere_radius = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(code_of(encode_msh_streams(m)), "msh.bounds");
}

TEST(Msh, rejects_names_past_stream) {
  auto s = box_streams();
  of_type(s, 10).payload = {200, 0, 0, 0, 'a'};
  EXPECT_EQ(code_of(s), "msh.names");
}

TEST(Msh, rejects_nonfinite_key_time_when_map_present) {
  auto s = minimal();
  core::ByteWriter k;
  k.f32(0), k.f32(0), k.f32(0), k.f32(std::numeric_limits<float>::infinity()), k.u64(0);
  s.push_back(stream(8, 4, k.take()));
  s.push_back(stream(19, 2, {0, 0}));
  EXPECT_EQ(code_of(s), "msh.key_time");
  s.pop_back();
  EXPECT_EQ(code_of(s), "ok");  // a lone type 8 is not checked
}

TEST(Msh, warns_on_documented_unchecked_rules) {
  auto m = box();
  m.nodes[0].parent = 0;       // self parent
  m.nodes[0].slots[1] = 7;     // past the slot table
  m.slots[0].tri_count = 100;  // past type 7
  core::Diagnostics w;
  auto r = read_msh_streams(encode_msh_streams(m), {}, &w);
  ASSERT_TRUE(r);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].code, "msh.node_parent");
  EXPECT_EQ(w[1].code, "msh.node_slot");
  EXPECT_EQ(w[2].code, "msh.slot_tri_range");
}

TEST(Msh, builder_rejects_bad_input) {
  MshBuildInput in;
  in.positions = {{0, 0, 0}};
  in.indices = {0, 0};
  auto m = build_msh_model(in);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "builder.msh");
  EXPECT_EQ(m.error().field, "indices");
  EXPECT_EQ(m.error().found, "2");
  in.indices = {0, 0, 1};
  m = build_msh_model(in);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "builder.msh");
  EXPECT_EQ(m.error().field, "indices[2]");
  EXPECT_EQ(m.error().expected, "< 1");
  EXPECT_EQ(m.error().found, "1");
}

TEST(Msh, rejects_non_nres_file) {
  auto f = read_msh(core::Bytes{1, 2, 3});
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code.rfind("nres.", 0), 0u);
}
