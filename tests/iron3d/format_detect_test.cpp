// Format detection (format.hpp): content beats the file name. Files are built by our own
// writers and then given misleading names.
#include <gtest/gtest.h>

#include "land_fixtures.hpp"
#include "nres_fixtures.hpp"
#include "rsli_fixture.hpp"
#include "sortie/formats/formats.hpp"
#include "sortie/iron3d/build_dat.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/texm.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/iron3d/unit_dat.hpp"
#include "sortie/iron3d/wave.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;

std::string detected(const Bytes& bytes, std::string_view name) {
  const FormatInfo* f = sortie::formats::detect_format(bytes, name);
  return f ? std::string(f->name) : std::string("none");
}

int score(std::string_view format, const Bytes& bytes, std::string_view name) {
  return sortie::formats::find_format(format)->detect(bytes, name);
}

Bytes terrain() {
  return land_test::build(land_test::minimal_streams());
}
Bytes areal_map() {
  return land_test::map_file(land_test::map_payload());
}
Bytes model() {
  return write_msh_canonical(build_msh_model(msh_box_input(1, 2, 3, 2)).value()).value();
}

Bytes build_dat_text() {
  BuildDatCategory c;
  c.name = std::string(build_categories()[0].name);
  c.units = {{"UNITS\\BUILDS\\gen.dat", 0}};
  return write_build_dat(make_build_dat({c}).value());
}

Bytes mission() {
  Tma t;
  t.land_path = "DATA\\MAPS\\Tut_1\\land";
  return write_tma(t).value();
}

Bytes unit() {
  UnitDat d;
  UnitComponentRecord r;
  r.archive_name = core::FixedString::make("objects.rlb", 32);
  r.resource_name = core::FixedString::make("b_bunk", 32);
  r.description = core::FixedString::make("bunker", 32);
  d.components.push_back(r);
  return write_unit_dat(d);
}

Bytes texture() {
  Texm t;
  t.mips.push_back(Bytes{0, 0xf8});
  return write_texm(t);
}

TEST(FormatDetect, terrain_named_like_a_model_is_a_terrain) {
  const Bytes t = terrain();
  EXPECT_EQ(detected(t, "DATA/MAPS/hill/hill.msh"), "land_msh");
  EXPECT_EQ(score("land_msh", t, "hill.msh"), kDetectContent);
  EXPECT_EQ(score("msh", t, "hill.msh"), kDetectName);  // the name alone loses
  EXPECT_EQ(detected(t, "terrain.bin"), "land_msh");
  EXPECT_EQ(detected(t, "Land.msh"), "land_msh");
  // And the terrain reader accepts what detection chose.
  EXPECT_TRUE(sortie::formats::find_format("land_msh")->check(t, {core::Profile::strict, "hill.msh"}));
}

TEST(FormatDetect, model_named_like_a_terrain_is_a_model) {
  const Bytes m = model();
  EXPECT_EQ(detected(m, "Land.msh"), "msh");
  EXPECT_EQ(score("msh", m, "Land.msh"), kDetectContent);
  EXPECT_EQ(score("land_msh", m, "Land.msh"), kDetectName);
  EXPECT_EQ(detected(m, "box.bin"), "msh");
  EXPECT_EQ(detected(m, "box.msh"), "msh");
}

TEST(FormatDetect, areal_map_is_found_by_its_single_type_12_entry) {
  const Bytes m = areal_map();
  EXPECT_EQ(detected(m, "areas.dat"), "land_map");
  EXPECT_EQ(detected(m, "Land.map"), "land_map");
  EXPECT_EQ(score("land_map", m, "x"), kDetectContent);
}

TEST(FormatDetect, build_dat_is_found_by_content_under_any_name) {
  const Bytes b = build_dat_text();
  EXPECT_EQ(detected(b, "builds.txt"), "build_dat");
  EXPECT_EQ(detected(b, "BUILDDAT.LST"), "build_dat");
  EXPECT_EQ(score("build_dat", b, "builds.txt"), kDetectContent);
  // Comments and blank lines before the first category are fine.
  Bytes commented = core::Bytes{'/', '/', ' ', 'x', '\n', '\n'};
  commented.insert(commented.end(), b.begin(), b.end());
  EXPECT_EQ(detected(commented, "b.txt"), "build_dat");
  // Broken content keeps the name match, so the reader can say what is wrong.
  const Bytes broken{'N', 'o', 't', 'A', 'C', 'a', 't', 'e', 'g', 'o', 'r', 'y', ' ', '1', '\n'};
  EXPECT_EQ(detected(broken, "BuildDat.lst"), "build_dat");
  EXPECT_EQ(score("build_dat", broken, "BuildDat.lst"), kDetectName);
  EXPECT_EQ(detected(broken, "notes.txt"), "none");
}

TEST(FormatDetect, signatures_beat_extensions) {
  EXPECT_EQ(detected(mission(), "mission.bin"), "tma");
  EXPECT_EQ(detected(texture(), "data.tma"), "texm");
  EXPECT_EQ(detected(texture(), "x.msh"), "texm");
  EXPECT_EQ(detected(unit(), "u.bin"), "unit_dat");
  EXPECT_EQ(detected(unit(), "u.dat"), "unit_dat");
  Bytes short_unit = unit();
  short_unit.resize(50);  // header kept, size wrong: only the name says unit DAT
  EXPECT_EQ(detected(short_unit, "u.dat"), "unit_dat");
  EXPECT_EQ(detected(short_unit, "u.bin"), "none");
}

TEST(FormatDetect, wave_riff_header_beats_a_name) {
  const std::vector<std::int16_t> pcm = {1, -2};
  const Bytes wav = write_wave(make_pcm16_wave(22050, 1, pcm));
  EXPECT_EQ(detected(wav, "x.msh"), "wave");
  EXPECT_EQ(detected(wav, "thunder"), "wave");
  EXPECT_EQ(score("wave", wav, "x"), kDetectContent);
  EXPECT_EQ(score("wave", Bytes{'R', 'I', 'F', 'F'}, "a.wav"), kDetectName);
  EXPECT_EQ(score("scr", Bytes{}, "a.scr"), kDetectName);
  EXPECT_EQ(score("varset", Bytes{}, "a.var"), kDetectName);
  EXPECT_EQ(score("ctld", Bytes{}, "a.ctl"), kDetectName);
}

TEST(FormatDetect, containers_without_a_specific_shape_stay_archives) {
  const Bytes nres = nres_test::simple({{"a", "1"}, {"b", "2"}});
  EXPECT_EQ(detected(nres, "textures.lib"), "nres");
  EXPECT_EQ(score("nres", nres, "x"), kDetectContainer);
  // A name that claims a specific format wins over a generic container; its reader decides.
  EXPECT_EQ(detected(nres, "odd.msh"), "msh");
  const Bytes rsli = test::synthetic_rsli({{.name = "A", .unpacked = 1, .payload = {'x'}}}, true, 0);
  EXPECT_EQ(detected(rsli, "gamefont.rlb"), "rsli");
  EXPECT_EQ(score("rsli", rsli, "x"), kDetectContainer);
  EXPECT_EQ(detected(rsli, "objects.rlb"), "rsli");  // object_refs needs an NRes objects.rlb
  EXPECT_EQ(detected(Bytes{'N', 'R', 'e'}, "a.lib"), "none");
}

}  // namespace
}  // namespace sortie::iron3d
