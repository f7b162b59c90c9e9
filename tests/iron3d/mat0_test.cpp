#include "sortie/iron3d/mat0.hpp"

#include <gtest/gtest.h>

using namespace sortie;
using namespace sortie::iron3d;

namespace {

core::Bytes phase(std::string_view tex, std::uint8_t p0 = 0) {
  core::ByteWriter w;
  w.u8(p0);
  w.zeros(17);
  w.fixed_string(core::FixedString::make(tex, 16));
  return w.take();
}

}  // namespace

TEST(Mat0, reads_version4_two_phases_with_ten_byte_prefix) {
  core::ByteWriter w;
  w.u16(2), w.u16(0);
  w.u8(1), w.u8(2), w.u32(0x3F800000), w.u32(9);
  w.bytes(core::ByteView(phase("TEXMAIN", 7)));
  w.bytes(core::ByteView(phase("TEXALT")));
  const auto bytes = w.take();
  auto m = read_mat0(bytes, 4);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->metadata_a, 1);
  EXPECT_EQ(m->metadata_d_raw, 9u);
  ASSERT_EQ(m->phases.size(), 2u);
  EXPECT_EQ(m->phases[0].parameters[0], 7);
  EXPECT_EQ(mat0_texture_names(*m), (std::vector<std::string>{"TEXMAIN", "TEXALT"}));
  EXPECT_EQ(write_mat0(*m), bytes);
}

TEST(Mat0, prefix_length_follows_version) {
  EXPECT_EQ(mat0_prefix_size(0), 0u);
  EXPECT_EQ(mat0_prefix_size(1), 0u);
  EXPECT_EQ(mat0_prefix_size(2), 2u);
  EXPECT_EQ(mat0_prefix_size(3), 6u);
  EXPECT_EQ(mat0_prefix_size(6), 10u);
  for (std::uint32_t v : {0u, 2u, 3u, 6u}) {
    auto m = build_mat0({"A"});
    ASSERT_TRUE(m);
    m->version = v;
    const auto bytes = write_mat0(*m);
    EXPECT_EQ(bytes.size(), 4 + mat0_prefix_size(v) + 34);
    auto back = read_mat0(bytes, v);
    ASSERT_TRUE(back) << v;
    EXPECT_EQ(*back, *m);
  }
}

TEST(Mat0, zero_phase_material) {
  const core::Bytes bytes{0, 0, 0, 0};
  auto m = read_mat0(bytes, 0);
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->phases.empty());
  EXPECT_EQ(write_mat0(*m), bytes);
}

TEST(Mat0, full_sixteen_char_texture_name_and_empty_phase) {
  auto m = build_mat0({"1234567890ABCDEF", ""});
  ASSERT_TRUE(m);
  auto back = read_mat0(write_mat0(*m), 6);
  ASSERT_TRUE(back);
  EXPECT_EQ(mat0_texture_names(*back), (std::vector<std::string>{"1234567890ABCDEF"}));
}

TEST(Mat0, animation_block_is_dense) {
  core::ByteWriter w;
  w.u16(0), w.u16(1);
  w.u32(0xAABBCCDD), w.u16(1), w.u16(7), w.u16(8), w.u16(9);
  const auto bytes = w.take();
  ASSERT_EQ(bytes.size(), 4u + 12u);
  auto m = read_mat0(bytes, 0);
  ASSERT_TRUE(m) << m.error().to_string();
  ASSERT_EQ(m->animation_blocks.size(), 1u);
  EXPECT_EQ(m->animation_blocks[0].mode(), 0xDDu & 7u);
  EXPECT_EQ(m->animation_blocks[0].keys[0], (Mat0AnimKey{7, 8, 9}));
  EXPECT_EQ(write_mat0(*m), bytes);
}

TEST(Mat0, builder_with_loop_block_passes_reader) {
  auto m = build_mat0({"TEX_A", "TEX_B", "TEX_C"}, true);
  ASSERT_TRUE(m);
  auto back = read_mat0(write_mat0(*m), 6);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->animation_blocks[0].keys.size(), 3u);
  EXPECT_EQ(*back, *m);
  EXPECT_FALSE(build_mat0({"SEVENTEEN_CHARS__"}));
}

TEST(Mat0, rejects_payload_shorter_than_4) {
  EXPECT_EQ(read_mat0(core::Bytes{0, 0, 0}, 6).error().code, "mat0.size");
}

TEST(Mat0, rejects_animation_block_count_20) {
  auto m = read_mat0(core::Bytes{0, 0, 20, 0}, 0);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "mat0.block_count");
  EXPECT_EQ(m.error().offset, 2u);
}

TEST(Mat0, rejects_phases_past_the_end) {
  auto m = read_mat0(core::Bytes{0xFF, 0xFF, 0, 0}, 0);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "mat0.phase_count");
}

TEST(Mat0, rejects_truncated_prefix) {
  EXPECT_EQ(read_mat0(core::Bytes{0, 0, 0, 0, 1}, 6).error().code, "mat0.phase_count");
}

TEST(Mat0, rejects_block_keys_past_the_end) {
  core::ByteWriter w;
  w.u16(0), w.u16(1), w.u32(0), w.u16(5), w.u16(1);
  EXPECT_EQ(read_mat0(w.take(), 0).error().code, "mat0.block");
  EXPECT_EQ(read_mat0(core::Bytes{0, 0, 1, 0, 0, 0}, 0).error().code, "mat0.block");
}

TEST(Mat0, rejects_one_trailing_byte) {
  auto m = read_mat0(core::Bytes{0, 0, 0, 0, 0}, 0);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "mat0.trailing");
  EXPECT_EQ(m.error().offset, 4u);
}

TEST(Mat0, unknown_version_strict_rejects_compatible_warns) {
  const core::Bytes bytes(14, 0);
  EXPECT_EQ(read_mat0(bytes, 7).error().code, "mat0.version");
  ReadOptions o;
  o.profile = core::Profile::compatible;
  core::Diagnostics w;
  auto m = read_mat0(bytes, 7, o, &w);
  ASSERT_TRUE(m);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].code, "mat0.version");
  EXPECT_EQ(write_mat0(*m), bytes);
}

TEST(Mat0, reads_archive_entry_with_version_from_attr2) {
  auto mat = *build_mat0({"TEX_A"});
  mat.version = 2;
  NresBuilder b;
  b.add(kMat0TypeId, "STEEL", write_mat0(mat), 0, 2, 0);
  b.add(nres_type_tag("Texm"), "NOT_A_MAT", core::Bytes{0, 0, 0, 0});
  b.add(kMat0TypeId, "BROKEN", core::Bytes{0, 0, 0, 0, 9}, 0, 0, 0);
  auto archive = read_nres(*b.build());
  ASSERT_TRUE(archive) << archive.error().to_string();
  ReadOptions o;
  o.file_name = "material.lib";
  auto m = read_mat0_entry(*archive, 0, o);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->version, 2u);
  EXPECT_EQ(mat0_texture_names(*m), (std::vector<std::string>{"TEX_A"}));
  auto wrong = read_mat0_entry(*archive, 1, o);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code, "mat0.entry_type");
  EXPECT_EQ(wrong.error().file, "material.lib:NOT_A_MAT");
  auto broken = read_mat0_entry(*archive, 2, o);
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().code, "mat0.trailing");
  EXPECT_EQ(broken.error().offset, archive->entries[2].data_offset + 4u);
}
