// The archive facade (archive.hpp): NRes and RsLi opened by content, listed, extracted with a
// manifest, packed back byte for byte, edited. Archives are built by our own writers.
#include "sortie/iron3d/archive.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "nres_fixtures.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/archive_files.hpp"

namespace sortie::iron3d {
namespace {

namespace fs = std::filesystem;
using core::Bytes;
using nres_test::bytes_of;

// Three entries, physical order Zulu, alpha, Mike; a MAT0 entry with attributes.
Bytes nres_image() {
  return NresBuilder()
      .add(7, "Zulu", bytes_of("zzz"), 1, 2, 3)
      .add(nres_type_tag("MAT0"), "alpha", bytes_of("material"), 0, 6, 0)
      .add(1, "Mike", {})
      .build()
      .value();
}

// The same archive with 4 non-zero bytes that no entry indexes, in front of the payloads.
Bytes nres_with_gap() {
  const Bytes b = nres_image();
  Bytes out(b.begin(), b.begin() + 16);
  for (std::uint8_t v : {0xAA, 0xBB, 0xCC, 0xDD}) out.push_back(v);
  out.insert(out.end(), b.begin() + 16, b.end());
  nres_test::put_u32(out, 12, static_cast<std::uint32_t>(out.size()));
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t rec = nres_test::record_at(out, i);
    nres_test::put_u32(out, rec + nres_test::kOffset, nres_test::get_u32(out, rec + nres_test::kOffset) + 4);
  }
  return out;
}

Bytes rsli_image() {
  RsliEditor ed = RsliEditor::create(0x1234);
  EXPECT_TRUE(ed.add("FONT.FNT", bytes_of("glyphs glyphs glyphs glyphs"), RsliMethod::lzss));
  EXPECT_TRUE(ed.add("PLAIN", bytes_of("stored bytes"), RsliMethod::stored));
  EXPECT_TRUE(ed.add("SECRET", bytes_of("xor me"), RsliMethod::xor_only));
  return ed.write().value();
}

Archive open(Bytes bytes, core::Profile profile = core::Profile::strict) {
  auto a = Archive::open(core::SharedBytes(std::move(bytes)), {profile, "test.lib"});
  EXPECT_TRUE(a.has_value()) << a.error().to_string();
  return std::move(*a);
}

std::vector<std::string> names_of(const Archive& a) {
  std::vector<std::string> v;
  for (const auto& item : a.items()) v.push_back(item.name);
  return v;
}

Bytes payload_of(const Archive& a, std::string_view name) {
  const auto index = a.find(name);
  EXPECT_TRUE(index.has_value()) << name;
  if (!index) return {};
  auto p = a.payload(*index);
  EXPECT_TRUE(p.has_value());
  return p ? bytes_of(*p) : Bytes{};
}

class ArchiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie_archive_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void put(const fs::path& p, const Bytes& b) {
    fs::create_directories(p.parent_path());
    ASSERT_TRUE(core::write_file_atomic(p, b));
  }
  Bytes get(const fs::path& p) { return core::read_file(p).value(); }
  fs::path dir_;
};

TEST(ArchiveDetect, magic_decides_the_container) {
  EXPECT_EQ(detect_archive(nres_image()), ArchiveFormat::nres);
  EXPECT_EQ(detect_archive(rsli_image()), ArchiveFormat::rsli);
  EXPECT_EQ(detect_archive(bytes_of("Texm")), std::nullopt);
  EXPECT_EQ(detect_archive({}), std::nullopt);
  EXPECT_EQ(parse_archive_format("rsli"), ArchiveFormat::rsli);
  EXPECT_EQ(parse_archive_format("zip"), std::nullopt);
  EXPECT_EQ(to_string(ArchiveFormat::nres), "nres");
}

