// Frame orchestration: validation, drawing order, per-draw state, the three parallel stages
// (vertices, primitives, tiles) and the tile buffers' load/clear/store.
#include "sortie/render/renderer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <new>
#include <thread>

#include "atmosphere.hpp"
#include "pipeline.hpp"
#include "simd.hpp"
#include "worker_pool.hpp"

namespace sortie::render {

using namespace detail;

namespace {

using Clock = std::chrono::steady_clock;

double ns_since(Clock::time_point t0) {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
}

constexpr std::size_t kVertexJob = 8192;     // vertices per vertex job
constexpr std::size_t kPrimitiveJob = 4096;  // primitives per primitive job (< 2^30 item indices)

struct alignas(64) TileBuffers {
  alignas(64) std::uint32_t color[kTilePixels];
  alignas(64) float depth[kTilePixels];
};

struct WorkerScratch {
  std::unique_ptr<TileBuffers> tile = std::make_unique<TileBuffers>();
  std::unique_ptr<FragmentQueue> queue = std::make_unique<FragmentQueue>();
  double vertex_ns = 0.0;
  double raster_ns = 0.0;
  std::uint64_t depth_skips = 0;
};

core::Status validate_frame(const Frame& frame) {
  for (std::size_t i = 0; i < frame.draws.size(); ++i) {
    const DrawCall& d = frame.draws[i];
    const std::string prefix = fmt::format("draws[{}]", i);
    if (auto s = validate_mesh(d.mesh); !s) return core::fail(std::move(s.error()).within(prefix + ".mesh"));
    if (d.material.lit && d.mesh.primitive == Primitive::triangles && d.mesh.normals.empty() &&
        !d.mesh.positions.empty())
      return core::fail(core::Diagnostic::error("render.mesh.normals", "a lit mesh needs one normal per position")
                            .in(prefix + ".mesh.normals")
                            .expect(std::to_string(d.mesh.positions.size()), "0"));
    if (auto s = validate_texture(d.material.texture); !s)
      return core::fail(std::move(s.error()).within(prefix + ".material.texture"));
    if (!(d.material.point_size >= 1.0f && d.material.point_size <= 64.0f))
      return core::fail(core::Diagnostic::error("render.material.point_size", "point size out of range")
                            .in(prefix + ".material.point_size")
                            .expect("1..64", fmt::format("{}", d.material.point_size)));
  }
  for (std::size_t i = 0; i < frame.point_lights.size(); ++i) {
    const PointLight& l = frame.point_lights[i];
    auto bad = [&](std::string_view field, std::string expected, std::string found) {
      return core::fail(core::Diagnostic::error("render.light.point", "point light out of range")
                            .in(fmt::format("point_lights[{}].{}", i, field))
                            .expect(std::move(expected), std::move(found)));
    };
    const core::Vec3& c = l.color;
    if (!core::is_finite(l.position))
      return bad("position", "finite", fmt::format("{}, {}, {}", l.position.x, l.position.y, l.position.z));
    if (!core::is_finite(c) || c.x < 0.0f || c.y < 0.0f || c.z < 0.0f)
      return bad("color", "finite, >= 0", fmt::format("{}, {}, {}", c.x, c.y, c.z));
    // radius^2 and size^2 stay finite and 1 / radius^2 non-zero.
    if (!(l.radius > 0.0f && l.radius <= 1e18f))
      return bad("radius", "0 < radius <= 1e18", fmt::format("{}", l.radius));
    if (!(l.size > 0.0f && l.size <= 1e18f)) return bad("size", "0 < size <= 1e18", fmt::format("{}", l.size));
  }
  return {};
}

SamplerLevel make_level(const TextureLevel& l) {
  SamplerLevel s;
  s.texels = l.texels;
  s.width = static_cast<std::int32_t>(l.width);
  s.height = static_cast<std::int32_t>(l.height);
  s.pow2 = std::has_single_bit(l.width) && std::has_single_bit(l.height);
  s.wmask = s.width - 1;
  s.hmask = s.height - 1;
  s.log2w = std::countr_zero(l.width);
  s.fw256 = static_cast<float>(l.width) * 256.0f;
  s.fh256 = static_cast<float>(l.height) * 256.0f;
  return s;
}

// Which colour channels of a triangle draw vary (pipeline.hpp, Shade).
Shade shade_of(const DrawCall& d, const FrameGeometry& g) {
  const Material& m = d.material;
  if (d.mesh.primitive != Primitive::triangles) return Shade::rgba;
  const bool colors = !d.mesh.colors.empty();
  if (!m.lit && !colors) return Shade::flat;
  bool alpha_varies = false;
  for (const Rgba8 c : d.mesh.colors) alpha_varies = alpha_varies || c.a != 255;
  if (alpha_varies) return Shade::rgba;
  const auto grey = [](const core::Vec3& v) { return v.x == v.y && v.y == v.z; };
  bool points_grey = true;
  for (const auto& p : g.point_lights) points_grey = points_grey && grey(p.color);
  if (m.lit && !colors && grey(g.light_color) && grey(g.ambient) && points_grey && m.color.x == m.color.y &&
      m.color.y == m.color.z)
    return Shade::luma;
  return Shade::rgb;
}

// View depth of a draw's bounds centre for sorting blended draws (NDC z; larger is farther).
float sort_depth(const DrawCall& d, const core::Mat4& view_projection) {
  core::Aabb box;
  for (const auto& p : d.mesh.positions) box.expand(p);
  if (box.empty()) return 0.0f;
  const core::Vec3 c = box.center();
  const core::Vec4 clip = view_projection * (d.model * core::Vec4{c.x, c.y, c.z, 1.0f});
  if (!(clip.w > 0.0f) || !core::is_finite(clip)) return -2.0f;  // behind the eye: draw last
  const float z = clip.z / clip.w;
  return std::isfinite(z) ? z : -2.0f;
}

// ---- tile buffers <-> framebuffer (quad order <-> rows) ----
void load_tile(TileContext& t, const Framebuffer& fb, bool load_color, bool load_depth) {
  const std::size_t pitch = fb.width();
  const std::uint32_t* color = fb.color().data();
  const float* depth = fb.depth().data();
  for (std::int32_t y = t.y0; y < t.y1; ++y) {
    const std::size_t row = static_cast<std::size_t>(y) * pitch;
    for (std::int32_t x = t.x0; x < t.x1; ++x) {
      const int idx = quad_offset(x - t.tile_x, y - t.tile_y);
      if (load_color) t.color[idx] = color[row + static_cast<std::size_t>(x)];
      if (load_depth) t.depth[idx] = depth[row + static_cast<std::size_t>(x)];
    }
  }
}

void store_tile(const TileContext& t, Framebuffer& fb, bool keep_depth, bool widest) {
  const std::size_t pitch = fb.width();
  std::uint32_t* color = fb.color().data();
  float* depth = fb.depth().data();
#if SORTIE_RENDER_HAVE_AVX512
  if (widest && t.x0 == t.tile_x && t.x1 - t.x0 == kTileSize && t.y0 == t.tile_y && (t.y1 - t.y0) % 2 == 0) {
    // Whole rows of the tile, a row pair at a time in 64-byte stores.
    auto words = [](float* f) { return static_cast<std::uint32_t*>(static_cast<void*>(f)); };
    for (int ly = 0; ly < t.y1 - t.y0; ly += 2) {
      const std::size_t row0 = static_cast<std::size_t>(t.tile_y + ly) * pitch + static_cast<std::size_t>(t.tile_x);
      const int q = quad_offset(0, ly);
      avx512::store_row_pair(t.color + q, color + row0, color + row0 + pitch);
      if (keep_depth) avx512::store_row_pair(words(t.depth + q), words(depth + row0), words(depth + row0 + pitch));
    }
    return;
  }
#else
  (void)widest;
#endif
#if SORTIE_RENDER_SSE2
  // Plain stores: the frame is read right after (blit, PNG) and stays in the cache; streaming
  // stores measured slower here.
  if (t.x0 == t.tile_x && t.x1 - t.x0 == kTileSize && t.y0 == t.tile_y && (t.y1 - t.y0) % 2 == 0) {
    // Whole rows of the tile (all of it, or the top of one cut by the viewport's bottom edge):
    // row pairs of 16 quad pairs (two quads hold four columns of two rows).
    for (int ly = 0; ly < t.y1 - t.y0; ly += 2) {
      const std::size_t row0 = static_cast<std::size_t>(t.tile_y + ly) * pitch + static_cast<std::size_t>(t.tile_x);
      const int q = quad_offset(0, ly);
      const auto* src = static_cast<const __m128i*>(static_cast<const void*>(t.color + q));
      auto* dst0 = static_cast<__m128i*>(static_cast<void*>(color + row0));
      auto* dst1 = static_cast<__m128i*>(static_cast<void*>(color + row0 + pitch));
      for (int g = 0; g < kTileSize / 4; ++g) {
        const __m128i c0 = _mm_load_si128(src + 2 * g), c1 = _mm_load_si128(src + 2 * g + 1);
        _mm_storeu_si128(dst0 + g, _mm_unpacklo_epi64(c0, c1));
        _mm_storeu_si128(dst1 + g, _mm_unpackhi_epi64(c0, c1));
      }
      if (!keep_depth) continue;
      const float* dsrc = t.depth + q;
      float* drow0 = depth + row0;
      float* drow1 = drow0 + pitch;
      for (int g = 0; g < kTileSize / 4; ++g) {
        const __m128 d0 = _mm_load_ps(dsrc + 8 * g), d1 = _mm_load_ps(dsrc + 8 * g + 4);
        _mm_storeu_ps(drow0 + 4 * g, _mm_movelh_ps(d0, d1));
        _mm_storeu_ps(drow1 + 4 * g, _mm_movehl_ps(d1, d0));
      }
    }
    return;
  }
#endif
  // Partial tiles (right and bottom edges) and the scalar build: pixel by pixel.
  for (std::int32_t y = t.y0; y < t.y1; ++y) {
    const std::size_t row = static_cast<std::size_t>(y) * pitch;
    for (std::int32_t x = t.x0; x < t.x1; ++x) {
      const int idx = quad_offset(x - t.tile_x, y - t.tile_y);
      color[row + static_cast<std::size_t>(x)] = t.color[idx];
      if (keep_depth) depth[row + static_cast<std::size_t>(x)] = t.depth[idx];
    }
  }
}

// How a tile starts: cleared to the frame's colour / depth, or loaded from the framebuffer.
struct TileClear {
  bool color = false;
  bool depth = false;
  std::uint32_t word = 0;
  float z = 1.0f;
};

// Viewport (NDC mapping) and scissor (its part inside the framebuffer), guard band, tile grid
// and the directional light; false when the viewport misses the framebuffer.
core::Result<bool> frame_geometry(const Frame& frame, const Framebuffer& target, FrameGeometry& g) {
  const Viewport vp =
      frame.viewport.value_or(Viewport{0, 0, static_cast<int>(target.width()), static_cast<int>(target.height())});
  constexpr int kMax = static_cast<int>(kMaxFramebufferSize);
  if (vp.width < 0 || vp.height < 0 || vp.width > kMax || vp.height > kMax || vp.x < -kMax || vp.x > kMax ||
      vp.y < -kMax || vp.y > kMax)
    return core::fail(core::Diagnostic::error("render.viewport", "viewport out of range")
                          .in("viewport")
                          .expect(fmt::format("x, y in -{0}..{0}, width, height in 0..{0}", kMax),
                                  fmt::format("{},{} {}x{}", vp.x, vp.y, vp.width, vp.height)));
  g.viewport = vp;
  const int sx0 = std::max(vp.x, 0), sy0 = std::max(vp.y, 0);
  const int sx1 = std::min(vp.x + vp.width, static_cast<int>(target.width()));
  const int sy1 = std::min(vp.y + vp.height, static_cast<int>(target.height()));
  if (sx0 >= sx1 || sy0 >= sy1) return false;
  g.scissor = {sx0, sy0, sx1 - sx0, sy1 - sy0};
  g.guard_x = 2.0f * kGuardPixels / static_cast<float>(vp.width);
  g.guard_y = 2.0f * kGuardPixels / static_cast<float>(vp.height);
  const float cx = static_cast<float>(vp.x) + 0.5f * static_cast<float>(vp.width);
  const float cy = static_cast<float>(vp.y) + 0.5f * static_cast<float>(vp.height);
  g.clamp_x0 = cx - kGuardPixels - 1.0f;
  g.clamp_x1 = cx + kGuardPixels + 1.0f;
  g.clamp_y0 = cy - kGuardPixels - 1.0f;
  g.clamp_y1 = cy + kGuardPixels + 1.0f;
  g.tiles_x = (g.scissor.width + kTileSize - 1) / kTileSize;
  g.tiles_y = (g.scissor.height + kTileSize - 1) / kTileSize;
  g.light_dir = core::normalize_or(-frame.light.direction, {0.0f, 0.0f, 1.0f});
  g.light_color = frame.light.color;
  g.ambient = frame.light.ambient;
  return true;
}

}  // namespace

bool detail::cpu_has_avx2() {
#if SORTIE_RENDER_HAVE_AVX2
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
#else
  return false;
#endif
}

bool detail::cpu_has_avx512() {
#if SORTIE_RENDER_HAVE_AVX512
  // libgcc's and compiler-rt's checks include the operating system's saving of the zmm state.
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512dq") && cpu_has_avx2();
  return has;
#else
  return false;
#endif
}

struct Renderer::Impl {
  RendererOptions options;
  unsigned threads = 1;
  bool wide = false;    // AVX2 kernels (and AVX2 fog)
  bool widest = false;  // AVX-512 triangle kernels
  std::unique_ptr<WorkerPool> pool;
  std::vector<WorkerScratch> scratch;

