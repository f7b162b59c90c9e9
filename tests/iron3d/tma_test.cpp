// data.tma reader/writer: spec §31.3/§31.4 vectors, seed 000 invariants, hostile inputs.
#include "sortie/iron3d/tma.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sortie/core/rng.hpp"
#include "tma_fixtures.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;
using core::Profile;

Bytes hex(std::string_view h) {
  return *core::from_hex(h);
}

const Bytes& kMinimal = tma_test::kMinimal;
const Bytes& kRich = tma_test::kRich;

core::Result<Tma> read(const Bytes& b, Profile p = Profile::strict, core::Diagnostics* w = nullptr) {
  return read_tma(b, {p, "data.tma"}, w);
}

Bytes write(const Tma& t) {
  auto b = write_tma(t);
  EXPECT_TRUE(b.has_value()) << (b ? "" : b.error().to_string());
  EXPECT_EQ(b->size(), tma_encoded_size(t));
  return b ? *b : Bytes{};
}

void put_u32(Bytes& b, std::size_t at, std::uint32_t v) {
  core::store_u32(b.data() + at, v);
}

// A document touching every section: paths, clans of every mode, objects, extras.
Tma sample() {
  Tma t;
  t.land_path = "DATA\\MAPS\\Tut_1\\land";
  t.description_raw = std::string("desc\0\x01", 6);
  t.mission_flag = 3;
  t.add_path(30, {{1, 2, 3}, {4, 5, 6}});
  t.add_path(-5, {});
  t.add_clan(TmaClan::standard("Alpha", 1, {10, 20}, "MISSIONS\\SCRIPTS\\default", 7, "", 8)).add_relation("Beta", -1);
  t.add_clan(TmaClan::spatial("Beta", {1, 2}, "first", {{{{1, 2, 3, 4, 5}}}, {{{6, 7, 8, 9, 10}, {1, 1, 1, 1, 1}}}},
                              "second", 9));
  t.add_clan(TmaClan::standard("Gamma", 2, {0, 0}, "x", 1, "y.trf", 2));
  t.add_clan(TmaClan::standard("Delta", 3, {0, 0}, "", -1, "", -1));
  auto& o = t.add_object(TmaObject::placed("s_tree_04", "tree_01", {418.5F, 717.25F, 3.0F}, {0, 0, 1.5F}));
  o.add_property("Life state", {1, 0, 0, 0});
  o.add_property("NOT USED", {0xffffffffu, 2, 3, 4});
  o.add_property("Life state", {2, 0, 0, 0});
  auto& u = t.add_object(TmaObject::placed("UNITS\\UNITS\\AutoDEMO\\w_m_wlk2.dat", "", {1, 2, 3}));
  u.raw_kind = 5;
  u.link0 = 3;
  u.add_property("ClanID", {2, 0, 0, 0});
  t.add_extra({{5, 6, 7}, {1, 2, 3, 4}});
  return t;
}

// ---- spec vectors ----

TEST(Tma, decodes_minimal_vector) {
  auto t = read(kMinimal);
  ASSERT_TRUE(t) << t.error().to_string();
  EXPECT_EQ(t->format_version, 1u);
  EXPECT_EQ(t->clan_section_version, 6u);
  EXPECT_EQ(t->object_section_version, 10u);
  EXPECT_EQ(t->extra_section_version, 1u);
  EXPECT_TRUE(t->paths.empty());
  EXPECT_TRUE(t->clans.empty());
  EXPECT_TRUE(t->objects.empty());
  EXPECT_TRUE(t->extras.empty());
  EXPECT_EQ(t->land_path, "DATA\\MAPS\\Tut_1\\land");
  EXPECT_EQ(t->mission_flag, 0u);
  EXPECT_EQ(t->description_raw, "");
  EXPECT_EQ(write(*t), kMinimal);
}

