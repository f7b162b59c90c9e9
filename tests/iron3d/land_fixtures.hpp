#pragma once
// Terrain test fixtures built with our own writers (NresBuilder) and byte by byte.
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/iron3d/land_map.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d::land_test {

struct StreamSpec {
  std::uint32_t type = 0;
  std::uint32_t attr1 = 0;
  std::uint32_t attr3 = 0;
  core::Bytes payload;
};

inline core::Bytes positions3() {
  core::ByteWriter w;
  for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) w.f32(v);
  return w.take();
}

inline core::Bytes face28(std::uint16_t v0, std::uint16_t v1, std::uint16_t v2, std::uint16_t n0 = 0xFFFF,
                          std::uint16_t n1 = 0xFFFF, std::uint16_t n2 = 0xFFFF, std::string_view tail = "TAILFACE",
                          std::uint32_t mask = 0x00008080, std::uint16_t tag = 0x0102) {
  core::ByteWriter w;
  w.u32(mask);
  w.u16(tag);
  w.u16(0x0007);
  for (auto v : {v0, v1, v2}) w.u16(v);
  for (auto n : {n0, n1, n2}) w.u16(n);
  w.bytes(tail.substr(0, 8));
  return w.take();
}

// The spec §15.8 minimal mesh, streams in the corpus order [1,2,3,4,5,18,14,11,21].
inline std::vector<StreamSpec> minimal_streams(core::Bytes faces = face28(0, 1, 2)) {
  const auto face_count = static_cast<std::uint32_t>(faces.size() / 28);
  return {
      {1, 0, 38, {}},
      {2, 0, 0, core::Bytes(140, 0)},
      {3, 3, 12, positions3()},
      {4, 3, 4, core::Bytes(12, 0)},
      {5, 3, 4, core::Bytes(12, 0)},
      {18, 0, 4, {}},
      {14, 0, 4, {}},
      {11, 0, 4, {}},
      {21, face_count, 28, std::move(faces)},
  };
}

inline core::Bytes build(const std::vector<StreamSpec>& streams) {
  NresBuilder b;
  for (const auto& s : streams) b.add(s.type, "Res" + std::to_string(s.type), s.payload, s.attr1, 0, s.attr3);
  return b.build().value();
}

inline StreamSpec& stream(std::vector<StreamSpec>& streams, std::uint32_t type) {
  for (auto& s : streams)
    if (s.type == type) return s;
  throw std::logic_error("no such stream");
}

// Splices 4 non-zero bytes at offset 16 (an unindexed gap) and shifts every data_offset.
inline core::Bytes with_prefix_gap(const core::Bytes& canonical) {
  const std::uint32_t count = core::load_u32(canonical.data() + 8);
  core::Bytes out(canonical.begin(), canonical.begin() + 16);
  for (std::uint8_t b : {0xAA, 0xBB, 0xCC, 0xDD}) out.push_back(b);
  out.insert(out.end(), canonical.begin() + 16, canonical.end());
  core::store_u32(out.data() + 12, static_cast<std::uint32_t>(out.size()));
  const std::size_t dir = out.size() - std::size_t{count} * 64;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint8_t* row = out.data() + dir + i * 64;
    core::store_u32(row + 56, core::load_u32(row + 56) + 4);
  }
  return out;
}

// Land.map payload pieces.
inline void areal_prefix(core::ByteWriter& w, std::uint32_t vertex_count, std::uint32_t poly_count,
                         std::uint32_t class_id = 7, std::uint32_t reserved36 = 0) {
  for (float v : {0.f, 0.f, 0.f, 0.f, 2.f, 0.f, 1.f, 0.f}) w.f32(v);
  w.u32(0);
  w.u32(reserved36);
  w.u32(class_id);
  w.u32(0);
  w.u32(vertex_count);
  w.u32(poly_count);
}

struct Link {
  std::int32_t area, edge;
};

// One areal (spec §16.5 fixture): 2 vertices, the given links, optional polygon blocks, then a grid.
inline core::Bytes map_payload(std::vector<Link> links = {{-1, -1}, {-1, -1}}, std::uint32_t cells_x = 1,
                               std::uint32_t cells_y = 1, std::vector<std::vector<std::uint16_t>> cells = {{0}},
                               std::uint32_t poly_count = 0) {
  core::ByteWriter w;
  areal_prefix(w, 2, poly_count);
  for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f}) w.f32(v);
  for (auto l : links) {
    w.i32(l.area);
    w.i32(l.edge);
  }
  for (std::uint32_t p = 0; p < poly_count; ++p) {
    w.u32(1);
    for (std::uint32_t k = 0; k < 4; ++k) w.u32(0x11111111u * (k + 1));
  }
  w.u32(cells_x);
  w.u32(cells_y);
  for (const auto& c : cells) {
    w.u16(static_cast<std::uint16_t>(c.size()));
    for (auto id : c) w.u16(id);
  }
  return w.take();
}

inline core::Bytes map_file(const core::Bytes& payload, std::uint32_t areal_count = 1, std::uint32_t type = 12) {
  return NresBuilder().add(type, "Res12", payload, areal_count).build().value();
}

}  // namespace sortie::iron3d::land_test
