#include "sortie/iron3d/unit_dat.hpp"

#include <gtest/gtest.h>

using namespace sortie;
using namespace sortie::iron3d;

namespace {

core::Bytes sample_dat() {
  auto dat = build_unit_dat({{"objects.rlb", "w_m_body", "body"}, {"objects.rlb", "w_m_gun", "gun"}});
  EXPECT_TRUE(dat.has_value());
  return write_unit_dat(*dat);
}

}  // namespace

TEST(UnitDat, builder_output_is_accepted_and_exposes_components) {
  const auto bytes = sample_dat();
  ASSERT_EQ(bytes.size(), 8u + 2 * 112u);
  EXPECT_EQ(bytes[0], 0xF1);
  EXPECT_EQ(bytes[1], 0xF0);
  auto dat = read_unit_dat(bytes);
  ASSERT_TRUE(dat) << dat.error().to_string();
  ASSERT_EQ(dat->components.size(), 2u);
  EXPECT_EQ(dat->components[0].kind, 1u);
  EXPECT_EQ(dat->components[0].parent_or_link, -1);
  EXPECT_EQ(dat->components[1].parent_or_link, 0);
  const auto refs = unit_dat_components(*dat);
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0], (UnitComponentRef{"objects.rlb", "w_m_body", 0}));
  EXPECT_EQ(refs[1], (UnitComponentRef{"objects.rlb", "w_m_gun", 1}));
  EXPECT_EQ(write_unit_dat(*dat), bytes);
}

TEST(UnitDat, eight_byte_file_has_zero_components) {
  const core::Bytes bytes{0xF1, 0xF0, 0, 0, 0, 0, 0, 0};
  auto dat = read_unit_dat(bytes);
  ASSERT_TRUE(dat);
  EXPECT_TRUE(dat->components.empty());
  EXPECT_EQ(write_unit_dat(*dat), bytes);
}

TEST(UnitDat, keeps_bytes_after_nul_and_full_description) {
  auto bytes = sample_dat();
  const std::string tail = "GARBAGE";
  std::copy(tail.begin(), tail.end(), bytes.begin() + 8 + 0x20 + 10);  // after "w_m_body\0"
  for (std::size_t i = 0; i < 32; ++i) bytes[8 + 0x48 + i] = 'D';      // description full, no NUL
  bytes[2] = 0x12;                                                     // opaque header byte
  auto dat = read_unit_dat(bytes);
  ASSERT_TRUE(dat);
  EXPECT_TRUE(dat->components[0].resource_name.has_tail());
  EXPECT_EQ(dat->components[0].resource_name.text(), "w_m_body");
  EXPECT_EQ(dat->components[0].description.text(), std::string(32, 'D'));
  EXPECT_EQ(unit_dat_components(*dat)[0].key, "w_m_body");
  EXPECT_EQ(write_unit_dat(*dat), bytes);
}

TEST(UnitDat, trims_whitespace_in_component_view) {
  auto dat = build_unit_dat({{" objects.rlb ", "\tkey ", ""}});
  ASSERT_TRUE(dat);
  EXPECT_EQ(unit_dat_components(*dat)[0].archive, "objects.rlb");
  EXPECT_EQ(unit_dat_components(*dat)[0].key, "key");
}

TEST(UnitDat, rejects_truncated_119_byte_file) {
  core::Bytes bytes = sample_dat();
  bytes.resize(119);
  auto dat = read_unit_dat(bytes);
  ASSERT_FALSE(dat);
  EXPECT_EQ(dat.error().code, "unit_dat.size");
  EXPECT_EQ(dat.error().found, "119 bytes");
}

TEST(UnitDat, rejects_three_byte_file) {
  const core::Bytes bytes{0xF1, 0xF0, 0};
  auto dat = read_unit_dat(bytes);
  ASSERT_FALSE(dat);
  EXPECT_EQ(dat.error().code, "unit_dat.size");
}

