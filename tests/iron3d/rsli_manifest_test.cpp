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

// Every step can fail; the error is returned, never dereferenced.
core::Result<Extracted> extract(const Bytes& lib) {
  SORTIE_TRY(auto a, read_rsli(lib, RsliReadOptions::from_profile(core::Profile::compatible, "x.lib")));
  Extracted x;
  std::vector<std::string> names;
  std::vector<Bytes> decoded;
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    std::string name = std::to_string(i);
    name.insert(name.begin(), 'f');
    names.push_back(name);
    SORTIE_TRY(Bytes payload, decode_rsli_entry(a, i));
    decoded.push_back(std::move(payload));
    x.files[names.back()] = decoded.back();
  }
  const core::ByteView body = rsli_body_bytes(a);
  Bytes body_copy;
  body_copy.insert(body_copy.end(), body.begin(), body.end());
  x.files["body.bin"] = std::move(body_copy);
  x.manifest = rsli_manifest(a, names, decoded, "body.bin");
  return x;
}

// The decoded payload of a named entry, or the reason it has none (never a dereference of a
// missing value).
core::Result<Bytes> entry_payload(const RsliArchive& a, std::string_view name) {
  const auto index = find_rsli_entry(a, name);
  if (!index)
    return core::fail(core::Diagnostic::error("test.entry", "entry not found").expect("entry", std::string(name)));
  return decode_rsli_entry(a, *index);
}

core::Result<RsliPackResult> pack(const Extracted& x) {
  return rsli_pack_manifest(x.manifest, [&](const std::string& f) -> core::Result<Bytes> {
    auto it = x.files.find(f);
    if (it == x.files.end()) return core::fail(core::Diagnostic::error("io.open", "missing").expect("file", f));
    return it->second;
  });
}

core::Result<Bytes> sample_library() {
  auto ed = RsliEditor::create(0x2222);
  SORTIE_CHECK(ed.add("FONT.FNT", bytes_of("glyph glyph glyph glyph"), RsliMethod::lzss));
  SORTIE_CHECK(ed.add("SPRITE.TEX", bytes_of("pixels pixels pixels"), RsliMethod::deflate));
  SORTIE_CHECK(ed.add("KEY.BIN", bytes_of("secret secret"), RsliMethod::xor_lzss));
  return ed.write();
}

TEST(RsliManifest, unchanged_extraction_packs_to_original_bytes) {
  const auto library = sample_library();
  ASSERT_TRUE(library) << library.error().to_string();
  for (const Bytes& lib :
       {*library, test::synthetic_rsli({{.name = "R", .unpacked = 3, .payload = bytes_of("raw")}}, false, 5, 0u)}) {
    const auto x = extract(lib);
    ASSERT_TRUE(x) << x.error().to_string();
    auto p = pack(*x);
    ASSERT_TRUE(p) << p.error().to_string();
    EXPECT_TRUE(p->original);
    EXPECT_EQ(p->bytes, lib);
  }
}

TEST(RsliManifest, changed_file_rename_and_new_entry_rebuild_the_library) {
  const auto library = sample_library();
  ASSERT_TRUE(library) << library.error().to_string();
  auto extracted = extract(*library);
  ASSERT_TRUE(extracted) << extracted.error().to_string();
  Extracted& x = *extracted;
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
  EXPECT_EQ(entry_payload(*a, "font.fnt").value_or(Bytes{}), bytes_of("glyph glyph glyph glyph"));
  EXPECT_EQ(entry_payload(*a, "sprite.tex").value_or(Bytes{}), bytes_of("new pixels"));
  EXPECT_EQ(entry_payload(*a, "AKEY.BIN").value_or(Bytes{}), bytes_of("secret secret"));
  EXPECT_EQ(entry_payload(*a, "new.txt").value_or(Bytes{}), bytes_of("hello hello hello"));
}

TEST(RsliManifest, rejects_unknown_method_for_changed_entry) {
  const auto library = sample_library();
  ASSERT_TRUE(library) << library.error().to_string();
  auto extracted = extract(*library);
  ASSERT_TRUE(extracted) << extracted.error().to_string();
  Extracted& x = *extracted;
  x.files["f0"] = bytes_of("changed");
  x.manifest["entries"][0]["method"] = "zip";
  auto p = pack(x);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code, "manifest.method");
  EXPECT_EQ(p.error().field, "entries[0].method");
}

}  // namespace
}  // namespace sortie::iron3d
