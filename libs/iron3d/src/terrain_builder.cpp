// Synthetic terrain builders (Land.msh from a heightfield, Land.map partitioning it).
#include "sortie/iron3d/terrain_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sortie/core/rng.hpp"

namespace sortie::iron3d {

using core::Diagnostic;
using core::fail;

namespace {

constexpr std::uint32_t kDefaultMask = 0x00000001;
constexpr std::uint16_t kDefaultTag = 0xFF01;
constexpr std::size_t kU16Limit = 0xFFFF;  // 0xFFFF itself is "none" for neighbours

std::int8_t pack_unit(double v) {
  return static_cast<std::int8_t>(std::clamp(std::lround(v * 127.0), -128L, 127L));
}

constexpr double D(float v) {
  return static_cast<double>(v);
}
struct DVec {
  double x, y, z;
};
DVec dv(const core::Vec3& v) {
  return {D(v.x), D(v.y), D(v.z)};
}

void put_f32(std::uint8_t* p, float v) {
  core::store_u32(p, std::bit_cast<std::uint32_t>(v));
}

struct Box {
  core::Vec3 lo{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
                std::numeric_limits<float>::max()};
  core::Vec3 hi{std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest(),
                std::numeric_limits<float>::lowest()};
  void add(const core::Vec3& p) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  [[nodiscard]] core::Vec3 center() const { return {(lo.x + hi.x) / 2, (lo.y + hi.y) / 2, (lo.z + hi.z) / 2}; }
  [[nodiscard]] float radius() const {
    const double dx = D(hi.x) - D(lo.x), dy = D(hi.y) - D(lo.y), dz = D(hi.z) - D(lo.z);
    return static_cast<float>(std::sqrt(dx * dx + dy * dy + dz * dz) / 2);
  }
};

// Uniform buckets of faces over the XY bounds, for height lookups while building.
class FaceBuckets {
 public:
  explicit FaceBuckets(const LandMsh& m, std::uint32_t n = 64) : m_(m), n_(n) {
    for (const auto& p : m.positions) box_.add(p);
    buckets_.resize(std::size_t{n} * n);
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
      Box b;
      for (auto v : m.faces[f].vertices) b.add(m.positions[v]);
      const auto [x0, y0] = cell(b.lo.x, b.lo.y);
      const auto [x1, y1] = cell(b.hi.x, b.hi.y);
      for (std::uint32_t y = y0; y <= y1; ++y)
        for (std::uint32_t x = x0; x <= x1; ++x)
          buckets_[std::size_t{y} * n_ + x].push_back(static_cast<std::uint32_t>(f));
    }
  }
  [[nodiscard]] std::optional<float> height(float x, float y) const {
    if (m_.positions.empty()) return std::nullopt;
    const auto [cx, cy] = cell(x, y);
    std::optional<float> best;
    for (std::uint32_t f : buckets_[std::size_t{cy} * n_ + cx]) {
      auto z = face_height(m_, m_.faces[f], x, y);
      if (z && (!best || *z > *best)) best = z;
    }
    return best;
  }
  static std::optional<float> face_height(const LandMsh& m, const TerrainFace28& f, float xf, float yf) {
    const DVec a = dv(m.positions[f.vertices[0]]);
    const DVec b = dv(m.positions[f.vertices[1]]);
    const DVec c = dv(m.positions[f.vertices[2]]);
    const double x = D(xf), y = D(yf);
    const double d = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y);
    if (std::fabs(d) <= 1e-12) return std::nullopt;
    const double w0 = ((b.y - c.y) * (x - c.x) + (c.x - b.x) * (y - c.y)) / d;
    const double w1 = ((c.y - a.y) * (x - c.x) + (a.x - c.x) * (y - c.y)) / d;
    const double w2 = 1.0 - w0 - w1;
    constexpr double kEps = 1e-4;
    if (w0 < -kEps || w1 < -kEps || w2 < -kEps || w0 > 1 + kEps || w1 > 1 + kEps || w2 > 1 + kEps) return std::nullopt;
    return static_cast<float>(w0 * a.z + w1 * b.z + w2 * c.z);
  }