  // Per-frame data; capacity is kept between frames.
  std::vector<DrawState> draws;  // drawing order
  std::vector<ClipVertex> vertices;
  std::vector<VertexKey> vertex_keys;
  struct Range {
    std::uint32_t draw;  // index into draws; kLabels for the label job
    std::size_t begin, end;
  };
  static constexpr std::uint32_t kLabels = 0xFFFFFFFFu;
  AtmosphereState atmosphere;
  std::vector<Range> vertex_jobs;
  std::vector<Range> primitive_jobs;
  std::vector<Batch> batches;
  std::vector<std::uint32_t> order;
  std::vector<float> keys;
  std::vector<PointLightState> point_lights;

  explicit Impl(RendererOptions o) : options(o) {
    threads = o.threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : o.threads;
    threads = std::min(threads, 64u);
    wide = o.isa != Isa::baseline && cpu_has_avx2();
    widest = o.isa == Isa::best && cpu_has_avx512();
    if (threads > 1) pool = std::make_unique<WorkerPool>(threads);
    scratch.resize(threads);
  }

  template <class F>
  void parallel(std::size_t jobs, F&& f) {
    if (pool) {
      pool->for_each(jobs, f);
    } else {
      for (std::size_t j = 0; j < jobs; ++j) f(j, 0u);
    }
  }

