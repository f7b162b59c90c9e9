// The software rasterizer (libs/render) against Mesa's software OpenGL (OSMesa, llvmpipe) on the
// same triangles, textures, light and camera at 1280 x 720, side by side in one run
// (docs/decisions/0009-osmesa-bench.md):
//   (a) the corpus-scale sample terrain: map01's Land.msh (11,858 faces) and its Land2.wea
//       materials -> MAT0 -> Texm textures (32 x 32), read through libs/iron3d from the sample
//       game libs/assets generates (the same bytes `sortie sample DIR --scale corpus` writes);
//       lit, bilinear;
//   (b) the same with trilinear filtering (full mip chains, one LOD per 2 x 2 quad as llvmpipe);
//   (c) a dense height field of 605,000 triangles over the same extent and texture, lit, bilinear.
// Both sides: back-face culling off (the terrain winding is not a contract), one directional
// light plus ambient per vertex, modulated texture, depth test, the camera filling the picture
// with terrain, and the same mip chain (box-filtered from Texm level 0 by libs/render, uploaded
// level by level to GL). Only the picture is kept: Frame::keep_depth is off on our side (Mesa's
// depth buffer stays inside Mesa too). The OSMesa rows report how far the two pictures are
// apart (mean absolute channel difference, share of pixels within 16).
//
// Run pinned to one core (OSMesa single-threaded; LP_NUM_THREADS=1 is set unless given):
//   taskset -c 0 build/release/bench/bench_render
// Two-thread figures of libs/render need two CPUs (skipped otherwise):
//   taskset -c 0,1 build/release/bench/bench_render --benchmark_filter=Sortie.*/threads:2
// The counters transform_clip_ms, binning_ms and raster_ms are the renderer's FrameStats per
// frame. SORTIE_BENCH_PNG_DIR=dir writes each workload's picture from both renderers there.
// SORTIE_BENCH_ISA=avx2 or baseline draws with those kernels instead of the widest the CPU has
// (RendererOptions::isa; the label names the kernels drawn with).
#include <benchmark/benchmark.h>
#include <sched.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <span>
#include <string>

#include "sortie/assets/sample_game.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/texm.hpp"
#include "sortie/iron3d/wear.hpp"
#include "sortie/render/image_io.hpp"
#include "sortie/render/mesh_builders.hpp"
#include "sortie/render/renderer.hpp"

#if SORTIE_BENCH_OSMESA
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/osmesa.h>
#endif

using namespace sortie;

namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 720;

struct Workload {
  std::string name;
  std::vector<render::Mesh> meshes;  // one per texture
  std::vector<render::Texture> textures;
  render::Camera camera;
  render::Light light;
  std::size_t triangles = 0;
};

template <class T>
T must(core::Result<T> r, const char* what) {
  if (!r) {
    std::fprintf(stderr, "render_bench: %s: %s\n", what, r.error().to_string().c_str());
    std::abort();
  }
  return std::move(*r);
}

// A view over the terrain that fills the picture (ground to the top edge but for a strip of
// sky), looking along +Y from above the near edge.
render::Camera frame_terrain(const core::Aabb& box) {
  const core::Vec3 ext = box.extent();
  const float size = std::max(ext.x, ext.y);
  const core::Vec3 c = box.center();
  const core::Vec3 eye{c.x, box.min.y + 0.12f * size, box.max.z + 0.16f * size};
  const core::Vec3 target{c.x, box.min.y + 0.62f * size, box.min.z};
  return render::Camera::perspective(eye, target, {0, 0, 1}, core::degrees_to_radians(50.0f),
                                     static_cast<float>(kWidth) / kHeight, 0.01f * size, 4.0f * size);
}

render::Light bench_light() {
  render::Light l;
  l.direction = core::normalize_or({-0.4f, 0.3f, -0.85f}, {0, 0, -1});
  l.color = {0.7f, 0.7f, 0.7f};
  l.ambient = {0.3f, 0.3f, 0.3f};
  return l;
}

