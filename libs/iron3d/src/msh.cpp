// MSH stream decoding, validation and re-encoding (spec §8).
#include "sortie/iron3d/msh.hpp"

#include <fmt/format.h>

#include <cmath>

#include "asset_util.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

namespace {

struct Ctx {
  const ReadOptions& options;
  core::Diagnostics* warnings;
  Diagnostic err(std::string code, std::string msg, std::string field) const {
    return Diagnostic::error(std::move(code), std::move(msg)).of(options.file_name).in(std::move(field));
  }
  void warn(std::string code, std::string msg, std::string field, std::string exp, std::string found) const {
    if (!warnings) return;
    warnings->push_back(Diagnostic::warning(std::move(code), std::move(msg))
                            .of(options.file_name)
                            .in(std::move(field))
                            .expect(std::move(exp), std::move(found)));
  }
};

std::string stream_field(std::uint32_t type) {
  return fmt::format("streams[type {}]", type);
}

// First stream of a type, or none.
const MshStream* first_of(const std::vector<MshStream>& s, std::uint32_t type) {
  for (const auto& st : s)
    if (st.type_id == type) return &st;
  return nullptr;
}

core::Status size_multiple(const Ctx& c, const MshStream& s, std::size_t stride) {
  if (s.payload.size() % stride == 0) return {};
  return core::fail(c.err("msh.stream_size", fmt::format("stream {} size is not a multiple of {}", s.type_id, stride),
                          stream_field(s.type_id))
                        .expect(fmt::format("n x {} bytes", stride), fmt::format("{} bytes", s.payload.size())));
}

core::Vec3 vec3(const std::uint8_t* p) {
  return {core::load_f32(p), core::load_f32(p + 4), core::load_f32(p + 8)};
}
void put(core::ByteWriter& w, const core::Vec3& v) {
  w.f32(v.x), w.f32(v.y), w.f32(v.z);
}

// The five required streams (types 1, 2, 3, 6, 13), each exactly once.
struct RequiredStreams {
  const MshStream* nodes;      // 1
  const MshStream* slots;      // 2
  const MshStream* positions;  // 3
  const MshStream* indices;    // 6
  const MshStream* batches;    // 13
};

core::Result<RequiredStreams> required_streams(const Ctx& c, const std::vector<MshStream>& streams) {
  const MshStream* req[5] = {};
  constexpr std::uint32_t kRequired[5] = {1, 2, 3, 6, 13};
  for (int k = 0; k < 5; ++k) {
    for (const auto& s : streams) {
      if (s.type_id != kRequired[k]) continue;
      if (req[k])
        return core::fail(c.err("msh.stream_duplicate", fmt::format("stream type {} appears twice", kRequired[k]),
                                stream_field(kRequired[k]))
                              .expect("exactly one", "2 or more"));
      req[k] = &s;
    }
    if (!req[k])
      return core::fail(c.err("msh.stream_missing", fmt::format("required stream type {} is missing", kRequired[k]),
                              stream_field(kRequired[k]))
                            .expect("exactly one", "none"));
  }
  return RequiredStreams{req[0], req[1], req[2], req[3], req[4]};
}

// The node stride (38 or 24) and the size of every required stream.
core::Status check_framing(const Ctx& c, const RequiredStreams& req, MshModel& m) {
  const MshStream& s1 = *req.nodes;
  if (s1.attr3 != 38 && s1.attr3 != 24)
    return core::fail(c.err("msh.node_stride", "node stride (type 1 attr3) must be 38 or 24", "streams[type 1].attr3")
                          .expect("38 or 24", fmt::format("{}", s1.attr3)));
  m.node_stride = s1.attr3;
  SORTIE_CHECK(size_multiple(c, s1, m.node_stride));
  m.node_count = s1.payload.size() / m.node_stride;
  const MshStream& s2 = *req.slots;
  if (s2.payload.size() < kMshBoundsHeaderSize || (s2.payload.size() - kMshBoundsHeaderSize) % 68 != 0)
    return core::fail(c.err("msh.header_size", "type 2 is not a 0x8C header plus 68-byte slots", "streams[type 2]")
                          .expect("140 + n x 68 bytes", fmt::format("{} bytes", s2.payload.size())));
  SORTIE_CHECK(size_multiple(c, *req.positions, 12));
  SORTIE_CHECK(size_multiple(c, *req.indices, 2));
  return size_multiple(c, *req.batches, 20);
}

void decode_nodes(const MshStream& s1, MshModel& m) {
  if (m.node_stride != 38) return;
  m.nodes.reserve(m.node_count);
  for (std::size_t i = 0; i < m.node_count; ++i) {
    const std::uint8_t* p = s1.payload.data() + i * 38;
    MshNode n;
    n.flags = core::load_u16(p);
    n.parent = core::load_u16(p + 2);
    n.anim_map_start = core::load_u16(p + 4);
    n.fallback_key = core::load_u16(p + 6);
    for (std::size_t k = 0; k < 15; ++k) n.slots[k] = core::load_u16(p + 8 + 2 * k);
    m.nodes.push_back(n);
  }
}

void decode_slots(const MshStream& s2, MshModel& m) {
  std::copy_n(s2.payload.begin(), kMshBoundsHeaderSize, m.bounds_header.begin());
  const std::size_t slot_count = (s2.payload.size() - kMshBoundsHeaderSize) / 68;
  m.slots.reserve(slot_count);
  for (std::size_t i = 0; i < slot_count; ++i) {
    const std::uint8_t* p = s2.payload.data() + kMshBoundsHeaderSize + i * 68;
    MshSlot s;
    s.tri_start = core::load_u16(p);
    s.tri_count = core::load_u16(p + 2);
    s.batch_start = core::load_u16(p + 4);
    s.batch_count = core::load_u16(p + 6);
    s.aabb_min = vec3(p + 8);
    s.aabb_max = vec3(p + 20);
    s.sphere_center = vec3(p + 32);
    s.sphere_radius = core::load_f32(p + 44);
    for (std::size_t k = 0; k < 5; ++k) s.tail[k] = core::load_u32(p + 48 + 4 * k);
    m.slots.push_back(s);
  }
}

void decode_batches(const MshStream& s13, MshModel& m) {
  m.batches.reserve(s13.payload.size() / 20);
  for (std::size_t i = 0; i < s13.payload.size(); i += 20) {
    const std::uint8_t* p = s13.payload.data() + i;
    MshBatch b;
    b.flags = core::load_u16(p);
    b.material_index = core::load_u16(p + 2);
    b.opaque4 = core::load_u16(p + 4);
    b.opaque6 = core::load_u16(p + 6);
    b.index_count = core::load_u16(p + 8);
    b.index_start = core::load_u32(p + 10);
    b.opaque14 = core::load_u16(p + 14);
    b.base_vertex = core::load_u32(p + 16);
    m.batches.push_back(b);
  }
}

// Every count is size / stride of a payload already in memory: bounded.
void decode_required(const RequiredStreams& req, MshModel& m) {
  decode_nodes(*req.nodes, m);
  decode_slots(*req.slots, m);
  const MshStream& s3 = *req.positions;
  m.positions.reserve(s3.payload.size() / 12);
  for (std::size_t i = 0; i < s3.payload.size(); i += 12) m.positions.push_back(vec3(s3.payload.data() + i));
  const MshStream& s6 = *req.indices;
  m.indices.reserve(s6.payload.size() / 2);
  for (std::size_t i = 0; i < s6.payload.size(); i += 2) m.indices.push_back(core::load_u16(s6.payload.data() + i));
  decode_batches(*req.batches, m);
}

// Slot batch ranges inside the batch table, batch index ranges inside the index buffer.
core::Status check_ranges(const Ctx& c, const MshModel& m) {
  for (std::size_t i = 0; i < m.slots.size(); ++i) {
    const auto& s = m.slots[i];
    if (static_cast<std::size_t>(s.batch_start) + s.batch_count > m.batches.size())
      return core::fail(
          c.err("msh.slot_batch_range", "slot batch range runs past the batch table", fmt::format("slots[{}]", i))
              .at(kMshBoundsHeaderSize + i * 68 + 4)
              .expect(fmt::format("end <= {}", m.batches.size()),
                      fmt::format("{}..{}", s.batch_start, s.batch_start + s.batch_count)));
  }
  for (std::size_t i = 0; i < m.batches.size(); ++i) {
    const auto& b = m.batches[i];
    if (static_cast<std::uint64_t>(b.index_start) + b.index_count > m.indices.size())
      return core::fail(
          c.err("msh.batch_index_range", "batch index range runs past the index buffer", fmt::format("batches[{}]", i))
              .at(i * 20 + 8)
              .expect(fmt::format("end <= {}", m.indices.size()),
                      fmt::format("{}", static_cast<std::uint64_t>(b.index_start) + b.index_count)));
  }
  return {};
}

// Types 4 (packed normals) and 5 (packed UVs).
core::Status decode_normals_and_uvs(const Ctx& c, MshModel& m) {
  if (const auto* s4 = first_of(m.streams, 4)) {
    SORTIE_CHECK(size_multiple(c, *s4, 4));
    std::vector<std::array<std::int8_t, 4>> v(s4->payload.size() / 4);
    for (std::size_t i = 0; i < v.size(); ++i)
      for (std::size_t k = 0; k < 4; ++k) v[i][k] = static_cast<std::int8_t>(s4->payload[4 * i + k]);
    m.normals = std::move(v);
  }
  if (const auto* s5 = first_of(m.streams, 5)) {
    SORTIE_CHECK(size_multiple(c, *s5, 4));
    std::vector<std::array<std::int16_t, 2>> v(s5->payload.size() / 4);
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = {core::load_i16(s5->payload.data() + 4 * i), core::load_i16(s5->payload.data() + 4 * i + 2)};
    m.uv0 = std::move(v);
  }
  return {};
}

// Type 10: one length-prefixed, NUL-terminated name per node.
core::Status decode_node_names(const Ctx& c, MshModel& m) {
  const auto* s10 = first_of(m.streams, 10);
  if (!s10) return {};
  core::ByteReader r(s10->payload, c.options.file_name);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < m.node_count; ++i) {
    const std::size_t at = r.offset();
    auto len = r.u32();
    if (!len || (*len > 0 && (*len > r.remaining() || r.remaining() - *len < 1)))
      return core::fail(
          c.err("msh.names", "node name record runs past the type 10 stream", fmt::format("node_names[{}]", i))
              .at(at)
              .expect("record inside the stream", fmt::format("{} bytes left", s10->payload.size() - at)));
    if (*len == 0) {
      names.emplace_back();
      continue;
    }
    auto text = r.bytes(*len + 1);
    names.emplace_back(core::as_chars(text->first(*len)));
  }
  m.node_names = std::move(names);  // bytes after the last record stay in the raw stream
  return {};
}

