// RsLi extraction manifest and packing from it (used by `sortie archive extract|pack`).
#include <gtest/gtest.h>

#include <map>

#include "rsli_fixture.hpp"
#include "sortie/iron3d/rsli.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;
using test::bytes_of;

struct Extracted {
  core::Json manifest;
  std::map<std::string, Bytes> files;
};

Extracted extract(const Bytes& lib) {
  auto a = read_rsli(lib, RsliReadOptions::from_profile(core::Profile::compatible, "x.lib"));
  EXPECT_TRUE(a) << a.error().to_string();
  Extracted x;
  std::vector<std::string> names;
  std::vector<Bytes> decoded;
  for (std::size_t i = 0; i < a->entries.size(); ++i) {
    std::string name = std::to_string(i);
    name.insert(name.begin(), 'f');
    names.push_back(name);
    decoded.push_back(*decode_rsli_entry(*a, i));
    x.files[names.back()] = decoded.back();
  }
  const core::ByteView body = rsli_body_bytes(*a);
  Bytes body_copy;
  body_copy.insert(body_copy.end(), body.begin(), body.end());
  x.files["body.bin"] = std::move(body_copy);
  x.manifest = rsli_manifest(*a, names, decoded, "body.bin");
  return x;
}

core::Result<RsliPackResult> pack(const Extracted& x) {
  return rsli_pack_manifest(x.manifest, [&](const std::string& f) -> core::Result<Bytes> {
    auto it = x.files.find(f);
    if (it == x.files.end()) return core::fail(core::Diagnostic::error("io.open", "missing").expect("file", f));
    return it->second;
  });
}

Bytes sample_library() {
  auto ed = RsliEditor::create(0x2222);
  EXPECT_TRUE(ed.add("FONT.FNT", bytes_of("glyph glyph glyph glyph"), RsliMethod::lzss));
  EXPECT_TRUE(ed.add("SPRITE.TEX", bytes_of("pixels pixels pixels"), RsliMethod::deflate));
  EXPECT_TRUE(ed.add("KEY.BIN", bytes_of("secret secret"), RsliMethod::xor_lzss));
  return *ed.write();
}

TEST(RsliManifest, unchanged_extraction_packs_to_original_bytes) {
  for (const Bytes& lib : {sample_library(), test::synthetic_rsli({{.name = "R", .unpacked = 3,
                                                                     .payload = bytes_of("raw")}},
                                                                   false, 5, 0u)}) {
    const Extracted x = extract(lib);
    auto p = pack(x);
    ASSERT_TRUE(p) << p.error().to_string();
    EXPECT_TRUE(p->original);
    EXPECT_EQ(p->bytes, lib);
  }
}

TEST(RsliManifest, changed_file_rename_and_new_entry_rebuild_the_library) {
  Extracted x = extract(sample_library());
  x.files["f1"] = bytes_of("new pixels");
  x.manifest["entries"][2]["name"] = "akey.bin";  // sorts first now: XOR key of KEY.BIN changes
  x.manifest["entries"].push_back({{"name", "NEW.TXT"}, {"file", "new"}, {"method", "xor-lzss"}});
  x.files["new"] = bytes_of("hello hello hello");
  auto p = pack(x);
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_FALSE(p->original);
  EXPECT_EQ(p->repacked, 2u);
  auto a = read_rsli(p->bytes, RsliReadOptions{});
  ASSERT_TRUE(a) << a.error().to_string();
  ASSERT_EQ(a->entries.size(), 4u);
  EXPECT_EQ(*decode_rsli_entry(*a, *find_rsli_entry(*a, "font.fnt")), bytes_of("glyph glyph glyph glyph"));
  EXPECT_EQ(*decode_rsli_entry(*a, *find_rsli_entry(*a, "sprite.tex")), bytes_of("new pixels"));
  EXPECT_EQ(*decode_rsli_entry(*a, *find_rsli_entry(*a, "AKEY.BIN")), bytes_of("secret secret"));
  EXPECT_EQ(*decode_rsli_entry(*a, *find_rsli_entry(*a, "new.txt")), bytes_of("hello hello hello"));
}

TEST(RsliManifest, rejects_unknown_method_for_changed_entry) {
  Extracted x = extract(sample_library());
  x.files["f0"] = bytes_of("changed");
  x.manifest["entries"][0]["method"] = "zip";
  auto p = pack(x);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code, "manifest.method");
  EXPECT_EQ(p.error().field, "entries[0].method");
}

}  // namespace
}  // namespace sortie::iron3d