TEST(Tma, decodes_rich_vector_with_mode0_clan) {
  ASSERT_EQ(kRich.size(), 320u);
  auto t = read(kRich);
  ASSERT_TRUE(t) << t.error().to_string();
  ASSERT_EQ(t->paths.size(), 1u);
  EXPECT_EQ(t->paths[0].id, 30);
  ASSERT_EQ(t->paths[0].points.size(), 1u);
  EXPECT_EQ(t->paths[0].points[0].x, 1.0F);
  EXPECT_EQ(t->paths[0].points[0].y, 2.0F);
  EXPECT_EQ(t->paths[0].points[0].z, 3.0F);
  ASSERT_EQ(t->clans.size(), 1u);
  const auto& c = t->clans[0];
  EXPECT_EQ(c.name, "Spatial");
  EXPECT_EQ(c.raw_id, -1);
  EXPECT_EQ(c.anchor_x, 0.0F);
  EXPECT_EQ(c.mode, 0u);
  EXPECT_TRUE(c.is_spatial());
  EXPECT_EQ(c.first_resource, "first");
  ASSERT_EQ(c.spatial_groups.size(), 1u);
  ASSERT_EQ(c.spatial_groups[0].records.size(), 1u);
  EXPECT_EQ(c.spatial_groups[0].records[0], (TmaSpatialRecord{1, 2, 3, 4, 5}));
  EXPECT_EQ(c.second_resource, "second");
  EXPECT_EQ(c.second_tag, 9);
  EXPECT_TRUE(c.relations.empty());
  ASSERT_EQ(t->objects.size(), 1u);
  const auto& o = t->objects[0];
  EXPECT_EQ(o.raw_kind, 0u);
  EXPECT_EQ(o.flags, 0x80000002u);
  EXPECT_EQ(o.resource_name, "s_tree_04");
  EXPECT_EQ(o.raw_after_resource, 0u);
  EXPECT_EQ(o.identity_or_clan_raw, 0u);
  EXPECT_EQ(o.position.x, 418.5F);
  EXPECT_EQ(o.position.y, 717.25F);
  EXPECT_EQ(o.position.z, 3.0F);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(o.orientation.z), 0x3FC90FDBu);
  EXPECT_EQ(o.scale.x, 1.0F);
  EXPECT_EQ(o.instance_name, "tree_01");
  EXPECT_EQ(o.link0, -1);
  EXPECT_EQ(o.link1, -1);
  EXPECT_EQ(o.property_schema_version, 1u);
  ASSERT_EQ(o.properties.size(), 1u);
  EXPECT_EQ(o.properties[0].raw, (std::array<std::uint32_t, 4>{1, 0, 0, 0}));
  EXPECT_EQ(o.properties[0].name, "Life state");
  EXPECT_EQ(t->land_path, "DATA\\MAPS\\Tut_1\\land");
  ASSERT_EQ(t->extras.size(), 1u);
  EXPECT_EQ(t->extras[0].position.x, 5.0F);
  EXPECT_EQ(t->extras[0].position.z, 7.0F);
  EXPECT_EQ(t->extras[0].raw, (std::array<std::uint32_t, 4>{0, 0, 0, 0}));
  EXPECT_EQ(write(*t), kRich);
}

TEST(Tma, rich_vector_read_as_standard_clan_is_rejected) {
  // Mode word at 0x3b: a mode-1 body would take the group count as tag_1 and desynchronise.
  Bytes b = kRich;
  put_u32(b, 0x3b, 1);
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.limit");
  EXPECT_EQ(t.error().field, "clans[0].relation_count");
}

TEST(Tma, land_path_prefix_decoder) {
  auto land = read_tma_land_path(kRich);
  ASSERT_TRUE(land);
  EXPECT_EQ(*land, "DATA\\MAPS\\Tut_1\\land");
}

// ---- round trips of built documents ----

