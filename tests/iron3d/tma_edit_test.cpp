// data.tma edit API: every edit serializes back and leaves the rest byte for byte.
#include "sortie/iron3d/tma_edit.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/tma.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;

Tma mission() {
  Tma t;
  t.land_path = "DATA\\MAPS\\Tut_1\\land";
  t.add_clan(TmaClan::standard("Alpha", 1, {10, 20}, "MISSIONS\\SCRIPTS\\default", 7, "", 8));
  for (int i = 0; i < 3; ++i) {
    auto& o = t.add_object(TmaObject::placed("s_tree_04", "tree_0" + std::to_string(i), {float(i), 2, 3}));
    o.add_property("Invulnerability", {0, 0, 0, 0});
    o.add_property("Life state", {1, 0, 0, 0});
    o.add_property("NOT USED", {9, 9, 9, 9});
    o.add_property("Life state", {2, 0, 0, 0});
  }
  t.add_extra({{5, 6, 7}, {1, 2, 3, 4}});
  return t;
}

Tma reread(const Tma& t) {
  auto b = write_tma(t);
  EXPECT_TRUE(b);
  auto back = read_tma(*b);
  EXPECT_TRUE(back) << (back ? "" : back.error().to_string());
  return *back;
}

Bytes bytes(const Tma& t) {
  return *write_tma(t);
}

core::Status set(Tma& t, std::string a) {
  return apply_tma_edit(t, {TmaEditKind::set, {std::move(a)}});
}

TEST(TmaEdit, set_property_changes_only_first_match_and_round_trips) {
  Tma t = mission();
  ASSERT_TRUE(tma_set_property(t, 1, "Life state", {0, 0, 0, 0}));
  const Tma back = reread(t);
  EXPECT_EQ(back.objects[1].properties[1].raw[0], 0u);
  EXPECT_EQ(back.objects[1].properties[3].raw[0], 2u);  // duplicate untouched
  EXPECT_EQ(back.objects[0].properties[1].raw[0], 1u);
  EXPECT_EQ(back.objects[1].properties.size(), 4u);
}

TEST(TmaEdit, set_changes_the_bytes_of_that_word_only) {
  Tma t = mission();
  const Bytes before = bytes(t);
  ASSERT_TRUE(set(t, "objects[2].properties[NOT USED]=0x12345678"));
  const Bytes after = bytes(t);
  ASSERT_EQ(before.size(), after.size());
  std::size_t diffs = 0;
  for (std::size_t i = 0; i < before.size(); ++i) diffs += before[i] != after[i];
  EXPECT_EQ(diffs, 4u);
  EXPECT_EQ(t.objects[2].properties[2].raw, (TmaWords{0x12345678u, 9, 9, 9}));
}

TEST(TmaEdit, set_by_index_float_and_negative_words) {
  Tma t = mission();
  ASSERT_TRUE(set(t, "objects[0].properties[3]=-1, 1.5f, 0x10"));
  EXPECT_EQ(t.objects[0].properties[3].raw, (TmaWords{0xffffffffu, 0x3fc00000u, 16, 0}));
  ASSERT_TRUE(set(t, "objects[0].properties[Life state].name=Health"));
  EXPECT_EQ(t.objects[0].properties[1].name, "Health");
  EXPECT_EQ(t.objects[0].properties[3].name, "Life state");
  EXPECT_EQ(reread(t).objects[0].properties[1].name, "Health");
}

TEST(TmaEdit, set_object_fields_and_epilogue) {
  Tma t = mission();
  ASSERT_TRUE(set(t, "objects[1].position=1.5,-2,3e2"));
  ASSERT_TRUE(set(t, "objects[1].orientation=0,0,3.14159"));
  ASSERT_TRUE(set(t, "objects[1].resource_name=UNITS\\UNITS\\AutoDEMO\\w_m_wlk2.dat"));
  ASSERT_TRUE(set(t, "objects[1].link0=-7"));
  ASSERT_TRUE(set(t, "objects[1].raw_kind=0x20"));
  ASSERT_TRUE(set(t, "land_path=DATA\\MAPS\\Tut_2\\land"));
  ASSERT_TRUE(set(t, "mission_flag=4"));
  const Tma back = reread(t);
  EXPECT_EQ(back.objects[1].position.x, 1.5F);
  EXPECT_EQ(back.objects[1].position.z, 300.0F);
  EXPECT_EQ(back.objects[1].resource_name, "UNITS\\UNITS\\AutoDEMO\\w_m_wlk2.dat");
  EXPECT_EQ(back.objects[1].link0, -7);
  EXPECT_EQ(back.objects[1].raw_kind, 0x20u);
  EXPECT_EQ(back.land_path, "DATA\\MAPS\\Tut_2\\land");
  EXPECT_EQ(back.mission_flag, 4u);
}

