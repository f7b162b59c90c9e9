// `sortie archive list|extract|pack|add|remove|rename` on copies of the demo sample's archives.
#include <gtest/gtest.h>

#include "cli_harness.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"

namespace sortie::cli_test {
namespace {

class CliArchiveTest : public CliTest {
 protected:
  core::Json list_json(const fs::path& archive) {
    const auto r = run_sortie({"archive", "list", "--json", archive.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.json();
  }
  std::vector<std::string> names(const fs::path& archive) {
    std::vector<std::string> v;
    const core::Json j = list_json(archive);
    for (const auto& e : j.at("entries")) v.push_back(e.at("name").get<std::string>());
    return v;
  }
  void expect_strict_valid(const fs::path& archive) {
    const auto r = run_sortie({"check", "--strict", archive.string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.out, archive.string() + ": ok (nres, strict)\n");
  }
};

TEST_F(CliArchiveTest, list_shows_every_entry) {
  const fs::path f = sample_dir() / "material.lib";
  const auto archive = iron3d::read_nres(core::ByteView(file_bytes(f)));
  ASSERT_TRUE(archive.has_value());
  const auto r = run_sortie({"archive", "list", f.string()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), f.string() + ": nres archive, 47 entries");
  EXPECT_NE(r.out.find("     0  MAT0             48       0x10  DEFAULT\n"), std::string::npos) << r.out;
  const auto j = list_json(f);
  EXPECT_EQ(j.at("file"), f.string());
  ASSERT_EQ(j.at("entries").size(), archive->entries.size());
  for (std::size_t i = 0; i < archive->entries.size(); ++i) {
    EXPECT_EQ(j.at("entries").at(i).at("name"), archive->entries[i].name.text());
    EXPECT_EQ(j.at("entries").at(i).at("type_tag"), "MAT0");
  }
}

TEST_F(CliArchiveTest, extract_then_pack_reproduces_each_archive_byte_for_byte) {
  for (const char* name : {"textures.lib", "material.lib", "bases.rlb", "lightmap.lib"}) {
    const fs::path src = sample_dir() / name;
    const fs::path out = dir_ / (std::string(name) + ".d");
    const auto x = run_sortie({"archive", "extract", src.string(), "-o", out.string()});
    ASSERT_EQ(x.exit_code, 0) << x.err;
    EXPECT_TRUE(fs::exists(out / "_manifest.json"));
    const auto archive = iron3d::read_nres(core::ByteView(file_bytes(src)));
    ASSERT_TRUE(archive.has_value());
    // Each payload lands in a file named after its entry.
    for (std::size_t i = 0; i < archive->entries.size(); ++i) {
      const auto payload = archive->payload(i);
      EXPECT_EQ(file_bytes(out / archive->entries[i].name.text()), core::Bytes(payload.begin(), payload.end()))
          << name << " " << i;
    }
    const fs::path packed = dir_ / name;
    const auto p = run_sortie({"archive", "pack", out.string(), "-o", packed.string()});
    ASSERT_EQ(p.exit_code, 0) << p.err;
    EXPECT_EQ(p.out, "packed " + std::to_string(archive->entries.size()) + " entries into " + packed.string() + " (" +
                         std::to_string(fs::file_size(src)) + " bytes)\n");
    EXPECT_EQ(file_bytes(packed), file_bytes(src)) << name;
    // The sample archives are canonical: --canonical gives the same bytes.
    const fs::path canon = dir_ / (std::string(name) + ".canon");
    ASSERT_EQ(run_sortie({"archive", "pack", "--canonical", (out / "_manifest.json").string(), "-o", canon.string()})
                  .exit_code,
              0);
    EXPECT_EQ(file_bytes(canon), file_bytes(src)) << name;
  }
}

TEST_F(CliArchiveTest, extract_named_entries_only) {
  const fs::path out = dir_ / "two";
  const auto r = run_sortie(
      {"archive", "extract", (sample_dir() / "textures.lib").string(), "TEX_0003", "tex_0005", "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "extracted 2 of 31 entries to " + out.string() + "\n");
  std::vector<std::string> files;
  for (const auto& de : fs::directory_iterator(out)) files.push_back(de.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"TEX_0003", "TEX_0005"}));
  const auto missing =
      run_sortie({"archive", "extract", (sample_dir() / "textures.lib").string(), "NOPE", "-o", out.string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("[archive.entry_not_found]"), std::string::npos) << missing.err;
}

TEST_F(CliArchiveTest, pack_of_a_plain_directory_equals_the_library_builder) {
  const fs::path src = dir_ / "plain";
  fs::create_directories(src);
  const core::Bytes b{'b', 'e', 't', 'a'};
  const core::Bytes a{'a', 'l', 'p', 'h', 'a', '!', '!', '!', '!', '!'};
  put_bytes(src / "beta.bin", b);
  put_bytes(src / "alpha.bin", a);
  const fs::path out = dir_ / "plain.lib";
  const auto r = run_sortie({"archive", "pack", src.string(), "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto expected = iron3d::NresBuilder().add(0, "alpha.bin", a).add(0, "beta.bin", b).build();
  ASSERT_TRUE(expected.has_value());
  EXPECT_EQ(file_bytes(out), *expected);
  expect_strict_valid(out);
}

TEST_F(CliArchiveTest, add_remove_rename_change_the_listing_and_keep_a_valid_archive) {
  const fs::path game = copy_sample();
  const fs::path lib = game / "material.lib";
  auto before = names(lib);
  ASSERT_EQ(before.size(), 47u);

  // add
  const core::Bytes payload{1, 2, 3, 4, 5};
  put_bytes(dir_ / "new.mat0", payload);
  auto r = run_sortie({"archive", "add", lib.string(), (dir_ / "new.mat0").string(), "--name", "RUST", "--type", "MAT0",
                       "--attr2", "6"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = list_json(lib);
  ASSERT_EQ(j.at("entries").size(), 48u);
  const auto& added = j.at("entries").at(47);
  EXPECT_EQ(added.at("name"), "RUST");
  EXPECT_EQ(added.at("type_tag"), "MAT0");
  EXPECT_EQ(added.at("attr2"), 6);
  EXPECT_EQ(added.at("size"), 5);
  expect_strict_valid(lib);
  {
    const auto archive = iron3d::read_nres(core::ByteView(file_bytes(lib)));
    ASSERT_TRUE(archive.has_value());
    const auto idx = archive->find("rust");
    ASSERT_TRUE(idx.has_value());
    const auto p = archive->payload(*idx);
    EXPECT_EQ(core::Bytes(p.begin(), p.end()), payload);
  }
  // adding the same name again needs --replace
  r = run_sortie({"archive", "add", lib.string(), (dir_ / "new.mat0").string(), "--name", "rust"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("[archive.entry_exists]"), std::string::npos) << r.err;

  // remove (into -o; the input is unchanged)
  const fs::path removed = dir_ / "removed.lib";
  r = run_sortie({"archive", "remove", lib.string(), "MAT_0005", "MAT_0007", "-o", removed.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(r.out.find(": ")),
            ": 2 entries removed (" + std::to_string(fs::file_size(removed)) + " bytes)\n");
  auto after = names(removed);
  EXPECT_EQ(after.size(), 46u);
  EXPECT_EQ(std::count(after.begin(), after.end(), "MAT_0005"), 0);
  EXPECT_EQ(std::count(after.begin(), after.end(), "MAT_0007"), 0);
  EXPECT_EQ(names(lib).size(), 48u);
  expect_strict_valid(removed);

  // rename in place
  r = run_sortie({"archive", "rename", removed.string(), "MAT_0001", "RUSTY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  after = names(removed);
  EXPECT_EQ(after.at(1), "RUSTY");
  EXPECT_EQ(std::count(after.begin(), after.end(), "MAT_0001"), 0);
  expect_strict_valid(removed);
  // The sort table was rebuilt: lookup finds the new name.
  const auto archive = iron3d::read_nres(core::ByteView(file_bytes(removed)));
  ASSERT_TRUE(archive.has_value());
  EXPECT_EQ(archive->find("rusty"), std::optional<std::size_t>(1));
  EXPECT_FALSE(archive->find("MAT_0001").has_value());
}

TEST_F(CliArchiveTest, edits_of_absent_entries_and_bad_names_fail_without_writing) {
  const fs::path lib = sample_dir() / "material.lib";
  const fs::path out = dir_ / "out.lib";
  auto r = run_sortie({"archive", "remove", lib.string(), "NOPE", "-o", out.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("[archive.entry_not_found]"), std::string::npos) << r.err;
  r = run_sortie({"archive", "rename", lib.string(), "MAT_0001", std::string(36, 'A'), "-o", out.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("[nres.name_length]"), std::string::npos) << r.err;
  r = run_sortie({"archive", "add", lib.string(), (dir_ / "absent.bin").string(), "-o", out.string()});
  EXPECT_EQ(r.exit_code, 2);
  r = run_sortie({"archive", "add", lib.string(), lib.string(), "--type", "TOOLONG", "-o", out.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("[usage.type]"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(CliArchiveTest, rename_onto_an_existing_name_is_rejected) {
  // Names are matched case-insensitively, so MAT_0001 -> mat_0002 would make two entries
  // answer to the same name (add already refuses this).
  const fs::path out = dir_ / "out.lib";
  const auto r = run_sortie(
      {"archive", "rename", (sample_dir() / "material.lib").string(), "MAT_0001", "mat_0002", "-o", out.string()});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("[archive.entry_exists]"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // A change of case only is a rename of the same entry.
  const auto same = run_sortie(
      {"archive", "rename", (sample_dir() / "material.lib").string(), "MAT_0001", "mat_0001", "-o", out.string()});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(names(out).at(1), "mat_0001");
}

TEST_F(CliArchiveTest, rsli_list_extract_and_pack_round_trip) {
  const fs::path rlb = sample_dir() / "objects.rlb";
  const auto bytes = file_bytes(rlb);
  const auto archive = iron3d::read_rsli(bytes, iron3d::RsliReadOptions::from_profile(core::Profile::strict));
  ASSERT_TRUE(archive.has_value());
  const auto r = run_sortie({"archive", "list", rlb.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), rlb.string() + ": rsli archive, 40 entries");
  EXPECT_NE(r.out.find("     0  lzss            128      0x520  ST_0000\n"), std::string::npos) << r.out;
  const auto j = list_json(rlb);
  EXPECT_EQ(j.at("format"), "rsli");
  ASSERT_EQ(j.at("entries").size(), archive->entries.size());

  const fs::path out = dir_ / "objects";
  const auto x = run_sortie({"archive", "extract", rlb.string(), "-o", out.string()});
  ASSERT_EQ(x.exit_code, 0) << x.err;
  for (std::size_t i = 0; i < archive->entries.size(); ++i) {
    const auto decoded = iron3d::decode_rsli_entry(*archive, i);
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(file_bytes(out / archive->entries[i].name.text()), *decoded) << i;
  }
  // Lookup is case-insensitive, as the game's.
  const fs::path one = dir_ / "one";
  ASSERT_EQ(run_sortie({"archive", "extract", rlb.string(), "bs_0001", "-o", one.string()}).exit_code, 0);
  EXPECT_TRUE(fs::exists(one / "BS_0001"));
  // An unchanged extract directory packs back to the same bytes.
  const fs::path packed = dir_ / "objects.rlb";
  const auto p = run_sortie({"archive", "pack", out.string(), "-o", packed.string()});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(file_bytes(packed), bytes);
}

TEST_F(CliArchiveTest, rsli_add_remove_rename_keep_a_valid_library) {
  const fs::path rlb = sample_dir() / "objects.rlb";
  const fs::path removed = dir_ / "removed.rlb";
  auto r = run_sortie({"archive", "remove", rlb.string(), "ST_0000", "bs_0001", "-o", removed.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = list_json(removed);
  ASSERT_EQ(j.at("entries").size(), 38u);
  EXPECT_EQ(j.at("entries").at(0).at("name").at("text"), "UN_0002");

  const fs::path renamed = dir_ / "renamed.rlb";
  r = run_sortie({"archive", "rename", rlb.string(), "un_0002", "new_name", "-o", renamed.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = list_json(renamed);
  EXPECT_EQ(j.at("entries").at(2).at("name").at("text"), "NEW_NAME");  // RsLi names are stored uppercased

  const core::Bytes payload{'p', 'a', 'y', 'l', 'o', 'a', 'd', '-', 'b', 'y', 't', 'e', 's'};
  put_bytes(dir_ / "p.bin", payload);
  const fs::path added = dir_ / "added.rlb";
  r = run_sortie({"archive", "add", rlb.string(), (dir_ / "p.bin").string(), "--name", "extra", "--method", "lzss",
                  "-o", added.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = list_json(added);
  ASSERT_EQ(j.at("entries").size(), 41u);
  const fs::path back = dir_ / "back";
  ASSERT_EQ(run_sortie({"archive", "extract", added.string(), "EXTRA", "-o", back.string()}).exit_code, 0);
  EXPECT_EQ(file_bytes(back / "EXTRA"), payload);

  for (const auto& f : {removed, renamed, added}) {
    const auto c = run_sortie({"check", "--strict", f.string()});
    EXPECT_EQ(c.exit_code, 0) << f << c.out;
    EXPECT_EQ(c.out, f.string() + ": ok (rsli, strict)\n");
  }
  // Rename onto an existing name is refused.
  r = run_sortie({"archive", "rename", rlb.string(), "UN_0002", "bs_0001", "-o", (dir_ / "dup.rlb").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("[rsli.edit.duplicate_name]"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "dup.rlb"));
}

TEST_F(CliArchiveTest, non_archive_input_is_reported) {
  const auto r = run_sortie({"archive", "list", "--json", (sample_dir() / "BuildDat.lst").string()});
  EXPECT_EQ(r.exit_code, 1);
  const auto j = r.json();
  EXPECT_EQ(j.at("valid"), false);
  EXPECT_EQ(j.at("diagnostic").at("code"), "archive.unknown");
  EXPECT_EQ(j.at("diagnostic").at("offset"), 0);
}

}  // namespace
}  // namespace sortie::cli_test