TEST(Tma, writes_built_document_and_reads_it_back) {
  const Tma t = sample();
  const Bytes b = write(t);
  auto back = read(b);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(write(*back), b);
  ASSERT_EQ(back->clans.size(), 4u);
  EXPECT_EQ(back->clans[0].mode, 1u);
  EXPECT_EQ(back->clans[0].first_tag, 7);
  EXPECT_EQ(back->clans[0].relations[0].other_clan, "Beta");
  EXPECT_EQ(back->clans[0].relations[0].value, -1);
  EXPECT_EQ(back->clans[1].spatial_groups.size(), 2u);
  EXPECT_EQ(back->clans[1].spatial_groups[1].records.size(), 2u);
  EXPECT_EQ(back->clans[2].mode, 2u);
  EXPECT_EQ(back->clans[3].mode, 3u);
  EXPECT_EQ(back->clans[3].second_tag, -1);
  EXPECT_EQ(back->description_raw, std::string("desc\0\x01", 6));
  EXPECT_EQ(back->mission_flag, 3u);
  EXPECT_EQ(back->objects[1].raw_kind, 5u);
  EXPECT_EQ(back->objects[1].link0, 3);
}

TEST(Tma, standard_modes_1_to_3_decode_as_standard_body) {
  for (std::uint32_t mode = 1; mode <= 3; ++mode) {
    Tma t;
    t.add_clan(TmaClan::standard("C", mode, {1, 2}, "Scripts\\a", 7, "", 8));
    auto back = read(write(t));
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ(back->clans[0].mode, mode);
    EXPECT_EQ(back->clans[0].first_resource, "Scripts\\a");
    EXPECT_EQ(back->clans[0].first_tag, 7);
    EXPECT_EQ(back->clans[0].second_tag, 8);
    EXPECT_TRUE(back->clans[0].spatial_groups.empty());
  }
}

TEST(Tma, mode0_clan_honours_declared_record_count) {
  Tma t;
  TmaSpatialGroup g;
  for (int i = 0; i < 3; ++i) g.records.push_back({float(i), 0, 0, 0, 0});
  t.add_clan(TmaClan::spatial("S", {0, 0}, "f", {g, {}}, "s", 1)).add_relation("S", 4);
  auto back = read(write(t));
  ASSERT_TRUE(back) << back.error().to_string();
  ASSERT_EQ(back->clans[0].spatial_groups.size(), 2u);
  EXPECT_EQ(back->clans[0].spatial_groups[0].records.size(), 3u);
  EXPECT_EQ(back->clans[0].spatial_groups[0].records[2][0], 2.0F);
  EXPECT_TRUE(back->clans[0].spatial_groups[1].records.empty());
  EXPECT_EQ(back->clans[0].relations[0].value, 4);
}

TEST(Tma, keeps_path_ids_as_identity_in_order) {
  Tma t;
  t.add_path(30, {{1, 1, 1}});
  t.add_path(-5, {});
  t.add_path(10, {{2, 2, 2}, {3, 3, 3}});
  auto back = read(write(t));
  ASSERT_TRUE(back);
  ASSERT_EQ(back->paths.size(), 3u);
  EXPECT_EQ(back->paths[0].id, 30);
  EXPECT_EQ(back->paths[1].id, -5);
  EXPECT_EQ(back->paths[2].id, 10);
  EXPECT_EQ(back->paths[2].points[1].y, 3.0F);
}

TEST(Tma, keeps_property_order_and_duplicates) {
  auto back = read(write(sample()));
  ASSERT_TRUE(back);
  const auto& p = back->objects[0].properties;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].name, "Life state");
  EXPECT_EQ(p[1].name, "NOT USED");
  EXPECT_EQ(p[1].raw, (std::array<std::uint32_t, 4>{0xffffffffu, 2, 3, 4}));
  EXPECT_EQ(p[2].name, "Life state");
  EXPECT_EQ(p[2].raw[0], 2u);
  EXPECT_EQ(back->objects[0].find_property("Life state")->raw[0], 1u);
}

TEST(Tma, keeps_clan_relation_order_and_duplicates) {
  Tma t;
  auto& c = t.add_clan(TmaClan::standard("A", 1, {0, 0}, "", 0, "", 0));
  c.add_relation("Zeta", 3).add_relation("Alpha", -2).add_relation("Zeta", 1).add_relation("NoSuchClan", 0);
  auto back = read(write(t));
  ASSERT_TRUE(back);
  const auto& r = back->clans[0].relations;
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].other_clan, "Zeta");
  EXPECT_EQ(r[1].other_clan, "Alpha");
  EXPECT_EQ(r[1].value, -2);
  EXPECT_EQ(r[2].other_clan, "Zeta");
  EXPECT_EQ(r[2].value, 1);
  EXPECT_EQ(r[3].other_clan, "NoSuchClan");
}