TEST(TmaEdit, rename_stores_cp1251) {
  Tma t = mission();
  ASSERT_TRUE(apply_tma_edit(t, {TmaEditKind::rename, {"0", "\xd0\xb4\xd0\xb0"}}));  // "да"
  EXPECT_EQ(reread(t).objects[0].instance_name, "\xe4\xe0");
  auto bad = apply_tma_edit(t, {TmaEditKind::rename, {"0", "\xe2\x82\xac\xf0\x9f\x98\x80"}});  // emoji
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "tma.edit.text");
  EXPECT_EQ(bad.error().field, "objects[0].instance_name");
}

TEST(TmaEdit, add_and_remove_property_keep_order) {
  Tma t = mission();
  ASSERT_TRUE(apply_tma_edit(t, {TmaEditKind::add_property, {"objects[0].properties[Life state]=5"}}));
  EXPECT_EQ(t.objects[0].properties.size(), 5u);
  EXPECT_EQ(t.objects[0].properties[4].raw[0], 5u);
  ASSERT_TRUE(apply_tma_edit(t, {TmaEditKind::remove_property, {"objects[0].properties[Life state]"}}));
  const Tma back = reread(t);
  ASSERT_EQ(back.objects[0].properties.size(), 4u);
  EXPECT_EQ(back.objects[0].properties[0].name, "Invulnerability");
  EXPECT_EQ(back.objects[0].properties[1].name, "NOT USED");
  EXPECT_EQ(back.objects[0].properties[2].raw[0], 2u);
  EXPECT_EQ(back.objects[0].properties[3].raw[0], 5u);
  ASSERT_TRUE(tma_remove_property(t, 0, std::size_t{0}));
  EXPECT_EQ(t.objects[0].properties[0].name, "NOT USED");
}

TEST(TmaEdit, move_add_remove_objects) {
  Tma t = mission();
  ASSERT_TRUE(apply_tma_edit(t, {TmaEditKind::move, {"2", "10", "20.5", "-3"}}));
  EXPECT_EQ(t.objects[2].position.y, 20.5F);
  ASSERT_TRUE(apply_tma_edit(
      t, {TmaEditKind::add_object,
          {R"({"resource_name":"s_rock","instance_name":"rock","position":[1,2,3],"link0":-1,"raw_kind":7,
              "properties":[{"name":"Life state","raw":[1,0,0,-1]}]})"}}));
  ASSERT_EQ(t.objects.size(), 4u);
  ASSERT_TRUE(apply_tma_edit(t, {TmaEditKind::remove_object, {"0"}}));
  const Tma back = reread(t);
  ASSERT_EQ(back.objects.size(), 3u);
  EXPECT_EQ(back.objects[0].instance_name, "tree_01");
  EXPECT_EQ(back.objects[2].resource_name, "s_rock");
  EXPECT_EQ(back.objects[2].raw_kind, 7u);
  EXPECT_EQ(back.objects[2].flags, kTmaObjectFlags);
  EXPECT_EQ(back.objects[2].properties[0].raw[3], 0xffffffffu);
  EXPECT_EQ(back.objects[1].position.x, 10.0F);
}

TEST(TmaEdit, object_json_from_inspect_round_trips) {
  Tma t = mission();
  t.objects[1].instance_name = "bad\x98";
  const auto j = tma_to_json(t)["objects"][1];
  auto o = tma_object_from_json(j);
  ASSERT_TRUE(o) << o.error().to_string();
  Tma u = t;
  u.objects.push_back(*o);
  const Tma back = reread(u);
  EXPECT_EQ(back.objects[3].instance_name, "bad\x98");
  EXPECT_EQ(back.objects[3].properties.size(), 4u);
  EXPECT_EQ(back.objects[3].position.x, 1.0F);
  Tma one;
  one.objects.push_back(t.objects[1]);
  Tma two;
  two.objects.push_back(*o);
  EXPECT_EQ(bytes(one), bytes(two));
}

TEST(TmaEdit, object_json_keeps_non_finite_transform_bits) {
  Tma t = mission();
  t.objects[0].position.y = std::bit_cast<float>(0x7fc01234u);
  const auto j = tma_to_json(t)["objects"][0];
  EXPECT_EQ(j["position"].dump(), "[0.0,null,3.0]");  // JSON cannot hold NaN
  EXPECT_EQ(j["position_hex"], "000000003412c07f00004040");
  EXPECT_FALSE(j.contains("scale_hex"));
  auto o = tma_object_from_json(j);
  ASSERT_TRUE(o) << o.error().to_string();
  EXPECT_EQ(std::bit_cast<std::uint32_t>(o->position.y), 0x7fc01234u);
}

TEST(TmaEdit, rejects_unknown_json_key) {
  auto o = tma_object_from_json(core::Json::parse(R"({"resource":"x"})"));
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().code, "tma.edit.value");
  EXPECT_EQ(o.error().field, "object.resource");
}

TEST(TmaEdit, rejects_bad_paths_and_values_with_codes) {
  struct Case {
    const char* edit;
    const char* code;
    const char* field;
  };
  const Case cases[] = {
      {"objects[9].position=1,2,3", "tma.edit.index", "objects[9].position"},
      {"objects[0].properties[Life State]=1", "tma.edit.property", "objects[0].properties[Life State]"},
      {"objects[0].properties[7]=1", "tma.edit.index", "objects[0].properties[7]"},
      {"objects[0].properties[0]=1,2,3,4,5", "tma.edit.value", "objects[0].properties[0]"},
      {"objects[0].properties[0]=0x1ffffffff", "tma.edit.value", "objects[0].properties[0]"},
      {"objects[0].position=1,2", "tma.edit.value", "objects[0].position"},
      {"objects[0].position=1,2,nan", "tma.edit.value", "objects[0].position"},
      {"objects[0].colour=1", "tma.edit.path", "objects[0].colour"},
      {"objects[x].position=1,2,3", "tma.edit.path", "objects[x].position"},
      {"objects[0]position", "tma.edit.path", "objects[0]position"},
      {"description=1", "tma.edit.path", "description"},
      {"mission_flag=abc", "tma.edit.value", "mission_flag"},
  };
  for (const auto& c : cases) {
    Tma t = mission();
    const Bytes before = bytes(t);
    auto st = set(t, c.edit);
    ASSERT_FALSE(st) << c.edit;
    EXPECT_EQ(st.error().code, c.code) << c.edit << ": " << st.error().to_string();
    EXPECT_EQ(st.error().field, c.field) << c.edit;
    EXPECT_EQ(bytes(t), before) << c.edit;
  }
}

TEST(TmaEdit, quoted_numeric_property_name) {
  Tma t = mission();
  t.objects[0].add_property("3", {0, 0, 0, 0});
  ASSERT_TRUE(set(t, R"(objects[0].properties["3"]=8)"));
  EXPECT_EQ(t.objects[0].properties[4].raw[0], 8u);
  EXPECT_EQ(t.objects[0].properties[3].raw[0], 2u);
}

TEST(TmaEdit, edits_apply_in_order_and_name_the_failing_edit) {
  Tma t = mission();
  const std::vector<TmaEdit> edits = {
      {TmaEditKind::remove_object, {"0"}}, {TmaEditKind::rename, {"0", "first"}}, {TmaEditKind::remove_object, {"5"}}};
  auto st = apply_tma_edits(t, edits);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, "tma.edit.index");
  EXPECT_EQ(st.error().message.rfind("edit 3:", 0), 0u) << st.error().message;
  EXPECT_EQ(t.objects[0].instance_name, "first");  // tree_01 moved down, then renamed
}

