// `sortie inspect`, `sortie check`, `sortie roundtrip` on every file kind of the demo sample.
#include <gtest/gtest.h>

#include "cli_harness.hpp"
#include "sortie/iron3d/build_dat.hpp"
#include "sortie/iron3d/land_map.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/iron3d/unit_dat.hpp"
#include "sortie/iron3d/wear.hpp"

namespace sortie::cli_test {
namespace {

struct Kind {
  const char* path;    // relative to the sample
  const char* format;  // "format" of inspect --json
};

// One file of each kind the sample holds.
const Kind kKinds[] = {
    {"textures.lib", "nres"},
    {"objects.rlb", "rsli"},
    {"MISSIONS/m01/data.tma", "tma"},
    {"DATA/MAPS/map01/Land.msh", "land_msh"},
    {"DATA/MAPS/map01/Land.map", "land_map"},
    {"BuildDat.lst", "build_dat"},
    {"UNITS/TANKS/u_000.dat", "unit_dat"},
    {"DATA/MAPS/map01/Land1.wea", "wear"},
};

core::Json inspect_json(const fs::path& file) {
  const auto r = run_sortie({"inspect", "--json", file.string()});
  EXPECT_EQ(r.exit_code, 0) << file << "\n" << r.err;
  return r.json();
}

TEST(CliInspect, json_names_the_format_of_every_sample_kind) {
  for (const auto& k : kKinds) {
    const fs::path f = sample_dir() / k.path;
    const auto j = inspect_json(f);
    ASSERT_TRUE(j.is_object()) << k.path;
    EXPECT_EQ(j.value("format", ""), k.format) << k.path;
    EXPECT_EQ(j.value("file", ""), f.string()) << k.path;
  }
}

TEST(CliInspect, human_output_names_the_format_of_every_sample_kind) {
  for (const auto& k : kKinds) {
    const auto r = run_sortie({"inspect", (sample_dir() / k.path).string()});
    EXPECT_EQ(r.exit_code, 0) << k.path;
    EXPECT_NE(r.out.find(std::string("format: \"") + k.format + "\""), std::string::npos) << k.path << "\n" << r.out;
  }
}

TEST(CliInspect, nres_entries_match_the_library_reader) {
  const fs::path f = sample_dir() / "textures.lib";
  const auto bytes = file_bytes(f);
  const auto archive = iron3d::read_nres(core::ByteView(bytes));
  ASSERT_TRUE(archive.has_value());
  const auto j = inspect_json(f);
  ASSERT_EQ(j.at("entries").size(), archive->entries.size());
  EXPECT_EQ(j.at("entries").size(), 31u);  // the demo sample's texture count (sortie-sample.json)
  EXPECT_EQ(j.at("entry_count").get<std::int64_t>(), archive->entry_count);
  EXPECT_EQ(j.at("total_size").get<std::uint64_t>(), bytes.size());
  EXPECT_EQ(j.at("directory_offset").get<std::uint32_t>(), archive->directory_offset);
  for (std::size_t i = 0; i < archive->entries.size(); ++i) {
    const auto& e = archive->entries[i];
    const auto& je = j.at("entries").at(i);
    for (const char* key : {"index", "name", "type_id", "attr1", "attr2", "size", "attr3", "data_offset", "sort_index"})
      EXPECT_TRUE(je.contains(key)) << "entries[" << i << "] lacks " << key;
    EXPECT_EQ(je.at("index").get<std::size_t>(), i);
    EXPECT_EQ(je.at("name").get<std::string>(), e.name.text());
    EXPECT_EQ(je.at("type_id").get<std::uint32_t>(), e.type_id);
    EXPECT_EQ(je.at("attr1").get<std::uint32_t>(), e.attr1);
    EXPECT_EQ(je.at("attr2").get<std::uint32_t>(), e.attr2);
    EXPECT_EQ(je.at("attr3").get<std::uint32_t>(), e.attr3);
    EXPECT_EQ(je.at("size").get<std::uint32_t>(), e.size);
    EXPECT_EQ(je.at("data_offset").get<std::uint32_t>(), e.data_offset);
    EXPECT_EQ(je.at("sort_index").get<std::uint32_t>(), e.sort_index);
  }
  EXPECT_EQ(j.at("entries").at(0).value("type_tag", ""), "Texm");
}

TEST(CliInspect, rsli_entries_match_the_library_reader) {
  const fs::path f = sample_dir() / "objects.rlb";
  const auto bytes = file_bytes(f);
  const auto archive = iron3d::read_rsli(bytes, iron3d::RsliReadOptions::from_profile(core::Profile::strict));
  ASSERT_TRUE(archive.has_value());
  const auto j = inspect_json(f);
  EXPECT_EQ(archive->entries.size(), 40u);  // the demo sample's prototype count
  ASSERT_EQ(j.at("entries").size(), archive->entries.size());
  EXPECT_EQ(j.at("header").at("entry_count").get<std::size_t>(), archive->entries.size());
  EXPECT_EQ(j.at("file_size").get<std::size_t>(), bytes.size());
  for (std::size_t i = 0; i < archive->entries.size(); ++i) {
    const auto& je = j.at("entries").at(i);
    EXPECT_EQ(je.at("index").get<std::size_t>(), i);
    EXPECT_EQ(je.at("name").at("text").get<std::string>(), archive->entries[i].name.text());
    EXPECT_EQ(je.at("unpacked_size").get<std::uint32_t>(), archive->entries[i].unpacked_size);
    EXPECT_EQ(je.at("packed_size").get<std::uint32_t>(), archive->entries[i].packed_size);
  }
}

TEST(CliInspect, tma_objects_match_the_library_reader) {
  const fs::path f = sample_dir() / "MISSIONS/m01/data.tma";
  const auto tma = iron3d::read_tma(file_bytes(f));
  ASSERT_TRUE(tma.has_value());
  const auto j = inspect_json(f);
  EXPECT_EQ(tma->objects.size(), 16u);  // placed objects per demo mission
  ASSERT_EQ(j.at("objects").size(), tma->objects.size());
  EXPECT_EQ(j.at("clans").size(), tma->clans.size());
  EXPECT_EQ(j.at("paths").size(), tma->paths.size());
  EXPECT_EQ(j.at("land_path").get<std::string>(), "DATA\\MAPS\\map01\\land");
  for (std::size_t i = 0; i < tma->objects.size(); ++i) {
    const auto& jo = j.at("objects").at(i);
    EXPECT_EQ(jo.at("index").get<std::size_t>(), i);
    EXPECT_EQ(jo.at("resource_name").get<std::string>(), tma->objects[i].resource_name);
    EXPECT_EQ(jo.at("properties").size(), tma->objects[i].properties.size());
  }
}

TEST(CliInspect, land_map_build_dat_unit_dat_and_wear_counts_match_the_library) {
  const fs::path root = sample_dir();
  {
    const auto map = iron3d::read_land_map(file_bytes(root / "DATA/MAPS/map01/Land.map"), {});
    ASSERT_TRUE(map.has_value());
    const auto j = inspect_json(root / "DATA/MAPS/map01/Land.map");
    EXPECT_EQ(j.at("areal_count").get<std::size_t>(), map->areals.size());
    EXPECT_EQ(j.at("areals").size(), map->areals.size());
  }
  {
    const auto bd = iron3d::read_build_dat(file_bytes(root / "BuildDat.lst"));
    ASSERT_TRUE(bd.has_value());
    const auto j = inspect_json(root / "BuildDat.lst");
    EXPECT_EQ(bd->categories.size(), 12u);
    ASSERT_EQ(j.at("categories").size(), bd->categories.size());
  }
  {
    const auto dat = iron3d::read_unit_dat(file_bytes(root / "UNITS/TANKS/u_000.dat"));
    ASSERT_TRUE(dat.has_value());
    const auto j = inspect_json(root / "UNITS/TANKS/u_000.dat");
    EXPECT_EQ(j.at("components").size(), dat->components.size());
    EXPECT_EQ(j.at("header_hex").get<std::string>(), "f1f0000000000000");
  }
  {
    const auto wear = iron3d::read_wear(file_bytes(root / "DATA/MAPS/map01/Land1.wea"));
    ASSERT_TRUE(wear.has_value());
    const auto j = inspect_json(root / "DATA/MAPS/map01/Land1.wea");
    EXPECT_EQ(j.at("materials").size(), wear->materials.size());
    EXPECT_EQ(j.at("lightmaps").size(), wear->lightmaps.size());
    EXPECT_EQ(j.at("line_count").get<std::size_t>(), wear->lines.size());
  }
}

class CliFilesTest : public CliTest {};

TEST_F(CliFilesTest, truncated_nres_gives_exit_1_and_a_located_diagnostic) {
  auto bytes = file_bytes(sample_dir() / "textures.lib");
  bytes.resize(1000);
  const fs::path f = dir_ / "cut.lib";
  put_bytes(f, bytes);
  const auto r = run_sortie({"inspect", "--json", f.string()});
  EXPECT_EQ(r.exit_code, 1);
  const auto j = r.json();
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j.at("valid"), false);
  EXPECT_EQ(j.at("format"), "nres");
  const auto& d = j.at("diagnostic");
  EXPECT_EQ(d.at("code"), "nres.total_size");
  EXPECT_EQ(d.at("offset"), 12);
  EXPECT_EQ(d.at("message"), "header total_size differs from the actual length");
  EXPECT_EQ(d.at("expected"), "1000");
  EXPECT_EQ(d.at("found"), "166128");
  EXPECT_NE(r.err.find("[nres.total_size]"), std::string::npos) << r.err;
}

TEST_F(CliFilesTest, bad_magic_gives_exit_1_with_or_without_a_forced_format) {
  auto bytes = file_bytes(sample_dir() / "textures.lib");
  bytes[3] = 'z';
  const fs::path f = dir_ / "bad.lib";
  put_bytes(f, bytes);
  {
    const auto r = run_sortie({"inspect", "--json", "--format", "nres", f.string()});
    EXPECT_EQ(r.exit_code, 1);
    const auto d = r.json().at("diagnostic");
    EXPECT_EQ(d.at("code"), "nres.magic");
    EXPECT_EQ(d.at("offset"), 0);
    EXPECT_TRUE(d.contains("message"));
  }
  {
    const auto r = run_sortie({"inspect", "--json", f.string()});
    EXPECT_EQ(r.exit_code, 1);
    const auto j = r.json();
    EXPECT_TRUE(j.at("format").is_null());
    EXPECT_EQ(j.at("diagnostic").at("code"), "format.unknown");
    EXPECT_EQ(j.at("diagnostic").at("offset"), 0);
    EXPECT_TRUE(j.at("diagnostic").contains("message"));
  }
}

TEST_F(CliFilesTest, truncated_tma_gives_exit_1_and_a_tma_diagnostic) {
  auto bytes = file_bytes(sample_dir() / "MISSIONS/m01/data.tma");
  bytes.resize(bytes.size() / 2);
  const fs::path f = dir_ / "data.tma";
  put_bytes(f, bytes);
  const auto r = run_sortie({"inspect", "--json", f.string()});
  EXPECT_EQ(r.exit_code, 1);
  const auto j = r.json();
  EXPECT_EQ(j.at("format"), "tma");
  const auto& d = j.at("diagnostic");
  EXPECT_EQ(d.at("code").get<std::string>().rfind("tma.", 0), 0u) << d;
  EXPECT_TRUE(d.at("offset").is_number());
  EXPECT_LE(d.at("offset").get<std::size_t>(), bytes.size());
  EXPECT_FALSE(d.at("message").get<std::string>().empty());
}

TEST_F(CliFilesTest, missing_file_is_an_io_error) {
  const auto r = run_sortie({"inspect", "--json", (dir_ / "absent.lib").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.json().at("diagnostic").at("code"), "io.open");
  EXPECT_EQ(run_sortie({"check", (dir_ / "absent.lib").string()}).exit_code, 2);
  EXPECT_EQ(run_sortie({"roundtrip", (dir_ / "absent.lib").string()}).exit_code, 2);
}

TEST_F(CliFilesTest, check_strict_and_compatible_pass_every_sample_file) {
  std::vector<std::string> args{"check", "--strict"};
  for (const auto& k : kKinds) args.push_back((sample_dir() / k.path).string());
  const auto strict = run_sortie(args);
  EXPECT_EQ(strict.exit_code, 0) << strict.out << strict.err;
  EXPECT_NE(strict.out.find("8 file(s) checked: 8 valid, 0 invalid"), std::string::npos) << strict.out;
  EXPECT_NE(strict.out.find((sample_dir() / "textures.lib").string() + ": ok (nres, strict)"), std::string::npos);
  args[1] = "--compatible";
  const auto compat = run_sortie(args);
  EXPECT_EQ(compat.exit_code, 0);
  EXPECT_NE(compat.out.find((sample_dir() / "objects.rlb").string() + ": ok (rsli, compatible)"), std::string::npos);
}

// Content beats the name: renamed sample files are checked as what they are.
TEST_F(CliFilesTest, renamed_files_are_detected_by_content) {
  const struct {
    const char* from;
    const char* to;
    const char* format;
  } cases[] = {
      {"DATA/MAPS/map01/Land.msh", "hill.msh", "land_msh"},  // was checked as a model and rejected
      {"DATA/MAPS/map01/Land.msh", "terrain.bin", "land_msh"},
      {"DATA/MAPS/map01/Land.map", "areas.bin", "land_map"},
      {"BuildDat.lst", "builds.txt", "build_dat"},  // was recognised by its exact name only
      {"MISSIONS/m01/data.tma", "mission.bin", "tma"},
  };
  std::vector<std::string> args{"check", "--strict"};
  for (const auto& c : cases) {
    const fs::path f = dir_ / c.to;
    fs::copy_file(sample_dir() / c.from, f, fs::copy_options::overwrite_existing);
    args.push_back(f.string());
    const auto j = run_sortie({"inspect", "--json", f.string()}).json();
    EXPECT_EQ(j.value("format", ""), c.format) << c.to;
  }
  const auto r = run_sortie(args);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const auto& c : cases)
    EXPECT_NE(r.out.find((dir_ / c.to).string() + ": ok (" + c.format + ", strict)"), std::string::npos) << r.out;
}

// `.fomap` is in the format table: inspect (human and --json), check, and no roundtrip.
TEST_F(CliFilesTest, fomap_maps_are_inspected_and_checked) {
  const std::string map =
      "[ProtoMap]\nSize = 100 100\nWorkHex = 10 10\n\n"
      "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 5 5\n\n"
      "[$Name/Item]\n$Id = 2\n$Proto = Wall\nHex = 6 6\n\n"
      "[$Name/Item]\n$Id = 3\n$Proto = Wall\nHex = 7 7\n";
  const fs::path f = dir_ / "town.fomap";
  put_bytes(f, core::as_bytes(map));
  const auto j = run_sortie({"inspect", "--json", f.string()}).json();
  EXPECT_EQ(j.value("format", ""), "fomap");
  EXPECT_EQ(j.at("generation"), "current");
  EXPECT_EQ(j.at("counts"), (core::Json{{"critters", 1}, {"items", 2}}));
  EXPECT_EQ(j.at("distinct_protos"), 2);
  EXPECT_EQ(j.at("header_keys"), (core::Json{"Size", "WorkHex"}));
  EXPECT_EQ(j.at("maps").at(0).at("name"), "town");
  const auto human = run_sortie({"inspect", f.string()});
  EXPECT_EQ(human.exit_code, 0);
  EXPECT_NE(human.out.find("format: \"fomap\""), std::string::npos) << human.out;
  EXPECT_NE(human.out.find("  critters: 1\n"), std::string::npos) << human.out;
  // Renamed, it is still a map (content first).
  const fs::path renamed = dir_ / "town.txt";
  put_bytes(renamed, core::as_bytes(map));
  EXPECT_EQ(run_sortie({"inspect", "--json", renamed.string()}).json().value("format", ""), "fomap");
  const auto check = run_sortie({"check", "--strict", f.string()});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find(f.string() + ": ok (fomap, strict)"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("[fomap.check.protos]"), std::string::npos) << check.out;  // says what was not checked
  std::string dup = map;
  dup.replace(dup.find("$Id = 3"), 7, "$Id = 2");
  put_bytes(f, core::as_bytes(dup));
  const auto bad = run_sortie({"check", "--strict", f.string()});
  EXPECT_EQ(bad.exit_code, 1) << bad.out;
  EXPECT_NE(bad.out.find("[map-format.rule.shared-placement-ids."), std::string::npos) << bad.out;
  const auto rt = run_sortie({"roundtrip", f.string()});
  EXPECT_EQ(rt.exit_code, 2);
  EXPECT_NE(rt.err.find("[usage.roundtrip]"), std::string::npos) << rt.err;
}

TEST_F(CliFilesTest, check_json_summarises_good_and_bad_files) {
  auto bytes = file_bytes(sample_dir() / "textures.lib");
  bytes.resize(1000);
  const fs::path bad = dir_ / "cut.lib";
  put_bytes(bad, bytes);
  const fs::path good = sample_dir() / "material.lib";
  const auto r = run_sortie({"check", "--strict", "--json", good.string(), bad.string()});
  EXPECT_EQ(r.exit_code, 1);
  const auto j = r.json();
  ASSERT_EQ(j.at("files").size(), 2u);
  EXPECT_EQ(j.at("summary").at("valid"), 1);
  EXPECT_EQ(j.at("summary").at("invalid"), 1);
  EXPECT_EQ(j.at("files").at(0).at("file"), good.string());
  EXPECT_EQ(j.at("files").at(0).at("valid"), true);
  EXPECT_EQ(j.at("files").at(0).at("format"), "nres");
  EXPECT_EQ(j.at("files").at(0).at("findings").size(), 0u);
  EXPECT_EQ(j.at("files").at(1).at("valid"), false);
  EXPECT_EQ(j.at("files").at(1).at("diagnostic").at("code"), "nres.total_size");
  // Human form: both lines and the summary.
  const auto h = run_sortie({"check", good.string(), bad.string()});
  EXPECT_EQ(h.exit_code, 1);
  EXPECT_NE(h.out.find(bad.string() + ": invalid nres"), std::string::npos) << h.out;
  EXPECT_NE(h.out.find("2 file(s) checked: 1 valid, 1 invalid"), std::string::npos) << h.out;
}

TEST_F(CliFilesTest, check_strict_and_compatible_both_reject_a_bad_file) {
  auto bytes = file_bytes(sample_dir() / "UNITS/TANKS/u_000.dat");
  bytes.resize(bytes.size() - 5);
  const fs::path f = dir_ / "u.dat";
  put_bytes(f, bytes);
  for (const char* profile : {"--strict", "--compatible"}) {
    const auto r = run_sortie({"check", profile, "--json", "--format", "unit_dat", f.string()});
    EXPECT_EQ(r.exit_code, 1) << profile;
    const auto j = r.json();
    EXPECT_EQ(j.at("summary").at("invalid"), 1) << profile;
    EXPECT_EQ(j.at("files").at(0).at("diagnostic").at("code").get<std::string>().rfind("unit_dat.", 0), 0u) << j.dump();
  }
  EXPECT_EQ(run_sortie({"check", "--strict", "--compatible", f.string()}).exit_code, 2);  // exclusive flags
}

// An archive whose sort table is out of order (built with the library writer): strict rejects,
// compatible accepts with a warning; an archive edit in the compatible profile rebuilds the table.
TEST_F(CliFilesTest, profiles_differ_on_an_out_of_order_sort_table) {
  auto archive = iron3d::read_nres(core::ByteView(file_bytes(sample_dir() / "material.lib")));
  ASSERT_TRUE(archive.has_value());
  ASSERT_EQ(archive->entries[0].name.text(), "DEFAULT");
  std::swap(archive->entries[0].sort_index, archive->entries[1].sort_index);
  const fs::path f = dir_ / "sort.lib";
  put_bytes(f, iron3d::write_nres_lossless(*archive));
  const std::size_t row1 = archive->directory_offset + iron3d::kNresRecordSize + 60;  // entries[1].sort_index

  const auto strict = run_sortie({"check", "--strict", "--json", f.string()});
  EXPECT_EQ(strict.exit_code, 1);
  auto j = strict.json();
  EXPECT_EQ(j.at("summary").at("invalid"), 1);
  const auto& d = j.at("files").at(0).at("diagnostic");
  EXPECT_EQ(d.at("code"), "nres.sort_order");
  EXPECT_EQ(d.at("field"), "entries[1].sort_index");
  EXPECT_EQ(d.at("offset").get<std::size_t>(), row1);
  EXPECT_EQ(d.at("found"), "'DEFAULT' after 'env_beacon'");

  const auto compat = run_sortie({"check", "--compatible", "--json", f.string()});
  EXPECT_EQ(compat.exit_code, 0);
  j = compat.json();
  EXPECT_EQ(j.at("summary").at("valid"), 1);
  ASSERT_EQ(j.at("files").at(0).at("findings").size(), 1u);
  EXPECT_EQ(j.at("files").at(0).at("findings").at(0).at("code"), "nres.sort_order");
  EXPECT_EQ(j.at("files").at(0).at("findings").at(0).at("severity"), "warning");

  // roundtrip: strict refuses to read it, compatible writes it back unchanged.
  EXPECT_EQ(run_sortie({"roundtrip", f.string()}).exit_code, 1);
  const auto rt = run_sortie({"roundtrip", "--compatible", f.string()});
  EXPECT_EQ(rt.exit_code, 0);
  EXPECT_EQ(rt.out, f.string() + ": identical (nres, 5840 bytes)\n");

  // archive list says how to read it; an edit with --compatible leaves a strictly valid archive.
  const auto list = run_sortie({"archive", "list", f.string()});
  EXPECT_EQ(list.exit_code, 1);
  EXPECT_NE(list.err.find("hint: --compatible accepts an archive whose sort table is invalid"), std::string::npos)
      << list.err;
  const fs::path fixed = dir_ / "fixed.lib";
  ASSERT_EQ(run_sortie({"archive", "remove", "--compatible", f.string(), "MAT_0039", "-o", fixed.string()}).exit_code,
            0);
  EXPECT_EQ(run_sortie({"check", "--strict", fixed.string()}).exit_code, 0);
}

// Every file the sample writes is a known format that checks and round-trips (the manifest,
// mission.cfg, sky.weather and mission.lua included; tests/formats runs the same over both scales).
TEST(CliRoundtrip, every_sample_file_is_identical) {
  std::vector<std::string> args{"roundtrip"};
  std::size_t n = 0, texts = 0;
  for (const auto& de : fs::recursive_directory_iterator(sample_dir())) {
    if (!de.is_regular_file()) continue;
    const auto name = de.path().filename();
    texts += name == "mission.cfg" || name == "sky.weather" || name == "sortie-sample.json";
    args.push_back(de.path().string());
    ++n;
  }
  EXPECT_EQ(texts, 7u);
  ASSERT_EQ(n, 53u);  // 41 + MISSIONS/SCRIPTS: 3 x (.scr, .fml), varset.var, enemy.trf; + 3 x mission.lua; effects.rlb
  std::vector<std::string> check_args = args;
  check_args.front() = "check";
  const auto c = run_sortie(check_args);
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_EQ(c.err.find("format.unknown"), std::string::npos) << c.err;
  const auto r = run_sortie(args);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::size_t identical = 0;
  for (std::size_t pos = r.out.find(": identical ("); pos != std::string::npos;
       pos = r.out.find(": identical (", pos + 1))
    ++identical;
  EXPECT_EQ(identical, n) << r.out;
  const fs::path tex = sample_dir() / "textures.lib";
  EXPECT_NE(r.out.find(tex.string() + ": identical (nres, " + std::to_string(fs::file_size(tex)) + " bytes)"),
            std::string::npos);
}

TEST_F(CliFilesTest, roundtrip_of_an_invalid_file_exits_1) {
  auto bytes = file_bytes(sample_dir() / "textures.lib");
  bytes.resize(1000);
  const fs::path f = dir_ / "cut.lib";
  put_bytes(f, bytes);
  const auto r = run_sortie({"roundtrip", f.string(), (sample_dir() / "material.lib").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("[nres.total_size]"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("material.lib: identical (nres"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace sortie::cli_test