  core::Status render(const Frame& frame, Framebuffer& target, FrameStats* stats);

  // The steps of render(), in order.
  void order_draws(const Frame& frame, const core::Mat4& view_projection);
  std::size_t prepare_draws(const Frame& frame, const FrameGeometry& g, const core::Mat4& view_projection);
  void set_texture_and_kernel(DrawState& d, const DrawCall& call) const;
  void run_vertex_stage(const FrameGeometry& g);
  void run_primitive_stage(const Frame& frame, const FrameGeometry& g);
  std::size_t run_tile_stage(const Frame& frame, const FrameGeometry& g, Framebuffer& target);
  void raster_tile(std::size_t tile, unsigned worker, const TileClear& clear, const FrameGeometry& g,
                   Framebuffer& target, bool keep_depth);
  void count(const Frame& frame, std::size_t vertex_total, std::size_t tile_count, FrameStats& st) const;
  void fill_words(std::uint32_t* words, std::uint32_t word) const;
};

Renderer::Renderer(RendererOptions options) : impl_(std::make_unique<Impl>(options)) {}
Renderer::~Renderer() = default;
Renderer::Renderer(Renderer&&) noexcept = default;
Renderer& Renderer::operator=(Renderer&&) noexcept = default;

unsigned Renderer::threads() const {
  return impl_->threads;
}

std::string_view Renderer::isa() const {
  if (impl_->widest) return "avx512";
  if (impl_->wide) return "avx2";
  return SORTIE_RENDER_SSE2 ? "sse2" : "scalar";
}

core::Status Renderer::render(const Frame& frame, Framebuffer& target, FrameStats* stats) {
  return impl_->render(frame, target, stats);
}

core::Status Renderer::Impl::render(const Frame& frame, Framebuffer& target, FrameStats* stats) {
  const Clock::time_point t_start = Clock::now();
  FrameStats local;
  FrameStats& st = stats ? *stats : local;
  st = FrameStats{};
  st.threads = threads;
  SORTIE_CHECK(validate_frame(frame));
  FrameGeometry g;
  SORTIE_TRY(const bool visible, frame_geometry(frame, target, g));
  if (!visible) {
    st.total_ms = ns_since(t_start) * 1e-6;
    return {};
  }
  point_lights.clear();
  for (const PointLight& l : frame.point_lights)
    point_lights.push_back({l.position, l.color, 1.0f / (l.radius * l.radius), l.size * l.size});
  g.point_lights = point_lights;
  g.avx512 = widest;

  const core::Mat4 view_projection = frame.camera.view_projection();
  order_draws(frame, view_projection);
  const std::size_t vertex_total = prepare_draws(frame, g, view_projection);
  run_vertex_stage(g);
  run_primitive_stage(frame, g);
  const std::size_t tile_count = run_tile_stage(frame, g, target);
  count(frame, vertex_total, tile_count, st);
  st.total_ms = ns_since(t_start) * 1e-6;
  return {};
}

// Drawing order: opaque in submission order, then blended (back to front when asked).
void Renderer::Impl::order_draws(const Frame& frame, const core::Mat4& view_projection) {
  order.clear();
  for (std::uint32_t i = 0; i < frame.draws.size(); ++i)
    if (frame.draws[i].material.blend == Blend::opaque) order.push_back(i);
  const std::size_t opaque_count = order.size();
  for (std::uint32_t i = 0; i < frame.draws.size(); ++i)
    if (frame.draws[i].material.blend != Blend::opaque) order.push_back(i);
  if (options.sort_blended && order.size() - opaque_count > 1) {
    keys.assign(frame.draws.size(), 0.0f);
    for (std::size_t k = opaque_count; k < order.size(); ++k)
      keys[order[k]] = sort_depth(frame.draws[order[k]], view_projection);
    std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(opaque_count), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return keys[a] > keys[b]; });
  }
}

