// Land.map payload codec: areals, links, polygon blocks and the candidate grid (spec §16).
#include "sortie/iron3d/land_map.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace sortie::iron3d {

using core::Diagnostic;
using core::fail;
using core::load_f32;
using core::load_u16;
using core::load_u32;

namespace {

void decode_vertex(const std::uint8_t* p, core::Vec3& v) {
  v = {load_f32(p), load_f32(p + 4), load_f32(p + 8)};
}
void encode_vertex(std::uint8_t* p, const core::Vec3& v) {
  core::store_u32(p, std::bit_cast<std::uint32_t>(v.x));
  core::store_u32(p + 4, std::bit_cast<std::uint32_t>(v.y));
  core::store_u32(p + 8, std::bit_cast<std::uint32_t>(v.z));
}
void decode_link(const std::uint8_t* p, EdgeLink& l) {
  l = {core::load_i32(p), core::load_i32(p + 4)};
}
void encode_link(std::uint8_t* p, const EdgeLink& l) {
  core::store_u32(p, static_cast<std::uint32_t>(l.area_ref));
  core::store_u32(p + 4, static_cast<std::uint32_t>(l.edge_ref));
}

Diagnostic diag(const ReadOptions& o, std::string code, std::string message, std::uint64_t offset, std::string field) {
  return Diagnostic::error(std::move(code), std::move(message)).of(o.file_name).at(offset).in(std::move(field));
}

// Links: (-1,-1) or (area < count, edge < target's link count). `link_offsets` (per areal, absolute
// offset of its first link) is only known when decoding.
core::Status check_links(const LandMap& m, const ReadOptions& o, const std::vector<std::uint64_t>* link_offsets) {
  const std::size_t count = m.areals.size();
  for (std::size_t a = 0; a < count; ++a) {
    const auto& links = m.areals[a].links;
    for (std::size_t k = 0; k < links.size(); ++k) {
      const EdgeLink l = links[k];
      if (l.is_none()) continue;
      if (l.area_ref >= 0 && l.edge_ref >= 0 && static_cast<std::size_t>(l.area_ref) < count &&
          static_cast<std::size_t>(l.edge_ref) < m.areals[static_cast<std::size_t>(l.area_ref)].link_count())
        continue;
      const std::uint64_t at = link_offsets ? (*link_offsets)[a] + 8 * k : 0;
      const std::string field = fmt::format("areals[{}].links[{}]", a, k);
      if (l.area_ref < 0 || l.edge_ref < 0)
        return fail(diag(o, "land_map.areal.link_pair", "edge link is neither (-1, -1) nor two non-negative references",
                         at, field)
                        .expect("(-1, -1) or (>= 0, >= 0)", fmt::format("({}, {})", l.area_ref, l.edge_ref)));
      if (static_cast<std::size_t>(l.area_ref) >= count)
        return fail(diag(o, "land_map.areal.link_target", "edge link names an areal that does not exist", at,
                         field + ".area_ref")
                        .expect(fmt::format("< {}", count), fmt::format("{}", l.area_ref)));
      const auto target = static_cast<std::size_t>(l.area_ref);
      return fail(diag(o, "land_map.areal.link_edge", "edge link names an edge past the target areal's link count",
                       at + 4, field + ".edge_ref")
                      .expect(fmt::format("< {} (links of areals[{}])", m.areals[target].link_count(), target),
                              fmt::format("{}", l.edge_ref)));
    }
  }
  return {};
}

void note_prefix(const Areal& a, std::size_t index, std::uint64_t at, const ReadOptions& o,
                 core::Diagnostics* findings) {
  if (!findings) return;
  if (std::bit_cast<std::uint32_t>(a.reserved_12) != 0 || a.reserved_36 != 0 || a.reserved_44 != 0) {
    auto d = diag(o, "land_map.areal.reserved", "reserved prefix fields are not zero (kept as stored)", at,
                  fmt::format("areals[{}]", index))
                 .expect("reserved_12, reserved_36, reserved_44 = 0",
                         fmt::format("{:#x}, {:#x}, {:#x}", std::bit_cast<std::uint32_t>(a.reserved_12), a.reserved_36,
                                     a.reserved_44));
    d.severity = core::Severity::note;
    findings->push_back(std::move(d));
  }
  const auto nx = static_cast<double>(a.normal.x), ny = static_cast<double>(a.normal.y),
             nz = static_cast<double>(a.normal.z);
  const double len = std::sqrt(nx * nx + ny * ny + nz * nz);
  if (!(std::fabs(len - 1.0) <= 1e-4)) {
    auto d = diag(o, "land_map.areal.normal_length", "areal normal is not of unit length", at + 20,
                  fmt::format("areals[{}].normal", index))
                 .expect("length 1", fmt::format("{}", len));
    d.severity = core::Severity::note;
    findings->push_back(std::move(d));
  }
}

}  // namespace