TEST(Archive, lists_finds_and_reads_nres_entries) {
  const Archive a = open(nres_image());
  EXPECT_EQ(a.format(), ArchiveFormat::nres);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(names_of(a), (std::vector<std::string>{"Zulu", "alpha", "Mike"}));
  EXPECT_EQ(a.items()[0].type_label, "7");
  EXPECT_EQ(a.items()[1].type_label, "MAT0");
  EXPECT_EQ(a.items()[1].size, 8u);
  EXPECT_EQ(a.items()[1].offset, 24u);  // "zzz" at 16, padded to 8
  EXPECT_EQ(a.find("ALPHA"), std::optional<std::size_t>(1));
  EXPECT_EQ(a.find("mike"), std::optional<std::size_t>(2));
  EXPECT_EQ(a.find("nope"), std::nullopt);
  EXPECT_EQ(payload_of(a, "zulu"), bytes_of("zzz"));
  EXPECT_EQ(a.to_json().at("format"), "nres");
  ASSERT_NE(a.nres(), nullptr);
  EXPECT_EQ(a.rsli(), nullptr);
  const Archive copy = a;  // copies share the bytes: views stay valid
  EXPECT_EQ(copy.payload(0)->data(), a.payload(0)->data());
  const auto bad = a.payload(3);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "archive.entry_index");
}

TEST(Archive, lists_and_decodes_rsli_entries) {
  const Archive a = open(rsli_image());
  EXPECT_EQ(a.format(), ArchiveFormat::rsli);
  EXPECT_EQ(names_of(a), (std::vector<std::string>{"FONT.FNT", "PLAIN", "SECRET"}));
  EXPECT_EQ(a.items()[0].type_label, "lzss");
  EXPECT_EQ(a.items()[2].type_label, "xor");
  EXPECT_EQ(a.items()[0].size, 27u);  // unpacked size
  EXPECT_EQ(payload_of(a, "font.fnt"), bytes_of("glyphs glyphs glyphs glyphs"));
  EXPECT_EQ(payload_of(a, "Secret"), bytes_of("xor me"));
  // Decoded once: the second call answers from the same bytes.
  EXPECT_EQ(a.payload(0)->data(), a.payload(0)->data());
  EXPECT_EQ(a.to_json().at("format"), "rsli");
}

TEST(Archive, rejects_a_file_that_is_no_archive_at_offset_0) {
  const auto a = Archive::open(core::SharedBytes(bytes_of("Texm....")), {core::Profile::strict, "t.lib"});
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code, "archive.unknown");
  EXPECT_EQ(a.error().offset, 0u);
  EXPECT_EQ(a.error().file, "t.lib");
  EXPECT_EQ(a.error().found, "5465786d");
  const auto broken = Archive::open(core::SharedBytes(bytes_of("NRes")), {});
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().code, "nres.magic");  // NRes by magic, then the reader's own diagnostic
}

TEST_F(ArchiveTest, open_file_maps_the_archive_and_reports_io_errors) {
  put(dir_ / "a.lib", nres_image());
  auto a = Archive::open_file(dir_ / "a.lib");
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->file_name(), (dir_ / "a.lib").string());
  EXPECT_EQ(payload_of(*a, "alpha"), bytes_of("material"));
  const auto missing = Archive::open_file(dir_ / "absent.lib");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, "io.open");
}