 private:
  [[nodiscard]] std::pair<std::uint32_t, std::uint32_t> cell(float x, float y) const {
    auto axis = [&](float v, float lo, float hi) {
      const double span = D(hi) - D(lo);
      if (!(span > 0)) return 0u;
      const double t = (D(v) - D(lo)) / span * n_;
      return static_cast<std::uint32_t>(std::clamp(t, 0.0, static_cast<double>(n_ - 1)));
    };
    return {axis(x, box_.lo.x, box_.hi.x), axis(y, box_.lo.y, box_.hi.y)};
  }
  const LandMsh& m_;
  std::uint32_t n_;
  Box box_;
  std::vector<std::vector<std::uint32_t>> buckets_;
};

}  // namespace

core::Result<LandMsh> make_land_msh_from_heightfield(const Heightfield& hf, const LandMshBuildOptions& options) {
  const std::uint64_t cols = hf.columns, rows = hf.rows;
  if (cols < 2 || rows < 2 || hf.heights.size() != cols * rows)
    return fail(
        Diagnostic::error("land_msh.build.size", "heightfield needs at least 2 x 2 vertices and one height each")
            .in("heights")
            .expect(fmt::format("{} x {} heights (>= 2 x 2)", cols, rows), fmt::format("{}", hf.heights.size())));
  const std::uint64_t cells_x = cols - 1, cells_y = rows - 1, cells = cells_x * cells_y;
  if (cols * rows > kU16Limit)
    return fail(
        Diagnostic::error("land_msh.build.vertex_limit", "heightfield has more vertices than u16 indices address")
            .expect("<= 65535 vertices", fmt::format("{}", cols * rows)));
  if (2 * cells > kU16Limit)
    return fail(Diagnostic::error("land_msh.build.face_limit", "heightfield has more faces than u16 indices address")
                    .expect("<= 65535 faces", fmt::format("{}", 2 * cells)));
  if ((!hf.cell_masks.empty() && hf.cell_masks.size() != cells) ||
      (!hf.cell_material_tags.empty() && hf.cell_material_tags.size() != cells))
    return fail(Diagnostic::error("land_msh.build.size", "per-cell data does not have one value per cell")
                    .in("cell_masks")
                    .expect(fmt::format("{} values or none", cells),
                            fmt::format("{} masks, {} tags", hf.cell_masks.size(), hf.cell_material_tags.size())));
  const auto tiles_x = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(options.slot_tiles, 1, cells_x));
  const auto tiles_y = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(options.slot_tiles, 1, cells_y));

  LandMsh m;
  for (std::uint32_t type : kLandMshStreamOrder) {
    LandEntryHeader h;
    h.type_id = type;
    h.name = core::FixedString::make(fmt::format("Res{}", type), 36);
    m.entries.push_back(h);
  }
  // Vertices, normals, UVs.
  auto height = [&](std::int64_t x, std::int64_t y) {
    x = std::clamp<std::int64_t>(x, 0, static_cast<std::int64_t>(cols) - 1);
    y = std::clamp<std::int64_t>(y, 0, static_cast<std::int64_t>(rows) - 1);
    return D(hf.heights[static_cast<std::size_t>(y) * cols + static_cast<std::size_t>(x)]);
  };
  m.positions.reserve(cols * rows);
  for (std::uint32_t y = 0; y < rows; ++y)
    for (std::uint32_t x = 0; x < cols; ++x) {
      m.positions.push_back({hf.origin.x + static_cast<float>(x) * hf.cell_size,
                             hf.origin.y + static_cast<float>(y) * hf.cell_size,
                             hf.origin.z + hf.heights[std::size_t{y} * cols + x]});
      const double step = 2.0 * D(hf.cell_size);
      const double dx = (height(x + 1, y) - height(x - 1, y)) / step;
      const double dy = (height(x, y + 1) - height(x, y - 1)) / step;
      const double len = std::sqrt(dx * dx + dy * dy + 1.0);
      m.normals.push_back({pack_unit(-dx / len), pack_unit(-dy / len), pack_unit(1.0 / len), 0});
      m.uvs.push_back({static_cast<std::int16_t>((x % 128) * 256), static_cast<std::int16_t>((y % 128) * 256)});
    }

  // Face numbering: slot by slot, cells row-major inside a slot, two faces per cell.
  auto tile_start = [](std::uint64_t tile, std::uint64_t tiles, std::uint64_t n) { return tile * n / tiles; };
  std::vector<std::uint32_t> first_face(cells);
  {
    std::uint32_t next = 0;
    for (std::uint32_t ty = 0; ty < tiles_y; ++ty)
      for (std::uint32_t tx = 0; tx < tiles_x; ++tx)
        for (auto cy = tile_start(ty, tiles_y, cells_y); cy < tile_start(ty + 1, tiles_y, cells_y); ++cy)
          for (auto cx = tile_start(tx, tiles_x, cells_x); cx < tile_start(tx + 1, tiles_x, cells_x); ++cx) {
            first_face[cy * cells_x + cx] = next;
            next += 2;
          }
  }
  m.faces.resize(2 * cells);
  for (std::uint64_t cy = 0; cy < cells_y; ++cy)
    for (std::uint64_t cx = 0; cx < cells_x; ++cx) {
      const std::uint64_t c = cy * cells_x + cx;
      auto vid = [&](std::uint64_t x, std::uint64_t y) { return static_cast<std::uint16_t>(y * cols + x); };
      auto face_of = [&](std::int64_t x, std::int64_t y, int which) -> std::uint16_t {
        if (x < 0 || y < 0 || x >= static_cast<std::int64_t>(cells_x) || y >= static_cast<std::int64_t>(cells_y))
          return kNoNeighbour;
        return static_cast<std::uint16_t>(
            first_face[static_cast<std::size_t>(y) * cells_x + static_cast<std::size_t>(x)] +
            static_cast<std::uint32_t>(which));
      };
      const auto a = vid(cx, cy), b = vid(cx + 1, cy), cc = vid(cx + 1, cy + 1), d = vid(cx, cy + 1);
      const auto x = static_cast<std::int64_t>(cx), y = static_cast<std::int64_t>(cy);
      const std::uint32_t mask = hf.cell_masks.empty() ? kDefaultMask : hf.cell_masks[c];
      const std::uint16_t tag = hf.cell_material_tags.empty() ? kDefaultTag : hf.cell_material_tags[c];
      TerrainFace28& t0 = m.faces[first_face[c]];
      TerrainFace28& t1 = m.faces[first_face[c] + 1];
      // t0 = (a, b, c): edges a-b (below), b-c (right), c-a (diagonal).
      t0.surface_mask = mask;
      t0.material_tag = tag;
      t0.vertices = {a, b, cc};
      t0.neighbours = {face_of(x, y - 1, 1), face_of(x + 1, y, 1), face_of(x, y, 1)};
      // t1 = (a, c, d): edges a-c (diagonal), c-d (above), d-a (left).
      t1.surface_mask = mask;
      t1.material_tag = tag;
      t1.vertices = {a, cc, d};
      t1.neighbours = {face_of(x, y, 0), face_of(x, y + 1, 0), face_of(x - 1, y, 0)};
    }

  // Material pairs (one per face, keyed by face index) and slots.
  m.material_pairs.resize(m.faces.size());
  Box all;
  for (const auto& p : m.positions) all.add(p);
  std::uint32_t face = 0;
  for (std::uint32_t ty = 0; ty < tiles_y; ++ty)
    for (std::uint32_t tx = 0; tx < tiles_x; ++tx) {
      TerrainSlot68 s;
      s.pair_table_index = static_cast<std::uint16_t>(face);
      Box box;
      const std::uint32_t begin = face;
      for (auto cy = tile_start(ty, tiles_y, cells_y); cy < tile_start(ty + 1, tiles_y, cells_y); ++cy)
        for (auto cx = tile_start(tx, tiles_x, cells_x); cx < tile_start(tx + 1, tiles_x, cells_x); ++cx)
          for (int k = 0; k < 2; ++k, ++face) {
            const auto& f = m.faces[face];
            for (auto v : f.vertices) box.add(m.positions[v]);
            const bool boundary = face == begin || f.material_tag != m.faces[face - 1].material_tag;
            m.material_pairs[face] = {static_cast<std::uint16_t>(face),
                                      boundary ? kPairBatchBoundary : std::uint16_t{0}};
          }
      s.pair_count = static_cast<std::uint16_t>(face - begin);
      s.aabb_min = box.lo;
      s.aabb_max = box.hi;
      s.sphere_center = box.center();
      s.sphere_radius = box.radius();
      m.slots.push_back(s);
    }
  // Slot header: 8 hull corners, bounding sphere, vertical capsule (layout per spec §8.3).
  {
    std::uint8_t* p = m.slot_header.data();
    for (int i = 0; i < 8; ++i) {
      put_f32(p + 12 * i, (i & 1) ? all.hi.x : all.lo.x);
      put_f32(p + 12 * i + 4, (i & 2) ? all.hi.y : all.lo.y);
      put_f32(p + 12 * i + 8, (i & 4) ? all.hi.z : all.lo.z);
    }
    const core::Vec3 c = all.center();
    put_f32(p + 0x60, c.x);
    put_f32(p + 0x64, c.y);
    put_f32(p + 0x68, c.z);
    put_f32(p + 0x6C, all.radius());
    const float r = static_cast<float>(std::hypot(D(all.hi.x) - D(all.lo.x), D(all.hi.y) - D(all.lo.y)) / 2);
    const float seg[7] = {c.x, c.y, all.lo.z, c.x, c.y, all.hi.z, r};
    for (int i = 0; i < 7; ++i) put_f32(p + 0x70 + 4 * i, seg[i]);
  }
  // One root node; its slot words are all "no geometry" (the node-to-slot use in Land.msh is not recovered).
  m.nodes_raw.assign(38, 0);
  for (std::size_t w = 1; w < 19; ++w)
    if (w != 3) core::store_u16(m.nodes_raw.data() + 2 * w, 0xFFFF);
  // Directory attributes as the writer derives them (count, stride; type 2 stride 68 as in models).
  SORTIE_TRY(auto encoded, encode_land_msh_streams(m));
  for (std::size_t i = 0; i < encoded.size(); ++i) m.entries[i] = encoded[i].header;
  for (auto& e : m.entries)
    if (e.type_id == 2) e.attr3 = 68;
  return m;
}

