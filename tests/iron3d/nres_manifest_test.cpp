// Extraction manifest and pack (what `sortie archive extract|pack` run), safe file names.
#include <gtest/gtest.h>

#include <map>

#include "nres_fixtures.hpp"
#include "sortie/iron3d/archive_files.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;
using namespace nres_test;

// In-memory "extract directory".
struct Extracted {
  core::Json manifest;
  std::map<std::string, Bytes> files;
  NresFileLoader loader() {
    return [this](const std::string& f) -> core::Result<Bytes> {
      auto it = files.find(f);
      if (it == files.end()) return core::fail(core::Diagnostic::error("io.open", "missing").of(f));
      return it->second;
    };
  }
};

Extracted extract(const Bytes& image) {
  auto a = read_nres(image, {core::Profile::compatible, "t.rlb", {}});
  EXPECT_TRUE(a);
  Extracted x;
  std::vector<std::string> names, gap_files(a->gaps.size());
  for (const auto& e : a->entries) names.emplace_back(e.name.text());
  const auto files = archive_safe_file_names(names);
  for (std::size_t i = 0; i < files.size(); ++i) x.files[files[i]] = bytes_of(a->payload(i));
  for (std::size_t g = 0; g < a->gaps.size(); ++g) {
    gap_files[g] = "_gaps/" + std::to_string(a->gaps[g].offset);
    if (!a->gap_is_zero(g)) x.files[gap_files[g]] = bytes_of(a->gap_bytes(g));
  }
  x.manifest = nres_manifest(*a, files, gap_files);
  return x;
}

TEST(NresManifest, records_every_header_and_entry_field) {
  auto built =
      NresBuilder().add(nres_type_tag("MAT0"), std::string("one\0TAIL", 8), bytes_of("xyz"), 1, 2, 3).build().value();
  Extracted x = extract(built);
  const auto& m = x.manifest;
  EXPECT_EQ(m["format"], "nres");
  EXPECT_EQ(m["version"], 256);
  EXPECT_EQ(m["entry_count"], 1);
  EXPECT_EQ(m["total_size"], built.size());
  EXPECT_EQ(m["directory_offset"], 24);
  const auto& e = m["entries"][0];
  EXPECT_EQ(e["file"], "one");
  EXPECT_EQ(e["name"], "one");
  EXPECT_EQ(e["name_hex"].get<std::string>().substr(0, 16), "6f6e65005441494c");
  EXPECT_EQ(e["type_tag"], "MAT0");
  EXPECT_EQ(e["attr1"], 1);
  EXPECT_EQ(e["attr2"], 2);
  EXPECT_EQ(e["attr3"], 3);
  EXPECT_EQ(e["size"], 3);
  EXPECT_EQ(e["data_offset"], 16);
  EXPECT_EQ(e["sort_index"], 0);
}

TEST(NresManifest, pack_reproduces_canonical_archive) {
  const Bytes b = simple({{"Zulu", "hello"}, {"alpha", ""}, {"Mike", "abc"}});
  Extracted x = extract(b);
  auto packed = nres_pack_manifest(x.manifest, x.loader());
  ASSERT_TRUE(packed) << packed.error().to_string();
  EXPECT_TRUE(packed->original_layout);
  EXPECT_EQ(packed->bytes, b);
  auto canonical = nres_pack_manifest(x.manifest, x.loader(), {true});
  ASSERT_TRUE(canonical);
  EXPECT_EQ(canonical->bytes, b);
}

TEST(NresManifest, pack_reproduces_nonzero_gap_and_invalid_sort_table) {
  Bytes b = with_prefix_gap(simple({{"b", "12345"}, {"a", "xyz"}}), hex("aabbccdd"));
  put_u32(b, record_at(b, 0) + kSort, 0);  // identity table: out of order
  put_u32(b, record_at(b, 1) + kSort, 1);
  Extracted x = extract(b);
  EXPECT_EQ(x.manifest["lookup_order_valid"], false);
  auto packed = nres_pack_manifest(x.manifest, x.loader());
  ASSERT_TRUE(packed) << packed.error().to_string();
  EXPECT_EQ(packed->bytes, b);
}