// (a), (b): the sample game's map01 terrain with its Land2.wea textures.
Workload load_sample_terrain() {
  assets::SampleOptions opts;
  opts.scale = assets::SampleScale::corpus;
  auto [files, summary] = must(assets::generate_sample_files(opts), "sample game");
  (void)summary;
  const iron3d::ReadOptions read{core::Profile::strict, "Land.msh"};
  const iron3d::LandMsh msh = must(iron3d::read_land_msh(files.at("DATA/MAPS/map01/Land.msh"), read), "Land.msh");
  const iron3d::Wear wear = must(iron3d::read_wear(files.at("DATA/MAPS/map01/Land2.wea")), "Land2.wea");
  const iron3d::NresArchive materials = must(iron3d::read_nres(files.at("material.lib")), "material.lib");
  const iron3d::NresArchive textures = must(iron3d::read_nres(files.at("textures.lib")), "textures.lib");

  Workload w;
  w.name = "sample_terrain";
  // One texture per Land2.wea row: row -> MAT0 in material.lib -> first phase texture -> Texm.
  for (const auto& row : wear.materials) {
    const auto mi = materials.find(row.name);
    if (!mi) std::abort();
    const iron3d::Mat0 mat = must(iron3d::read_mat0_entry(materials, *mi), "MAT0");
    const auto names = iron3d::mat0_texture_names(mat);
    const auto ti = textures.find(names.at(0));
    if (!ti) std::abort();
    const iron3d::Texm texm = must(iron3d::read_texm(textures.payload(*ti)), "Texm");
    const iron3d::Rgba8Image img = must(iron3d::decode_texm_rgba8(texm, 0), "Texm decode");
    w.textures.push_back(must(render::Texture::from_rgba8(img.width, img.height, img.pixels), "texture"));
  }
  // Faces grouped by their Land2 row, each group with only the vertices it uses.
  core::Aabb box;
  for (std::size_t row = 0; row < w.textures.size(); ++row) {
    render::Mesh m;
    std::vector<std::uint32_t> remap(msh.positions.size(), UINT32_MAX);
    for (const auto& face : msh.faces) {
      // The sample's faces name Land2 rows 1..3 of a 3-row Land2.wea; rows wrap so every face
      // is drawn.
      if (face.land2_row() % w.textures.size() != row) continue;
      for (const std::uint16_t v : face.vertices) {
        if (remap[v] == UINT32_MAX) {
          remap[v] = static_cast<std::uint32_t>(m.positions.size());
          const auto& p = msh.positions[v];
          m.positions.push_back({p.x, p.y, p.z});
          const auto& n = msh.normals[v];
          m.normals.push_back(core::normalize_or(
              {static_cast<float>(n.x), static_cast<float>(n.y), static_cast<float>(n.z)}, {0, 0, 1}));
          const auto& uv = msh.uvs[v];
          m.uvs.push_back({static_cast<float>(uv.u) / 1024.0f, static_cast<float>(uv.v) / 1024.0f});
          box.expand(m.positions.back());
        }
        m.indices.push_back(remap[v]);
      }
    }
    w.triangles += m.indices.size() / 3;
    w.meshes.push_back(std::move(m));
  }
  w.camera = frame_terrain(box);
  w.light = bench_light();
  return w;
}

// (c): 551 x 551 vertices (605,000 triangles) over the sample terrain's extent.
Workload make_dense_terrain(const Workload& sample) {
  core::Aabb box;
  for (const auto& m : sample.meshes) box.merge(m.bounds());
  constexpr std::uint32_t kSide = 551;
  std::vector<float> h(static_cast<std::size_t>(kSide) * kSide);
  const float zr = box.extent().z;
  for (std::uint32_t j = 0; j < kSide; ++j)
    for (std::uint32_t i = 0; i < kSide; ++i) {
      const float x = static_cast<float>(i) / (kSide - 1), y = static_cast<float>(j) / (kSide - 1);
      h[static_cast<std::size_t>(j) * kSide + i] =
          zr * (0.5f + 0.3f * std::sin(x * 9.0f) * std::cos(y * 7.0f) + 0.15f * std::sin((x + 2 * y) * 23.0f));
    }
  const core::Vec3 ext = box.extent();
  const core::Vec2 cell{ext.x / (kSide - 1), ext.y / (kSide - 1)};
  Workload w;
  w.name = "dense_terrain";
  const render::Texture& t = sample.textures[0];
  w.textures.push_back(must(render::Texture::from_packed(t.width(), t.height(), t.level(0)), "texture"));
  w.meshes.push_back(must(
      render::make_height_field({box.min.x, box.min.y, box.min.z}, cell, kSide, kSide, h, {0.125f, 0.125f}), "mesh"));
  w.meshes[0].colors.clear();
  w.triangles = w.meshes[0].indices.size() / 3;
  w.camera = sample.camera;
  w.light = sample.light;
  return w;
}