TEST_F(ArchiveTest, nres_extract_then_pack_gives_the_same_bytes_and_keeps_unindexed_bytes) {
  const Bytes image = nres_with_gap();
  const Archive a = open(image);
  std::vector<std::size_t> progress;
  ArchiveExtractOptions xo;
  xo.progress = [&](std::size_t done, std::size_t total, std::string_view) { progress.push_back(done * 10 + total); };
  auto x = extract_archive(a, dir_ / "out", xo);
  ASSERT_TRUE(x) << x.error().to_string();
  EXPECT_EQ(x->extracted, 3u);
  EXPECT_EQ(x->entries, 3u);
  EXPECT_EQ(progress, (std::vector<std::size_t>{13, 23, 33}));
  EXPECT_EQ(get(dir_ / "out" / "alpha"), bytes_of("material"));
  EXPECT_EQ(get(dir_ / "out" / "Mike"), Bytes{});
  ASSERT_EQ(x->preserved, (std::vector<std::string>{"_gaps/0x10.bin"}));
  EXPECT_EQ(get(dir_ / "out" / "_gaps" / "0x10.bin"), (Bytes{0xAA, 0xBB, 0xCC, 0xDD}));
  EXPECT_EQ(x->manifest, dir_ / "out" / kArchiveManifestName);
  const auto manifest = core::Json::parse(core::read_text_file(x->manifest).value());
  EXPECT_EQ(manifest.at("format"), "nres");
  EXPECT_EQ(manifest.at("source"), "test.lib");
  EXPECT_EQ(manifest.at("entries").at(1).at("file"), "alpha");

  auto packed = pack_archive(dir_ / "out");
  ASSERT_TRUE(packed) << packed.error().to_string();
  EXPECT_TRUE(packed->from_manifest);
  EXPECT_EQ(packed->format, ArchiveFormat::nres);
  EXPECT_EQ(packed->entries, 3u);
  EXPECT_EQ(packed->resized, 0u);
  EXPECT_EQ(packed->bytes, image);
  // The manifest file itself is a source too; --canonical drops the unindexed bytes.
  auto canonical = pack_archive(x->manifest, {.canonical = true});
  ASSERT_TRUE(canonical);
  EXPECT_EQ(canonical->bytes, nres_image());

  // A payload that changed size: the others move, the gap stays, the sort table is rebuilt.
  put(dir_ / "out" / "Zulu", bytes_of("a longer payload"));
  auto resized = pack_archive(dir_ / "out");
  ASSERT_TRUE(resized) << resized.error().to_string();
  EXPECT_EQ(resized->resized, 1u);
  const Archive b = open(resized->bytes);
  EXPECT_EQ(payload_of(b, "zulu"), bytes_of("a longer payload"));
  EXPECT_EQ(payload_of(b, "alpha"), bytes_of("material"));
  ASSERT_EQ(b.nres()->gaps.size(), 2u);  // the spliced bytes, then the padding after "Zulu"
  EXPECT_EQ(bytes_of(b.nres()->gap_bytes(0)), (Bytes{0xAA, 0xBB, 0xCC, 0xDD}));
}

TEST_F(ArchiveTest, rsli_extract_then_pack_gives_the_same_bytes) {
  const Bytes image = rsli_image();
  const Archive a = open(image);
  auto x = extract_archive(a, dir_ / "lib");
  ASSERT_TRUE(x) << x.error().to_string();
  EXPECT_EQ(get(dir_ / "lib" / "FONT.FNT"), bytes_of("glyphs glyphs glyphs glyphs"));
  EXPECT_TRUE(x->preserved.size() == 1 && x->preserved[0].starts_with("_gaps/0x"));  // the body after the table
  auto packed = pack_archive(dir_ / "lib");
  ASSERT_TRUE(packed) << packed.error().to_string();
  EXPECT_EQ(packed->format, ArchiveFormat::rsli);
  EXPECT_FALSE(packed->rebuilt);
  EXPECT_EQ(packed->bytes, image);
  // A changed file repacks that entry only; the result reads back with the new content.
  put(dir_ / "lib" / "PLAIN", bytes_of("new plain bytes"));
  auto changed = pack_archive(dir_ / "lib");
  ASSERT_TRUE(changed) << changed.error().to_string();
  EXPECT_TRUE(changed->rebuilt);
  EXPECT_EQ(changed->repacked, 1u);
  const Archive b = open(changed->bytes);
  EXPECT_EQ(payload_of(b, "PLAIN"), bytes_of("new plain bytes"));
  EXPECT_EQ(payload_of(b, "FONT.FNT"), bytes_of("glyphs glyphs glyphs glyphs"));
}