// Per-draw state in drawing order and the vertex and primitive job lists; returns the number
// of vertices of the frame.
std::size_t Renderer::Impl::prepare_draws(const Frame& frame, const FrameGeometry& g,
                                          const core::Mat4& view_projection) {
  draws.clear();
  vertex_jobs.clear();
  primitive_jobs.clear();
  std::size_t vertex_total = 0;
  for (std::uint32_t k = 0; k < order.size(); ++k) {
    const DrawCall& call = frame.draws[order[k]];
    DrawState& d = draws.emplace_back();
    d.call = &call;
    d.index = k;
    d.frame_index = order[k];
    d.mvp = view_projection * call.model;
    if (call.material.lit) d.normal_matrix = call.model.inverse().transposed();
    d.base_color = call.material.color;
    d.shade = shade_of(call, g);
    d.flat_color = pack(to_rgba8(call.material.color));
    d.const_alpha = to_rgba8(call.material.color).a;
    set_texture_and_kernel(d, call);
    d.vertex_offset = vertex_total;
    d.vertex_count = call.mesh.positions.size();
    d.primitive_count = call.mesh.primitive_count();
    vertex_total += d.vertex_count;
    for (std::size_t b = 0; b < d.vertex_count; b += kVertexJob)
      vertex_jobs.push_back({k, b, std::min(d.vertex_count, b + kVertexJob)});
    for (std::size_t b = 0; b < d.primitive_count; b += kPrimitiveJob)
      primitive_jobs.push_back({k, b, std::min(d.primitive_count, b + kPrimitiveJob)});
  }
  if (!frame.labels.empty()) primitive_jobs.push_back({kLabels, 0, frame.labels.size()});
  vertices.resize(vertex_total);
  vertex_keys.resize(vertex_total);
  if (batches.size() < primitive_jobs.size()) batches.resize(primitive_jobs.size());
  for (auto& sc : scratch) {
    sc.vertex_ns = sc.raster_ns = 0.0;
    sc.depth_skips = 0;
  }
  return vertex_total;
}