core::Result<LandMap> make_land_map_for(const LandMsh& msh, const LandMapBuildOptions& options) {
  if (msh.positions.empty() || msh.faces.empty())
    return fail(Diagnostic::error("land_map.build.empty", "mesh has no faces to partition").in("faces"));
  Box box;
  for (const auto& p : msh.positions) box.add(p);
  std::uint32_t ax = options.areals_x, ay = options.areals_y;
  if (ax == 0 || ay == 0) {
    const auto side = static_cast<std::uint32_t>(std::max(1.0, std::round(std::sqrt(msh.faces.size() / 10.0))));
    if (ax == 0) ax = side;
    if (ay == 0) ay = side;
  }
  if (std::uint64_t{ax} * ay > kU16Limit)
    return fail(Diagnostic::error("land_map.build.areal_limit", "more areals than u16 grid ids address")
                    .expect("<= 65535 areals", fmt::format("{} x {}", ax, ay)));
  const std::uint64_t gx = options.grid_cells_x, gy = options.grid_cells_y;
  if (gx == 0 || gy == 0 || gx * gy > (std::uint64_t{1} << 22))
    return fail(Diagnostic::error("land_map.build.grid", "grid size out of range")
                    .expect("1 .. 2^22 cells", fmt::format("{} x {}", gx, gy)));
  std::vector<float> xs(ax + 1), ys(ay + 1);
  for (std::uint32_t i = 0; i <= ax; ++i)
    xs[i] = i == ax ? box.hi.x : static_cast<float>(D(box.lo.x) + (D(box.hi.x) - D(box.lo.x)) * i / ax);
  for (std::uint32_t j = 0; j <= ay; ++j)
    ys[j] = j == ay ? box.hi.y : static_cast<float>(D(box.lo.y) + (D(box.hi.y) - D(box.lo.y)) * j / ay);
  FaceBuckets buckets(msh);
  std::vector<float> zs((std::size_t{ax} + 1) * (ay + 1));
  for (std::uint32_t j = 0; j <= ay; ++j)
    for (std::uint32_t i = 0; i <= ax; ++i)
      zs[std::size_t{j} * (ax + 1) + i] = buckets.height(xs[i], ys[j]).value_or(box.lo.z);

  LandMap map;
  map.entry.type_id = kLandMapEntryType;
  map.entry.name = core::FixedString::make("Res12", 36);
  map.areals.resize(std::size_t{ax} * ay);
  auto id = [&](std::int64_t i, std::int64_t j) -> std::int32_t {
    if (i < 0 || j < 0 || i >= ax || j >= ay) return -1;
    return static_cast<std::int32_t>(j * ax + i);
  };
  for (std::uint32_t j = 0; j < ay; ++j)
    for (std::uint32_t i = 0; i < ax; ++i) {
      Areal& a = map.areals[std::size_t{j} * ax + i];
      auto corner = [&](std::uint32_t ci, std::uint32_t cj) {
        return core::Vec3{xs[ci], ys[cj], zs[std::size_t{cj} * (ax + 1) + ci]};
      };
      a.vertices = {corner(i, j), corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)};
      // Edge k runs from vertex k to k + 1: below, right, above, left; each names the opposite edge.
      const std::int64_t si = i, sj = j;
      const std::int32_t nb[4] = {id(si, sj - 1), id(si + 1, sj), id(si, sj + 1), id(si - 1, sj)};
      for (int k = 0; k < 4; ++k) a.links.push_back(nb[k] < 0 ? EdgeLink{} : EdgeLink{nb[k], (k + 2) % 4});
      // Newell normal, centroid anchor, XY area.
      double nx = 0, ny = 0, nz = 0, cx = 0, cy = 0, cz = 0, area = 0;
      for (std::size_t k = 0; k < 4; ++k) {
        const DVec p = dv(a.vertices[k]);
        const DVec q = dv(a.vertices[(k + 1) % 4]);
        nx += (p.y - q.y) * (p.z + q.z);
        ny += (p.z - q.z) * (p.x + q.x);
        nz += (p.x - q.x) * (p.y + q.y);
        area += p.x * q.y - q.x * p.y;
        cx += p.x;
        cy += p.y;
        cz += p.z;
      }
      const double len = std::sqrt(nx * nx + ny * ny + nz * nz);
      a.normal =
          len > 0 ? core::Vec3{static_cast<float>(nx / len), static_cast<float>(ny / len), static_cast<float>(nz / len)}
                  : core::Vec3{0, 0, 1};
      a.anchor = {static_cast<float>(cx / 4), static_cast<float>(cy / 4), static_cast<float>(cz / 4)};
      a.area_metric = static_cast<float>(std::fabs(area) / 2);
    }
  // Grid over the areal vertices' XY bounds; a cell lists every areal whose rectangle touches it.
  ArealGrid& g = map.grid;
  g.cells_x = static_cast<std::uint32_t>(gx);
  g.cells_y = static_cast<std::uint32_t>(gy);
  auto spans = [](const std::vector<float>& edges, std::uint64_t cells_n) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out(cells_n);  // [first, last] areal index
    const double lo = D(edges.front()), hi = D(edges.back());
    for (std::uint64_t c = 0; c < cells_n; ++c) {
      const double c0 = lo + (hi - lo) * static_cast<double>(c) / static_cast<double>(cells_n);
      const double c1 = lo + (hi - lo) * static_cast<double>(c + 1) / static_cast<double>(cells_n);
      std::uint32_t first = 0;
      while (first + 1 < edges.size() - 1 && D(edges[first + 1]) < c0) ++first;
      std::uint32_t last = first;
      while (last + 1 < edges.size() - 1 && D(edges[last + 1]) <= c1) ++last;
      out[c] = {first, last};
    }
    return out;
  };
  const auto col = spans(xs, gx), row = spans(ys, gy);
  std::vector<std::uint16_t> ids;
  for (std::uint64_t cy = 0; cy < gy; ++cy)
    for (std::uint64_t cx = 0; cx < gx; ++cx) {
      ids.clear();
      for (std::uint32_t j = row[cy].first; j <= row[cy].second; ++j)
        for (std::uint32_t i = col[cx].first; i <= col[cx].second; ++i)
          ids.push_back(static_cast<std::uint16_t>(j * ax + i));
      SORTIE_CHECK(g.push_cell(ids));
    }
  map.entry.attr1 = static_cast<std::uint32_t>(map.areals.size());
  return map;
}

