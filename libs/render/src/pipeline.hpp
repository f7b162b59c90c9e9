#pragma once
// Internal data of the rendering pipeline (private to libs/render): transformed vertices,
// set-up primitives, per-draw state, tile context, and the stage entry points.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "simd.hpp"
#include "sortie/render/draw.hpp"
#include "sortie/render/renderer.hpp"

namespace sortie::render::detail {

inline constexpr int kSubpixel = 1 << kSubpixelBits;  // 16 steps per pixel
inline constexpr int kTileQuads = kTileSize / 2;      // quads per tile row
inline constexpr int kTilePixels = kTileSize * kTileSize;
// Window positions are kept within kGuardPixels of the viewport centre, and viewports within
// kMaxFramebufferSize of the origin: every fixed-point coordinate (4 sub-pixel bits) then fits in
// 20 bits, an edge function's step in 24 bits, and its values inside a 64 x 64 tile region it
// crosses in 31 bits.
inline constexpr float kGuardPixels = 8192.0f;

// Outcodes of a clip-space vertex.
enum Outcode : std::uint16_t {
  kNear = 1,          // z < -w
  kFar = 2,           // z > w
  kGuardLeft = 4,     // x < -g w
  kGuardRight = 8,    // x > g w
  kGuardBottom = 16,  // y < -g w
  kGuardTop = 32,     // y > g w
  kWPlane = 64,       // w < kMinW
  kOutLeft = 128,     // x < -w (outside the viewport; used only for trivial rejection)
  kOutRight = 256,
  kOutBottom = 512,
  kOutTop = 1024,
  kInvalid = 0x8000,  // a component is not finite
};
inline constexpr std::uint16_t kClipPlanes =
    kNear | kFar | kGuardLeft | kGuardRight | kGuardBottom | kGuardTop | kWPlane;
inline constexpr std::uint16_t kRejectPlanes = kNear | kFar | kWPlane | kOutLeft | kOutRight | kOutBottom | kOutTop;
inline constexpr float kMinW = 1e-6f;

// Layout contract of the vertex stage's transposed stores: five groups of four 32-bit values.
struct alignas(16) ClipVertex {
  float x, y, z, w;  // clip space
  float u, v;
  float r, g, b, a;  // 0..1
  // Window position, filled by the vertex stage when no clip plane is crossed (outcode has no
  // kClipPlanes bit) and by the clipper for the vertices it makes.
  std::int32_t fx, fy;  // fixed point, kSubpixelBits fraction
  // The values the triangle planes interpolate: window depth + bias, q = 1 / w, u q, v q,
  // r q 255, g q 255, b q 255, a q 255 (set with fx, fy).
  alignas(16) float attr[8];
};
static_assert(sizeof(ClipVertex) == 80 && offsetof(ClipVertex, fx) == 40 && offsetof(ClipVertex, attr) == 48,
              "ClipVertex is stored as five groups of four floats");

// What triangle setup reads of a vertex first, beside its ClipVertex: the outcode and the window
// position (ClipVertex::fx, fy: 20 bits each, kGuardPixels) packed in 64 bits, fx and fy as
// 24-bit two's complement in bits 0..23 and 24..47, the outcode in 48..63. One 64-bit gather per
// vertex then serves sixteen triangles' first decisions (avx512::setup_triangles). The position
// is meaningful only where the outcode has no kClipPlanes bit.
using VertexKey = std::uint64_t;
constexpr VertexKey vertex_key(std::int32_t fx, std::int32_t fy, std::uint16_t outcode) {
  constexpr std::uint64_t k24 = 0xFFFFFF;
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(fx)) & k24) |
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(fy)) & k24) << 24 |
         static_cast<std::uint64_t>(outcode) << 48;
}
constexpr std::uint16_t outcode_of(VertexKey k) {
  return static_cast<std::uint16_t>(k >> 48);
}

struct SamplerLevel {
  const std::uint32_t* texels = nullptr;
  std::int32_t width = 1;
  std::int32_t height = 1;
  std::int32_t wmask = 0;  // width - 1 when a power of two
  std::int32_t hmask = 0;
  std::int32_t log2w = 0;  // when width is a power of two
  bool pow2 = true;        // both sides powers of two
  float fw256 = 256.0f;    // width * 256
  float fh256 = 256.0f;
};