// A textured triangle draw's sampler levels and wrap; every draw's interpolated planes and
// triangle kernel (AVX2 when the CPU has it, else SSE2 or scalar).
void Renderer::Impl::set_texture_and_kernel(DrawState& d, const DrawCall& call) const {
  const bool triangles = call.mesh.primitive == Primitive::triangles;
  if (triangles && !call.material.texture.empty()) {
    const TextureView& tex = call.material.texture;
    d.level_count = call.material.filter == Filter::trilinear ? static_cast<std::int32_t>(tex.level_count) : 1;
    for (std::int32_t l = 0; l < d.level_count; ++l) d.levels[l] = make_level(tex.levels[static_cast<std::size_t>(l)]);
    d.tex_w = static_cast<float>(tex.levels[0].width);
    d.tex_h = static_cast<float>(tex.levels[0].height);
    bool pow2 = true;
    for (std::int32_t l = 0; l < d.level_count; ++l) pow2 = pow2 && d.levels[l].pow2;
    d.wrap =
        call.material.wrap == Wrap::clamp ? WrapKind::clamp : (pow2 ? WrapKind::repeat_pow2 : WrapKind::repeat_any);
  }
  d.planes = plane_count(d.level_count > 0, d.shade);
#if SORTIE_RENDER_HAVE_AVX512
  if (widest) {
    d.kernel = avx512::select_triangle_kernel(call.material, d.shade);
    return;
  }
#endif
#if SORTIE_RENDER_HAVE_AVX2
  d.kernel = wide ? avx2::select_triangle_kernel(call.material, d.shade)
                  : sse2::select_triangle_kernel(call.material, d.shade);
#else
  d.kernel = sse2::select_triangle_kernel(call.material, d.shade);
#endif
}