TEST(Tma, rejects_relation_count_past_end) {
  Bytes b = kRich;
  put_u32(b, 0x72, 40);  // relation_count of clan 0 (8 bytes each at least)
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.eof");
  EXPECT_EQ(t.error().field, "clans[0].relation_count");
  put_u32(b, 0x72, 65537);
  t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.limit");
}

TEST(Tma, keeps_nul_inside_land_path_and_description) {
  Tma t;
  t.land_path = std::string("A\0B", 3);
  t.description_raw = std::string("A\0B", 3);
  auto back = read(write(t));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->land_path, std::string("A\0B", 3));
  EXPECT_EQ(back->description_raw.size(), 3u);
}

TEST(Tma, description_holding_section_words_creates_no_records) {
  Tma t;
  t.description_raw = std::string("\x01\0\0\0\x06\0\0\0\x0a\0\0\0", 12);
  auto back = read(write(t));
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->clans.empty());
  EXPECT_TRUE(back->objects.empty());
  EXPECT_EQ(back->description_raw.size(), 12u);
}

TEST(Tma, generated_documents_round_trip) {
  core::Rng rng(7);
  for (int n = 0; n < 64; ++n) {
    Tma t;
    t.add_path(rng.range(-100, 100), {{rng.unit_f32(), rng.unit_f32(), rng.unit_f32()}});
    for (std::uint32_t c = 0, nc = rng.below(4); c < nc; ++c) {
      const std::uint32_t mode = rng.below(4);
      if (mode == 0)
        t.add_clan(TmaClan::spatial("s", {rng.unit_f32(), 0}, "a", {{{{1, 2, 3, 4, 5}}}}, "b", rng.range(-9, 9)));
      else
        t.add_clan(TmaClan::standard("c", mode, {0, rng.unit_f32()}, "a", rng.range(-9, 9), "b", 2));
    }
    for (std::uint32_t o = 0, no = rng.below(5); o < no; ++o) {
      auto& obj = t.add_object(TmaObject::placed("k", "n", {rng.unit_f32(), 1, 2}));
      for (std::uint32_t p = 0, np = rng.below(4); p < np; ++p) obj.add_property("p", {rng.next_u32(), 0, 0, 1});
    }
    const Bytes b = write(t);
    auto back = read(b);
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ(write(*back), b);
  }
}

// ---- hostile inputs ----

TEST(Tma, rejects_trailing_byte) {
  Bytes b = kMinimal;
  b.push_back(0);
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.trailing");
  EXPECT_EQ(t.error().offset, 64u);
}

TEST(Tma, rejects_every_truncation_of_rich_vector) {
  for (std::size_t n = 0; n < kRich.size(); ++n) {
    Bytes b(kRich.begin(), kRich.begin() + static_cast<std::ptrdiff_t>(n));
    auto t = read(b);
    ASSERT_FALSE(t) << "prefix " << n;
    EXPECT_TRUE(t.error().code == "tma.eof") << "prefix " << n << ": " << t.error().to_string();
    EXPECT_LE(*t.error().offset, n) << t.error().to_string();
    EXPECT_FALSE(t.error().field.empty()) << "prefix " << n;
  }
}