TEST(UnitDat, rejects_wrong_magic_in_strict_and_warns_in_compatible) {
  auto bytes = sample_dat();
  bytes[0] = 0x00;
  auto strict = read_unit_dat(bytes);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, "unit_dat.magic");
  EXPECT_EQ(strict.error().offset, 0u);
  EXPECT_EQ(strict.error().found, "00f0");
  core::Diagnostics warnings;
  ReadOptions compat;
  compat.profile = core::Profile::compatible;
  auto dat = read_unit_dat(bytes, compat, &warnings);
  ASSERT_TRUE(dat);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "unit_dat.magic");
  EXPECT_EQ(warnings[0].severity, core::Severity::warning);
  EXPECT_EQ(write_unit_dat(*dat), bytes);
}

TEST(UnitDat, warns_on_empty_key_and_unusual_kind) {
  auto bytes = sample_dat();
  bytes[8 + 112 + 0x20] = 0;  // second record key empty
  bytes[8 + 0x40] = 2;        // first record kind 2
  core::Diagnostics warnings;
  auto dat = read_unit_dat(bytes, {}, &warnings);
  ASSERT_TRUE(dat);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].code, "unit_dat.kind");
  EXPECT_EQ(warnings[0].offset, 8u + 0x40);
  EXPECT_EQ(warnings[1].code, "unit_dat.resource_empty");
  EXPECT_EQ(warnings[1].field, "components[1].resource_name");
}

TEST(UnitDat, builder_rejects_key_longer_than_31_bytes) {
  auto dat = build_unit_dat({{"objects.rlb", std::string(32, 'k'), ""}});
  ASSERT_FALSE(dat);
  EXPECT_EQ(dat.error().code, "builder.name");
}

TEST(UnitDat, format_info_detects_by_header_and_name) {
  const auto bytes = sample_dat();
  const auto info = unit_dat_format_info();
  EXPECT_EQ(info.detect(bytes, "UNITS/w_m_wlk2.dat"), kDetectContent);
  EXPECT_EQ(info.detect(bytes, "blob.bin"), kDetectContent);
  EXPECT_EQ(info.detect(core::Bytes{1, 2, 3}, "x.dat"), kDetectNone);
  EXPECT_EQ(info.detect(core::Bytes{0xF1, 0xF0, 0}, "short.dat"), kDetectName);  // reader reports unit_dat.size
  EXPECT_EQ(info.detect(core::Bytes{0xF1, 0xF0, 0}, "short.bin"), kDetectNone);
  auto j = info.inspect(bytes, {});
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["components"][1]["resource_name"]["text"], "w_m_gun");
  auto rt = info.roundtrip(bytes, {});
  ASSERT_TRUE(rt);
  EXPECT_EQ(*rt, bytes);
}

TEST(UnitDat, legacy_binding_variant_names_one_model) {
  core::ByteWriter w;
  w.u32(0x0000F0F1), w.u32(3);
  w.fixed_string(core::FixedString::make("units.rlb", 32));
  w.fixed_string(core::FixedString::make("unit_model", 32));
  const auto bytes = w.take();
  EXPECT_EQ(read_unit_dat(bytes).error().code, "unit_dat.size");  // 72 bytes: not 8 + n x 112
  auto b = read_unit_dat_binding(bytes);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_EQ(b->flags, 3u);
  EXPECT_EQ(b->ref(), (UnitComponentRef{"units.rlb", "unit_model", 0}));
}

TEST(UnitDat, legacy_binding_rejects_short_wrong_magic_and_empty_model) {
  EXPECT_EQ(read_unit_dat_binding(core::Bytes(71, 0)).error().code, "unit_dat.binding_size");
  core::Bytes bytes(72, 0);
  EXPECT_EQ(read_unit_dat_binding(bytes).error().code, "unit_dat.binding_magic");
  bytes[0] = 0xF1, bytes[1] = 0xF0, bytes[8] = 'a';
  auto b = read_unit_dat_binding(bytes);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, "unit_dat.binding_empty");
  EXPECT_EQ(b.error().field, "model_name");
  EXPECT_EQ(b.error().offset, 0x28u);
}
