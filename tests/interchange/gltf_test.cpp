// glTF export and import (issue #20 parts 1, 2 and 4): every model and mission of the demo sample
// exports, passes the Khronos validator with no error and no warning (when Node.js is present),
// and every model comes back through import with the same geometry, materials and texels.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <set>

#include "sortie/assets/game_builder.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/interchange/gltf_export.hpp"
#include "sortie/interchange/gltf_import.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie_test/demo_files.hpp"
#include "sortie_test/paths.hpp"
#include "sortie_test/process.hpp"

namespace sortie::interchange {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("sortie-gltf-{}-{}", name, ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path demo_dir() {
  static const fs::path dir = [] {
    const fs::path d = fresh_dir("demo");
    EXPECT_TRUE(assets::write_game_files(d, test::demo_files()).has_value());
    return d;
  }();
  return dir;
}

// Every resource name placed by a mission of the demo sample, sorted.
std::set<std::string> placed_resources() {
  std::set<std::string> out;
  for (const auto& [path, bytes] : test::demo_files()) {
    if (path.size() < 8 || path.substr(path.size() - 8) != "data.tma") continue;
    auto tma = iron3d::read_tma(bytes);
    EXPECT_TRUE(tma.has_value()) << path;
    if (!tma) continue;
    for (const auto& o : tma->objects) out.insert(o.resource_name);
  }
  return out;
}

// The Khronos validator over `files`: 0 when clean; -1 when Node.js is absent (the caller skips).
int validate(const std::vector<fs::path>& files, std::string& report) {
  if (!test::program_on_path("node")) return -1;
  const fs::path script = fs::path(sortie_test_source_dir) / "tools/gltf-validator/validate.js";
  const fs::path out = fs::temp_directory_path() / fmt::format("sortie-gltf-validator-{}.txt", ::getpid());
  std::vector<std::string> args{"node", script.string()};
  for (const auto& f : files) args.push_back(f.string());
  const auto p = test::spawn_logged(args, out);
  const int rc = test::wait_for(p, std::chrono::seconds(120));
  report = test::text_of(out);
  return rc == -1 ? 124 : rc;  // a validator past its deadline fails the test
}

void expect_valid(const std::vector<fs::path>& files) {
  std::string report;
  const int rc = validate(files, report);
  if (rc == -1) {
    std::cout << "[ SKIPPED ] Node.js is not installed: the glTF validator was not run\n";
    return;
  }
  EXPECT_EQ(rc, 0) << report << "\n(run `make deps` to install the validator into tools/gltf-validator)";
}

std::vector<fs::path> write(const GltfExport& e, const fs::path& dir) {
  std::vector<fs::path> main;
  for (const auto& f : e.files) {
    EXPECT_TRUE(core::write_file_atomic(dir / f.name, core::ByteView(f.bytes)).has_value());
    if (f.name.ends_with(".glb") || f.name.ends_with(".gltf")) main.push_back(dir / f.name);
  }
  return main;
}

GltfExport export_model(mission::GameContext& ctx, const std::string& resource, bool binary = true) {
  assets::VisualCache cache;
  auto store = assets::prepare_model(ctx.repository(), cache, resource);
  EXPECT_TRUE(store.has_value()) << resource << ": " << (store ? "" : store.error().to_string());
  GltfExportOptions o;
  o.binary = binary;
  auto e = export_model_gltf(**store, o);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().to_string());
  return *e;
}

ImportedModel import_glb(const GltfExport& e) {
  auto m = read_gltf_model({core::ByteView(e.files.front().bytes), {}});
  EXPECT_TRUE(m.has_value()) << (m ? "" : m.error().to_string());
  return m ? *m : ImportedModel{};
}

float max_delta(const core::Vec3& a, const core::Vec3& b) {
  return std::max({std::fabs(a.x - b.x), std::fabs(a.y - b.y), std::fabs(a.z - b.z)});
}

// The same triangles (corner by corner, in order), materials and texels.
void expect_same_model(const ImportedModel& a, const ImportedModel& b) {
  ASSERT_EQ(a.materials.size(), b.materials.size());
  ASSERT_EQ(a.indices.size(), b.indices.size());
  ASSERT_EQ(a.triangles, b.triangles);
  float worst = 0, worst_normal = 0, worst_uv = 0;
  for (std::size_t i = 0; i < a.indices.size(); ++i) {
    const auto ia = a.indices[i], ib = b.indices[i];
    worst = std::max(worst, max_delta(a.positions[ia], b.positions[ib]));
    if (!a.normals.empty() && !b.normals.empty())
      worst_normal = std::max(worst_normal, max_delta(a.normals[ia], b.normals[ib]));
    if (!a.uvs.empty() && !b.uvs.empty())
      worst_uv = std::max({worst_uv, std::fabs(a.uvs[ia][0] - b.uvs[ib][0]), std::fabs(a.uvs[ia][1] - b.uvs[ib][1])});
  }
  EXPECT_LE(worst, 1e-5f);
  EXPECT_LE(worst_normal, 1e-5f);
  EXPECT_LE(worst_uv, 1e-5f);
  for (std::size_t r = 0; r < a.materials.size(); ++r) {
    SCOPED_TRACE(r);
    const auto &ma = a.materials[r], &mb = b.materials[r];
    ASSERT_EQ(ma.base.has_value(), mb.base.has_value());
    if (ma.base) {
      EXPECT_EQ(ma.base->pixels, mb.base->pixels);
    }
    EXPECT_EQ(ma.texture_format, mb.texture_format);
    ASSERT_EQ(ma.mat0.has_value(), mb.mat0.has_value());
    if (ma.mat0) {
      ASSERT_EQ(ma.mat0->phases.size(), mb.mat0->phases.size());
      for (std::size_t p = 0; p < ma.mat0->phases.size(); ++p)
        EXPECT_EQ(ma.mat0->phases[p].parameters, mb.mat0->phases[p].parameters);
      EXPECT_EQ(ma.mat0->metadata_c_raw, mb.mat0->metadata_c_raw);
      EXPECT_EQ(ma.mat0_flags, mb.mat0_flags);
    }
  }
}

TEST(GltfExport, every_model_of_the_sample_validates_and_comes_back_through_import) {
  auto ctx = mission::GameContext::open(demo_dir());
  ASSERT_TRUE(ctx.has_value());
  const fs::path out = fresh_dir("models");
  const fs::path game = fresh_dir("models-game");
  ASSERT_TRUE(assets::write_game_files(game, test::demo_files()).has_value());
  std::vector<fs::path> files;
  std::size_t n = 0;
  for (const std::string& resource : placed_resources()) {
    SCOPED_TRACE(resource);
    const GltfExport first = export_model(*ctx, resource);
    ASSERT_FALSE(first.files.empty());
    if (first.stats.triangles == 0) continue;  // a non-geometric prototype
    const fs::path sub = out / fmt::format("m{}", n);
    fs::create_directories(sub);
    for (const auto& f : write(first, sub)) files.push_back(f);
    const ImportedModel model = import_glb(first);
    const std::string name = fmt::format("imp{}", n++);
    auto entries = build_model_entries(model, name);
    ASSERT_TRUE(entries.has_value()) << entries.error().to_string();
    ASSERT_TRUE(install_model(game, *entries).has_value());
    auto game_ctx = mission::GameContext::open(game);
    ASSERT_TRUE(game_ctx.has_value());
    const GltfExport second = export_model(*game_ctx, entries->resource_name);
    expect_same_model(model, import_glb(second));
  }
  EXPECT_GE(n, 5u);
  expect_valid(files);
}

TEST(GltfExport, every_mission_of_the_sample_validates_as_glb_and_as_gltf) {
  auto ctx = mission::GameContext::open(demo_dir());
  ASSERT_TRUE(ctx.has_value());
  auto missions = ctx->missions();
  ASSERT_TRUE(missions.has_value());
  ASSERT_FALSE(missions->empty());
  const fs::path out = fresh_dir("missions");
  std::vector<fs::path> files;
  for (const auto& name : *missions) {
    auto md = ctx->prepare(name);
    ASSERT_TRUE(md.has_value());
    assets::VisualCache cache;
    auto store = assets::build_visual_store(ctx->repository(), cache, *md);
    ASSERT_TRUE(store.has_value());
    for (bool binary : {true, false}) {
      GltfExportOptions o;
      o.binary = binary;
      o.name = name;
      o.areals = o.routes = true;
      auto e = export_mission_gltf(**store, *md, o);
      ASSERT_TRUE(e.has_value()) << e.error().to_string();
      EXPECT_EQ(e->files.size(), binary ? 1u : 2u);
      EXPECT_GT(e->stats.triangles, md->land_msh.faces.size());  // terrain and objects
      EXPECT_EQ(e->stats.nodes >= md->tma.objects.size(), true);
      for (const auto& f : write(*e, out)) files.push_back(f);
    }
  }
  expect_valid(files);
}

// Blender (when installed) imports a model and a mission with as many objects, meshes,
// materials, images and triangles as the export wrote.
TEST(GltfExport, blender_imports_what_was_written) {
  if (!test::program_on_path("blender")) GTEST_SKIP() << "blender is not installed (apt-get install blender)";
  auto ctx = mission::GameContext::open(demo_dir());
  ASSERT_TRUE(ctx.has_value());
  const fs::path out = fresh_dir("blender");
  std::vector<std::pair<fs::path, GltfExportStats>> exports;
  const GltfExport model = export_model(*ctx, *placed_resources().begin());
  exports.emplace_back(write(model, out).front(), model.stats);
  auto md = ctx->prepare("m01");
  ASSERT_TRUE(md.has_value());
  assets::VisualCache cache;
  auto store = assets::build_visual_store(ctx->repository(), cache, *md);
  ASSERT_TRUE(store.has_value());
  GltfExportOptions o;
  o.name = "m01";
  auto mission = export_mission_gltf(**store, *md, o);
  ASSERT_TRUE(mission.has_value());
  exports.emplace_back(write(*mission, out).front(), mission->stats);
  const fs::path script = fs::path(sortie_test_source_dir) / "tools/blender/gltf_counts.py";
  for (const auto& [file, stats] : exports) {
    SCOPED_TRACE(file.string());
    const fs::path log = out / (file.stem().string() + ".log");
    const auto p = test::spawn_logged(
        {"blender", "--background", "--factory-startup", "--python", script.string(), "--", file.string()}, log);
    ASSERT_EQ(test::wait_for(p, std::chrono::seconds(300)), 0) << test::text_of(log);
    const std::string text = test::text_of(log);
    const auto at = text.find("BLENDER_RESULT ");
    ASSERT_NE(at, std::string::npos) << text;
    const auto j = core::Json::parse(text.substr(at + 15, text.find('\n', at) - at - 15));
    EXPECT_EQ(j["result"], core::Json::array({"FINISHED"}));
    EXPECT_EQ(j["objects"].get<std::uint64_t>(), stats.nodes);
    EXPECT_EQ(j["meshes"].get<std::uint64_t>(), stats.meshes);
    EXPECT_EQ(j["materials"].get<std::uint64_t>(), stats.materials);
    EXPECT_EQ(j["images"].get<std::uint64_t>(), stats.textures);
    EXPECT_EQ(j["triangles"].get<std::uint64_t>(), stats.triangles);
  }
}

// A model made in Blender (tools/blender/make_model.py: a textured body, an untextured red roof)
// imports, and the game then prepares it with its two materials.
TEST(GltfImport, a_model_made_in_blender_comes_in) {
  if (!test::program_on_path("blender")) GTEST_SKIP() << "blender is not installed (apt-get install blender)";
  const fs::path out = fresh_dir("blender-made");
  const fs::path glb = out / "house.glb";
  const fs::path script = fs::path(sortie_test_source_dir) / "tools/blender/make_model.py";
  const auto p = test::spawn_logged(
      {"blender", "--background", "--factory-startup", "--python", script.string(), "--", glb.string()}, out / "log");
  ASSERT_EQ(test::wait_for(p, std::chrono::seconds(300)), 0) << test::text_of(out / "log");
  auto bytes = core::read_file(glb);
  ASSERT_TRUE(bytes.has_value());
  auto model = read_gltf_model({core::ByteView(*bytes), out});
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  EXPECT_EQ(model->triangles, 12u + 6u);  // a cube and a four-sided cone
  ASSERT_EQ(model->materials.size(), 2u);
  ASSERT_TRUE(model->materials[0].base.has_value());
  EXPECT_EQ(model->materials[0].base->width, 64u);
  ASSERT_TRUE(model->materials[1].base.has_value());  // the roof's colour as a texture
  EXPECT_GT(model->materials[1].base->pixels[0], 2 * model->materials[1].base->pixels[1]);
  float top = -1e9f;
  for (const auto& v : model->positions) top = std::max(top, v.z);
  EXPECT_NEAR(top, 3.5f, 1e-4f);  // Blender's Z up came back as Iron3D's Z up
  const fs::path game = out / "game";
  ASSERT_TRUE(assets::write_game_files(game, test::demo_files()).has_value());
  auto entries = build_model_entries(*model, "house");
  ASSERT_TRUE(entries.has_value()) << entries.error().to_string();
  ASSERT_TRUE(install_model(game, *entries).has_value());
  auto ctx = mission::GameContext::open(game);
  ASSERT_TRUE(ctx.has_value());
  assets::VisualCache cache;
  auto store = assets::prepare_model(ctx->repository(), cache, entries->resource_name);
  ASSERT_TRUE(store.has_value()) << store.error().to_string();
  const auto* visual = store->get()->placements()[0].components[0].prototype->visual.get();
  ASSERT_NE(visual, nullptr);
  EXPECT_EQ(visual->materials.size(), 2u);
  EXPECT_FALSE(visual->materials[0].fallback);
}

// ---- hostile input ------------------------------------------------------------------------

class GltfImportHostile : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ctx = mission::GameContext::open(demo_dir());
    ASSERT_TRUE(ctx.has_value());
    const std::string unit = *placed_resources().begin();
    const GltfExport e = export_model(*ctx, unit, false);
    dir_ = fresh_dir("hostile");
    for (const auto& f : e.files) ASSERT_TRUE(core::write_file_atomic(dir_ / f.name, core::ByteView(f.bytes)));
    json_ = core::Json::parse(std::string(e.files[0].bytes.begin(), e.files[0].bytes.end()));
    glb_ = export_model(*ctx, unit, true).files[0].bytes;
  }
  std::string code_of(const core::Json& doc) {
    const std::string text = doc.dump();
    auto m = read_gltf_model({core::as_bytes(text), dir_});
    return m ? std::string("ok") : m.error().code;
  }
  std::string code_of_bytes(core::ByteView bytes) {
    auto m = read_gltf_model({bytes, {}});
    return m ? std::string("ok") : m.error().code;
  }
  fs::path dir_;
  core::Json json_;
  core::Bytes glb_;
};