TEST(Tma, truncations_name_the_section_cut) {
  struct Case {
    std::size_t size;
    const char* field;
  };
  const Case cases[] = {
      {2, "format_version"},
      {6, "path_count"},
      {0x10, "paths[0].point_count"},
      {0x1f, "clan_section_version"},
      {0x2a, "clan_count"},  // fewer bytes left than the smallest clan
      {0x58, "clans[0].spatial_groups[0].record_count"},
      {0x6a, "clans[0].second_resource"},
      {0x6f, "clans[0].second_tag"},
      {0x74, "clans[0].relation_count"},
      {0x80, "object_count"},  // fewer bytes left than the smallest object
      {0xd5, "objects[0].link1"},
      {0xd8, "objects[0].property_schema_version"},
      {0xe0, "objects[0].property_count"},
      {0xf4, "objects[0].properties[0].name"},
      {0x102, "land_path"},
      {0x116, "mission_flag"},
      {0x11a, "description_raw"},
      {0x122, "extra_count"},
      {0x130, "extra_count"},
  };
  for (const auto& c : cases) {
    Bytes b(kRich.begin(), kRich.begin() + static_cast<std::ptrdiff_t>(c.size));
    auto t = read(b);
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error().code, "tma.eof") << "size 0x" << std::hex << c.size << ": " << t.error().to_string();
    EXPECT_EQ(t.error().field, c.field) << "size 0x" << std::hex << c.size << ": " << t.error().to_string();
  }
}

TEST(Tma, string_lengths_past_end_name_their_field) {
  struct Case {
    std::size_t at;
    const char* field;
  };
  const Case cases[] = {{0x24, "clans[0].name"},
                        {0x3f, "clans[0].first_resource"},
                        {0x64, "clans[0].second_resource"},
                        {0x86, "objects[0].resource_name"},
                        {0xbf, "objects[0].instance_name"},
                        {0xee, "objects[0].properties[0].name"},
                        {0xfc, "land_path"},
                        {0x118, "description_raw"}};
  for (const auto& c : cases) {
    Bytes b = kRich;
    put_u32(b, c.at, 0xfff0);
    auto t = read(b);
    ASSERT_FALSE(t) << c.field;
    EXPECT_EQ(t.error().code, "tma.eof") << c.field;
    EXPECT_EQ(t.error().field, c.field);
    EXPECT_EQ(t.error().offset, c.at) << c.field;
  }
}

TEST(Tma, rejects_extra_record_of_27_bytes) {
  Bytes b = kRich;
  b.pop_back();
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.eof");
  EXPECT_EQ(t.error().field, "extra_count");
}

TEST(Tma, rejects_point_count_past_end) {
  Bytes b = kRich;
  put_u32(b, 0x0c, 100000);  // 1.2 MB of points declared in a 320-byte file
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.eof");
  EXPECT_EQ(t.error().field, "paths[0].point_count");
  EXPECT_EQ(t.error().offset, 0x10u);
}

TEST(Tma, rejects_point_count_overflow) {
  Bytes b = kRich;
  put_u32(b, 0x0c, 0xffffffffu);
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.limit");
  EXPECT_EQ(t.error().field, "paths[0].point_count");
}

TEST(Tma, rejects_path_count_past_end_before_allocating) {
  Bytes b = kMinimal;
  put_u32(b, 4, 16000);
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.eof");
  EXPECT_EQ(t.error().field, "path_count");
  put_u32(b, 4, 16385);
  t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.limit");
}

TEST(Tma, rejects_object_and_clan_counts_past_end) {
  Bytes b = kMinimal;
  put_u32(b, 0x14, 1000000);
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.eof");
  EXPECT_EQ(t.error().field, "object_count");
  put_u32(b, 0x14, 0xffffffffu);
  t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.limit");
  b = kMinimal;
  put_u32(b, 0x0c, 5);
  t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.eof");
  EXPECT_EQ(t.error().field, "clan_count");
}

TEST(Tma, rejects_spatial_record_count_overflow) {
  Bytes b = kRich;
  put_u32(b, 0x4c, 0x40000000u);  // record_count of group 0; x20 passes 32 bits
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.limit");
  EXPECT_EQ(t.error().field, "clans[0].spatial_groups[0].record_count");
  put_u32(b, 0x4c, 2);
  t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.eof");
  put_u32(b, 0x48, 70000);  // group count over 65536
  t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.limit");
  EXPECT_EQ(t.error().field, "clans[0].spatial_group_count");
}

TEST(Tma, rejects_property_and_extra_counts_past_end) {
  Bytes b = kRich;
  put_u32(b, 0xda, 1000);
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.eof");
  EXPECT_EQ(t.error().field, "objects[0].property_count");
  b = kRich;
  put_u32(b, 0x120, 0x10000000u);
  t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.limit");
  EXPECT_EQ(t.error().field, "extra_count");
}

