#pragma once
// The byte layout fuzz_visual_store reads (and its seed writer writes). Little-endian; a
// truncated field reads as zero bytes; every count is a u8 or u16, so a decoded input stays small.
//
//   u8 flags             bit 0: also build a whole store (resolver + build_visual_store) from the
//                        sections, twice through one cache
//   sections until the end: u8 kind, u16 length, `length` bytes (fewer when the input ends)
//
// Section kinds (kind % 8):
//   0 msh      an MSH file (NRes container)            -> read_msh -> prepare_mesh
//   1 wear     WEAR text (the store's model table and Land2.wea)
//   2 mat0     u8 version (% 8), then a MAT0 payload   -> read_mat0 -> prepare_material
//   3 texm     a Texm payload                          -> read_texm -> prepare_texture
//   4 land     a Land.msh file                         -> read_land_msh -> prepare_terrain_geometry
//   5 mesh     a raw MshModel, no reader in the way (layout of decode_raw_mesh)
//   6 terrain  a raw LandMsh (layout of decode_raw_terrain)
//   7 texture  a raw Texm: declared sizes and levels as given (layout of decode_raw_texture)
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_cursor.hpp"
#include "sortie/core/bytes.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/texm.hpp"

namespace sortie::fuzz {

enum class VisualSection : std::uint8_t { msh, wear, mat0, texm, land, mesh, terrain, texture };
inline constexpr std::uint8_t kVisualBuildStore = 1;

struct VisualFuzzInput {
  std::uint8_t flags = 0;
  std::vector<std::pair<VisualSection, core::Bytes>> sections;
};

inline VisualFuzzInput decode_visual_fuzz_input(core::ByteView data) {
  FuzzCursor c(data);
  VisualFuzzInput in;
  in.flags = static_cast<std::uint8_t>(c.word(1));
  while (!c.at_end()) {
    const auto kind = static_cast<VisualSection>(c.word(1) % 8);
    const std::uint32_t length = c.word(2);
    in.sections.emplace_back(kind, c.bytes(length));
  }
  return in;
}

inline core::Bytes encode_visual_fuzz_input(const VisualFuzzInput& in) {
  core::ByteWriter w;
  w.u8(in.flags);
  for (const auto& [kind, bytes] : in.sections) {
    w.u8(static_cast<std::uint8_t>(kind));
    w.u16(static_cast<std::uint16_t>(std::min<std::size_t>(bytes.size(), 0xFFFF)));
    w.bytes(core::ByteView(bytes).first(std::min<std::size_t>(bytes.size(), 0xFFFF)));
  }
  return w.take();
}

// ---- raw MshModel -------------------------------------------------------------------------
//   u8 streams: bit 0 normals, bit 1 UVs, bit 2 anim keys, bit 3 node names
//   u16 n positions (f32 x, y, z); [u16 n normals (i8 x 4)]; [u16 n UVs (i16 x 2)]
//   u16 n indices (u16); u8 n batches (u16 material_index, u16 index_count, u32 index_start,
//   u32 base_vertex); u8 n slots (u16 batch_start, u16 batch_count);
//   u8 n nodes (u16 parent, u16 fallback_key, 15 x u8 slot, 0xFF = none);
//   [u8 n keys (f32 x, y, z, i16 x 4)]; [u8 n names (u8 length, bytes)]

inline iron3d::MshModel decode_raw_mesh(core::ByteView data) {
  FuzzCursor c(data);
  iron3d::MshModel m;
  const std::uint32_t streams = c.word(1);
  m.positions.resize(c.word(2));
  for (auto& p : m.positions) p = c.vec3();
  if (streams & 1u) {
    m.normals.emplace(c.word(2));
    for (auto& n : *m.normals)
      for (auto& v : n) v = static_cast<std::int8_t>(c.word(1));
  }
  if (streams & 2u) {
    m.uv0.emplace(c.word(2));
    for (auto& t : *m.uv0)
      for (auto& v : t) v = static_cast<std::int16_t>(c.word(2));
  }
  m.indices.resize(c.word(2));
  for (auto& i : m.indices) i = static_cast<std::uint16_t>(c.word(2));
  m.batches.resize(c.word(1));
  for (auto& b : m.batches) {
    b.material_index = static_cast<std::uint16_t>(c.word(2));
    b.index_count = static_cast<std::uint16_t>(c.word(2));
    b.index_start = c.word(4);
    b.base_vertex = c.word(4);
  }
  m.slots.resize(c.word(1));
  for (auto& s : m.slots) {
    s.batch_start = static_cast<std::uint16_t>(c.word(2));
    s.batch_count = static_cast<std::uint16_t>(c.word(2));
  }
  m.nodes.resize(c.word(1));
  m.node_count = m.nodes.size();
  for (auto& n : m.nodes) {
    n.parent = static_cast<std::uint16_t>(c.word(2));
    n.fallback_key = static_cast<std::uint16_t>(c.word(2));
    for (auto& s : n.slots) {
      const std::uint32_t v = c.word(1);
      s = v == 0xFF ? iron3d::kMshNone : static_cast<std::uint16_t>(v);
    }
  }
  if (streams & 4u) {
    m.anim_keys.emplace(c.word(1));
    for (auto& k : *m.anim_keys) {
      k.translation = c.vec3();
      for (auto& r : k.rotation) r = static_cast<std::int16_t>(c.word(2));
    }
  }
  if (streams & 8u) {
    m.node_names.emplace(c.word(1));
    for (auto& name : *m.node_names) {
      const core::Bytes b = c.bytes(c.word(1));
      name.assign(b.begin(), b.end());
    }
  }
  return m;
}

inline core::Bytes encode_raw_mesh(const iron3d::MshModel& m) {
  core::ByteWriter w;
  w.u8(static_cast<std::uint8_t>((m.normals ? 1u : 0u) | (m.uv0 ? 2u : 0u) | (m.anim_keys ? 4u : 0u) |
                                 (m.node_names ? 8u : 0u)));
  w.u16(static_cast<std::uint16_t>(m.positions.size()));
  for (const auto& p : m.positions) {
    w.f32(p.x);
    w.f32(p.y);
    w.f32(p.z);
  }
  if (m.normals) {
    w.u16(static_cast<std::uint16_t>(m.normals->size()));
    for (const auto& n : *m.normals)
      for (const auto v : n) w.u8(static_cast<std::uint8_t>(v));
  }
  if (m.uv0) {
    w.u16(static_cast<std::uint16_t>(m.uv0->size()));
    for (const auto& t : *m.uv0)
      for (const auto v : t) w.i16(v);
  }
  w.u16(static_cast<std::uint16_t>(m.indices.size()));
  for (const auto i : m.indices) w.u16(i);
  w.u8(static_cast<std::uint8_t>(m.batches.size()));
  for (const auto& b : m.batches) {
    w.u16(b.material_index);
    w.u16(b.index_count);
    w.u32(b.index_start);
    w.u32(b.base_vertex);
  }
  w.u8(static_cast<std::uint8_t>(m.slots.size()));
  for (const auto& s : m.slots) {
    w.u16(s.batch_start);
    w.u16(s.batch_count);
  }
  w.u8(static_cast<std::uint8_t>(m.nodes.size()));
  for (const auto& n : m.nodes) {
    w.u16(n.parent);
    w.u16(n.fallback_key);
    for (const auto s : n.slots) w.u8(static_cast<std::uint8_t>(s == iron3d::kMshNone ? 0xFFu : s));
  }
  if (m.anim_keys) {
    w.u8(static_cast<std::uint8_t>(m.anim_keys->size()));
    for (const auto& k : *m.anim_keys) {
      w.f32(k.translation.x);
      w.f32(k.translation.y);
      w.f32(k.translation.z);
      for (const auto r : k.rotation) w.i16(r);
    }
  }
  if (m.node_names) {
    w.u8(static_cast<std::uint8_t>(m.node_names->size()));
    for (const auto& name : *m.node_names) {
      w.u8(static_cast<std::uint8_t>(name.size()));
      w.bytes(core::ByteView(reinterpret_cast<const std::uint8_t*>(name.data()), name.size()));
    }
  }
  return w.take();
}

// ---- raw LandMsh --------------------------------------------------------------------------
//   u16 n positions (f32 x, y, z); u16 n normals (i8 x 4); u16 n UVs (i16 x 2);
//   u16 n faces (u16 material_tag, u16 x 3 vertices)

inline iron3d::LandMsh decode_raw_terrain(core::ByteView data) {
  FuzzCursor c(data);
  iron3d::LandMsh m;
  m.positions.resize(c.word(2));
  for (auto& p : m.positions) p = c.vec3();
  m.normals.resize(c.word(2));
  for (auto& n : m.normals) {
    n.x = static_cast<std::int8_t>(c.word(1));
    n.y = static_cast<std::int8_t>(c.word(1));
    n.z = static_cast<std::int8_t>(c.word(1));
    n.w = static_cast<std::int8_t>(c.word(1));
  }
  m.uvs.resize(c.word(2));
  for (auto& t : m.uvs) {
    t.u = static_cast<std::int16_t>(c.word(2));
    t.v = static_cast<std::int16_t>(c.word(2));
  }
  m.faces.resize(c.word(2));
  for (auto& f : m.faces) {
    f.material_tag = static_cast<std::uint16_t>(c.word(2));
    for (auto& v : f.vertices) v = static_cast<std::uint16_t>(c.word(2));
  }
  return m;
}

inline core::Bytes encode_raw_terrain(const iron3d::LandMsh& m) {
  core::ByteWriter w;
  w.u16(static_cast<std::uint16_t>(m.positions.size()));
  for (const auto& p : m.positions) {
    w.f32(p.x);
    w.f32(p.y);
    w.f32(p.z);
  }
  w.u16(static_cast<std::uint16_t>(m.normals.size()));
  for (const auto& n : m.normals)
    for (const std::int8_t v : {n.x, n.y, n.z, n.w}) w.u8(static_cast<std::uint8_t>(v));
  w.u16(static_cast<std::uint16_t>(m.uvs.size()));
  for (const auto& t : m.uvs) {
    w.i16(t.u);
    w.i16(t.v);
  }
  w.u16(static_cast<std::uint16_t>(m.faces.size()));
  for (const auto& f : m.faces) {
    w.u16(f.material_tag);
    for (const auto v : f.vertices) w.u16(v);
  }
  return w.take();
}

// ---- raw Texm -----------------------------------------------------------------------------
//   u32 width, u32 height; u8 format (0..6 pick 0, 565, 556, 4444, 88, 888, 8888; any other
//   value: the next u32 is the code as stored); u32 flags5; u8 has_palette (odd: 1024 bytes);
//   u8 n levels (u16 length, bytes)

inline constexpr std::uint32_t kVisualFuzzFormats[] = {0, 565, 556, 4444, 88, 888, 8888};

inline iron3d::Texm decode_raw_texture(core::ByteView data) {
  FuzzCursor c(data);
  iron3d::Texm t;
  t.width = c.word(4);
  t.height = c.word(4);
  const std::uint32_t format = c.word(1);
  t.format = format < std::size(kVisualFuzzFormats) ? kVisualFuzzFormats[format] : c.word(4);
  t.flags5 = c.word(4);
  if (c.word(1) & 1u) t.palette = c.bytes(iron3d::kTexmPaletteSize);
  t.mips.resize(c.word(1));
  for (auto& level : t.mips) level = c.bytes(c.word(2));
  return t;
}

inline core::Bytes encode_raw_texture(const iron3d::Texm& t) {
  core::ByteWriter w;
  w.u32(t.width);
  w.u32(t.height);
  std::uint32_t format = 0xFF;
  for (std::uint32_t i = 0; i < std::size(kVisualFuzzFormats); ++i)
    if (kVisualFuzzFormats[i] == t.format) format = i;
  w.u8(static_cast<std::uint8_t>(format));
  if (format == 0xFF) w.u32(t.format);
  w.u32(t.flags5);
  w.u8(t.palette.empty() ? 0 : 1);
  w.bytes(core::ByteView(t.palette));
  w.u8(static_cast<std::uint8_t>(t.mips.size()));
  for (const auto& level : t.mips) {
    w.u16(static_cast<std::uint16_t>(level.size()));
    w.bytes(core::ByteView(level));
  }
  return w.take();
}

}  // namespace sortie::fuzz