TEST_F(GltfImportHostile, the_unchanged_files_import) {
  EXPECT_EQ(code_of(json_), "ok");
  EXPECT_EQ(code_of_bytes(glb_), "ok");
}

TEST_F(GltfImportHostile, truncated_or_garbled_binaries_are_parse_errors) {
  for (std::size_t cut : {std::size_t{0}, std::size_t{11}, std::size_t{20}, glb_.size() / 2, glb_.size() - 1})
    EXPECT_EQ(code_of_bytes(core::ByteView(glb_).subspan(0, cut)), "gltf.parse") << cut;
  core::Bytes garbled = glb_;
  for (std::size_t i = 20; i < 60 && i < garbled.size(); ++i) garbled[i] ^= 0x5A;
  EXPECT_EQ(code_of_bytes(garbled), "gltf.parse");
  core::Bytes huge_chunk = glb_;  // chunk 0 length 0xFFFFFFF0
  huge_chunk[12] = 0xF0, huge_chunk[13] = huge_chunk[14] = huge_chunk[15] = 0xFF;
  EXPECT_EQ(code_of_bytes(huge_chunk), "gltf.parse");
}

TEST_F(GltfImportHostile, absurd_counts_and_ranges_are_refused_before_reading) {
  core::Json j = json_;
  j["accessors"][0]["count"] = 2147483648LL;  // 2^31 positions
  EXPECT_EQ(code_of(j), "gltf.accessor");
  j = json_;
  const int indices = j["meshes"][0]["primitives"][0]["indices"].get<int>();
  j["accessors"][indices]["count"] = 2147483648LL;  // 2^31 indices
  EXPECT_EQ(code_of(j), "gltf.accessor");
  j = json_;
  j["accessors"][0]["byteOffset"] = 4000000000LL;
  EXPECT_NE(code_of(j), "ok");
  j = json_;
  j["bufferViews"][0]["byteLength"] = 4000000000LL;  // a view past its buffer
  EXPECT_NE(code_of(j), "ok");
  j = json_;
  j["accessors"][0]["type"] = "VEC2";
  EXPECT_EQ(code_of(j), "gltf.accessor");
}