TEST(Tma, rejects_unknown_clan_mode_in_both_profiles) {
  Bytes b = kRich;
  put_u32(b, 0x3b, 7);
  for (auto profile : {Profile::strict, Profile::compatible}) {
    auto t = read(b, profile);
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error().code, "tma.clan.mode_unknown");
    EXPECT_EQ(t.error().offset, 0x3bu);
    EXPECT_EQ(t.error().field, "clans[0].mode");
    EXPECT_EQ(t.error().to_string().rfind("data.tma: 0x3b: clans[0].mode: unknown clan mode 7 (known 0..3)", 0), 0u)
        << t.error().to_string();
  }
}

TEST(Tma, unknown_versions_strict_rejects_compatible_keeps) {
  struct Case {
    std::size_t at;
    const char* field;
  };
  const Case cases[] = {{0x00, "format_version"},
                        {0x1c, "clan_section_version"},
                        {0x76, "object_section_version"},
                        {0xd6, "objects[0].property_schema_version"},
                        {0x11c, "extra_section_version"}};
  for (const auto& c : cases) {
    Bytes b = kRich;
    put_u32(b, c.at, 77);
    auto strict = read(b);
    ASSERT_FALSE(strict) << c.field;
    EXPECT_EQ(strict.error().code, "tma.version");
    EXPECT_EQ(strict.error().field, c.field);
    EXPECT_EQ(strict.error().offset, c.at);
    EXPECT_EQ(strict.error().found, "77");
    core::Diagnostics warnings;
    auto compat = read(b, Profile::compatible, &warnings);
    ASSERT_TRUE(compat) << compat.error().to_string();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].code, "tma.version");
    EXPECT_EQ(warnings[0].severity, core::Severity::warning);
    EXPECT_EQ(warnings[0].field, c.field);
    EXPECT_EQ(write(*compat), b);
  }
}

TEST(Tma, bad_object_flags_strict_rejects_compatible_keeps) {
  Bytes b = kRich;
  put_u32(b, 0x82, 0x80000003u);
  auto strict = read(b);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, "tma.object.flags");
  EXPECT_EQ(strict.error().field, "objects[0].flags");
  EXPECT_EQ(strict.error().offset, 0x82u);
  core::Diagnostics warnings;
  auto compat = read(b, Profile::compatible, &warnings);
  ASSERT_TRUE(compat);
  EXPECT_EQ(compat->objects[0].flags, 0x80000003u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "tma.object.flags");
  EXPECT_EQ(write(*compat), b);
}

TEST(Tma, flags_checked_before_resource_name) {
  Bytes b = kRich;
  put_u32(b, 0x82, 0);
  put_u32(b, 0x86, 0xfff0);  // resource name would run past the end
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.object.flags");
}

TEST(Tma, non_finite_position_strict_rejects_compatible_keeps_bits) {
  Bytes b = kRich;
  put_u32(b, 0x9b, 0x7fc01234u);  // NaN with payload in position.x
  auto strict = read(b);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, "tma.object.non_finite");
  EXPECT_EQ(strict.error().field, "objects[0].position[0]");
  EXPECT_EQ(strict.error().offset, 0x9bu);
  core::Diagnostics warnings;
  auto compat = read(b, Profile::compatible, &warnings);
  ASSERT_TRUE(compat);
  EXPECT_TRUE(std::isnan(compat->objects[0].position.x));
  EXPECT_EQ(warnings.size(), 1u);
  EXPECT_EQ(write(*compat), b);
}

TEST(Tma, rejects_lp_string_over_64k) {
  Bytes b = kMinimal;
  put_u32(b, 0x18, 65537);
  auto t = read(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "tma.string_too_long");
  EXPECT_EQ(t.error().field, "land_path");
  EXPECT_EQ(t.error().offset, 0x18u);
}