Heightfield make_sample_heightfield(std::uint32_t columns, std::uint32_t rows, std::uint64_t seed, float cell_size) {
  Heightfield hf;
  hf.columns = columns;
  hf.rows = rows;
  hf.cell_size = cell_size;
  core::Rng rng(seed, 0x7e44a1);
  hf.heights.resize(std::size_t{columns} * rows);
  const double fx = 0.07 + 0.05 * rng.unit_f64(), fy = 0.05 + 0.05 * rng.unit_f64();
  for (std::uint32_t y = 0; y < rows; ++y)
    for (std::uint32_t x = 0; x < columns; ++x)
      hf.heights[std::size_t{y} * columns + x] = static_cast<float>(
          40.0 + 24.0 * std::sin(fx * x) * std::cos(fy * y) + 8.0 * std::sin(0.31 * (x + y)) + 2.0 * rng.unit_f64());
  if (columns >= 2 && rows >= 2) {
    const std::size_t cells = std::size_t{columns - 1} * (rows - 1);
    hf.cell_masks.resize(cells);
    hf.cell_material_tags.resize(cells);
    for (std::uint32_t y = 0; y + 1 < rows; ++y)
      for (std::uint32_t x = 0; x + 1 < columns; ++x) {
        const std::size_t c = std::size_t{y} * (columns - 1) + x;
        const float h = hf.heights[std::size_t{y} * columns + x];
        // Low ground is "water-ish" (class bit 0x80), the rest plain ground; tags follow the height band.
        hf.cell_masks[c] = h < 30.0f ? 0x00000081u : 0x00000001u;
        hf.cell_material_tags[c] = h < 30.0f ? 0xFF03 : (h < 50.0f ? 0xFF01 : 0x0102);
      }
  }
  return hf;
}

std::optional<float> land_msh_height_at(const LandMsh& msh, float x, float y) {
  std::optional<float> best;
  for (const auto& f : msh.faces) {
    if (f.vertices[0] >= msh.positions.size() || f.vertices[1] >= msh.positions.size() ||
        f.vertices[2] >= msh.positions.size())
      continue;
    auto z = FaceBuckets::face_height(msh, f, x, y);
    if (z && (!best || *z > *best)) best = z;
  }
  return best;
}

}  // namespace sortie::iron3d
