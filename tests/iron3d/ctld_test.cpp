#include "sortie/iron3d/ctld.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sortie/formats/formats.hpp"

using namespace sortie;
using namespace sortie::iron3d;

TEST(Ctld, row_start_formula) {
  EXPECT_EQ(ctld_row_start(0, 0), 128u);
  // fr_l_plant.ctl: 128 + 14 * 156 + 4 * 14 * 14 = 128 + 2184 + 784 = 3096 = 0xC18
  EXPECT_EQ(ctld_row_start(14, 0), 3096u);
  // 128 + 2 * (156 + 16 * 3) + 4 * 2 * 2 = 128 + 408 + 16 = 552
  EXPECT_EQ(ctld_row_start(2, 3), 552u);
  EXPECT_TRUE(ctld_row_start(0xFFFFFFFFu, 0xFFFFFFFFu).has_value() == false);
}

TEST(Ctld, fr_l_plant_layout_reads_and_writes_back) {
  std::vector<CtldRow> rows;
  for (int i = 0; i < 5; ++i) rows.push_back(make_ctld_row(i, 0.0f, 10.0f, 0.5f, 0));
  auto c = build_ctld(14, 0, rows, 11, 13, core::Bytes{1, 2, 3});
  c.prefix[7] = 0x5A;  // unknown section bytes survive
  rows[2].raw[0x14] = 0x77;
  c.rows[2].raw[0x14] = 0x77;  // unknown row bytes survive
  const auto bytes = write_ctld(c);
  // rows start at 3096 (0xC18) and end at 3096 + 5 * 36 = 3276 (0xCCC); 3 tail bytes follow.
  ASSERT_EQ(bytes.size(), 0xCCCu + 3);
  EXPECT_EQ(core::load_i32(bytes.data() + 0xC18 + 36 * 4), 4);
  auto back = read_ctld(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->counts, (std::array<std::uint32_t, 5>{14, 0, 5, 11, 13}));
  EXPECT_EQ(back->rows.size(), 5u);
  EXPECT_EQ(back->rows[2].raw[0x14], 0x77);
  EXPECT_EQ(back->tail, (core::Bytes{1, 2, 3}));
  EXPECT_EQ(write_ctld(*back), bytes);
}

TEST(Ctld, blend_rules) {
  // no flag: clamp to [0, 1]
  EXPECT_EQ(ctld_normalize_blend(1.25f, 0), 1.0f);
  EXPECT_EQ(ctld_normalize_blend(-0.5f, 0), 0.0f);
  EXPECT_EQ(ctld_normalize_blend(0.25f, 0), 0.25f);
  // flag 1: one wrap, no clamp afterwards: 1.25 - 1 = 0.25; -0.25 + 1 = 0.75; 2.5 - 1 = 1.5
  EXPECT_EQ(ctld_normalize_blend(1.25f, 1), 0.25f);
  EXPECT_EQ(ctld_normalize_blend(-0.25f, 1), 0.75f);
  EXPECT_EQ(ctld_normalize_blend(2.5f, 1), 1.5f);
  EXPECT_EQ(ctld_normalize_blend(1.0f, 1), 1.0f);  // not above 1: unchanged
  // flag 2 inverts after the range rule: 1 - 0.25 = 0.75; clamp(1.5) = 1 -> 0
  EXPECT_EQ(ctld_normalize_blend(0.25f, 2), 0.75f);
  EXPECT_EQ(ctld_normalize_blend(1.5f, 2), 0.0f);
  // flags 1|2: wrap 1.25 -> 0.25, invert -> 0.75
  EXPECT_EQ(ctld_normalize_blend(1.25f, 3), 0.75f);
}

TEST(Ctld, frame_is_the_blend_of_the_endpoints) {
  // (1 - 0.25) * 10 + 0.25 * 20 = 7.5 + 5 = 12.5
  // flags 1: blend 1.75 -> 0.75: 0.25 * 4 + 0.75 * 8 = 1 + 6 = 7
  // flags 2: blend 0.125 -> 0.875: 0.125 * 0 + 0.875 * 16 = 14
  auto c = build_ctld(0, 0,
                      {make_ctld_row(3, 10.0f, 20.0f, 0.25f, 0), make_ctld_row(5, 4.0f, 8.0f, 1.75f, 1),
                       make_ctld_row(7, 0.0f, 16.0f, 0.125f, 2)});
  const auto pose = evaluate_ctld_pose(c);
  ASSERT_EQ(pose.nodes.size(), 3u);
  EXPECT_EQ(pose.find(3)->frame, 12.5f);
  EXPECT_EQ(pose.find(5)->frame, 7.0f);
  EXPECT_EQ(pose.find(5)->blend, 0.75f);
  EXPECT_EQ(pose.find(7)->frame, 14.0f);
}