TEST_F(ArchiveTest, extract_of_named_entries_writes_only_them) {
  const Archive a = open(nres_image());
  ArchiveExtractOptions xo;
  xo.names = {"MIKE", "zulu"};
  auto x = extract_archive(a, dir_ / "two", xo);
  ASSERT_TRUE(x);
  EXPECT_EQ(x->extracted, 2u);
  EXPECT_TRUE(x->manifest.empty());
  std::vector<std::string> files;
  for (const auto& de : fs::directory_iterator(dir_ / "two")) files.push_back(de.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"Mike", "Zulu"}));
  // An unknown name fails before anything is created.
  xo.names = {"zulu", "nope"};
  auto missing = extract_archive(a, dir_ / "none", xo);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, "archive.entry_not_found");
  EXPECT_EQ(missing.error().found, "nope");
  EXPECT_FALSE(fs::exists(dir_ / "none"));
}

TEST_F(ArchiveTest, plain_directories_pack_sorted_by_file_name) {
  put(dir_ / "plain" / "beta.bin", bytes_of("beta"));
  put(dir_ / "plain" / "alpha.bin", bytes_of("alpha!!!!!"));
  auto nres = pack_archive(dir_ / "plain");
  ASSERT_TRUE(nres) << nres.error().to_string();
  EXPECT_FALSE(nres->from_manifest);
  EXPECT_EQ(
      nres->bytes,
      NresBuilder().add(0, "alpha.bin", bytes_of("alpha!!!!!")).add(0, "beta.bin", bytes_of("beta")).build().value());
  auto rsli = pack_archive(dir_ / "plain", {.plain_format = ArchiveFormat::rsli, .plain_method = RsliMethod::lzss});
  ASSERT_TRUE(rsli) << rsli.error().to_string();
  EXPECT_EQ(rsli->format, ArchiveFormat::rsli);
  const Archive a = open(rsli->bytes);
  EXPECT_EQ(names_of(a), (std::vector<std::string>{"ALPHA.BIN", "BETA.BIN"}));  // RsLi names are uppercase
  EXPECT_EQ(a.items()[0].type_label, "lzss");
  EXPECT_EQ(payload_of(a, "beta.bin"), bytes_of("beta"));
}

TEST_F(ArchiveTest, pack_rejects_bad_manifests_with_located_diagnostics) {
  put(dir_ / "m1" / "_manifest.json", bytes_of(R"({"format": "zip", "entries": []})"));
  auto format = pack_archive(dir_ / "m1");
  ASSERT_FALSE(format);
  EXPECT_EQ(format.error().code, "manifest.format");
  EXPECT_EQ(format.error().file, (dir_ / "m1" / "_manifest.json").string());
  put(dir_ / "m2" / "_manifest.json", bytes_of(R"({"format": "nres", "entries": [{"name": "x", "file": "../x"}]})"));
  auto escape = pack_archive(dir_ / "m2");
  ASSERT_FALSE(escape);
  EXPECT_EQ(escape.error().code, "manifest.path");
  put(dir_ / "m3" / "_manifest.json", bytes_of("{not json"));
  auto json = pack_archive(dir_ / "m3");
  ASSERT_FALSE(json);
  EXPECT_EQ(json.error().code, "manifest.json");
  put(dir_ / "m4" / "_manifest.json", bytes_of(R"({"format": "nres", "entries": [{"name": "x", "file": "absent"}]})"));
  auto absent = pack_archive(dir_ / "m4");
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error().code, "io.open");
  auto no_source = pack_archive(dir_ / "no_such_dir");
  ASSERT_FALSE(no_source);
  EXPECT_EQ(no_source.error().code, "io.open");
}