const Workload& workload(int which) {
  static const Workload sample = load_sample_terrain();
  static const Workload dense = make_dense_terrain(sample);
  return which == 2 ? dense : sample;
}

render::Filter filter_of(int which) {
  return which == 1 ? render::Filter::trilinear : render::Filter::bilinear;
}
const char* case_name(int which) {
  return which == 0 ? "a_sample_bilinear" : which == 1 ? "b_sample_trilinear" : "c_dense_bilinear";
}

std::vector<render::DrawCall> draws_of(const Workload& w, render::Filter filter) {
  std::vector<render::DrawCall> draws;
  for (std::size_t i = 0; i < w.meshes.size(); ++i) {
    render::Material m;
    m.texture = w.textures[i].view();
    m.filter = filter;
    m.lod = render::LodMode::per_quad;  // like llvmpipe (and GPUs): one LOD per 2 x 2 quad
    m.lit = true;
    m.cull = render::Cull::none;
    draws.push_back({w.meshes[i].view(), m, core::Mat4::identity()});
  }
  return draws;
}

render::Isa bench_isa() {
  const char* v = std::getenv("SORTIE_BENCH_ISA");
  const std::string isa = v != nullptr ? v : "best";
  if (isa == "avx2") return render::Isa::avx2;
  if (isa == "baseline") return render::Isa::baseline;
  if (isa != "best") {
    std::fprintf(stderr, "render_bench: SORTIE_BENCH_ISA must be best, avx2 or baseline, not %s\n", isa.c_str());
    std::abort();
  }
  return render::Isa::best;
}

int allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set);
}

void maybe_write_png(const std::string& file, const render::Framebuffer& fb) {
  const char* dir = std::getenv("SORTIE_BENCH_PNG_DIR");
  if (dir == nullptr) return;
  std::filesystem::create_directories(dir);
  (void)render::write_png(std::filesystem::path(dir) / file, fb);
}

// The last picture of libs/render per workload (for the OSMesa comparison counter).
std::map<int, render::Framebuffer>& sortie_pictures() {
  static std::map<int, render::Framebuffer> pictures;
  return pictures;
}

// The frame of a workload: its camera and light, the given draws (they must outlive the frame).
render::Frame frame_of(const Workload& w, std::span<const render::DrawCall> draws) {
  render::Frame frame;
  frame.camera = w.camera;
  frame.light = w.light;
  frame.draws = draws;
  frame.clear_color = render::Rgba8{90, 120, 160, 255};
  return frame;
}

