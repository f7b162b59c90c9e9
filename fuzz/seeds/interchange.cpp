// Seeds for fuzz_gltf_import and fuzz_texture_png, written by sortie's own exporters: a textured
// two-material box model as .glb, and Texm levels as PNG (with and without the metadata chunk).
#include "seeds.hpp"
#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/game_builder.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/interchange/gltf_export.hpp"
#include "sortie/interchange/texture_png.hpp"
#include "sortie/render/image_io.hpp"

using namespace sortie;

namespace {

core::Bytes box_glb() {
  assets::GameBuilder g(assets::ArchiveFormat::nres);
  if (!g.add_texture("T_FZ", 8, 8, 4444, 4, 7u) || !g.add_material("M_FZ", {"T_FZ"}) || !g.add_material("M_FZ2", {""}))
    return {};
  assets::ModelSpec m;
  m.archive = "static.rlb";
  m.name = "box.msh";
  m.materials = {"M_FZ", "M_FZ2"};
  if (!g.add_model(m)) return {};
  g.add_prototype("s_box", {{"static.rlb", "box.msh"}});
  assets::MemoryVfs vfs;
  if (!g.fill(vfs)) return {};
  assets::ArchiveRepository repo(vfs);
  assets::VisualCache cache;
  auto store = assets::prepare_model(repo, cache, "s_box");
  if (!store) return {};
  auto glb = interchange::export_model_gltf(**store, {});
  return glb ? glb->files.front().bytes : core::Bytes{};
}

}  // namespace

SORTIE_FUZZ_SEEDS(gltf_import, [](fuzz::SeedSink& out) {
  const core::Bytes glb = box_glb();
  if (!glb.empty()) out.add("box.glb", glb);
  const std::string minimal = R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],)"
                              R"("meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],)"
                              R"("accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",)"
                              R"("min":[0,0,0],"max":[1,1,0]}],"bufferViews":[{"buffer":0,"byteLength":36}],)"
                              R"("buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,)"
                              R"(AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}]})";
  out.add("triangle.gltf", core::Bytes(minimal.begin(), minimal.end()));
});

SORTIE_FUZZ_SEEDS(texture_png, [](fuzz::SeedSink& out) {
  for (std::uint32_t format : {565u, 4444u, 8888u, 0u}) {
    auto t = iron3d::build_texm(6, 4, format, 3);
    if (!t) continue;
    auto pngs = interchange::export_texture_png(*t, 1);
    if (pngs) out.add("texm_" + std::to_string(format) + ".png", pngs->front());
  }
  std::vector<std::uint8_t> rgba(5 * 3 * 4, 0x80);
  if (auto plain = render::encode_png(5, 3, rgba, {}); plain) out.add("plain_rgb.png", *plain);
});