// Types 8 (animation keys) and 19 (frame map): strict as a pair, kept raw (with a warning) alone.
core::Status decode_animation(const Ctx& c, MshModel& m) {
  const auto* s8 = first_of(m.streams, 8);
  const auto* s19 = first_of(m.streams, 19);
  if (s8 && s19) {
    SORTIE_CHECK(size_multiple(c, *s8, 24));
    SORTIE_CHECK(size_multiple(c, *s19, 2));
  }
  if (s8 && s8->payload.size() % 24 == 0) {
    std::vector<MshAnimKey> keys(s8->payload.size() / 24);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::uint8_t* p = s8->payload.data() + 24 * i;
      keys[i].translation = vec3(p);
      keys[i].time = core::load_f32(p + 12);
      for (std::size_t k = 0; k < 4; ++k) keys[i].rotation[k] = core::load_i16(p + 16 + 2 * k);
      if (s19 && !std::isfinite(keys[i].time))
        return core::fail(
            c.err("msh.key_time", "animation key time is not finite", fmt::format("anim_keys[{}].time", i))
                .at(24 * i + 12)
                .expect("finite", fmt::format("{}", keys[i].time)));
    }
    m.anim_keys = std::move(keys);
  } else if (s8) {
    c.warn("msh.stream_size", "type 8 without type 19 and not a multiple of 24: kept raw", "streams[type 8]",
           "n x 24 bytes", fmt::format("{} bytes", s8->payload.size()));
  }
  if (s19 && s19->payload.size() % 2 == 0) {
    std::vector<std::uint16_t> map(s19->payload.size() / 2);
    for (std::size_t i = 0; i < map.size(); ++i) map[i] = core::load_u16(s19->payload.data() + 2 * i);
    m.frame_map = std::move(map);
    m.frame_count = s19->attr2;
  } else if (s19) {
    c.warn("msh.stream_size", "type 19 without type 8 and of odd size: kept raw", "streams[type 19]", "n x 2 bytes",
           fmt::format("{} bytes", s19->payload.size()));
  }
  return {};
}