void BM_Sortie(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  if (static_cast<int>(threads) > allowed_cpus()) {
    state.SkipWithError("needs more CPUs than this process may use (run with taskset -c 0,1)");
    return;
  }
  const Workload& w = workload(which);
  const auto draws = draws_of(w, filter_of(which));
  render::Frame frame = frame_of(w, draws);
  frame.keep_depth = false;  // only the picture is used (OSMesa's depth buffer stays inside Mesa too)
  render::Renderer renderer({threads, true, bench_isa()});
  render::Framebuffer fb = must(render::Framebuffer::create(kWidth, kHeight), "framebuffer");
  render::FrameStats st, sum;
  for (auto _ : state) {
    if (!renderer.render(frame, fb, &st)) std::abort();
    sum.transform_clip_ms += st.transform_clip_ms;
    sum.binning_ms += st.binning_ms;
    sum.raster_ms += st.raster_ms;
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["fps"] = benchmark::Counter(n, benchmark::Counter::kIsRate);
  state.counters["transform_clip_ms"] = sum.transform_clip_ms / n;
  state.counters["binning_ms"] = sum.binning_ms / n;
  state.counters["raster_ms"] = sum.raster_ms / n;
  state.counters["triangles"] = static_cast<double>(st.triangles);
  state.counters["tris_setup"] = static_cast<double>(st.triangles_setup);
  state.SetLabel(std::string(case_name(which)) + " " + std::string(renderer.isa()));
  if (threads == 1) {
    maybe_write_png(std::string(case_name(which)) + "_sortie.png", fb);
    sortie_pictures()[which] = fb;
  }
}
// write_png's encoder on the 1280 x 720 picture of workload (a) (RGB, as screenshots and
// `sortie render` write it); `bytes` = the PNG's size.
void BM_EncodePng(benchmark::State& state) {
  const Workload& w = workload(0);
  const auto draws = draws_of(w, filter_of(0));
  render::Frame frame = frame_of(w, draws);
  render::Renderer renderer({1});
  render::Framebuffer fb = must(render::Framebuffer::create(kWidth, kHeight), "framebuffer");
  if (!renderer.render(frame, fb)) std::abort();
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto png = render::encode_png(fb);
    if (!png) std::abort();
    bytes = png->size();
    benchmark::DoNotOptimize(png->data());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_EncodePng)->Unit(benchmark::kMillisecond);

// A first frame: workload (a) drawn by a fresh renderer each time (its batches' buffers are
// allocated on first use).
void BM_FirstFrame(benchmark::State& state) {
  const Workload& w = workload(0);
  const auto draws = draws_of(w, filter_of(0));
  render::Frame frame = frame_of(w, draws);
  frame.keep_depth = false;
  render::Framebuffer fb = must(render::Framebuffer::create(kWidth, kHeight), "framebuffer");
  for (auto _ : state) {
    render::Renderer renderer({1});
    if (!renderer.render(frame, fb)) std::abort();
  }
  state.counters["draws"] = static_cast<double>(draws.size());
}
BENCHMARK(BM_FirstFrame)->Unit(benchmark::kMillisecond);

BENCHMARK(BM_Sortie)
    ->ArgsProduct({{0, 1, 2}, {1, 2}})
    ->ArgNames({"case", "threads"})
    ->UseRealTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

#if SORTIE_BENCH_OSMESA

struct GlState {
  OSMesaContext context = nullptr;
  std::vector<std::uint8_t> pixels;
};

GlState& gl() {
  static GlState s = [] {
    setenv("LP_NUM_THREADS", "1", 0);  // single-threaded llvmpipe unless the caller says otherwise
    GlState g;
    g.context = OSMesaCreateContextExt(OSMESA_RGBA, 24, 0, 0, nullptr);
    g.pixels.resize(static_cast<std::size_t>(kWidth) * kHeight * 4);
    if (g.context == nullptr || !OSMesaMakeCurrent(g.context, g.pixels.data(), GL_UNSIGNED_BYTE, kWidth, kHeight))
      std::abort();
    OSMesaPixelStore(OSMESA_Y_UP, 0);  // row 0 at the top, like libs/render
    return g;
  }();
  return s;
}

struct GlMesh {
  GLuint buffers[4] = {};  // positions, normals, uvs, indices
  GLsizei count = 0;
  GLuint texture = 0;
};

std::vector<GlMesh> upload(const Workload& w, render::Filter filter) {
  std::vector<GlMesh> out;
  for (std::size_t i = 0; i < w.meshes.size(); ++i) {
    const render::Mesh& m = w.meshes[i];
    GlMesh g;
    glGenBuffers(4, g.buffers);
    glBindBuffer(GL_ARRAY_BUFFER, g.buffers[0]);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m.positions.size() * sizeof(core::Vec3)), m.positions.data(),
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, g.buffers[1]);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m.normals.size() * sizeof(core::Vec3)), m.normals.data(),
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, g.buffers[2]);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m.uvs.size() * sizeof(core::Vec2)), m.uvs.data(),
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.buffers[3]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(m.indices.size() * sizeof(std::uint32_t)),
                 m.indices.data(), GL_STATIC_DRAW);
    g.count = static_cast<GLsizei>(m.indices.size());
    const render::Texture& t = w.textures[i];
    glGenTextures(1, &g.texture);
    glBindTexture(GL_TEXTURE_2D, g.texture);
    const std::uint32_t levels = filter == render::Filter::trilinear ? t.level_count() : 1;
    for (std::uint32_t l = 0; l < levels; ++l)
      glTexImage2D(GL_TEXTURE_2D, static_cast<GLint>(l), GL_RGBA8, static_cast<GLsizei>(render::mip_size(t.width(), l)),
                   static_cast<GLsizei>(render::mip_size(t.height(), l)), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                   t.level(l).data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, static_cast<GLint>(levels - 1));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    filter == render::Filter::trilinear ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    out.push_back(g);
  }
  return out;
}

void release(std::vector<GlMesh>& meshes) {
  for (auto& g : meshes) {
    glDeleteBuffers(4, g.buffers);
    glDeleteTextures(1, &g.texture);
  }
}

// Column-major copy of a core::Mat4 (rows m[row][col]).
void load_matrix(GLenum mode, const core::Mat4& m) {
  GLfloat a[16];
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) a[c * 4 + r] = m.at(r, c);
  glMatrixMode(mode);
  glLoadMatrixf(a);
}