std::span<const std::uint16_t> ArealGrid::candidates(std::size_t cell) const {
  if (cell >= cells.size()) return {};
  const std::uint32_t c = cells[cell];
  const std::size_t hits = c >> 22, off = c & kGridMaxPoolOffset;
  if (off + hits > pool.size()) return {};
  return std::span<const std::uint16_t>(pool).subspan(off, hits);
}

core::Status ArealGrid::push_cell(std::span<const std::uint16_t> area_ids) {
  if (area_ids.size() > kGridMaxHits)
    return fail(Diagnostic::error("land_map.grid.hit_count", "cell has too many candidates for the packed form")
                    .in(fmt::format("grid.cells[{}]", cells.size()))
                    .expect("<= 1023", fmt::format("{}", area_ids.size())));
  if (pool.size() > kGridMaxPoolOffset)
    return fail(Diagnostic::error("land_map.grid.pool_offset", "candidate pool start is past the packed form's limit")
                    .in(fmt::format("grid.cells[{}]", cells.size()))
                    .expect("<= 0x3fffff", fmt::format("{:#x}", pool.size())));
  cells.push_back(static_cast<std::uint32_t>(area_ids.size() << 22) | static_cast<std::uint32_t>(pool.size()));
  pool.insert(pool.end(), area_ids.begin(), area_ids.end());
  return {};
}

