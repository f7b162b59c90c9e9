#pragma once
// The byte layout fuzz_nav_input reads (and its seed writer writes): nav's own input types,
// built without any Iron3D reader in the way, so hostile indices, links, grids and floats reach
// TerrainWorld::build and ArealMap::build directly. Little-endian; every count is a u8 or u16,
// so a decoded input stays small, and each is capped at the items the bytes left can hold (the
// smallest encoding of one item). A truncated field reads as zero bytes.
//
//   u16 position_count, position_count x (f32 x, y, z)
//   u16 face_count,     face_count x (u32 v0, v1, v2, mask)
//   u16 areal_count,    areal_count x (f32 anchor x, y; u8 n, n x (f32 x, y);
//                                      u8 m, m x i32 link; u32 class_id; u32 logic_flag;
//                                      f32 anchor_z; f32 normal x, y, z; u8 e, e x i32 link_edge)
//   u8 has_grid; if odd: f32 min x, min y, max x, max y; u8 cells_x, cells_y;
//                        cells_x * cells_y x (u8 k, k x u16 id)
//   then (f32 x, f32 y) query points until the end
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_cursor.hpp"
#include "sortie/core/bytes.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/nav/terrain_world.hpp"

namespace sortie::fuzz {

struct NavFuzzInput {
  nav::TriangleSoup soup;
  nav::ArealInput areals;
  std::vector<core::Vec2> queries;
  bool operator==(const NavFuzzInput&) const = default;
};

// The fewest bytes one areal takes: anchor, the three counts, class, logic, anchor_z, normal.
inline constexpr std::size_t kArealMinBytes = 8 + 1 + 1 + 4 + 4 + 4 + 12 + 1;

inline NavFuzzInput decode_nav_fuzz_input(core::ByteView data) {
  FuzzCursor c(data);
  NavFuzzInput in;
  in.soup.positions.resize(c.count(2, 12));
  for (auto& p : in.soup.positions) {
    p.x = c.f32();
    p.y = c.f32();
    p.z = c.f32();
  }
  in.soup.faces.resize(c.count(2, 16));
  for (auto& f : in.soup.faces) {
    for (auto& v : f.vertices) v = c.word(4);
    f.mask = c.word(4);
  }
  in.areals.areals.resize(c.count(2, kArealMinBytes));
  for (auto& a : in.areals.areals) {
    a.anchor = c.vec2();
    a.ring.resize(c.count(1, 8));
    for (auto& v : a.ring) v = c.vec2();
    a.links.resize(c.count(1, 4));
    for (auto& l : a.links) l = static_cast<std::int32_t>(c.word(4));
    a.class_id = c.word(4);
    a.logic_flag = c.word(4);
    a.anchor_z = c.f32();
    a.normal = {c.f32(), c.f32(), c.f32()};
    a.link_edges.resize(c.count(1, 4));
    for (auto& e : a.link_edges) e = static_cast<std::int32_t>(c.word(4));
  }
  if (c.word(1) & 1u) {
    nav::CandidateGrid g;
    g.min = c.vec2();
    g.max = c.vec2();
    g.cells_x = c.word(1);
    g.cells_y = c.word(1);
    g.cells.resize(std::size_t{g.cells_x} * g.cells_y);
    for (auto& cell : g.cells) {
      cell.resize(c.count(1, 2));
      for (auto& id : cell) id = c.word(2);
    }
    in.areals.grid = std::move(g);
  }
  while (!c.at_end()) in.queries.push_back(c.vec2());
  return in;
}

// The inverse for well-formed inputs (counts must fit their fields; the writer truncates them).
inline core::Bytes encode_nav_fuzz_input(const NavFuzzInput& in) {
  core::ByteWriter w;
  w.u16(static_cast<std::uint16_t>(in.soup.positions.size()));
  for (const auto& p : in.soup.positions) {
    w.f32(p.x);
    w.f32(p.y);
    w.f32(p.z);
  }
  w.u16(static_cast<std::uint16_t>(in.soup.faces.size()));
  for (const auto& f : in.soup.faces) {
    for (auto v : f.vertices) w.u32(v);
    w.u32(f.mask);
  }
  w.u16(static_cast<std::uint16_t>(in.areals.areals.size()));
  for (const auto& a : in.areals.areals) {
    w.f32(a.anchor.x);
    w.f32(a.anchor.y);
    w.u8(static_cast<std::uint8_t>(a.ring.size()));
    for (const auto& v : a.ring) {
      w.f32(v.x);
      w.f32(v.y);
    }
    w.u8(static_cast<std::uint8_t>(a.links.size()));
    for (auto l : a.links) w.i32(l);
    w.u32(a.class_id);
    w.u32(a.logic_flag);
    w.f32(a.anchor_z);
    w.f32(a.normal.x);
    w.f32(a.normal.y);
    w.f32(a.normal.z);
    w.u8(static_cast<std::uint8_t>(a.link_edges.size()));
    for (auto e : a.link_edges) w.i32(e);
  }
  w.u8(in.areals.grid ? 1 : 0);
  if (in.areals.grid) {
    const auto& g = *in.areals.grid;
    w.f32(g.min.x);
    w.f32(g.min.y);
    w.f32(g.max.x);
    w.f32(g.max.y);
    w.u8(static_cast<std::uint8_t>(g.cells_x));
    w.u8(static_cast<std::uint8_t>(g.cells_y));
    for (const auto& cell : g.cells) {
      w.u8(static_cast<std::uint8_t>(cell.size()));
      for (auto id : cell) w.u16(static_cast<std::uint16_t>(id));
    }
  }
  for (const auto& q : in.queries) {
    w.f32(q.x);
    w.f32(q.y);
  }
  return w.take();
}

}  // namespace sortie::fuzz