// Type 7: triangle descriptors (kept raw, with a warning, when not a multiple of 16).
void decode_tri_descs(const Ctx& c, MshModel& m) {
  const auto* s7 = first_of(m.streams, 7);
  if (!s7) return;
  if (s7->payload.size() % 16 != 0) {
    c.warn("msh.stream_size", "type 7 is not a multiple of 16: kept raw", "streams[type 7]", "n x 16 bytes",
           fmt::format("{} bytes", s7->payload.size()));
    return;
  }
  std::vector<MshTriDesc> t(s7->payload.size() / 16);
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::uint8_t* p = s7->payload.data() + 16 * i;
    t[i].flags = core::load_u16(p);
    for (std::size_t k = 0; k < 3; ++k) t[i].links[k] = core::load_u16(p + 2 + 2 * k);
    for (std::size_t k = 0; k < 3; ++k) t[i].normal[k] = core::load_i16(p + 8 + 2 * k);
    t[i].sel_packed = core::load_u16(p + 14);
  }
  m.tri_descs = std::move(t);
}

// Slot bounds are finite and ordered; every index a batch uses addresses a position.
core::Status check_geometry(const Ctx& c, const MshModel& m) {
  for (std::size_t i = 0; i < m.slots.size(); ++i) {
    const auto& s = m.slots[i];
    const bool ok = core::is_finite(s.aabb_min) && core::is_finite(s.aabb_max) && core::is_finite(s.sphere_center) &&
                    std::isfinite(s.sphere_radius) && s.sphere_radius >= 0 && s.aabb_min.x <= s.aabb_max.x &&
                    s.aabb_min.y <= s.aabb_max.y && s.aabb_min.z <= s.aabb_max.z;
    if (!ok)
      return core::fail(
          c.err("msh.bounds", "slot bounds are not finite or min > max or radius < 0", fmt::format("slots[{}]", i))
              .at(kMshBoundsHeaderSize + i * 68 + 8)
              .expect("finite, min <= max, radius >= 0",
                      fmt::format("min ({},{},{}) max ({},{},{}) r {}", s.aabb_min.x, s.aabb_min.y, s.aabb_min.z,
                                  s.aabb_max.x, s.aabb_max.y, s.aabb_max.z, s.sphere_radius)));
  }
  for (std::size_t i = 0; i < m.batches.size(); ++i) {
    const auto& b = m.batches[i];
    for (std::size_t k = 0; k < b.index_count; ++k) {
      const std::uint64_t v = static_cast<std::uint64_t>(b.base_vertex) + m.indices[b.index_start + k];
      if (v >= m.positions.size())
        return core::fail(c.err("msh.vertex_index", "batch addresses a vertex past the position stream",
                                fmt::format("batches[{}].indices[{}]", i, k))
                              .at(2 * (b.index_start + k))
                              .expect(fmt::format("< {}", m.positions.size()), fmt::format("{}", v)));
    }
  }
  return {};
}