core::Result<LandMap> decode_land_map_payload(core::ByteView payload, std::uint32_t areal_count, const ReadOptions& o,
                                              core::Diagnostics* findings, std::uint64_t payload_offset) {
  core::ByteReader r(payload, o.file_name, payload_offset);
  r.set_code_prefix("land_map");
  LandMap m;
  m.entry.type_id = kLandMapEntryType;
  m.entry.attr1 = areal_count;
  {
    auto n = r.check_count(areal_count, kArealPrefixSize, "areals");
    if (!n)
      return fail(diag(o, "land_map.areal_count", "areal count (entry attr1) does not fit in the payload",
                       payload_offset, "entry.attr1")
                      .expect(fmt::format("<= {} (56 bytes each)", payload.size() / kArealPrefixSize),
                              fmt::format("{}", areal_count)));
  }
  m.areals.resize(areal_count);
  std::vector<std::uint64_t> link_offsets(areal_count);
  // Areals: bounds are checked by hand so the hot path builds no field strings; a failure
  // names the areal (and array) it happened in.
  const std::uint8_t* base = payload.data();
  const std::size_t end = payload.size();
  std::size_t pos = 0;
  auto eof = [&](std::size_t at, std::string field, std::string_view what, std::uint64_t need) {
    return r.error_at(at, "land_map.eof", fmt::format("{} run past the end of data", what))
        .in(std::move(field))
        .expect(fmt::format("{} bytes", need), fmt::format("{} bytes left", end - at));
  };
  for (std::size_t i = 0; i < areal_count; ++i) {
    Areal& a = m.areals[i];
    const std::size_t at = pos;
    if (end - pos < kArealPrefixSize)
      return fail(eof(pos, fmt::format("areals[{}]", i), "areal prefix", kArealPrefixSize));
    const std::uint8_t* p = base + pos;
    decode_vertex(p, a.anchor);
    a.reserved_12 = load_f32(p + 12);
    a.area_metric = load_f32(p + 16);
    decode_vertex(p + 20, a.normal);
    a.logic_flag = load_u32(p + 32);
    a.reserved_36 = load_u32(p + 36);
    a.class_id = load_u32(p + 40);
    a.reserved_44 = load_u32(p + 44);
    const std::uint32_t vertex_count = load_u32(p + 48);
    const std::uint32_t poly_count = load_u32(p + 52);
    pos += kArealPrefixSize;
    note_prefix(a, i, payload_offset + at, o, findings);

    const std::uint64_t vbytes = std::uint64_t{vertex_count} * 12;
    if (vbytes > end - pos) return fail(eof(pos, fmt::format("areals[{}].vertices", i), "areal vertices", vbytes));
    detail::decode_records(payload.subspan(pos, vbytes), 12, a.vertices, decode_vertex);
    pos += vbytes;

    const std::uint64_t link_count = std::uint64_t{vertex_count} + 3 * std::uint64_t{poly_count};
    if (link_count > std::numeric_limits<std::uint32_t>::max())
      return fail(diag(o, "land_map.areal.link_count_overflow", "vertex_count + 3 * poly_count overflows u32",
                       payload_offset + at + 48, fmt::format("areals[{}].poly_count", i))
                      .expect("<= 4294967295 links", fmt::format("{} + 3 * {}", vertex_count, poly_count)));
    link_offsets[i] = payload_offset + pos;
    const std::uint64_t lbytes = link_count * 8;
    if (lbytes > end - pos) return fail(eof(pos, fmt::format("areals[{}].links", i), "areal links", lbytes));
    detail::decode_records(payload.subspan(pos, lbytes), 8, a.links, decode_link);
    pos += lbytes;

    // poly_count is bounded by the links just read (3 links of 8 bytes per polygon).
    a.polygons.resize(poly_count);
    for (std::size_t k = 0; k < poly_count; ++k) {
      if (end - pos < 4) return fail(eof(pos, fmt::format("areals[{}].polygons[{}]", i, k), "polygon block", 4));
      const std::uint32_t n = load_u32(base + pos);
      pos += 4;
      const std::uint64_t bytes = 4 * (3 * std::uint64_t{n} + 1);
      if (bytes > end - pos)
        return fail(eof(pos, fmt::format("areals[{}].polygons[{}]", i, k), "polygon block", bytes));
      a.polygons[k].n = n;
      a.polygons[k].raw.assign(base + pos, base + pos + bytes);
      pos += bytes;
    }
  }
  SORTIE_CHECK(check_links(m, o, &link_offsets));
  SORTIE_CHECK(r.seek(pos));

  // Grid.
  r.set_field("grid");
  const std::uint64_t grid_at = r.absolute_offset();
  SORTIE_TRY(auto cells_x, r.u32());
  SORTIE_TRY(auto cells_y, r.u32());
  const std::uint64_t cells = std::uint64_t{cells_x} * cells_y;
  if (cells > std::numeric_limits<std::uint32_t>::max())
    return fail(diag(o, "land_map.grid.overflow", "cells_x * cells_y overflows u32", grid_at, "grid")
                    .expect("a product below 2^32", fmt::format("{} x {}", cells_x, cells_y)));
  if (cells == 0)
    return fail(diag(o, "land_map.grid.size", "grid has no cells", grid_at, "grid")
                    .expect("cells_x * cells_y > 0", fmt::format("{} x {}", cells_x, cells_y)));
  r.set_field("grid.cells");
  SORTIE_CHECK(r.check_count(cells, 2, "grid cells"));
  m.grid.cells_x = cells_x;
  m.grid.cells_y = cells_y;
  m.grid.cells.resize(cells);
  m.grid.pool.reserve((r.remaining() - 2 * cells) / 2);
  pos = r.offset();
  for (std::size_t c = 0; c < cells; ++c) {
    if (end - pos < 2)
      return fail(r.error_at(pos, "land_map.eof", "grid cell runs past the end of data")
                      .in(fmt::format("grid.cells[{}].hit_count", c))
                      .expect("2 bytes", fmt::format("{} bytes left", end - pos)));
    const std::uint32_t hits = load_u16(base + pos);
    const std::size_t pool_at = m.grid.pool.size();
    if (hits > kGridMaxHits)
      return fail(r.error_at(pos, "land_map.grid.hit_count", "cell has too many candidates for the packed form")
                      .in(fmt::format("grid.cells[{}].hit_count", c))
                      .expect("<= 1023", fmt::format("{}", hits)));
    if (pool_at > kGridMaxPoolOffset)
      return fail(r.error_at(pos, "land_map.grid.pool_offset", "candidate pool start is past the packed form's limit")
                      .in(fmt::format("grid.cells[{}]", c))
                      .expect("<= 0x3fffff", fmt::format("{:#x}", pool_at)));
    pos += 2;
    if ((end - pos) / 2 < hits)
      return fail(r.error_at(pos, "land_map.eof", "grid cell ids run past the end of data")
                      .in(fmt::format("grid.cells[{}].ids", c))
                      .expect(fmt::format("{} bytes", 2 * hits), fmt::format("{} bytes left", end - pos)));
    unsigned bad = 0;
    for (std::uint32_t h = 0; h < hits; ++h) {
      const std::uint16_t id = load_u16(base + pos + 2 * h);
      bad |= static_cast<unsigned>(id >= areal_count);
      m.grid.pool.push_back(id);
    }
    if (bad) {
      for (std::uint32_t h = 0; h < hits; ++h) {
        const std::uint16_t id = load_u16(base + pos + 2 * h);
        if (id >= areal_count)
          return fail(
              r.error_at(pos + 2 * h, "land_map.grid.area_ref", "grid candidate names an areal that does not exist")
                  .in(fmt::format("grid.cells[{}].ids[{}]", c, h))
                  .expect(fmt::format("< {}", areal_count), fmt::format("{}", id)));
      }
    }
    m.grid.cells[c] = (hits << 22) | static_cast<std::uint32_t>(pool_at);
    pos += 2 * std::size_t{hits};
  }
  SORTIE_CHECK(r.seek(pos));
  r.set_field("grid");
  SORTIE_CHECK(r.require_end("Land.map payload"));
  return m;
}