// fuzz_gltf_import found this: tinygltf hands an image's buffer-view bytes to the image callback
// without checking the view against its buffer; the importer now checks and decodes afterwards.
TEST_F(GltfImportHostile, an_image_view_past_its_buffer_is_refused_without_reading_it) {
  ASSERT_FALSE(json_["images"].empty());
  const int view = json_["images"][0]["bufferView"].get<int>();
  core::Json j = json_;
  j["bufferViews"][view]["byteOffset"] = 100000000;
  EXPECT_EQ(code_of(j), "gltf.image");
  j = json_;
  j["bufferViews"][view]["byteLength"] = 100000000;
  EXPECT_EQ(code_of(j), "gltf.image");
}

TEST_F(GltfImportHostile, missing_buffers_and_files_outside_the_folder_are_refused) {
  core::Json j = json_;
  j["buffers"][0]["uri"] = "missing.bin";
  EXPECT_EQ(code_of(j), "gltf.parse");
  j["buffers"][0]["uri"] = "../../etc/passwd";
  EXPECT_EQ(code_of(j), "gltf.parse");
  j = json_;
  j["bufferViews"][0]["buffer"] = 7;
  EXPECT_NE(code_of(j), "ok");
}

TEST_F(GltfImportHostile, non_triangle_primitives_and_bad_indices_are_named) {
  core::Json j = json_;
  j["meshes"][0]["primitives"][0]["mode"] = 1;  // LINES
  EXPECT_EQ(code_of(j), "gltf.primitive");
  j = json_;
  j["meshes"][0]["primitives"][0]["attributes"].erase("POSITION");
  EXPECT_EQ(code_of(j), "gltf.primitive");
  j = json_;
  j["scenes"][0]["nodes"] = core::Json::array();
  EXPECT_EQ(code_of(j), "gltf.empty");
  j = json_;
  j["nodes"][1]["children"].push_back(0);  // a cycle back to the root
  EXPECT_EQ(code_of(j), "gltf.node");
}

TEST_F(GltfImportHostile, a_failed_import_writes_nothing) {
  const fs::path game = fresh_dir("nothing");
  ASSERT_TRUE(assets::write_game_files(game, test::demo_files()).has_value());
  const auto before = core::read_file(game / "material.lib");
  ASSERT_TRUE(before.has_value());
  core::Json j = json_;
  j["meshes"][0]["primitives"][0]["mode"] = 0;  // POINTS
  const std::string text = j.dump();
  auto model = read_gltf_model({core::as_bytes(text), dir_});
  ASSERT_FALSE(model.has_value());
  EXPECT_EQ(core::read_file(game / "material.lib").value(), *before);
  EXPECT_FALSE(fs::exists(game / "imported.lib"));
  ImportedModel empty;
  EXPECT_EQ(build_model_entries(empty, "bad name!").error().code, "gltf.name");
  EXPECT_EQ(build_model_entries(empty, "waytoolongname").error().code, "gltf.name");
}

}  // namespace
}  // namespace sortie::interchange