TEST(TmaEdit, parse_words_keeps_unspecified_words) {
  auto w = parse_tma_words("1", {7, 8, 9, 10});
  ASSERT_TRUE(w);
  EXPECT_EQ(*w, (TmaWords{1, 8, 9, 10}));
  auto too_small = parse_tma_words("-2147483649");
  ASSERT_FALSE(too_small);
  EXPECT_EQ(too_small.error().code, "tma.edit.value");
  EXPECT_EQ(too_small.error().found, "-2147483649");
  auto empty = parse_tma_words("");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, "tma.edit.value");
  EXPECT_EQ(empty.error().expected, "decimal, -decimal, 0x-hex or 1.5f");
  EXPECT_EQ(empty.error().found, "");
  EXPECT_EQ(*parse_tma_words("-2147483648"), (TmaWords{0x80000000u, 0, 0, 0}));
}

// edit_tma_file: read, edit in order, write atomically; nothing is written on any failure.
TEST(TmaEditFile, edits_a_file_and_writes_nothing_when_an_edit_fails) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("sortie_tma_edit_file_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path in = dir / "data.tma";
  const fs::path out = dir / "out.tma";
  ASSERT_TRUE(core::write_file_atomic(in, bytes(mission())));
  TmaFileEdit request{in,
                      out,
                      core::Profile::strict,
                      {{TmaEditKind::move, {"1", "4", "5", "6"}}, {TmaEditKind::rename, {"1", "moved"}}}};
  auto done = edit_tma_file(request);
  ASSERT_TRUE(done) << done.error().to_string();
  EXPECT_EQ(done->edits, 2u);
  EXPECT_EQ(done->objects, 3u);
  Tma want = mission();
  want.objects[1].position = {4, 5, 6};
  want.objects[1].instance_name = "moved";
  const auto written = core::read_file(out);
  ASSERT_TRUE(written);
  EXPECT_EQ(*written, bytes(want));
  EXPECT_EQ(done->bytes, written->size());

  fs::remove(out);
  request.edits.push_back({TmaEditKind::remove_object, {"7"}});
  auto failed = edit_tma_file(request);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, "tma.edit.index");
  EXPECT_EQ(failed.error().file, in.string());
  EXPECT_FALSE(fs::exists(out));

  auto missing = edit_tma_file({dir / "none.tma", out, core::Profile::strict, {}});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code.rfind("io.", 0), 0u) << missing.error().code;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sortie::iron3d