// Documented checks fparkan does not make: warnings only.
void warn_documented(const Ctx& c, const MshModel& m) {
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    if (n.parent != kMshNone && n.parent >= i)
      c.warn("msh.node_parent", "node parent does not precede the node", fmt::format("nodes[{}].parent", i),
             fmt::format("0xffff or < {}", i), fmt::format("{}", n.parent));
    for (std::size_t k = 0; k < 15; ++k)
      if (n.slots[k] != kMshNone && n.slots[k] >= m.slots.size())
        c.warn("msh.node_slot", "node slot index past the slot table", fmt::format("nodes[{}].slots[{}]", i, k),
               fmt::format("< {}", m.slots.size()), fmt::format("{}", n.slots[k]));
  }
  if (m.tri_descs)
    for (std::size_t i = 0; i < m.slots.size(); ++i)
      if (static_cast<std::size_t>(m.slots[i].tri_start) + m.slots[i].tri_count > m.tri_descs->size())
        c.warn("msh.slot_tri_range", "slot triangle range runs past type 7", fmt::format("slots[{}]", i),
               fmt::format("end <= {}", m.tri_descs->size()),
               fmt::format("{}", m.slots[i].tri_start + m.slots[i].tri_count));
}

}  // namespace

core::Result<MshModel> read_msh_streams(std::vector<MshStream> streams, const ReadOptions& options,
                                        core::Diagnostics* warnings) {
  const Ctx c{options, warnings};
  MshModel m;
  m.streams = std::move(streams);
  SORTIE_TRY(const RequiredStreams req, required_streams(c, m.streams));
  SORTIE_CHECK(check_framing(c, req, m));
  decode_required(req, m);
  SORTIE_CHECK(check_ranges(c, m));
  // Optional streams (first of each type).
  SORTIE_CHECK(decode_normals_and_uvs(c, m));
  SORTIE_CHECK(decode_node_names(c, m));
  SORTIE_CHECK(decode_animation(c, m));
  decode_tri_descs(c, m);
  SORTIE_CHECK(check_geometry(c, m));
  warn_documented(c, m);
  return m;
}