core::Status validate_land_map(const LandMap& m, const ReadOptions& o, core::Diagnostics* /*findings*/) {
  SORTIE_CHECK(check_links(m, o, nullptr));
  const auto& g = m.grid;
  if (std::uint64_t{g.cells_x} * g.cells_y != g.cells.size() || g.cells.empty())
    return fail(Diagnostic::error("land_map.grid.size", "grid cell count does not match cells_x * cells_y")
                    .in("grid.cells")
                    .expect(fmt::format("{} x {} (> 0)", g.cells_x, g.cells_y), fmt::format("{}", g.cells.size())));
  for (std::size_t c = 0; c < g.cells.size(); ++c) {
    const std::size_t hits = g.cells[c] >> 22, off = g.cells[c] & kGridMaxPoolOffset;
    if (off + hits > g.pool.size())
      return fail(Diagnostic::error("land_map.grid.pool_range", "packed cell addresses ids past the candidate pool")
                      .in(fmt::format("grid.cells[{}]", c))
                      .expect(fmt::format("offset + hits <= {}", g.pool.size()), fmt::format("{} + {}", off, hits)));
    for (std::size_t h = 0; h < hits; ++h)
      if (g.pool[off + h] >= m.areals.size())
        return fail(Diagnostic::error("land_map.grid.area_ref", "grid candidate names an areal that does not exist")
                        .in(fmt::format("grid.cells[{}].ids[{}]", c, h))
                        .expect(fmt::format("< {}", m.areals.size()), fmt::format("{}", g.pool[off + h])));
  }
  if (m.areals.size() > std::numeric_limits<std::uint32_t>::max())
    return fail(Diagnostic::error("land_map.areal_count", "too many areals").in("areals"));
  return {};
}

