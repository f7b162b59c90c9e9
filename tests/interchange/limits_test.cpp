// Every limit of interchange/limits.hpp: the defaults of GltfImportLimits and TextureImportOptions
// are the constants, and each limit, overridden to a sample model's own count, accepts that model
// and refuses it one below (the limit + 1 of a model one larger).
#include "sortie/interchange/limits.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include "sortie/assets/game_builder.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/interchange/gltf_export.hpp"
#include "sortie/interchange/gltf_import.hpp"
#include "sortie/interchange/texture_png.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/render/image_io.hpp"
#include "sortie_test/demo_files.hpp"

namespace sortie::interchange {
namespace {

namespace fs = std::filesystem;

// The sample's first placed model as one .glb.
const core::Bytes& sample_glb() {
  static const core::Bytes glb = [] {
    const fs::path dir = fs::temp_directory_path() / fmt::format("sortie-limits-demo-{}", ::getpid());
    fs::remove_all(dir);
    fs::create_directories(dir);
    EXPECT_TRUE(assets::write_game_files(dir, test::demo_files()).has_value());
    std::string resource;
    for (const auto& [path, bytes] : test::demo_files()) {
      if (!path.ends_with("data.tma")) continue;
      auto tma = iron3d::read_tma(bytes);
      if (tma && !tma->objects.empty() && (resource.empty() || tma->objects[0].resource_name < resource))
        resource = tma->objects[0].resource_name;
    }
    auto ctx = mission::GameContext::open(dir);
    EXPECT_TRUE(ctx.has_value());
    if (!ctx) return core::Bytes{};
    assets::VisualCache cache;
    auto store = assets::prepare_model(ctx->repository(), cache, resource);
    EXPECT_TRUE(store.has_value()) << resource;
    if (!store) return core::Bytes{};
    GltfExportOptions o;
    o.binary = true;
    auto e = export_model_gltf(**store, o);
    EXPECT_TRUE(e.has_value());
    fs::remove_all(dir);
    return e ? e->files.front().bytes : core::Bytes{};
  }();
  return glb;
}

core::Result<ImportedModel> import_with(const GltfImportLimits& limits) {
  return read_gltf_model({core::ByteView(sample_glb()), {}}, limits);
}

// Sets one limit to `count` (accepted) and `count - 1` (refused with one of `codes`).
void expect_limit(std::uint64_t count, const std::function<void(GltfImportLimits&, std::uint64_t)>& set,
                  std::initializer_list<std::string_view> codes) {
  ASSERT_GT(count, 0u);
  GltfImportLimits at;
  set(at, count);
  const auto ok = import_with(at);
  ASSERT_TRUE(ok.has_value()) << ok.error().to_string();
  GltfImportLimits below;
  set(below, count - 1);
  const auto refused = import_with(below);
  ASSERT_FALSE(refused.has_value()) << "accepted at " << count - 1;
  EXPECT_NE(std::find(codes.begin(), codes.end(), refused.error().code), codes.end()) << refused.error().to_string();
}

}  // namespace

TEST(InterchangeLimits, defaults_are_the_constants) {
  const GltfImportLimits g;
  EXPECT_EQ(g.max_file_bytes, kGltfFileBytesMax);
  EXPECT_EQ(g.max_vertices, kGltfVerticesMax);
  EXPECT_EQ(g.max_triangles, kGltfTrianglesMax);
  EXPECT_EQ(g.max_materials, kGltfMaterialsMax);
  EXPECT_EQ(g.max_texture_side, kGltfTextureSideMax);
  EXPECT_EQ(g.max_nodes, kGltfNodesMax);
  EXPECT_EQ(g.max_depth, kGltfDepthMax);
  EXPECT_EQ(TextureImportOptions{}.max_side, kTextureSideMax);
}

TEST(InterchangeLimits, gltf_file_bytes) {
  expect_limit(sample_glb().size(), [](GltfImportLimits& l, std::uint64_t v) { l.max_file_bytes = v; }, {"gltf.limit"});
}

TEST(InterchangeLimits, gltf_counts) {
  const auto model = import_with({});
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  const auto u32 = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
  expect_limit(model->positions.size(), [&](GltfImportLimits& l, std::uint64_t v) { l.max_vertices = u32(v); },
               {"gltf.limit", "gltf.accessor"});
  expect_limit(model->triangles, [&](GltfImportLimits& l, std::uint64_t v) { l.max_triangles = u32(v); },
               {"gltf.limit", "gltf.accessor"});
  expect_limit(model->materials.size(), [&](GltfImportLimits& l, std::uint64_t v) { l.max_materials = u32(v); },
               {"gltf.limit"});
  std::uint32_t side = 0;
  for (const auto& m : model->materials)
    if (m.base) side = std::max({side, m.base->width, m.base->height});
  expect_limit(side, [&](GltfImportLimits& l, std::uint64_t v) { l.max_texture_side = u32(v); }, {"gltf.image"});
}

TEST(InterchangeLimits, gltf_nodes_and_depth) {
  // The sample's node count and depth, then a chain of kGltfDepthMax + 1 levels in a .gltf.
  std::uint32_t nodes = 1;
  for (; nodes < 4096; ++nodes) {
    GltfImportLimits l;
    l.max_nodes = nodes;
    if (import_with(l).has_value()) break;
  }
  expect_limit(nodes, [](GltfImportLimits& l, std::uint64_t v) { l.max_nodes = static_cast<std::uint32_t>(v); },
               {"gltf.limit"});
  auto chain = [](std::uint32_t levels) {
    core::Json doc = {{"asset", {{"version", "2.0"}}}, {"scene", 0}, {"scenes", {{{"nodes", {0}}}}}};
    core::Json list = core::Json::array();
    for (std::uint32_t i = 0; i < levels; ++i) {
      core::Json n = core::Json::object();
      if (i + 1 < levels) n["children"] = {i + 1};
      list.push_back(n);
    }
    doc["nodes"] = list;
    return doc.dump();
  };
  // The root is at depth 0: a chain of kGltfDepthMax + 1 nodes reaches depth kGltfDepthMax.
  const std::string at = chain(kGltfDepthMax + 1);
  const auto walked = read_gltf_model({core::as_bytes(at), {}});
  if (!walked) {
    EXPECT_NE(walked.error().code, "gltf.node") << walked.error().to_string();
  }
  const std::string over = chain(kGltfDepthMax + 2);
  const auto deeper = read_gltf_model({core::as_bytes(over), {}});
  ASSERT_FALSE(deeper.has_value());
  EXPECT_EQ(deeper.error().code, "gltf.node") << deeper.error().to_string();
}

TEST(InterchangeLimits, install_materials) {
  auto model = import_with({});
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  ASSERT_FALSE(model->materials.empty());
  model->materials.resize(kInstallMaterialsMax, model->materials.front());
  const auto at = build_model_entries(*model, "lim");
  ASSERT_TRUE(at.has_value()) << at.error().to_string();
  EXPECT_EQ(at->materials.size(), kInstallMaterialsMax);
  model->materials.push_back(model->materials.front());
  const auto over = build_model_entries(*model, "lim");
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "gltf.limit");
}

TEST(InterchangeLimits, texture_side) {
  // A 4 x 2 PNG: the side limit at 4 takes it, at 3 refuses it.
  const std::vector<std::uint8_t> rgba(4 * 2 * 4, 0x80);
  auto png = render::encode_png(4, 2, rgba, {});
  ASSERT_TRUE(png.has_value()) << png.error().to_string();
  const core::ByteView view(*png);
  TextureImportOptions at;
  at.max_side = 4;
  const auto ok = import_texture_png(std::span(&view, 1), at);
  ASSERT_TRUE(ok.has_value()) << ok.error().to_string();
  TextureImportOptions below;
  below.max_side = 3;
  const auto refused = import_texture_png(std::span(&view, 1), below);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, "render.png.limit");
}

}  // namespace sortie::interchange
