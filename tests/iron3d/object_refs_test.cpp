#include "sortie/iron3d/object_refs.hpp"

#include <gtest/gtest.h>

using namespace sortie;
using namespace sortie::iron3d;

namespace {
ObjectRef ref(std::string_view a, std::string_view r) {
  return *make_object_ref(a, r);
}
}  // namespace

TEST(ObjectRefs, payload_round_trip_and_views) {
  const std::vector<ObjectRef> refs = {ref("objects.rlb", "fr_parent"), ref("static.rlb", " s_tree_0_04.msh "),
                                       ref("bases.rlb", "x.bas")};
  const auto bytes = write_object_refs(refs);
  ASSERT_EQ(bytes.size(), 192u);
  auto back = read_object_refs(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, refs);
  const auto views = object_ref_views(*back);
  EXPECT_EQ(views[1], (ObjectRefView{"static.rlb", "s_tree_0_04.msh"}));
  EXPECT_TRUE(is_parent_ref(views[0]));
  EXPECT_FALSE(is_parent_ref(views[1]));
  EXPECT_TRUE(is_mesh_ref(views[1]));
  EXPECT_FALSE(is_mesh_ref(views[2]));
}

TEST(ObjectRefs, zero_records_is_valid) {
  auto r = read_object_refs(core::Bytes{});
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->empty());
}

TEST(ObjectRefs, keeps_bytes_after_nul) {
  auto bytes = write_object_refs({ref("static.rlb", "a.msh")});
  bytes[32 + 6] = 'T';
  auto r = read_object_refs(bytes);
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)[0].resource_name.has_tail());
  EXPECT_EQ(object_ref_views(*r)[0].resource, "a.msh");
  EXPECT_EQ(write_object_refs(*r), bytes);
}

TEST(ObjectRefs, rejects_63_byte_payload) {
  auto r = read_object_refs(core::Bytes(63, 0));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "object_refs.size");
  EXPECT_EQ(r.error().found, "63 bytes");
}

TEST(ObjectRefs, registry_build_read_find_and_lossless_write) {
  auto bytes = build_object_registry({{"s_tree_04", {ref("static.rlb", "s_tree_0_04.msh")}},
                                      {"r_h_01.msh", {ref("bases.rlb", "r_h_01.msh")}},
                                      {"sun_01", {}}});
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  ReadOptions o;
  o.file_name = "objects.rlb";
  auto reg = read_object_registry(*bytes, o);
  ASSERT_TRUE(reg) << reg.error().to_string();
  ASSERT_EQ(reg->refs.size(), 3u);
  const auto* tree = find_prototype_refs(*reg, "S_TREE_04");
  ASSERT_NE(tree, nullptr);
  EXPECT_EQ(object_ref_views(*tree)[0].archive, "static.rlb");
  const auto* house = find_prototype_refs(*reg, "r_h_01");  // key matches key.msh
  ASSERT_NE(house, nullptr);
  EXPECT_EQ(object_ref_views(*house)[0].resource, "r_h_01.msh");
  EXPECT_EQ(find_prototype_refs(*reg, "missing"), nullptr);
  EXPECT_TRUE(find_prototype_refs(*reg, "sun_01")->empty());
  auto out = write_object_registry(*reg);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, *bytes);
  // Editing one entry's refs re-encodes it and keeps the rest.
  reg->refs[2].push_back(ref("objects.rlb", "s_tree_04"));
  auto edited = write_object_registry(*reg);
  ASSERT_TRUE(edited);
  auto again = read_object_registry(*edited);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->refs, reg->refs);
}

TEST(ObjectRefs, registry_reports_bad_entry_with_file_offset) {
  NresBuilder b;
  b.add(0, "ok", write_object_refs({ref("a", "b")}));
  b.add(0, "bad", core::Bytes(63, 0));
  auto bytes = b.build();
  ASSERT_TRUE(bytes);
  ReadOptions o;
  o.file_name = "objects.rlb";
  auto reg = read_object_registry(*bytes, o);
  ASSERT_FALSE(reg);
  EXPECT_EQ(reg.error().code, "object_refs.size");
  EXPECT_EQ(reg.error().field, "entries[1].length");
  EXPECT_EQ(reg.error().offset, 16u + 64u);
}

TEST(ObjectRefs, format_info_detects_objects_rlb) {
  auto bytes = build_object_registry({{"k", {ref("static.rlb", "k.msh")}}});
  const auto info = object_refs_format_info();
  EXPECT_EQ(info.detect(*bytes, "GAME/Objects.rlb"), 2);
  EXPECT_EQ(info.detect(*bytes, "static.rlb"), 0);
  auto j = info.inspect(*bytes, {});
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["prototypes"][0]["refs"][0]["resource_name"]["text"], "k.msh");
  EXPECT_EQ(*info.roundtrip(*bytes, {}), *bytes);
}