core::Result<core::Bytes> encode_land_map_payload(const LandMap& m) {
  std::size_t size = 8 + 2 * m.grid.cells.size() + 2 * m.grid.pool.size();
  for (const auto& a : m.areals) size += kArealPrefixSize + 12 * a.vertices.size() + 8 * a.links.size();
  core::ByteWriter w(size);
  for (std::size_t i = 0; i < m.areals.size(); ++i) {
    const Areal& a = m.areals[i];
    if (a.links.size() != a.link_count())
      return fail(
          Diagnostic::error("land_map.write.link_count", "areal link count is not vertex_count + 3 * poly_count")
              .in(fmt::format("areals[{}].links", i))
              .expect(fmt::format("{}", a.link_count()), fmt::format("{}", a.links.size())));
    if (a.vertices.size() > std::numeric_limits<std::uint32_t>::max() ||
        a.polygons.size() > std::numeric_limits<std::uint32_t>::max())
      return fail(Diagnostic::error("land_map.write.count", "areal count field overflows u32")
                      .in(fmt::format("areals[{}]", i)));
    w.f32(a.anchor.x);
    w.f32(a.anchor.y);
    w.f32(a.anchor.z);
    w.f32(a.reserved_12);
    w.f32(a.area_metric);
    w.f32(a.normal.x);
    w.f32(a.normal.y);
    w.f32(a.normal.z);
    w.u32(a.logic_flag);
    w.u32(a.reserved_36);
    w.u32(a.class_id);
    w.u32(a.reserved_44);
    w.u32(static_cast<std::uint32_t>(a.vertices.size()));
    w.u32(static_cast<std::uint32_t>(a.polygons.size()));
    w.bytes(detail::encode_records(a.vertices, 12, encode_vertex));
    w.bytes(detail::encode_records(a.links, 8, encode_link));
    for (std::size_t k = 0; k < a.polygons.size(); ++k) {
      const auto& poly = a.polygons[k];
      if (poly.raw.size() != 4 * (3 * std::uint64_t{poly.n} + 1))
        return fail(
            Diagnostic::error("land_map.write.polygon_size", "polygon block is not 4 * (3n + 1) bytes")
                .in(fmt::format("areals[{}].polygons[{}]", i, k))
                .expect(fmt::format("{}", 4 * (3 * std::uint64_t{poly.n} + 1)), fmt::format("{}", poly.raw.size())));
      w.u32(poly.n);
      w.bytes(poly.raw);
    }
  }
  const auto& g = m.grid;
  if (std::uint64_t{g.cells_x} * g.cells_y != g.cells.size())
    return fail(Diagnostic::error("land_map.write.grid_size", "grid cell count does not match cells_x * cells_y")
                    .in("grid.cells")
                    .expect(fmt::format("{} x {}", g.cells_x, g.cells_y), fmt::format("{}", g.cells.size())));
  w.u32(g.cells_x);
  w.u32(g.cells_y);
  for (std::size_t c = 0; c < g.cells.size(); ++c) {
    const std::size_t hits = g.cells[c] >> 22, off = g.cells[c] & kGridMaxPoolOffset;
    if (off + hits > g.pool.size())
      return fail(Diagnostic::error("land_map.write.pool_range", "packed cell addresses ids past the candidate pool")
                      .in(fmt::format("grid.cells[{}]", c))
                      .expect(fmt::format("offset + hits <= {}", g.pool.size()), fmt::format("{} + {}", off, hits)));
    w.u16(static_cast<std::uint16_t>(hits));
    for (std::size_t h = 0; h < hits; ++h) w.u16(g.pool[off + h]);
  }
  return w.take();
}

core::Result<LandMap> decode_land_map_streams(std::span<const LandStream> streams, const ReadOptions& o,
                                              core::Diagnostics* findings) {
  if (streams.size() != 1)
    return fail(diag(o, "land_map.entry_count", "Land.map must hold exactly one entry", 8, "entries")
                    .expect("1 entry", fmt::format("{} entries", streams.size())));
  const LandStream& s = streams[0];
  if (s.type_id != kLandMapEntryType)
    return fail(
        diag(o, "land_map.entry_type", "the Land.map entry is not of type 12", s.payload_offset, "entries[0].type_id")
            .expect("12", fmt::format("{}", s.type_id)));
  SORTIE_TRY(auto m, decode_land_map_payload(s.payload, s.attr1, o, findings, s.payload_offset));
  m.entry = {s.type_id, s.attr1, s.attr2, s.attr3, s.name};
  return m;
}

}  // namespace sortie::iron3d