// How a draw's triangle colours vary: picks the planes set up and the kernel's colour path.
enum class Shade : std::uint8_t {
  flat,  // one colour (no light, no vertex colours): DrawState::flat_color
  luma,  // r = g = b varies (grey light, no vertex colours, grey material), alpha constant
  rgb,   // r, g, b vary, alpha constant
  rgba,  // all four vary
};
// How texture coordinates wrap, for the sampler's address arithmetic.
enum class WrapKind : std::uint8_t { repeat_pow2, clamp, repeat_any };

struct DrawState;
struct TileContext;
// Draws one triangle record (see TriangleHeader) into one tile.
using TriangleKernel = void (*)(const std::uint32_t* record, const DrawState&, TileContext&);

struct DrawState {
  const DrawCall* call = nullptr;
  std::uint32_t index = 0;        // position in the drawing order
  std::uint32_t frame_index = 0;  // position in Frame::draws
  core::Mat4 mvp;
  core::Mat4 normal_matrix;  // model inverse transpose
  core::Vec4 base_color;     // material colour
  Shade shade = Shade::flat;
  std::uint32_t flat_color = 0;    // packed material colour (Shade::flat)
  std::int32_t const_alpha = 255;  // alpha of Shade::luma and Shade::rgb
  WrapKind wrap = WrapKind::repeat_pow2;
  std::int32_t planes = 2;  // plane_count of its triangle records
  TriangleKernel kernel = nullptr;
  SamplerLevel levels[kMaxTextureLevels];
  std::int32_t level_count = 0;
  float tex_w = 1.0f, tex_h = 1.0f;  // level 0 size (LOD scale)
  std::size_t vertex_offset = 0;     // into the frame's vertex arena
  std::size_t vertex_count = 0;
  std::size_t primitive_count = 0;
};

// A set-up triangle is a record of 32-bit words in its batch: a TriangleHeader, then
// plane_count(...) planes of three floats (value at vertex 0's window position, d/dx, d/dy),
// in the order z (window depth + bias), q (1 / w), u / w and v / w when textured, then the
// colour channels * 255 / w the draw's Shade varies (r; r g b; or r g b a). Records are read and
// written with memcpy (the words are only storage).
struct TriangleHeader {
  std::int32_t fx[3];  // window positions, fixed point (kSubpixelBits), wound so the area is positive
  std::int32_t fy[3];
  std::int16_t x0, y0, x1, y1;  // pixel bounds [x0, x1) x [y0, y1), inside the scissor
  // When the bounds hold at most four pixel centres: bit c set for the centre of pixel
  // (x0 + c % 4, y0 + c / 4) when it is inside the triangle (rows of four bits, whatever the
  // bounds' width); else 0.
  std::uint32_t tiny;
};
static_assert(sizeof(TriangleHeader) == 36, "triangle records are packed 32-bit words");
inline constexpr int kHeaderWords = static_cast<int>(sizeof(TriangleHeader) / 4);
inline constexpr int kMaxPlanes = 8;

constexpr int colour_planes(Shade shade) {
  return shade == Shade::flat ? 0 : shade == Shade::luma ? 1 : shade == Shade::rgb ? 3 : 4;
}
constexpr int plane_count(bool textured, Shade shade) {
  return 2 + (textured ? 2 : 0) + colour_planes(shade);
}