void gl_setup(const Workload& w) {
  glViewport(0, 0, kWidth, kHeight);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_CULL_FACE);
  glClearColor(90.0f / 255.0f, 120.0f / 255.0f, 160.0f / 255.0f, 1.0f);
  glClearDepth(1.0);
  load_matrix(GL_PROJECTION, w.camera.projection);
  load_matrix(GL_MODELVIEW, w.camera.view);
  // Directional light given in world space (transformed by the view matrix loaded above).
  const GLfloat towards[4] = {-w.light.direction.x, -w.light.direction.y, -w.light.direction.z, 0.0f};
  const GLfloat diffuse[4] = {w.light.color.x, w.light.color.y, w.light.color.z, 1.0f};
  const GLfloat ambient[4] = {w.light.ambient.x, w.light.ambient.y, w.light.ambient.z, 1.0f};
  const GLfloat zero[4] = {0, 0, 0, 1}, white[4] = {1, 1, 1, 1};
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  glLightfv(GL_LIGHT0, GL_POSITION, towards);
  glLightfv(GL_LIGHT0, GL_DIFFUSE, diffuse);
  glLightfv(GL_LIGHT0, GL_AMBIENT, zero);
  glLightfv(GL_LIGHT0, GL_SPECULAR, zero);
  glLightModelfv(GL_LIGHT_MODEL_AMBIENT, ambient);
  glMaterialfv(GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE, white);
  glMaterialfv(GL_FRONT_AND_BACK, GL_SPECULAR, zero);
  glEnable(GL_TEXTURE_2D);
  glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
  glEnableClientState(GL_VERTEX_ARRAY);
  glEnableClientState(GL_NORMAL_ARRAY);
  glEnableClientState(GL_TEXTURE_COORD_ARRAY);
}

void gl_draw(const std::vector<GlMesh>& meshes) {
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  for (const GlMesh& g : meshes) {
    glBindTexture(GL_TEXTURE_2D, g.texture);
    glBindBuffer(GL_ARRAY_BUFFER, g.buffers[0]);
    glVertexPointer(3, GL_FLOAT, 0, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, g.buffers[1]);
    glNormalPointer(GL_FLOAT, 0, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, g.buffers[2]);
    glTexCoordPointer(2, GL_FLOAT, 0, nullptr);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.buffers[3]);
    glDrawElements(GL_TRIANGLES, g.count, GL_UNSIGNED_INT, nullptr);
  }
  glFinish();
}

void BM_OSMesa(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const Workload& w = workload(which);
  GlState& g = gl();
  std::vector<GlMesh> meshes = upload(w, filter_of(which));
  gl_setup(w);
  gl_draw(meshes);  // warm-up (shader compilation)
  for (auto _ : state) gl_draw(meshes);
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["triangles"] = static_cast<double>(w.triangles);
  const char* lp = std::getenv("LP_NUM_THREADS");
  state.SetLabel(std::string(case_name(which)) + " LP_NUM_THREADS=" + (lp ? lp : "?"));
  // How close the two pictures are: mean absolute channel difference and the share of pixels
  // whose channels all agree within 16 (filtering and rounding differ slightly).
  render::Framebuffer fb = must(render::Framebuffer::create(kWidth, kHeight), "framebuffer");
  std::memcpy(fb.color().data(), g.pixels.data(), g.pixels.size());
  maybe_write_png(std::string(case_name(which)) + "_osmesa.png", fb);
  const auto it = sortie_pictures().find(which);
  if (it != sortie_pictures().end()) {
    const auto a = it->second.rgba_bytes(), b = fb.rgba_bytes();
    double sum = 0.0;
    std::size_t close = 0;
    for (std::size_t i = 0; i < a.size(); i += 4) {
      int worst = 0;
      for (int c = 0; c < 3; ++c) {
        const int d = std::abs(int{a[i + c]} - int{b[i + c]});
        sum += d;
        worst = std::max(worst, d);
      }
      close += worst <= 16;
    }
    state.counters["mean_abs_diff"] = sum / static_cast<double>(a.size() / 4 * 3);
    state.counters["pixels_within_16"] = static_cast<double>(close) / static_cast<double>(a.size() / 4);
  }
  release(meshes);
}
BENCHMARK(BM_OSMesa)->Arg(0)->Arg(1)->Arg(2)->ArgName("case")->UseRealTime()->MeasureProcessCPUTime()->Unit(
    benchmark::kMillisecond);

#endif

}  // namespace