// 1. Vertices.
void Renderer::Impl::run_vertex_stage(const FrameGeometry& g) {
  parallel(vertex_jobs.size(), [&](std::size_t job, unsigned worker) {
    const Clock::time_point t0 = Clock::now();
    const Range& r = vertex_jobs[job];
    const DrawState& d = draws[r.draw];
    transform_vertices(d, g, r.begin, r.end, vertices.data() + d.vertex_offset, vertex_keys.data() + d.vertex_offset);
    scratch[worker].vertex_ns += ns_since(t0);
  });
}

// 2. Primitives: setup and binning.
void Renderer::Impl::run_primitive_stage(const Frame& frame, const FrameGeometry& g) {
  parallel(primitive_jobs.size(), [&](std::size_t job, unsigned) {
    const Range& r = primitive_jobs[job];
    Batch& b = batches[job];
    b.reset();
    const Clock::time_point t0 = Clock::now();
    if (r.draw == kLabels) {
      setup_labels(frame.labels, frame.camera, g, b);
    } else {
      const DrawState& d = draws[r.draw];
      setup_primitives(d, g, vertices.data() + d.vertex_offset, vertex_keys.data() + d.vertex_offset, r.begin, r.end,
                       b);
    }
    const Clock::time_point t1 = Clock::now();
    bin_batch(g, b);
    b.setup_ns = static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    b.bin_ns = ns_since(t1);
  });
}