// Edge k from vertex k to vertex k + 1: E(px, py) = ec[k] + ea[k] px + eb[k] py at the centre
// of pixel (px, py), exact integers; a pixel is inside when every E >= 0. Top-left rule: a
// centre exactly on an edge belongs to the triangle only for a top edge (horizontal, interior
// below) or a left edge (going up the screen), so the bias -1 is folded into ec otherwise.
struct TriangleEdges {
  std::int64_t ec[3];
  std::int32_t ea[3];
  std::int32_t eb[3];
};
inline TriangleEdges edges_of(const TriangleHeader& h) {
  constexpr int kSub = 1 << kSubpixelBits;
  TriangleEdges e;
  for (int k = 0; k < 3; ++k) {
    const int n = k == 2 ? 0 : k + 1;
    const std::int32_t dx = h.fx[n] - h.fx[k];
    const std::int32_t dy = h.fy[n] - h.fy[k];
    e.ea[k] = -dy * kSub;
    e.eb[k] = dx * kSub;
    const std::int64_t c =
        static_cast<std::int64_t>(dx) * (kSub / 2 - h.fy[k]) - static_cast<std::int64_t>(dy) * (kSub / 2 - h.fx[k]);
    const bool top_left = dy < 0 || (dy == 0 && dx > 0);
    e.ec[k] = top_left ? c : c - 1;
  }
  return e;
}

// The same edges in 32 bits for a triangle at most a tile wide and high (small_edges_fit), as
// values at the centre of pixel (x, y) from each edge's own first vertex: e[k] + ka[k] i + kb[k] j
// is edges_of's value at pixel (x + i, y + j), exactly, for pixels within a tile of the triangle
// (all below 2^23 in magnitude).
struct SmallEdges {
  std::int32_t e[3];
  std::int32_t ka[3];
  std::int32_t kb[3];
};
inline bool small_edges_fit(const TriangleHeader& h) {
  constexpr std::int32_t kMax = kTileSize << kSubpixelBits;
  return std::max({h.fx[0], h.fx[1], h.fx[2]}) - std::min({h.fx[0], h.fx[1], h.fx[2]}) <= kMax &&
         std::max({h.fy[0], h.fy[1], h.fy[2]}) - std::min({h.fy[0], h.fy[1], h.fy[2]}) <= kMax;
}
inline SmallEdges small_edges_at(const TriangleHeader& h, std::int32_t x, std::int32_t y) {
  constexpr std::int32_t kSub = 1 << kSubpixelBits;
  const std::int32_t px = x * kSub + kSub / 2, py = y * kSub + kSub / 2;
  SmallEdges s;
  for (int k = 0; k < 3; ++k) {
    const int n = k == 2 ? 0 : k + 1;
    const std::int32_t dx = h.fx[n] - h.fx[k], dy = h.fy[n] - h.fy[k];
    const bool top_left = dy < 0 || (dy == 0 && dx > 0);
    s.e[k] = dx * (py - h.fy[k]) - dy * (px - h.fx[k]) - (top_left ? 0 : 1);
    s.ka[k] = -dy * kSub;
    s.kb[k] = dx * kSub;
  }
  return s;
}

struct SetupLine {
  float x0, y0, z0, x1, y1, z1;  // window coordinates, endpoint 0 has the smaller major coordinate
  float c0[4], c1[4];            // colour * 255 at the endpoints
  bool x_major;
  std::int32_t bx0, by0, bx1, by1;  // pixel bounds
  std::uint32_t draw;
};

struct SetupPoint {
  float z;
  std::uint32_t color;
  std::int32_t x0, y0, x1, y1;  // pixel square
  std::uint32_t draw;
};

struct SetupLabel {
  std::string_view text;
  std::int32_t x, y;            // top-left of the first cell
  std::int32_t x0, y0, x1, y1;  // pixel bounds (text and shadow)
  float depth;
  bool depth_test;
  std::uint32_t color;
  std::uint32_t shadow;
  bool has_shadow;
  std::int32_t scale;
};

// Item codes in the tile bins: kind in the top 2 bits, index below.
enum class ItemKind : std::uint32_t { triangle = 0, line = 1, point = 2, label = 3 };
inline constexpr std::uint32_t kItemIndexMask = 0x3FFFFFFFu;
inline constexpr std::uint32_t item_code(ItemKind kind, std::uint32_t index) {
  return (static_cast<std::uint32_t>(kind) << 30) | index;
}

// An allocator whose resize() leaves new elements uninitialised (no zero fill): for buffers
// that are always written before they are read.
template <class T>
struct UninitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() = default;
  template <class U>
  explicit UninitAllocator(const UninitAllocator<U>& /*other*/) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// Output of one primitive job: set-up primitives and their tile bins.