TEST(ArchiveEdit, nres_add_remove_rename) {
  const Archive a = open(nres_image());
  ArchiveNewEntry rust{.name = "RUST", .payload = bytes_of("12345"), .type_id = nres_type_tag("MAT0"), .attr2 = 6};
  auto added = add_archive_entry(a, rust);
  ASSERT_TRUE(added) << added.error().to_string();
  const Archive b = open(*added);
  EXPECT_EQ(names_of(b), (std::vector<std::string>{"Zulu", "alpha", "Mike", "RUST"}));
  EXPECT_EQ(b.nres()->entries[3].type_id, nres_type_tag("MAT0"));
  EXPECT_EQ(b.nres()->entries[3].attr2, 6u);
  EXPECT_EQ(payload_of(b, "rust"), bytes_of("12345"));
  EXPECT_TRUE(b.nres()->lookup_order_valid);  // the sort table was rebuilt (strict open passed)

  // The same name again needs replace; replace keeps the type unless one is given.
  auto again = add_archive_entry(b, {.name = "rust", .payload = bytes_of("x")});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, "archive.entry_exists");
  EXPECT_EQ(again.error().field, "entries[3].name");
  auto replaced = add_archive_entry(b, {.name = "rust", .payload = bytes_of("xy"), .replace = true});
  ASSERT_TRUE(replaced);
  const Archive c = open(*replaced);
  EXPECT_EQ(c.size(), 4u);
  EXPECT_EQ(payload_of(c, "RUST"), bytes_of("xy"));
  EXPECT_EQ(c.nres()->entries[3].type_id, nres_type_tag("MAT0"));

  const std::vector<std::string> gone{"zulu", "MIKE"};
  auto removed = remove_archive_entries(c, gone);
  ASSERT_TRUE(removed);
  EXPECT_EQ(names_of(open(*removed)), (std::vector<std::string>{"alpha", "RUST"}));
  const std::vector<std::string> absent{"alpha", "nope"};
  auto not_found = remove_archive_entries(c, absent);
  ASSERT_FALSE(not_found);
  EXPECT_EQ(not_found.error().code, "archive.entry_not_found");
  EXPECT_EQ(not_found.error().file, "test.lib");

  auto renamed = rename_archive_entry(c, "alpha", "Omega");
  ASSERT_TRUE(renamed);
  const Archive d = open(*renamed);
  EXPECT_EQ(d.find("omega"), std::optional<std::size_t>(1));
  EXPECT_EQ(d.find("alpha"), std::nullopt);
  auto onto = rename_archive_entry(c, "alpha", "zULU");
  ASSERT_FALSE(onto);
  EXPECT_EQ(onto.error().code, "archive.entry_exists");
  auto case_only = rename_archive_entry(c, "alpha", "ALPHA");
  ASSERT_TRUE(case_only);
  EXPECT_EQ(open(*case_only).items()[1].name, "ALPHA");
  auto too_long = rename_archive_entry(c, "alpha", std::string(36, 'A'));
  ASSERT_FALSE(too_long);
  EXPECT_EQ(too_long.error().code, "nres.name_length");
}

TEST(ArchiveEdit, nres_edits_keep_unindexed_bytes_unless_canonical) {
  const Archive a = open(nres_with_gap());
  auto kept = rename_archive_entry(a, "Mike", "Mike2");
  ASSERT_TRUE(kept);
  EXPECT_EQ(bytes_of(open(*kept).nres()->gap_bytes(0)), (Bytes{0xAA, 0xBB, 0xCC, 0xDD}));
  auto canonical = rename_archive_entry(a, "Mike", "Mike2", {.canonical = true});
  ASSERT_TRUE(canonical);
  const Archive c = open(*canonical);
  for (std::size_t g = 0; g < c.nres()->gaps.size(); ++g) EXPECT_TRUE(c.nres()->gap_is_zero(g));
}