// 3. Tiles; returns their number.
std::size_t Renderer::Impl::run_tile_stage(const Frame& frame, const FrameGeometry& g, Framebuffer& target) {
  const std::size_t tile_count = static_cast<std::size_t>(g.tiles_x) * static_cast<std::size_t>(g.tiles_y);
  TileClear clear;
  prepare_atmosphere(frame, g, atmosphere);
#if SORTIE_RENDER_HAVE_AVX2
  atmosphere.fog8 = wide ? &avx2::fog8 : nullptr;
#endif
  clear.color = frame.clear_color.has_value() || atmosphere.active;
  clear.depth = frame.clear_depth.has_value();
  clear.word = clear.color ? pack(*frame.clear_color) : 0;
  clear.z = clear.depth ? *frame.clear_depth : 1.0f;
  parallel(tile_count, [&](std::size_t tile, unsigned worker) {
    const Clock::time_point t0 = Clock::now();
    raster_tile(tile, worker, clear, g, target, frame.keep_depth);
    scratch[worker].raster_ns += ns_since(t0);
  });
  return tile_count;
}

// A tile buffer set to one word (64-byte stores where the CPU has them).
void Renderer::Impl::fill_words(std::uint32_t* words, std::uint32_t word) const {
#if SORTIE_RENDER_HAVE_AVX512
  if (widest) {
    avx512::fill_tile(words, word);
    return;
  }
#endif
  std::fill(words, words + kTilePixels, word);
}