struct Batch {
  // Triangle records; only the first tri_used words are live. Growing it does not zero-fill:
  // every record is written whole before it is used.
  std::vector<std::uint32_t, UninitAllocator<std::uint32_t>> tri_words;
  std::size_t tri_used = 0;
  std::uint32_t tri_stride = 0;  // words per record (one draw per batch)
  std::vector<SetupLine> lines;
  std::vector<SetupPoint> points;
  std::vector<SetupLabel> labels;
  std::vector<std::uint64_t> pairs;    // (tile << 32) | item, before sorting (triangles' at setup)
  std::vector<std::uint32_t> offsets;  // tile_count + 1
  std::vector<std::uint32_t> items;    // item codes grouped by tile, in submission order
  std::vector<std::uint32_t> cursor;   // scratch of the counting sort
  // Counters.
  std::uint64_t submitted = 0, culled = 0, invalid = 0, clipped = 0;
  double setup_ns = 0.0, bin_ns = 0.0;
  [[nodiscard]] std::size_t triangle_count() const { return tri_stride ? tri_used / tri_stride : 0; }
  [[nodiscard]] const std::uint32_t* triangle(std::size_t i) const { return tri_words.data() + i * tri_stride; }
  void reset() {
    tri_used = 0;
    tri_stride = 0;
    lines.clear();
    points.clear();
    labels.clear();
    pairs.clear();
    items.clear();
    submitted = culled = invalid = clipped = 0;
    setup_ns = bin_ns = 0.0;
  }
};

// A point light prepared for the vertex stage (draw.hpp, PointLight).
struct PointLightState {
  core::Vec3 position;
  core::Vec3 color;
  float inv_radius2 = 0.0f;  // 1 / radius^2
  float size2 = 0.0f;        // size^2
};

struct FrameGeometry {
  Viewport viewport;     // NDC -> window mapping (as requested)
  Viewport scissor;      // viewport ∩ framebuffer, non-empty: every pixel drawn is inside it
  float guard_x = 2.0f;  // guard-band factor in clip space: |x| <= guard_x * w
  float guard_y = 2.0f;
  float clamp_x0 = 0.0f, clamp_x1 = 0.0f;  // window positions are clamped to the guard band
  float clamp_y0 = 0.0f, clamp_y1 = 0.0f;
  int tiles_x = 0, tiles_y = 0;
  core::Vec3 light_dir;  // towards the light, unit
  core::Vec3 light_color;
  core::Vec3 ambient;
  std::span<const PointLightState> point_lights;
  bool avx512 = false;  // vertices and triangle setup run in AVX-512 lanes (the renderer's widest kernels)
};

// A tile being drawn: absolute pixel origin, the clip rectangle (tile ∩ viewport) and the
// tile-local buffers in 2 x 2 quad order (see quad_offset).
//
// Coarse depth: the tile is cut into 8 x 8 blocks of 8 x 8 pixels, each with an upper bound of
// the depths stored in it (block_zmax). A block whose bit is set in zdirty has been written since
// its bound was taken and is measured again when next asked (exactly: the bound is the maximum,
// whatever the writes did). A depth-tested triangle whose nearest point over the part of the tile
// it can touch is not nearer than every bound there draws nothing, and is skipped whole.
inline constexpr int kZBlock = 8;
inline constexpr int kZBlocksPerRow = kTileSize / kZBlock;
static_assert(kZBlocksPerRow * kZBlocksPerRow == 64, "one dirty bit per block in a 64-bit word");

// Fragments of opaque textured triangles waiting for their colour (the AVX-512 kernels): depth
// tested, depths already written, texture coordinates, LOD and vertex colour computed, pixel
// positions known. A step of a small triangle covers two or three of its sixteen lanes; queued,
// the texture fetches and colour stores run sixteen fragments to a vector, and in long runs
// (a tile's worth) apart from the edge and depth work. Fragments are shaded and stored in the
// order they were queued (a later one over the same pixel wins, as drawn directly), all of one
// draw; the queue is emptied before anything else reads or writes the tile's colours
// (TileContext::flush_fragments), and always by the tile's end.
inline constexpr int kQueueCapacity = 1024;  // + one vector of slack for a whole-vector append
struct FragmentQueue {
  alignas(64) float u[kQueueCapacity + 16] = {};
  alignas(64) float v[kQueueCapacity + 16] = {};
  alignas(64) std::int32_t lod[kQueueCapacity + 16] = {};     // 8.8 fixed point, trilinear only
  alignas(64) std::uint32_t color[kQueueCapacity + 16] = {};  // packed vertex colour (RGBA8)
  alignas(64) std::int32_t offset[kQueueCapacity + 16] = {};  // quad_offset of the pixel
  int count = 0;
  const DrawState* draw = nullptr;
  void (*shade)(TileContext&) = nullptr;  // the kernel that queued them: shades and empties
};

