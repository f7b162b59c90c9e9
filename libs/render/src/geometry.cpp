// Vertex and primitive stages: transformation, per-vertex light, outcodes, homogeneous
// clipping, triangle/line/point/label setup, and binning into tiles.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <utility>

#include "pipeline.hpp"
#include "simd.hpp"
#include "sortie/render/font.hpp"

namespace sortie::render::detail {
namespace {

// floor() for |x| < 2^31 without a libm call (SSE2 has no rounding instruction).
std::int32_t floor_i(float x) {
  const auto i = static_cast<std::int32_t>(x);
  return i - (x < static_cast<float>(i) ? 1 : 0);
}

// Window position of a clip-space vertex (w > 0 is guaranteed by the clip planes).
void to_window(ClipVertex& v, const FrameGeometry& g, float depth_bias) {
  const float inv_w = 1.0f / v.w;
  const auto& vp = g.viewport;
  float sx = static_cast<float>(vp.x) + (v.x * inv_w + 1.0f) * 0.5f * static_cast<float>(vp.width);
  float sy = static_cast<float>(vp.y) + (1.0f - v.y * inv_w) * 0.5f * static_cast<float>(vp.height);
  // The guard band keeps positions in range; clamp what rounding may push past it (NaN cannot
  // reach here: outcodes reject non-finite vertices and w >= kMinW).
  sx = std::clamp(sx, g.clamp_x0, g.clamp_x1);
  sy = std::clamp(sy, g.clamp_y0, g.clamp_y1);
  v.fx = floor_i(sx * static_cast<float>(kSubpixel) + 0.5f);
  v.fy = floor_i(sy * static_cast<float>(kSubpixel) + 0.5f);
  v.attr[0] = (v.z * inv_w + 1.0f) * 0.5f + depth_bias;
  v.attr[1] = inv_w;
  v.attr[2] = v.u * inv_w;
  v.attr[3] = v.v * inv_w;
  const float k = 255.0f * inv_w;
  v.attr[4] = v.r * k;
  v.attr[5] = v.g * k;
  v.attr[6] = v.b * k;
  v.attr[7] = v.a * k;
}

// Signed distance of a vertex to clip plane `plane` (one bit of kClipPlanes); >= 0 inside.
// Double precision: vertices far outside the guard band (up to the float range) still give
// usable intersection parameters.
double plane_distance(const ClipVertex& v, std::uint16_t plane, const FrameGeometry& g) {
  const auto x = static_cast<double>(v.x), y = static_cast<double>(v.y), z = static_cast<double>(v.z),
             w = static_cast<double>(v.w);
  const auto gx = static_cast<double>(g.guard_x), gy = static_cast<double>(g.guard_y),
             min_w = static_cast<double>(kMinW);
  switch (plane) {
    case kNear:
      return z + w;
    case kFar:
      return w - z;
    case kGuardLeft:
      return x + gx * w;
    case kGuardRight:
      return gx * w - x;
    case kGuardBottom:
      return y + gy * w;
    case kGuardTop:
      return gy * w - y;
    case kWPlane:
      return w - min_w;
    default:
      return 0.0;
  }
}

float lerp1(float a, float b, double t) {
  return static_cast<float>(static_cast<double>(a) + (static_cast<double>(b) - static_cast<double>(a)) * t);
}

ClipVertex lerp_vertex(const ClipVertex& a, const ClipVertex& b, double t) {
  ClipVertex r{};
  r.x = lerp1(a.x, b.x, t);
  r.y = lerp1(a.y, b.y, t);
  r.z = lerp1(a.z, b.z, t);
  r.w = lerp1(a.w, b.w, t);
  r.u = lerp1(a.u, b.u, t);
  r.v = lerp1(a.v, b.v, t);
  r.r = lerp1(a.r, b.r, t);
  r.g = lerp1(a.g, b.g, t);
  r.b = lerp1(a.b, b.b, t);
  r.a = lerp1(a.a, b.a, t);
  return r;
}

// Puts a vertex made on `plane` exactly on it: with huge coordinates the interpolated value
// of the clipped coordinate itself is only known to a few units of its magnitude.
void snap_to_plane(ClipVertex& v, std::uint16_t plane, float guard_x, float guard_y) {
  switch (plane) {
    case kNear:
      v.z = -v.w;
      break;
    case kFar:
      v.z = v.w;
      break;
    case kGuardLeft:
      v.x = -guard_x * v.w;
      break;
    case kGuardRight:
      v.x = guard_x * v.w;
      break;
    case kGuardBottom:
      v.y = -guard_y * v.w;
      break;
    case kGuardTop:
      v.y = guard_y * v.w;
      break;
    case kWPlane:
      v.w = std::max(v.w, kMinW);
      break;
    default:
      break;
  }
}

constexpr int kMaxClipVertices = 3 + 7 + 2;

// Sutherland-Hodgman against the planes in `planes`. An edge crossing a plane is always cut
// from its inside vertex toward its outside vertex, so the two triangles sharing that edge get
// the same new vertex (no crack). Returns the vertex count (0 when nothing is left).
int clip_polygon(ClipVertex* poly, int n, std::uint16_t planes, const FrameGeometry& g) {
  ClipVertex tmp[kMaxClipVertices];
  ClipVertex* in = poly;
  ClipVertex* out = tmp;
  for (std::uint16_t plane = 1; plane <= kWPlane; plane = static_cast<std::uint16_t>(plane << 1)) {
    if (!(planes & plane)) continue;
    int m = 0;
    for (int i = 0; i < n; ++i) {
      const ClipVertex& a = in[i];
      const ClipVertex& b = in[(i + 1) % n];
      const double da = plane_distance(a, plane, g);
      const double db = plane_distance(b, plane, g);
      const bool ina = da >= 0.0;
      const bool inb = db >= 0.0;
      if (ina) out[m++] = a;
      if (ina != inb && m < kMaxClipVertices) {
        ClipVertex& c = out[m++];
        c = ina ? lerp_vertex(a, b, da / (da - db)) : lerp_vertex(b, a, db / (db - da));
        snap_to_plane(c, plane, g.guard_x, g.guard_y);
      }
    }
    n = m;
    std::swap(in, out);
    if (n < 3) return 0;
  }
  if (in != poly)
    for (int i = 0; i < n; ++i) poly[i] = in[i];
  return n;
}

struct Plane3 {
  float v[3];
};

// The (tile, item) pairs of a set-up triangle, the `index`-th record of its batch: its one tile,
// or each of the tiles its bounds cross that some pixel of the triangle may lie in (no edge's
// largest value over the tile's part of the bounds is negative).
void bin_triangle(const TriangleHeader& t, std::size_t index, const FrameGeometry& g, Batch& batch) {
  const auto& vp = g.scissor;
  const auto code = item_code(ItemKind::triangle, static_cast<std::uint32_t>(index));
  const int tx0 = (t.x0 - vp.x) / kTileSize, tx1 = (t.x1 - 1 - vp.x) / kTileSize;
  const int ty0 = (t.y0 - vp.y) / kTileSize, ty1 = (t.y1 - 1 - vp.y) / kTileSize;
  if (tx0 == tx1 && ty0 == ty1) {
    batch.pairs.push_back((static_cast<std::uint64_t>(ty0 * g.tiles_x + tx0) << 32) | code);
    return;
  }
  const TriangleEdges e = edges_of(t);
  for (int ty = ty0; ty <= ty1; ++ty) {
    const std::int64_t py0 = std::max<std::int64_t>(t.y0, vp.y + ty * kTileSize);
    const std::int64_t py1 = std::min<std::int64_t>(t.y1, vp.y + (ty + 1) * kTileSize) - 1;
    for (int tx = tx0; tx <= tx1; ++tx) {
      const std::int64_t px0 = std::max<std::int64_t>(t.x0, vp.x + tx * kTileSize);
      const std::int64_t px1 = std::min<std::int64_t>(t.x1, vp.x + (tx + 1) * kTileSize) - 1;
      bool touches = true;
      for (int k = 0; k < 3 && touches; ++k) {
        const std::int64_t ex = e.ea[k] > 0 ? e.ea[k] * px1 : e.ea[k] * px0;
        const std::int64_t ey = e.eb[k] > 0 ? e.eb[k] * py1 : e.eb[k] * py0;
        touches = e.ec[k] + ex + ey >= 0;
      }
      if (touches) batch.pairs.push_back((static_cast<std::uint64_t>(ty * g.tiles_x + tx) << 32) | code);
    }
  }
}

}  // namespace

void append_triangle(const ClipVertex* p0, const ClipVertex* p1, const ClipVertex* p2, const TriangleFront& f,
                     const DrawState& d, const FrameGeometry& g, Batch& batch) {
  TriangleHeader h;
  h.fx[0] = p0->fx, h.fx[1] = p1->fx, h.fx[2] = p2->fx;
  h.fy[0] = p0->fy, h.fy[1] = p1->fy, h.fy[2] = p2->fy;
  h.x0 = static_cast<std::int16_t>(f.x0);
  h.x1 = static_cast<std::int16_t>(f.x1);
  h.y0 = static_cast<std::int16_t>(f.y0);
  h.y1 = static_cast<std::int16_t>(f.y1);
  h.tiny = f.tiny;

  // Planes, four attributes at a time: f = f0 + dfdx (x - x0) + dfdy (y - y0) through the
  // three vertices (area in pixels^2 = fixed-point area / 256), written straight into the
  // record as (value, d/dx, d/dy) triples: z q u v, then the colour channels. A group is
  // always stored whole; what runs past the draw's planes lands in the next record's space
  // (or the slack) and is overwritten.
  using namespace simd;
  constexpr float inv_sub = 1.0f / static_cast<float>(kSubpixel);
  const F4 dx1 = f4(static_cast<float>(p1->fx - p0->fx) * inv_sub);
  const F4 dy1 = f4(static_cast<float>(p1->fy - p0->fy) * inv_sub);
  const F4 dx2 = f4(static_cast<float>(p2->fx - p0->fx) * inv_sub);
  const F4 dy2 = f4(static_cast<float>(p2->fy - p0->fy) * inv_sub);
  const F4 inv_det = f4(static_cast<float>(kSubpixel * kSubpixel) / static_cast<float>(f.area));
  const std::size_t stride = batch.tri_stride;
  constexpr std::size_t kSlack = kMaxPlanes * 3;
  if (batch.tri_words.size() < batch.tri_used + stride + kSlack)
    batch.tri_words.resize(std::max(batch.tri_words.size() * 2, batch.tri_used + stride * 256 + kSlack));
  std::uint32_t* rec = batch.tri_words.data() + batch.tri_used;
  bin_triangle(h, batch.tri_used / stride, g, batch);
  batch.tri_used += stride;
  std::memcpy(rec, &h, sizeof h);
  std::uint32_t* planes = rec + kHeaderWords;
  auto group = [&](const float* a0, const float* a1, const float* a2, std::uint32_t* out) {
    const F4 f0 = load(a0), f1 = load(a1), f2 = load(a2);
    const F4 d1 = f1 - f0, d2 = f2 - f0;
    store_interleaved3(out, f0, (d1 * dy2 - d2 * dy1) * inv_det, (d2 * dx1 - d1 * dx2) * inv_det);
  };
  group(p0->attr, p1->attr, p2->attr, planes);
  if (d.shade != Shade::flat) {
    // Colour planes follow z, q (and u, v when textured).
    group(p0->attr + 4, p1->attr + 4, p2->attr + 4, planes + (d.level_count > 0 ? 12 : 6));
  }
}

namespace {

// Sets up one triangle of window-positioned vertices and appends its record to the batch; false
// when culled (no pixel centre inside the scissor, zero area, or a culled face).
bool setup_triangle(const ClipVertex* p0, const ClipVertex* p1, const ClipVertex* p2, const DrawState& d,
                    const FrameGeometry& g, Batch& batch) {
  // Pixels whose centre (16 px + 8) lies inside the bounding box, within the scissor: most
  // triangles of a dense mesh that are off-screen or fall between pixel centres stop here.
  const auto& vp = g.scissor;
  constexpr int half = kSubpixel / 2;
  const std::int32_t min_x = std::min({p0->fx, p1->fx, p2->fx});
  const std::int32_t max_x = std::max({p0->fx, p1->fx, p2->fx});
  TriangleFront f;
  f.x0 = std::max((min_x - half + kSubpixel - 1) >> kSubpixelBits, vp.x);
  f.x1 = std::min(((max_x - half) >> kSubpixelBits) + 1, vp.x + vp.width);
  if (f.x0 >= f.x1) return false;
  const std::int32_t min_y = std::min({p0->fy, p1->fy, p2->fy});
  const std::int32_t max_y = std::max({p0->fy, p1->fy, p2->fy});
  f.y0 = std::max((min_y - half + kSubpixel - 1) >> kSubpixelBits, vp.y);
  f.y1 = std::min(((max_y - half) >> kSubpixelBits) + 1, vp.y + vp.height);
  if (f.y0 >= f.y1) return false;
  f.area = static_cast<std::int64_t>(p1->fx - p0->fx) * (p2->fy - p0->fy) -
           static_cast<std::int64_t>(p2->fx - p0->fx) * (p1->fy - p0->fy);
  if (f.area == 0) return false;
  // Window y points down: counter-clockwise in NDC (front) is a negative area here.
  const bool front = f.area < 0;
  const Cull cull = d.call->material.cull;
  if ((cull == Cull::back && !front) || (cull == Cull::front && front)) return false;
  if (f.area < 0) {
    std::swap(p1, p2);
    f.area = -f.area;
  }

  // Tiny triangles (at most four pixel centres in the bounds, half of a dense mesh): test
  // those centres now; many cover none, and a record costs more than the test. The centres
  // covered go in the record (the AVX-512 kernels draw them without stepping).
  f.tiny = 0;
  if ((f.x1 - f.x0) * (f.y1 - f.y0) <= 4) {
    const std::int32_t fx[3] = {p0->fx, p1->fx, p2->fx}, fy[3] = {p0->fy, p1->fy, p2->fy};
    if (max_x - min_x <= kTinyExtent && max_y - min_y <= kTinyExtent) {
      // Edge values relative to the edge's first vertex (edges_of's, exactly): the centres lie
      // inside the triangle's extent, so every product stays far inside 32 bits.
      std::int32_t dx[3], dy[3], bias[3];
      for (int k = 0; k < 3; ++k) {
        const int n = k == 2 ? 0 : k + 1;
        dx[k] = fx[n] - fx[k];
        dy[k] = fy[n] - fy[k];
        bias[k] = dy[k] < 0 || (dy[k] == 0 && dx[k] > 0) ? 0 : 1;
      }
      for (std::int32_t py = f.y0, row = 0; py < f.y1; ++py, row += 4) {
        const std::int32_t cy = py * kSubpixel + half;
        for (std::int32_t px = f.x0, bit = row; px < f.x1; ++px, ++bit) {
          const std::int32_t cx = px * kSubpixel + half;
          std::int32_t inside = 0;
          for (int k = 0; k < 3; ++k) inside |= dx[k] * (cy - fy[k]) - dy[k] * (cx - fx[k]) - bias[k];
          f.tiny |= static_cast<std::uint32_t>(inside >= 0) << bit;
        }
      }
    } else {
      TriangleHeader h{};
      std::copy(fx, fx + 3, h.fx);
      std::copy(fy, fy + 3, h.fy);
      const TriangleEdges e = edges_of(h);
      for (std::int32_t py = f.y0, row = 0; py < f.y1; ++py, row += 4)
        for (std::int32_t px = f.x0, bit = row; px < f.x1; ++px, ++bit)
          if (e.ec[0] + static_cast<std::int64_t>(e.ea[0]) * px + static_cast<std::int64_t>(e.eb[0]) * py >= 0 &&
              e.ec[1] + static_cast<std::int64_t>(e.ea[1]) * px + static_cast<std::int64_t>(e.eb[1]) * py >= 0 &&
              e.ec[2] + static_cast<std::int64_t>(e.ea[2]) * px + static_cast<std::int64_t>(e.eb[2]) * py >= 0)
            f.tiny |= 1u << bit;
    }
    if (f.tiny == 0) return false;
  }
  append_triangle(p0, p1, p2, f, d, g, batch);
  return true;
}

std::uint32_t index_at(const MeshView& m, std::size_t i) {
  return m.indices.empty() ? static_cast<std::uint32_t>(i) : m.indices[i];
}

}  // namespace

void setup_triangle_at(const DrawState& d, const FrameGeometry& g, const ClipVertex* verts, const VertexKey* keys,
                       std::uint32_t i0, std::uint32_t i1, std::uint32_t i2, Batch& batch) {
  const std::uint16_t o0 = outcode_of(keys[i0]), o1 = outcode_of(keys[i1]), o2 = outcode_of(keys[i2]);
  const std::uint16_t any = o0 | o1 | o2;
  if (any & kInvalid) {
    ++batch.invalid;
    return;
  }
  if (o0 & o1 & o2 & kRejectPlanes) {
    ++batch.culled;
    return;
  }
  if (!(any & kClipPlanes)) {
    if (!setup_triangle(&verts[i0], &verts[i1], &verts[i2], d, g, batch)) ++batch.culled;
    return;
  }
  ++batch.clipped;
  ClipVertex poly[kMaxClipVertices] = {verts[i0], verts[i1], verts[i2]};
  const int n = clip_polygon(poly, 3, any & kClipPlanes, g);
  bool drawn = false;
  for (int i = 0; i < n; ++i) to_window(poly[i], g, d.call->material.depth_bias);
  for (int i = 1; i + 1 < n; ++i) drawn |= setup_triangle(&poly[0], &poly[i], &poly[i + 1], d, g, batch);
  if (!drawn) ++batch.culled;
}

namespace {

void setup_triangles(const DrawState& d, const FrameGeometry& g, const ClipVertex* verts, const VertexKey* keys,
                     std::size_t begin, std::size_t end, Batch& batch) {
  batch.tri_stride = static_cast<std::uint32_t>(kHeaderWords + 3 * d.planes);
#if SORTIE_RENDER_HAVE_AVX512
  if (g.avx512 && d.vertex_count <= avx512::kMaxSetupVertices) {
    avx512::setup_triangles(d, g, verts, keys, begin, end, batch);
    return;
  }
#endif
  const MeshView& m = d.call->mesh;
  for (std::size_t t = begin; t < end; ++t) {
    ++batch.submitted;
    setup_triangle_at(d, g, verts, keys, index_at(m, t * 3), index_at(m, t * 3 + 1), index_at(m, t * 3 + 2), batch);
  }
}

void setup_lines(const DrawState& d, const FrameGeometry& g, const ClipVertex* verts, const VertexKey* keys,
                 std::size_t begin, std::size_t end, Batch& batch) {
  const MeshView& m = d.call->mesh;
  const float bias = d.call->material.depth_bias;
  const auto& vp = g.viewport;
  for (std::size_t s = begin; s < end; ++s) {
    const std::uint32_t i0 = index_at(m, s * 2), i1 = index_at(m, s * 2 + 1);
    ++batch.submitted;
    const std::uint16_t o0 = outcode_of(keys[i0]), o1 = outcode_of(keys[i1]);
    if ((o0 | o1) & kInvalid) {
      ++batch.invalid;
      continue;
    }
    if (o0 & o1 & kRejectPlanes) {
      ++batch.culled;
      continue;
    }
    // Liang-Barsky in homogeneous space (double) against near, far, w and the viewport sides;
    // each clipped end is put exactly on the plane that cut it.
    const ClipVertex& a = verts[i0];
    const ClipVertex& b = verts[i1];
    const auto wide = [](float f) { return static_cast<double>(f); };
    const double ax = wide(a.x), ay = wide(a.y), az = wide(a.z), aw = wide(a.w), bx = wide(b.x), by = wide(b.y),
                 bz = wide(b.z), bw = wide(b.w);
    const double min_w = wide(kMinW);
    const double da[7] = {az + aw, aw - az, ax + aw, aw - ax, ay + aw, aw - ay, aw - min_w};
    const double db[7] = {bz + bw, bw - bz, bx + bw, bw - bx, by + bw, bw - by, bw - min_w};
    constexpr std::uint16_t kPlanes[7] = {kNear, kFar, kOutLeft, kOutRight, kOutBottom, kOutTop, kWPlane};
    double t0 = 0.0, t1 = 1.0;
    std::uint16_t p0 = 0, p1 = 0;
    bool visible = true;
    for (int k = 0; k < 7 && visible; ++k) {
      if (da[k] < 0.0 && db[k] < 0.0) {
        visible = false;
      } else if (da[k] < 0.0) {
        const double t = da[k] / (da[k] - db[k]);
        if (t > t0) t0 = t, p0 = kPlanes[k];
      } else if (db[k] < 0.0) {
        const double t = da[k] / (da[k] - db[k]);
        if (t < t1) t1 = t, p1 = kPlanes[k];
      }
    }
    if (!visible || !(t0 <= t1)) {
      ++batch.culled;
      continue;
    }
    ClipVertex e[2] = {lerp_vertex(a, b, t0), lerp_vertex(a, b, t1)};
    const std::uint16_t cut[2] = {p0, p1};
    for (int k = 0; k < 2; ++k) {
      ClipVertex& c = e[k];
      switch (cut[k]) {
        case kOutLeft:
          c.x = -c.w;
          break;
        case kOutRight:
          c.x = c.w;
          break;
        case kOutBottom:
          c.y = -c.w;
          break;
        case kOutTop:
          c.y = c.w;
          break;
        default:
          snap_to_plane(c, cut[k], 1.0f, 1.0f);
          break;
      }
    }
    float sx[2], sy[2], sz[2];
    bool finite = true;
    for (int k = 0; k < 2; ++k) {
      const float inv_w = 1.0f / e[k].w;
      sx[k] = static_cast<float>(vp.x) + (e[k].x * inv_w + 1.0f) * 0.5f * static_cast<float>(vp.width);
      sy[k] = static_cast<float>(vp.y) + (1.0f - e[k].y * inv_w) * 0.5f * static_cast<float>(vp.height);
      sz[k] = (e[k].z * inv_w + 1.0f) * 0.5f + bias;
      finite = finite && std::isfinite(sx[k]) && std::isfinite(sy[k]) && std::isfinite(sz[k]);
    }
    if (!finite) {
      ++batch.invalid;
      continue;
    }
    SetupLine l{};
    l.x_major = std::abs(sx[1] - sx[0]) >= std::abs(sy[1] - sy[0]);
    const int first = (l.x_major ? sx[0] <= sx[1] : sy[0] <= sy[1]) ? 0 : 1;
    const int second = 1 - first;
    l.x0 = sx[first];
    l.y0 = sy[first];
    l.z0 = sz[first];
    l.x1 = sx[second];
    l.y1 = sy[second];
    l.z1 = sz[second];
    const ClipVertex& c0 = e[first];
    const ClipVertex& c1 = e[second];
    const float c0v[4] = {c0.r, c0.g, c0.b, c0.a}, c1v[4] = {c1.r, c1.g, c1.b, c1.a};
    for (int k = 0; k < 4; ++k) {
      l.c0[k] = c0v[k] * 255.0f;
      l.c1[k] = c1v[k] * 255.0f;
    }
    // Major-axis pixels whose centre lies in [start, end); minor bounds from the endpoints.
    const float m0 = l.x_major ? l.x0 : l.y0, m1 = l.x_major ? l.x1 : l.y1;
    const float n0 = l.x_major ? l.y0 : l.x0, n1 = l.x_major ? l.y1 : l.x1;
    const auto i_begin = static_cast<std::int32_t>(std::ceil(m0 - 0.5f));
    const auto i_end = static_cast<std::int32_t>(std::ceil(m1 - 0.5f));
    const auto j_begin = static_cast<std::int32_t>(std::floor(std::min(n0, n1)));
    const auto j_end = static_cast<std::int32_t>(std::floor(std::max(n0, n1))) + 1;
    const auto& sc = g.scissor;
    if (l.x_major) {
      l.bx0 = std::max(i_begin, sc.x);
      l.bx1 = std::min(i_end, sc.x + sc.width);
      l.by0 = std::max(j_begin, sc.y);
      l.by1 = std::min(j_end, sc.y + sc.height);
    } else {
      l.by0 = std::max(i_begin, sc.y);
      l.by1 = std::min(i_end, sc.y + sc.height);
      l.bx0 = std::max(j_begin, sc.x);
      l.bx1 = std::min(j_end, sc.x + sc.width);
    }
    if (l.bx0 >= l.bx1 || l.by0 >= l.by1) {
      ++batch.culled;
      continue;
    }
    l.draw = d.index;
    batch.lines.push_back(l);
  }
}

void setup_points(const DrawState& d, const FrameGeometry& g, const ClipVertex* verts, const VertexKey* keys,
                  std::size_t begin, std::size_t end, Batch& batch) {
  const MeshView& m = d.call->mesh;
  const Material& mat = d.call->material;
  const float side = std::clamp(mat.point_size, 1.0f, 64.0f);
  const auto& vp = g.viewport;
  for (std::size_t s = begin; s < end; ++s) {
    const std::uint32_t i = index_at(m, s);
    ++batch.submitted;
    const std::uint16_t o = outcode_of(keys[i]);
    if (o & kInvalid) {
      ++batch.invalid;
      continue;
    }
    if (o & (kNear | kFar | kWPlane)) {
      ++batch.culled;
      continue;
    }
    ClipVertex v = verts[i];
    const float inv_w = 1.0f / v.w;
    const float sx = static_cast<float>(vp.x) + (v.x * inv_w + 1.0f) * 0.5f * static_cast<float>(vp.width);
    const float sy = static_cast<float>(vp.y) + (1.0f - v.y * inv_w) * 0.5f * static_cast<float>(vp.height);
    const float sz = (v.z * inv_w + 1.0f) * 0.5f + mat.depth_bias;
    constexpr float kLimit = 1.0e6f;
    if (!(std::abs(sx) < kLimit && std::abs(sy) < kLimit) || !std::isfinite(sz)) {
      ++batch.culled;
      continue;
    }
    SetupPoint p{};
    p.z = sz;
    const auto& sc = g.scissor;
    p.x0 = std::max(static_cast<std::int32_t>(std::ceil(sx - side * 0.5f - 0.5f)), sc.x);
    p.x1 = std::min(static_cast<std::int32_t>(std::ceil(sx + side * 0.5f - 0.5f)), sc.x + sc.width);
    p.y0 = std::max(static_cast<std::int32_t>(std::ceil(sy - side * 0.5f - 0.5f)), sc.y);
    p.y1 = std::min(static_cast<std::int32_t>(std::ceil(sy + side * 0.5f - 0.5f)), sc.y + sc.height);
    if (p.x0 >= p.x1 || p.y0 >= p.y1) {
      ++batch.culled;
      continue;
    }
    p.color = pack(to_rgba8({v.r, v.g, v.b, v.a}));
    p.draw = d.index;
    batch.points.push_back(p);
  }
}

}  // namespace

namespace {

#include "transform_kernel.inl"

// Four vertices per step in SSE2 lanes (transform_kernel.inl); lanes past the end repeat the last
// vertex.
struct VertexLanes4 {
  using F = simd::F4;
  using I = simd::I4;
  static constexpr std::size_t kLanes = 4;
  static F fs(float x) { return simd::f4(x); }
  static I is(std::int32_t x) { return simd::i4(x); }
  template <class E>
  static auto quad(const E* p, std::size_t n) {
    return std::array<const E*, 4>{p, p + std::min<std::size_t>(1, n - 1), p + std::min<std::size_t>(2, n - 1),
                                   p + n - 1};
  }
  static void load3(const core::Vec3* p, std::size_t n, F& x, F& y, F& z) {
    const auto e = quad(p, n);
    x = simd::f4(e[0]->x, e[1]->x, e[2]->x, e[3]->x);
    y = simd::f4(e[0]->y, e[1]->y, e[2]->y, e[3]->y);
    z = simd::f4(e[0]->z, e[1]->z, e[2]->z, e[3]->z);
  }
  static void load2(const core::Vec2* p, std::size_t n, F& x, F& y) {
    const auto e = quad(p, n);
    x = simd::f4(e[0]->x, e[1]->x, e[2]->x, e[3]->x);
    y = simd::f4(e[0]->y, e[1]->y, e[2]->y, e[3]->y);
  }
  static I load_colors(const Rgba8* p, std::size_t n) {
    const auto e = quad(p, n);
    return simd::u4(pack(*e[0]), pack(*e[1]), pack(*e[2]), pack(*e[3]));
  }
  // Each group of four values transposed to one vertex per register, stored whole.
  static void store(ClipVertex* out, VertexKey* keys, std::size_t n, const F (&groups)[5][4], I fx, I fy, I o) {
    F t[5][4];
    for (int k = 0; k < 5; ++k) {
      for (int c = 0; c < 4; ++c) t[k][c] = groups[k][c];
      simd::transpose4(t[k][0], t[k][1], t[k][2], t[k][3]);
    }
    alignas(16) std::uint32_t codes[4];
    alignas(16) std::int32_t wx[4], wy[4];
    simd::store(codes, o);
    simd::store(wx, fx);
    simd::store(wy, fy);
    for (std::size_t l = 0; l < n; ++l) {
      auto* f = reinterpret_cast<float*>(&out[l]);
      for (int k = 0; k < 5; ++k) simd::storeu(f + 4 * k, t[k][l]);
      keys[l] = vertex_key(wx[l], wy[l], static_cast<std::uint16_t>(codes[l]));
    }
  }
};

}  // namespace

void transform_vertices(const DrawState& d, const FrameGeometry& g, std::size_t begin, std::size_t end, ClipVertex* out,
                        VertexKey* keys) {
#if SORTIE_RENDER_HAVE_AVX512
  if (g.avx512) {
    avx512::transform_vertices(d, g, begin, end, out, keys);
    return;
  }
#endif
  transform_lanes<VertexLanes4>(d, g, begin, end, out, keys);
}

void setup_primitives(const DrawState& d, const FrameGeometry& g, const ClipVertex* verts, const VertexKey* keys,
                      std::size_t begin, std::size_t end, Batch& batch) {
  switch (d.call->mesh.primitive) {
    case Primitive::triangles:
      setup_triangles(d, g, verts, keys, begin, end, batch);
      break;
    case Primitive::lines:
      setup_lines(d, g, verts, keys, begin, end, batch);
      break;
    case Primitive::points:
      setup_points(d, g, verts, keys, begin, end, batch);
      break;
  }
}

void setup_labels(std::span<const Label> labels, const Camera& camera, const FrameGeometry& g, Batch& batch) {
  const auto& vp = g.viewport;
  for (const Label& label : labels) {
    ++batch.submitted;
    if (label.text.empty()) continue;
    const int scale = std::clamp(label.scale, 1, 8);
    const float w = static_cast<float>(text_width(label.text, scale));
    const float h = static_cast<float>(text_height(label.text, scale));
    float x = 0.0f, y = 0.0f, depth = 0.0f;
    bool depth_test = false;
    if (label.space == Label::Space::world) {
      const auto p = camera.project(label.position, vp);
      if (!p || !(p->depth >= 0.0f && p->depth <= 1.0f)) {
        ++batch.culled;
        continue;
      }
      x = p->x - 0.5f * w + label.offset.x;
      y = p->y - h - 2.0f * static_cast<float>(scale) + label.offset.y;
      depth = p->depth;
      depth_test = label.depth_test;
    } else {
      x = label.position.x + label.offset.x;
      y = label.position.y + label.offset.y;
    }
    constexpr float kLimit = 1.0e6f;
    if (!(std::abs(x) < kLimit && std::abs(y) < kLimit)) {
      ++batch.culled;
      continue;
    }
    SetupLabel l{};
    l.text = label.text;
    l.scale = scale;
    l.x = static_cast<std::int32_t>(std::floor(x + 0.5f));
    l.y = static_cast<std::int32_t>(std::floor(y + 0.5f));
    const std::int32_t extra = label.shadow ? scale : 0;
    const auto& sc = g.scissor;
    l.x0 = std::max(l.x, sc.x);
    l.y0 = std::max(l.y, sc.y);
    l.x1 = std::min(l.x + static_cast<std::int32_t>(w) + extra, sc.x + sc.width);
    l.y1 = std::min(l.y + static_cast<std::int32_t>(h) + extra, sc.y + sc.height);
    if (l.x0 >= l.x1 || l.y0 >= l.y1) {
      ++batch.culled;
      continue;
    }
    l.depth = depth;
    l.depth_test = depth_test;
    l.color = pack(label.color);
    l.has_shadow = label.shadow.has_value();
    l.shadow = label.shadow ? pack(*label.shadow) : 0;
    batch.labels.push_back(l);
  }
}

void bin_batch(const FrameGeometry& g, Batch& batch) {
  const auto& vp = g.scissor;
  const int tiles = g.tiles_x * g.tiles_y;
  auto add_rect = [&](std::int32_t x0, std::int32_t y0, std::int32_t x1, std::int32_t y1, std::uint32_t code) {
    const int tx0 = (x0 - vp.x) / kTileSize, tx1 = (x1 - 1 - vp.x) / kTileSize;
    const int ty0 = (y0 - vp.y) / kTileSize, ty1 = (y1 - 1 - vp.y) / kTileSize;
    for (int ty = ty0; ty <= ty1; ++ty)
      for (int tx = tx0; tx <= tx1; ++tx)
        batch.pairs.push_back((static_cast<std::uint64_t>(ty * g.tiles_x + tx) << 32) | code);
  };
  // Triangles were binned as they were set up (bin_triangle).
  for (std::size_t i = 0; i < batch.lines.size(); ++i) {
    const SetupLine& l = batch.lines[i];
    add_rect(l.bx0, l.by0, l.bx1, l.by1, item_code(ItemKind::line, static_cast<std::uint32_t>(i)));
  }
  for (std::size_t i = 0; i < batch.points.size(); ++i) {
    const SetupPoint& p = batch.points[i];
    add_rect(p.x0, p.y0, p.x1, p.y1, item_code(ItemKind::point, static_cast<std::uint32_t>(i)));
  }
  for (std::size_t i = 0; i < batch.labels.size(); ++i) {
    const SetupLabel& l = batch.labels[i];
    add_rect(l.x0, l.y0, l.x1, l.y1, item_code(ItemKind::label, static_cast<std::uint32_t>(i)));
  }
  // Counting sort by tile; stable, so each tile keeps submission order. Neighbouring primitives
  // mostly fall in one tile: runs of a tile are counted and placed with the tile's counter in a
  // register (one memory counter bumped per pair chains every pair on the last one's store).
  const std::uint64_t* pairs = batch.pairs.data();
  const std::size_t n = batch.pairs.size();
  auto run_end = [&](std::size_t i) {
    const std::uint64_t tile = pairs[i] >> 32;
    std::size_t j = i + 1;
    while (j < n && (pairs[j] >> 32) == tile) ++j;
    return j;
  };
  batch.offsets.assign(static_cast<std::size_t>(tiles) + 1, 0);
  for (std::size_t i = 0, j = 0; i < n; i = j) {
    j = run_end(i);
    batch.offsets[(pairs[i] >> 32) + 1] += static_cast<std::uint32_t>(j - i);
  }
  for (int i = 0; i < tiles; ++i)
    batch.offsets[static_cast<std::size_t>(i) + 1] += batch.offsets[static_cast<std::size_t>(i)];
  batch.items.resize(n);
  batch.cursor.assign(batch.offsets.begin(), batch.offsets.end() - 1);
  std::uint32_t* items = batch.items.data();
  for (std::size_t i = 0, j = 0; i < n; i = j) {
    j = run_end(i);
    std::uint32_t& cursor = batch.cursor[pairs[i] >> 32];
    std::uint32_t c = cursor;
    for (std::size_t k = i; k < j; ++k) items[c++] = static_cast<std::uint32_t>(pairs[k]);
    cursor = c;
  }
}

}  // namespace sortie::render::detail