std::vector<MshStream> encode_msh_streams(const MshModel& m) {
  std::vector<MshStream> out = m.streams;
  auto first = [&](std::uint32_t type) -> MshStream* {
    for (auto& s : out)
      if (s.type_id == type) return &s;
    return nullptr;
  };
  if (auto* s = first(1); s && m.node_stride == 38) {
    core::ByteWriter w(m.nodes.size() * 38);
    for (const auto& n : m.nodes) {
      w.u16(n.flags), w.u16(n.parent), w.u16(n.anim_map_start), w.u16(n.fallback_key);
      for (auto v : n.slots) w.u16(v);
    }
    s->payload = w.take();
  }
  if (auto* s = first(2)) {
    core::ByteWriter w(kMshBoundsHeaderSize + m.slots.size() * 68);
    w.bytes(core::ByteView(m.bounds_header));
    for (const auto& sl : m.slots) {
      w.u16(sl.tri_start), w.u16(sl.tri_count), w.u16(sl.batch_start), w.u16(sl.batch_count);
      put(w, sl.aabb_min), put(w, sl.aabb_max), put(w, sl.sphere_center);
      w.f32(sl.sphere_radius);
      for (auto v : sl.tail) w.u32(v);
    }
    s->payload = w.take();
  }
  if (auto* s = first(3)) {
    core::ByteWriter w(m.positions.size() * 12);
    for (const auto& p : m.positions) put(w, p);
    s->payload = w.take();
  }
  if (auto* s = first(6)) {
    core::ByteWriter w(m.indices.size() * 2);
    for (auto v : m.indices) w.u16(v);
    s->payload = w.take();
  }
  if (auto* s = first(13)) {
    core::ByteWriter w(m.batches.size() * 20);
    for (const auto& b : m.batches) {
      w.u16(b.flags), w.u16(b.material_index), w.u16(b.opaque4), w.u16(b.opaque6), w.u16(b.index_count);
      w.u32(b.index_start), w.u16(b.opaque14), w.u32(b.base_vertex);
    }
    s->payload = w.take();
  }
  if (auto* s = first(4); s && m.normals) {
    core::ByteWriter w;
    for (const auto& n : *m.normals)
      for (auto v : n) w.u8(static_cast<std::uint8_t>(v));
    s->payload = w.take();
  }
  if (auto* s = first(5); s && m.uv0) {
    core::ByteWriter w;
    for (const auto& uv : *m.uv0) w.i16(uv[0]), w.i16(uv[1]);
    s->payload = w.take();
  }
  if (auto* s = first(7); s && m.tri_descs) {
    core::ByteWriter w;
    for (const auto& t : *m.tri_descs) {
      w.u16(t.flags);
      for (auto v : t.links) w.u16(v);
      for (auto v : t.normal) w.i16(v);
      w.u16(t.sel_packed);
    }
    s->payload = w.take();
  }
  if (auto* s = first(8); s && m.anim_keys) {
    core::ByteWriter w;
    for (const auto& k : *m.anim_keys) {
      put(w, k.translation);
      w.f32(k.time);
      for (auto v : k.rotation) w.i16(v);
    }
    s->payload = w.take();
  }
  if (auto* s = first(19); s && m.frame_map) {
    core::ByteWriter w;
    for (auto v : *m.frame_map) w.u16(v);
    s->payload = w.take();
    s->attr2 = m.frame_count;
  }
  return out;
}

}  // namespace sortie::iron3d