struct TileContext {
  std::int32_t tile_x = 0, tile_y = 0;
  std::int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::uint32_t* color = nullptr;  // kTilePixels, 16-byte aligned
  float* depth = nullptr;
  float block_zmax[kZBlocksPerRow * kZBlocksPerRow];  // set by depth_cleared or depth_loaded
  std::uint64_t zdirty = ~std::uint64_t{0};
  bool coarse_depth = true;        // RendererOptions::coarse_depth
  std::uint64_t depth_skips = 0;   // FrameStats::depth_skips
  FragmentQueue* queue = nullptr;  // the worker's, empty when the tile starts

  // Shades and stores the queued fragments (see FragmentQueue).
  void flush_fragments() {
    if (queue->count != 0) queue->shade(*this);
  }

  // The whole depth buffer holds `z` (a cleared tile).
  void depth_cleared(float z) {
    for (float& b : block_zmax) b = z;
    zdirty = 0;
  }
  // The depth buffer holds what was loaded: no bound is known until measured.
  void depth_loaded() {
    for (float& b : block_zmax) b = std::numeric_limits<float>::infinity();
    zdirty = ~std::uint64_t{0};
  }
  // Pixels of the 8 x 8 block holding tile-local (lx, ly) may have new depths.
  void mark_depth(int lx, int ly) { zdirty |= std::uint64_t{1} << ((ly / kZBlock) * kZBlocksPerRow + lx / kZBlock); }

  // The bound of block (bx, by), measured again if it was written since.
  float block_bound(int bx, int by) {
    const int b = by * kZBlocksPerRow + bx;
    if ((zdirty >> b & 1u) != 0) {
      // Rows 8 by .. 8 by + 7 are quad rows 4 by .. 4 by + 3; the block's columns are 16 floats there.
      // Four running maxima (max(a, b) is a > b ? a : b per lane, so NaNs are passed over).
      const float* first = depth + (by * (kZBlock / 2) * kTileQuads + bx * (kZBlock / 2)) * 4;
      simd::F4 m4 = simd::load(first);
      for (int qr = 0; qr < kZBlock / 2; ++qr) {
        const float* row = depth + ((by * (kZBlock / 2) + qr) * kTileQuads + bx * (kZBlock / 2)) * 4;
        for (int k = 0; k < 2 * kZBlock; k += 4) m4 = simd::max(simd::load(row + k), m4);
      }
      alignas(16) float m[4];
      simd::store(m, m4);
      const float m01 = m[0] > m[1] ? m[0] : m[1], m23 = m[2] > m[3] ? m[2] : m[3];
      const float mx = m01 > m23 ? m01 : m23;
      block_zmax[b] = mx;
      zdirty &= ~(std::uint64_t{1} << b);
    }
    return block_zmax[b];
  }