TEST(Ctld, flag_4_rows_are_skipped_before_the_floats_are_read) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto c = build_ctld(0, 0, {make_ctld_row(1, -1.0f, -1.0f, nan, 4), make_ctld_row(2, 2.0f, 4.0f, 0.5f, 4 | 1)});
  const auto pose = evaluate_ctld_pose(c);
  EXPECT_TRUE(pose.nodes.empty());
  EXPECT_EQ(pose.skipped_rows, 2u);
}

TEST(Ctld, last_included_row_wins_for_a_repeated_node) {
  auto c = build_ctld(1, 1,
                      {make_ctld_row(9, 0.0f, 10.0f, 0.1f, 0),    // 1
                       make_ctld_row(4, 0.0f, 10.0f, 0.5f, 0),    // 5
                       make_ctld_row(9, 0.0f, 10.0f, 0.3f, 0),    // 3: replaces the first row of node 9
                       make_ctld_row(9, 0.0f, 10.0f, 0.9f, 4)});  // skipped: node 9 keeps row 2
  const auto pose = evaluate_ctld_pose(c);
  ASSERT_EQ(pose.nodes.size(), 2u);
  EXPECT_EQ(pose.nodes[0].node_id, 9);  // order of first appearance
  EXPECT_EQ(pose.nodes[0].row, 2u);
  EXPECT_FLOAT_EQ(pose.nodes[0].frame, 3.0f);
  EXPECT_EQ(pose.nodes[1].node_id, 4);
  EXPECT_EQ(pose.nodes[1].frame, 5.0f);
}

TEST(Ctld, each_component_instance_gets_its_own_pose_from_a_shared_ctld) {
  auto shared = std::make_shared<const Ctld>(build_ctld(0, 0, {make_ctld_row(1, 0.0f, 8.0f, 0.5f, 0)}));
  auto other = std::make_shared<const Ctld>(build_ctld(0, 0, {make_ctld_row(1, 0.0f, 8.0f, 0.25f, 0)}));
  const std::vector<CtldInstance> inst = {{10, shared}, {11, shared}, {12, other}, {13, nullptr}};
  auto poses = bind_ctld_poses(inst);
  ASSERT_EQ(poses.size(), 4u);
  EXPECT_EQ(poses[0].instance_id, 10u);
  EXPECT_EQ(poses[0].pose.find(1)->frame, 4.0f);
  EXPECT_EQ(poses[1].pose.find(1)->frame, 4.0f);
  EXPECT_EQ(poses[2].pose.find(1)->frame, 2.0f);
  EXPECT_TRUE(poses[3].pose.nodes.empty());
  // Changing one instance's binding leaves the instance that shares its CTLD alone.
  poses[0].pose.nodes[0].frame = 99.0f;
  EXPECT_EQ(poses[1].pose.find(1)->frame, 4.0f);
  EXPECT_EQ(evaluate_ctld_pose(*shared).find(1)->frame, 4.0f);
}

TEST(Ctld, rejects_file_shorter_than_the_counts) {
  auto r = read_ctld(core::Bytes(19, 0));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "ctld.size");
}

TEST(Ctld, rejects_row_start_past_the_end) {
  auto bytes = write_ctld(build_ctld(0, 0, {}));
  ASSERT_EQ(bytes.size(), 128u);
  core::store_u32(bytes.data(), 1);  // S = 1 -> row_start 128 + 156 + 4 = 288
  auto r = read_ctld(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "ctld.row_start");
}

TEST(Ctld, rejects_count_overflow) {
  auto bytes = write_ctld(build_ctld(0, 0, {}));
  core::store_u32(bytes.data(), 0xFFFFFFFFu);
  core::store_u32(bytes.data() + 4, 0xFFFFFFFFu);
  auto r = read_ctld(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "ctld.row_start");
}

TEST(Ctld, rejects_rows_past_the_end) {
  auto bytes = write_ctld(build_ctld(0, 0, {make_ctld_row(1, 0, 0, 0, 0)}));
  core::store_u32(bytes.data() + 8, 2);  // T = 2 but one row present
  auto r = read_ctld(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "ctld.rows");
  core::store_u32(bytes.data() + 8, 0x80000000u);
  r = read_ctld(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "ctld.rows");
}

TEST(Ctld, most_common_392_byte_shape_reads) {
  // counts (0, 0, 0, 1, 0): rows start at 128, none; 264 raw tail bytes.
  auto c = build_ctld(0, 0, {}, 1, 0, core::Bytes(264, 0xEE));
  const auto bytes = write_ctld(c);
  ASSERT_EQ(bytes.size(), 392u);
  auto back = read_ctld(bytes, {core::Profile::strict, "x.ctl"});
  ASSERT_TRUE(back);
  EXPECT_EQ(back->tail.size(), 264u);
  const auto* f = sortie::formats::detect_format(bytes, "x.ctl");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "ctld");
}