// One tile: clear or load it, run every batch's items binned to it, store it.
void Renderer::Impl::raster_tile(std::size_t tile, unsigned worker, const TileClear& clear, const FrameGeometry& g,
                                 Framebuffer& target, bool keep_depth) {
  TileContext t;
  const int tx = static_cast<int>(tile % static_cast<std::size_t>(g.tiles_x));
  const int ty = static_cast<int>(tile / static_cast<std::size_t>(g.tiles_x));
  t.tile_x = g.scissor.x + tx * kTileSize;
  t.tile_y = g.scissor.y + ty * kTileSize;
  t.x0 = t.tile_x;
  t.y0 = t.tile_y;
  t.x1 = std::min(t.tile_x + kTileSize, g.scissor.x + g.scissor.width);
  t.y1 = std::min(t.tile_y + kTileSize, g.scissor.y + g.scissor.height);
  TileBuffers& buf = *scratch[worker].tile;
  t.coarse_depth = options.coarse_depth;
  t.color = buf.color;
  t.depth = buf.depth;
  t.queue = scratch[worker].queue.get();
  t.queue->draw = nullptr;  // draw states move between frames
  if (atmosphere.active) {
    clear_tile_to_sky(atmosphere, t);
  } else if (clear.color) {
    fill_words(buf.color, clear.word);
  }
  if (clear.depth) {
    fill_words(static_cast<std::uint32_t*>(static_cast<void*>(buf.depth)), std::bit_cast<std::uint32_t>(clear.z));
    t.depth_cleared(clear.z);
  } else {
    t.depth_loaded();
  }
  if (!clear.color || !clear.depth) load_tile(t, target, !clear.color, !clear.depth);
  const std::size_t batch_count = primitive_jobs.size();
  bool fogged = !atmosphere.active;
  for (std::size_t bi = 0; bi < batch_count; ++bi) {
    if (!fogged && primitive_jobs[bi].draw == kLabels) {  // labels are drawn unfogged
      t.flush_fragments();
      fog_tile(atmosphere, t, clear.depth ? clear.z : 1.0f);
      fogged = true;
    }
    const Batch& b = batches[bi];
    const std::uint32_t begin = b.offsets[tile], end = b.offsets[tile + 1];
    for (std::uint32_t k = begin; k < end; ++k) {
      const std::uint32_t code = b.items[k];
      // Records were written long before (setup of the whole frame): fetch a few ahead.
      if (k + 4 < end && (b.items[k + 4] >> 30) == static_cast<std::uint32_t>(ItemKind::triangle)) {
        const std::uint32_t* ahead = b.triangle(b.items[k + 4] & kItemIndexMask);
        __builtin_prefetch(ahead);
        __builtin_prefetch(ahead + 16);  // records span two cache lines
      }
      const std::uint32_t index = code & kItemIndexMask;
      // Lines, points and labels write colours: queued fragments go first.
      if (static_cast<ItemKind>(code >> 30) != ItemKind::triangle) t.flush_fragments();
      switch (static_cast<ItemKind>(code >> 30)) {
        case ItemKind::triangle: {
          // One draw per batch: the record's draw is the batch's.
          const std::uint32_t* rec = b.triangle(index);
          const DrawState& d = draws[primitive_jobs[bi].draw];
          d.kernel(rec, d, t);
          break;
        }
        case ItemKind::line: {
          const SetupLine& l = b.lines[index];
          raster_line(l, draws[l.draw], t);
          break;
        }
        case ItemKind::point: {
          const SetupPoint& p = b.points[index];
          raster_point(p, draws[p.draw], t);
          break;
        }
        case ItemKind::label:
          raster_label(b.labels[index], t);
          break;
      }
    }
  }
  t.flush_fragments();
  if (!fogged) fog_tile(atmosphere, t, clear.depth ? clear.z : 1.0f);
  store_tile(t, target, keep_depth, widest);
  scratch[worker].depth_skips += t.depth_skips;
}

// Counters and stage times of the frame.
void Renderer::Impl::count(const Frame& frame, std::size_t vertex_total, std::size_t tile_count, FrameStats& st) const {
  st.draws = frame.draws.size();
  st.vertices = vertex_total;
  st.tiles = tile_count;
  double vertex_ns = 0.0, setup_ns = 0.0, bin_ns = 0.0, raster_ns = 0.0;
  for (const auto& sc : scratch) {
    vertex_ns += sc.vertex_ns;
    raster_ns += sc.raster_ns;
    st.depth_skips += sc.depth_skips;
  }
  for (std::size_t j = 0; j < primitive_jobs.size(); ++j) {
    const Batch& b = batches[j];
    setup_ns += b.setup_ns;
    bin_ns += b.bin_ns;
    st.bin_entries += b.items.size();
    if (primitive_jobs[j].draw == kLabels) {
      st.labels += b.labels.size();
      continue;
    }
    const Primitive prim = draws[primitive_jobs[j].draw].call->mesh.primitive;
    if (prim == Primitive::triangles) {
      st.triangles += b.submitted;
      st.triangles_culled += b.culled;
      st.triangles_invalid += b.invalid;
      st.triangles_clipped += b.clipped;
      st.triangles_setup += b.triangle_count();
    }
    st.lines += b.lines.size();
    st.points += b.points.size();
  }
  st.transform_clip_ms = (vertex_ns + setup_ns) * 1e-6;
  st.binning_ms = bin_ns * 1e-6;
  st.raster_ms = raster_ns * 1e-6;
}

}  // namespace sortie::render