  // The depth plane z = p0 + dzdx (x + 1/2 - ref_x) + dzdy (y + 1/2 - ref_y) (window pixels
  // x = tile_x + lx) at its lowest over the tile-local region [lx0, lx1) x [ly0, ly1) (a corner),
  // less a margin that covers the kernels' float rounding; NaN when the plane is not finite.
  [[nodiscard]] double plane_min(const float* zplane, float ref_x, float ref_y, int lx0, int lx1, int ly0,
                                 int ly1) const {
    const auto wide = [](float v) { return static_cast<double>(v); };
    const double p0 = wide(zplane[0]), dzdx = wide(zplane[1]), dzdy = wide(zplane[2]);
    const double rx = wide(ref_x), ry = wide(ref_y);
    const double xa = tile_x + lx0 + 0.5 - rx, xb = tile_x + lx1 - 0.5 - rx;
    const double ya = tile_y + ly0 + 0.5 - ry, yb = tile_y + ly1 - 0.5 - ry;
    const double zx = dzdx < 0.0 ? dzdx * xb : dzdx * xa, zy = dzdy < 0.0 ? dzdy * yb : dzdy * ya;
    const double reach =
        std::abs(dzdx) * std::max(std::abs(xa), std::abs(xb)) + std::abs(dzdy) * std::max(std::abs(ya), std::abs(yb));
    return p0 + zx + zy - (std::abs(p0) + reach) * 0x1p-20;
  }
  // No depth of block (bx, by) is above `zmin` (a NaN never hides): a depth-tested fragment at
  // zmin or farther fails everywhere there. A stale bound is still an upper bound (depth-tested
  // writes only lower depths; others make it unbounded), so it is measured again only when it
  // does not already decide.
  bool block_hides(int bx, int by, double zmin) {
    if (!coarse_depth) return false;
    const int b = by * kZBlocksPerRow + bx;
    if (zmin >= static_cast<double>(block_zmax[b])) return true;
    if ((zdirty >> b & 1u) == 0) return false;
    return zmin >= static_cast<double>(block_bound(bx, by));
  }
  // True when a depth-tested triangle drawn over the region would change no pixel.
  bool depth_hides(const float* zplane, float ref_x, float ref_y, int lx0, int lx1, int ly0, int ly1) {
    const double zmin = plane_min(zplane, ref_x, ref_y, lx0, lx1, ly0, ly1);
    for (int by = ly0 / kZBlock; by <= (ly1 - 1) / kZBlock; ++by)
      for (int bx = lx0 / kZBlock; bx <= (lx1 - 1) / kZBlock; ++bx)
        if (!block_hides(bx, by, zmin)) return false;
    return true;
  }
  // Depths of the region may rise (written without the depth test): its blocks have no bound.
  void depth_unbounded(int lx0, int lx1, int ly0, int ly1) {
    for (int by = ly0 / kZBlock; by <= (ly1 - 1) / kZBlock; ++by)
      for (int bx = lx0 / kZBlock; bx <= (lx1 - 1) / kZBlock; ++bx) {
        block_zmax[by * kZBlocksPerRow + bx] = std::numeric_limits<float>::infinity();
        zdirty |= std::uint64_t{1} << (by * kZBlocksPerRow + bx);
      }
  }
};

// Index of tile-local pixel (x, y) in the quad-ordered tile buffers.
inline constexpr int quad_offset(int x, int y) {
  return (((y >> 1) * kTileQuads + (x >> 1)) << 2) | ((y & 1) << 1) | (x & 1);
}

// One trilinear LOD for a 2 x 2 quad from its lanes' texture coordinates (lane 0 at (x, y),
// 1 at (x + 1, y), 2 at (x, y + 1)) by finite differences, in texels of a tex_w x tex_h level 0:
// log2 of the longer footprint axis, 8.8 fixed point, from the float's exponent and top
// mantissa bits (a piecewise-linear log2: monotonic, error < 0.09 level).
inline std::int32_t quad_lod_scalar(const float* u, const float* v, float tex_w, float tex_h) {
  const float dudx = (u[1] - u[0]) * tex_w, dvdx = (v[1] - v[0]) * tex_h;
  const float dudy = (u[2] - u[0]) * tex_w, dvdy = (v[2] - v[0]) * tex_h;
  const float rx = dudx * dudx + dvdx * dvdx, ry = dudy * dudy + dvdy * dvdy;
  const float rho2 = rx > ry ? rx : ry;
  std::uint32_t b;
  std::memcpy(&b, &rho2, 4);
  return static_cast<std::int32_t>(b - (127u << 23)) >> 16;
}

// ---- stages ----
// Vertex stage: vertices [begin, end) of a draw into `out` and `keys` (the draw's slices of the
// arenas, indexed by the mesh's vertex index).
void transform_vertices(const DrawState& d, const FrameGeometry& g, std::size_t begin, std::size_t end, ClipVertex* out,
                        VertexKey* keys);