TEST(ArchiveEdit, rsli_add_remove_rename) {
  const Archive a = open(rsli_image());
  auto added =
      add_archive_entry(a, {.name = "extra", .payload = bytes_of("payload-bytes"), .method = RsliMethod::lzss});
  ASSERT_TRUE(added) << added.error().to_string();
  const Archive b = open(*added);
  EXPECT_EQ(b.size(), 4u);
  EXPECT_EQ(payload_of(b, "EXTRA"), bytes_of("payload-bytes"));
  // replace keeps the entry's own method when none is given
  auto replaced = add_archive_entry(b, {.name = "font.fnt", .payload = bytes_of("new glyphs"), .replace = true});
  ASSERT_TRUE(replaced);
  const Archive c = open(*replaced);
  EXPECT_EQ(c.items()[*c.find("FONT.FNT")].type_label, "lzss");
  EXPECT_EQ(payload_of(c, "FONT.FNT"), bytes_of("new glyphs"));
  const std::vector<std::string> gone{"plain"};
  auto removed = remove_archive_entries(c, gone);
  ASSERT_TRUE(removed);
  EXPECT_EQ(open(*removed).find("PLAIN"), std::nullopt);
  auto renamed = rename_archive_entry(c, "secret", "open");
  ASSERT_TRUE(renamed);
  EXPECT_EQ(payload_of(open(*renamed), "OPEN"), bytes_of("xor me"));  // XOR key follows the new sort cell
  auto duplicate = rename_archive_entry(c, "secret", "plain");
  ASSERT_FALSE(duplicate);
  EXPECT_EQ(duplicate.error().code, "rsli.edit.duplicate_name");
  EXPECT_EQ(duplicate.error().file, "test.lib");
}

TEST(ArchiveNames, type_ids_and_default_extract_directories) {
  EXPECT_EQ(parse_nres_type_id("7"), 7u);
  EXPECT_EQ(parse_nres_type_id("0x15"), 0x15u);        // four characters, but a number
  EXPECT_EQ(parse_nres_type_id("0xZZ"), 0x5a5a7830u);  // not a number: a tag
  EXPECT_EQ(parse_nres_type_id("1234"), 1234u);        // four digits are a number, not a tag
  EXPECT_EQ(parse_nres_type_id("MAT0"), nres_type_tag("MAT0"));
  EXPECT_EQ(parse_nres_type_id("Texm"), 0x6D786554u);
  EXPECT_EQ(parse_nres_type_id("4294967295"), 0xffffffffu);
  EXPECT_EQ(parse_nres_type_id("4294967296"), std::nullopt);
  EXPECT_EQ(parse_nres_type_id("TOOLONG"), std::nullopt);
  EXPECT_EQ(parse_nres_type_id("0x"), std::nullopt);
  EXPECT_EQ(parse_nres_type_id("-1"), std::nullopt);
  EXPECT_EQ(parse_nres_type_id("12345"), 12345u);
  EXPECT_EQ(parse_nres_type_id(""), std::nullopt);
  EXPECT_EQ(archive_default_extract_dir("DATA/objects.rlb"), "objects_rlb");
  EXPECT_EQ(archive_default_extract_dir("textures.lib"), "textures_lib");
  EXPECT_EQ(archive_default_extract_dir("README"), "README");
}

TEST(ArchiveEntryTexts, type_and_method_from_their_texts) {
  iron3d::ArchiveNewEntry e;
  ASSERT_TRUE(iron3d::set_entry_type_and_method(e, "MAT0", "lzss"));
  EXPECT_EQ(e.type_id, iron3d::parse_nres_type_id("MAT0"));
  EXPECT_EQ(e.method, iron3d::RsliMethod::lzss);
  iron3d::ArchiveNewEntry hex;
  ASSERT_TRUE(iron3d::set_entry_type_and_method(hex, "0x15", ""));
  EXPECT_EQ(hex.type_id, 0x15u);
  EXPECT_FALSE(hex.method.has_value());
  iron3d::ArchiveNewEntry none;
  ASSERT_TRUE(iron3d::set_entry_type_and_method(none, "", ""));
  EXPECT_FALSE(none.type_id.has_value());
  auto bad_type = iron3d::set_entry_type_and_method(none, "MAT01", "");
  ASSERT_FALSE(bad_type);
  EXPECT_EQ(bad_type.error().code, "usage.type");
  EXPECT_EQ(bad_type.error().found, "MAT01");
  auto bad_method = iron3d::set_entry_type_and_method(none, "", "zip");
  ASSERT_FALSE(bad_method);
  EXPECT_EQ(bad_method.error().code, "usage.method");
}

}  // namespace
}  // namespace sortie::iron3d