TEST(NresManifest, pack_moves_payloads_after_a_resized_file_and_keeps_gaps) {
  const Bytes b = with_prefix_gap(simple({{"b", "12345"}, {"a", "xyz"}}), hex("aabbccdd"));
  Extracted x = extract(b);
  x.files["b"] = bytes_of("0123456789abcdef");
  auto packed = nres_pack_manifest(x.manifest, x.loader());
  ASSERT_TRUE(packed) << packed.error().to_string();
  EXPECT_EQ(packed->resized, 1u);
  EXPECT_FALSE(packed->original_layout);
  auto a = read_nres(packed->bytes);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(bytes_of(a->gap_bytes(0)), hex("aabbccdd"));
  EXPECT_EQ(bytes_of(a->payload(0)), bytes_of("0123456789abcdef"));
  EXPECT_EQ(bytes_of(a->payload(1)), bytes_of("xyz"));
}

TEST(NresManifest, edited_name_renames_and_rebuilds_sort_table) {
  const Bytes b = simple({{"beta", "1"}, {"zeta", "2"}});
  Extracted x = extract(b);
  x.manifest["entries"][1]["name"] = "alpha";
  auto packed = nres_pack_manifest(x.manifest, x.loader());
  ASSERT_TRUE(packed) << packed.error().to_string();
  auto a = read_nres(packed->bytes);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->entries[1].name.text(), "alpha");
  EXPECT_EQ(a->find("alpha"), std::optional<std::size_t>(1));
}

TEST(NresManifest, hand_written_manifest_without_layout_packs_canonically) {
  core::Json m = {{"format", "nres"},
                  {"entries",
                   {{{"name", "beta"}, {"file", "b"}, {"type_id", 7}, {"attr1", 1}, {"attr2", 2}, {"attr3", 3}},
                    {{"name", "Alpha"}, {"file", "a"}, {"type_id", nres_type_tag("MAT0")}}}}};
  Extracted x;
  x.manifest = m;
  x.files["b"] = bytes_of("xyz");
  x.files["a"] = {};
  auto packed = nres_pack_manifest(x.manifest, x.loader());
  ASSERT_TRUE(packed) << packed.error().to_string();
  EXPECT_EQ(
      packed->bytes,
      NresBuilder().add(7, "beta", bytes_of("xyz"), 1, 2, 3).add(nres_type_tag("MAT0"), "Alpha", {}).build().value());
}

TEST(NresManifest, rejects_bad_manifests) {
  Extracted x;
  x.manifest = {{"format", "rsli"}, {"entries", core::Json::array()}};
  EXPECT_EQ(nres_pack_manifest(x.manifest, x.loader()).error().code, "manifest.format");
  x.manifest = {{"format", "nres"}, {"entries", {{{"name", "a"}, {"file", "missing"}}}}};
  EXPECT_EQ(nres_pack_manifest(x.manifest, x.loader()).error().code, "io.open");
  x.files["f"] = {};
  x.manifest = {{"format", "nres"}, {"entries", {{{"name", "a"}, {"file", "f"}, {"type_id", -1}}}}};
  auto bad_type = nres_pack_manifest(x.manifest, x.loader());
  EXPECT_EQ(bad_type.error().code, "manifest.field");
  EXPECT_EQ(bad_type.error().field, "entries[0].type_id");
  x.manifest = {{"format", "nres"}, {"entries", {{{"name", std::string(36, 'n')}, {"file", "f"}}}}};
  EXPECT_EQ(nres_pack_manifest(x.manifest, x.loader()).error().code, "nres.name_length");
  Extracted y = extract(simple({{"a", "1"}}));
  y.manifest["total_size"] = 4096;
  EXPECT_EQ(nres_pack_manifest(y.manifest, y.loader()).error().code, "manifest.layout");
}

TEST(ArchiveFiles, makes_safe_unique_file_names) {
  const std::vector<std::string> names = {"a/b",   "A_B",    "..",    "con",   "COM1.txt",
                                          "x:y*?", " lead",  "tex.0", "TEX.0", "_manifest.json",
                                          "_gaps", "ok.msh", "trail."};
  const auto f = archive_safe_file_names(names);
  ASSERT_EQ(f.size(), names.size());
  EXPECT_EQ(f[0], "a_b");
  EXPECT_EQ(f[1], "A_B~1");
  EXPECT_EQ(f[2], "__");
  EXPECT_EQ(f[3], "_con");
  EXPECT_EQ(f[4], "_COM1.txt");
  EXPECT_EQ(f[5], "x_y__");
  EXPECT_EQ(f[6], "_lead");
  EXPECT_EQ(f[7], "tex.0");
  EXPECT_EQ(f[8], "TEX~1.0");
  EXPECT_EQ(f[9], "_manifest~1.json");
  EXPECT_EQ(f[10], "_gaps~1");
  EXPECT_EQ(f[11], "ok.msh");
  EXPECT_EQ(f[12], "trail_");
}

}  // namespace
}  // namespace sortie::iron3d