// Primitive stage: primitives [begin, end) of a draw, set up and appended to `batch`.
void setup_primitives(const DrawState& d, const FrameGeometry& g, const ClipVertex* verts, const VertexKey* keys,
                      std::size_t begin, std::size_t end, Batch& batch);
void setup_labels(std::span<const Label> labels, const Camera& camera, const FrameGeometry& g, Batch& batch);
// Tiny triangles at most kTinyExtent sub-pixels wide and high have their centres tested in 32-bit
// arithmetic (wider ones in 64 bits, on the portable path).
inline constexpr std::int32_t kTinyExtent = 1024;
// Pieces of triangle setup shared by the portable loop (geometry.cpp) and the AVX-512 front end
// (geometry_avx512.cpp, sixteen triangles at a time). What decides a triangle before its record:
// pixel bounds inside the scissor, twice its area in sub-pixels squared (positive: the vertices
// are wound so) and the tiny mask (TriangleHeader::tiny).
struct TriangleFront {
  std::int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::uint32_t tiny = 0;
  std::int64_t area = 0;
};
// Appends the record (header, planes) of a triangle the front end kept and pairs it with its tiles.
void append_triangle(const ClipVertex* p0, const ClipVertex* p1, const ClipVertex* p2, const TriangleFront& f,
                     const DrawState& d, const FrameGeometry& g, Batch& batch);
// One triangle of a draw by its vertex indices, whole: outcodes, clipping, setup, the counters
// (all but `submitted`).
void setup_triangle_at(const DrawState& d, const FrameGeometry& g, const ClipVertex* verts, const VertexKey* keys,
                       std::uint32_t i0, std::uint32_t i1, std::uint32_t i2, Batch& batch);
// Sorts the batch's primitives into tile bins (its triangles were paired with their tiles as
// they were set up).
void bin_batch(const FrameGeometry& g, Batch& batch);

// Raster stage. Kernels per instruction set (raster_sse2.cpp, raster_avx2.cpp, raster_avx512.cpp);
// the AVX2 ones exist when SORTIE_RENDER_HAVE_AVX2 and may only run where cpu_has_avx2(), the
// AVX-512 ones when SORTIE_RENDER_HAVE_AVX512 and only where cpu_has_avx512().
namespace sse2 {
TriangleKernel select_triangle_kernel(const Material& m, Shade shade);
}
namespace avx2 {
TriangleKernel select_triangle_kernel(const Material& m, Shade shade);
}
namespace avx512 {
TriangleKernel select_triangle_kernel(const Material& m, Shade shade);
// A tile buffer (kTilePixels 32-bit words, 64-byte aligned) set to one word.
void fill_tile(std::uint32_t* words, std::uint32_t word);
// One row pair of a full-width tile buffer in quad order (quad_offset(0, 2 k)) to two rows of
// kTileSize words.
void store_row_pair(const std::uint32_t* quads, std::uint32_t* row0, std::uint32_t* row1);
// Triangles [begin, end) of a draw (setup_primitives' work for triangles, the same records,
// pairs and counters), sixteen at a time, for draws of at most kMaxSetupVertices vertices (the
// gathers address vertices with 32-bit lanes).
inline constexpr std::size_t kMaxSetupVertices = 0x7FFFFFFF;
void setup_triangles(const DrawState& d, const FrameGeometry& g, const ClipVertex* verts, const VertexKey* keys,
                     std::size_t begin, std::size_t end, Batch& batch);
// transform_vertices sixteen vertices at a time (the same records and keys).
void transform_vertices(const DrawState& d, const FrameGeometry& g, std::size_t begin, std::size_t end, ClipVertex* out,
                        VertexKey* keys);
}  // namespace avx512
bool cpu_has_avx2();
bool cpu_has_avx512();
void raster_line(const SetupLine& l, const DrawState& d, TileContext& t);
void raster_point(const SetupPoint& p, const DrawState& d, TileContext& t);
void raster_label(const SetupLabel& l, TileContext& t);

}  // namespace sortie::render::detail
