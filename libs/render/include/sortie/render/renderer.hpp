#pragma once
// The renderer: takes one Frame (camera, light, draw calls, labels) and produces the picture
// in a Framebuffer with our own rasterizer.
//
// Pipeline (docs in libs/render/README.md):
//   1. vertices: model-view-projection, per-vertex light, clip outcodes       (parallel by range)
//   2. primitives: assembly, culling, homogeneous clipping, triangle setup in
//      fixed point (1/16 pixel), then binning into 64 x 64 pixel tiles        (parallel by range)
//   3. tiles: each tile is owned by one worker and draws its primitives in
//      submission order into a tile-local buffer, then writes it back          (parallel by tile)
// Every primitive reaches each tile in the same order whatever the thread count, and nothing
// a worker computes depends on which worker it is, so the output is bit-identical for any
// number of threads.
//
// Order of drawing: opaque draw calls (blend == opaque) in submission order, then blended draw
// calls (farthest first by the view depth of their bounds' centre when sort_blended, else in
// submission order), then labels.
#include <cstdint>
#include <memory>
#include <string_view>

#include "sortie/core/diagnostic.hpp"
#include "sortie/render/draw.hpp"
#include "sortie/render/framebuffer.hpp"

namespace sortie::render {

inline constexpr int kTileSize = 64;
// Fixed-point sub-pixel precision of vertex positions (4 bits: 1/16 pixel).
inline constexpr int kSubpixelBits = 4;

// Which raster kernels to use. Every choice draws the same pixels.
enum class Isa : std::uint8_t {
  best,      // the widest the CPU has: AVX-512 (four quads per step), AVX2, else the baseline
  baseline,  // SSE2 on x86-64 (one quad per step); a scalar emulation elsewhere
  avx2,      // AVX2 (two quads per step) when the CPU has it, else the baseline
};

struct RendererOptions {
  unsigned threads = 1;      // workers including the calling thread; 0 = hardware concurrency
  bool sort_blended = true;  // sort blended draw calls back to front
  Isa isa = Isa::best;
  // Skip a triangle in a tile when it lies behind every depth already stored where it could
  // draw (coarse bounds per 8 x 8 block). Changes no pixel; off only to compare against.
  bool coarse_depth = true;
};

// Counters of one render() call. Times are milliseconds; the three stage times are summed
// over workers (equal to wall time with one thread).
struct FrameStats {
  unsigned threads = 1;
  std::uint64_t draws = 0;
  std::uint64_t vertices = 0;           // vertices transformed
  std::uint64_t triangles = 0;          // submitted
  std::uint64_t triangles_culled = 0;   // back-facing, outside the frustum, degenerate or empty
  std::uint64_t triangles_invalid = 0;  // a vertex that is not finite after transformation
  std::uint64_t triangles_clipped = 0;  // crossing a clip plane (clipped in homogeneous space)
  std::uint64_t triangles_setup = 0;    // set up for the rasterizer (after clipping)
  std::uint64_t lines = 0;              // segments set up
  std::uint64_t points = 0;             // points set up
  std::uint64_t labels = 0;             // labels drawn (inside the viewport)
  std::uint64_t bin_entries = 0;        // (primitive, tile) pairs
  std::uint64_t depth_skips = 0;        // (triangle, tile) pairs skipped by the coarse depth test
  std::uint64_t tiles = 0;
  double transform_clip_ms = 0.0;  // vertex stage + assembly, clipping, setup
  double binning_ms = 0.0;
  double raster_ms = 0.0;
  double total_ms = 0.0;  // wall time of render()
};

class Renderer {
 public:
  explicit Renderer(RendererOptions options = {});
  ~Renderer();
  Renderer(Renderer&&) noexcept;
  Renderer& operator=(Renderer&&) noexcept;
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Draws `frame` into `target`. Every draw call is validated first (validate_mesh,
  // validate_texture; codes render.mesh.*, render.texture.*, render.material.point_size, field
  // prefixed "draws[i]."); on error nothing is drawn. Non-finite vertices, degenerate and
  // off-screen primitives are dropped and counted. A viewport of zero size, or outside the
  // framebuffer, draws nothing.
  core::Status render(const Frame& frame, Framebuffer& target, FrameStats* stats = nullptr);

  [[nodiscard]] unsigned threads() const;
  // Kernels in use: "avx2", "sse2" or "scalar".
  [[nodiscard]] std::string_view isa() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sortie::render