TEST(Tma, writer_refuses_string_over_64k) {
  Tma t = sample();
  t.objects[1].properties[0].name.assign(65537, 'x');
  auto b = write_tma(t);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, "tma.write.string_too_long");
  EXPECT_EQ(b.error().field, "objects[1].properties[0].name");
  t.objects[1].properties[0].name.assign(65536, 'x');
  auto ok = write_tma(t);
  ASSERT_TRUE(ok);
  EXPECT_TRUE(read(*ok));
}

TEST(Tma, writer_refuses_unknown_clan_mode) {
  Tma t = sample();
  t.clans[2].mode = 4;
  auto b = write_tma(t);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, "tma.write.clan_mode");
  EXPECT_EQ(b.error().field, "clans[2].mode");
}

// ---- CP1251 and the JSON model ----

TEST(Tma, json_decodes_cp1251_and_keeps_hex_of_lossy_strings) {
  Tma t;
  t.add_clan(TmaClan::standard("\xca\xeb\xe0\xed", 1, {0, 0}, "a", 0, "", 0));  // "Клан"
  t.add_clan(TmaClan::standard("bad\x98", 1, {0, 0}, "a", 0, "", 0));
  t.description_raw = std::string("x\0y", 3);
  auto back = read(write(t));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->clans[1].name, "bad\x98");
  const auto j = tma_to_json(*back);
  EXPECT_EQ(j["clans"][0]["name"], "\xd0\x9a\xd0\xbb\xd0\xb0\xd0\xbd");
  EXPECT_FALSE(j["clans"][0].contains("name_hex"));
  EXPECT_EQ(j["clans"][1]["name_hex"],
            "626164"
            "98");
  EXPECT_EQ(j["description_raw_hex"], "780079");
  EXPECT_EQ(j["clans"][0]["body"], "standard");
  EXPECT_EQ(j["land_path"], "");
}

TEST(Tma, json_uses_spec_field_names) {
  auto t = read(kRich);
  ASSERT_TRUE(t);
  const auto j = tma_to_json(*t);
  EXPECT_EQ(j["format"], "tma");
  EXPECT_EQ(j["paths"][0]["id"], 30);
  EXPECT_EQ(j["clans"][0]["mode"], 0);
  EXPECT_EQ(j["clans"][0]["body"], "spatial");
  EXPECT_EQ(j["clans"][0]["spatial_groups"][0][0][4], 5.0);
  EXPECT_EQ(j["objects"][0]["resource_name"], "s_tree_04");
  EXPECT_EQ(j["objects"][0]["flags"], 0x80000002u);
  EXPECT_EQ(j["objects"][0]["properties"][0]["name"], "Life state");
  EXPECT_EQ(j["objects"][0]["properties"][0]["raw"][0], 1);
  EXPECT_EQ(j["land_path"], "DATA\\MAPS\\Tut_1\\land");
  EXPECT_EQ(j["extras"][0]["position"][1], 6.0);
}

TEST(Tma, format_info_detects_by_name_and_content) {
  const auto info = tma_format_info();
  EXPECT_EQ(info.detect(kMinimal, "MISSIONS/x/data.tma"), kDetectContent);
  EXPECT_EQ(info.detect(kMinimal, "DATA.TMA"), kDetectContent);
  EXPECT_EQ(info.detect(kRich, "mission.bin"), kDetectContent);
  EXPECT_EQ(info.detect(hex("00112233"), "mission.bin"), kDetectNone);
  EXPECT_EQ(info.detect(hex("00112233"), "data.tma"), kDetectName);  // the reader says why it is not one
  auto rt = info.roundtrip(kRich, {});
  ASSERT_TRUE(rt);
  EXPECT_EQ(*rt, kRich);
  Bytes bad = kRich;
  put_u32(bad, 0, 2);
  auto report = info.check(bad, {Profile::compatible, "data.tma"});
  ASSERT_TRUE(report);
  ASSERT_EQ(report->findings.size(), 1u);
  EXPECT_EQ(report->findings[0].code, "tma.version");
  auto strict = info.check(bad, {Profile::strict, "data.tma"});
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, "tma.version");
  EXPECT_EQ(strict.error().field, "format_version");
  EXPECT_EQ(strict.error().found, "2");
}

}  // namespace
}  // namespace sortie::iron3d
